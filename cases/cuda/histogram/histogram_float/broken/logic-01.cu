// Histogram of floats into `bins` equal-width bins over [lo, hi]: bin = floor((x - lo) *
// bins / (hi - lo)), with x == hi counted in the last bin and values outside [lo, hi]
// ignored. Per-block shared-memory counts, merged with one global atomic per bin.

constexpr int kThreads = 256;
constexpr int kMaxBins = 1024;

__global__ void histogram_float_kernel(const float* __restrict__ x, unsigned int* __restrict__ counts, int n,
                                       int bins, float lo, float hi)
{
    __shared__ unsigned int local[kMaxBins];
    for (int b = threadIdx.x; b < bins; b += blockDim.x) local[b] = 0;
    __syncthreads();
    const float scale = (bins - 1) / (hi - lo);
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        const float v = x[i];
        if (!(v >= lo && v <= hi)) continue;
        int b = (int)((v - lo) * scale);
        if (b > bins - 1) b = bins - 1;
        atomicAdd(&local[b], 1u);
    }
    __syncthreads();
    for (int b = threadIdx.x; b < bins; b += blockDim.x) {
        if (local[b] != 0) atomicAdd(&counts[b], local[b]);
    }
}

void launch_histogram_float(const float* x, unsigned int* counts, int n, int bins, float lo, float hi)
{
    CUDA_CHECK(cudaMemsetAsync(counts, 0, bins * sizeof(unsigned int)));
    histogram_float_kernel<<<1024, kThreads>>>(x, counts, n, bins, lo, hi);
}
