// Weighted histogram in double precision: sums[keys[i]] += weights[i]. Each block sums into
// a shared-memory copy of the bins, then adds it to the global sums. Double additions use
// a compare-and-swap loop, which works on shared and global memory alike.

constexpr int kThreads = 256;
constexpr int kBins = 256;

__device__ double atomic_add_double(double* address, double value)
{
    unsigned long long* word = reinterpret_cast<unsigned long long*>(address);
    unsigned long long old = *word, assumed;
    do {
        assumed = old;
        old = atomicCAS(word, assumed, (unsigned long long)__double_as_longlong(__longlong_as_double((long long)assumed) + value));
    } while (assumed != old);
    return __longlong_as_double((long long)old);
}

__global__ void weighted_histogram_kernel(const int* __restrict__ keys, const float* __restrict__ weights,
                                          double* __restrict__ sums, int n)
{
    __shared__ double local[kBins];
    for (int b = threadIdx.x; b < kBins; b += blockDim.x) local[b] = 0.0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        atomic_add_double(&local[keys[i]], (double)weights[i]);
    }
    __syncthreads();
    for (int b = threadIdx.x; b < kBins; b += blockDim.x) {
        if (local[b] != 0.0) atomic_add_double(&sums[b], local[b]);
    }
}

void launch_weighted_histogram(const int* keys, const float* weights, double* sums, int n)
{
    CUDA_CHECK(cudaMemsetAsync(sums, 0, kBins * sizeof(double)));
    weighted_histogram_kernel<<<512, kThreads>>>(keys, weights, sums, n);
}
