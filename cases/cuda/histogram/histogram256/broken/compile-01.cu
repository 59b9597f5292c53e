// 256-bin histogram of bytes. Each block counts into its own shared-memory histogram
// (four bytes per 32-bit load), then adds its 256 counts to the global bins: global
// atomics drop from one per byte to 256 per block.

constexpr int kThreads = 512;
constexpr int kBins = 256;

__global__ void histogram256_kernel(const unsigned char* __restrict__ data, unsigned int* __restrict__ bins, int n)
{
    __shared__ unsigned short local[kBins];  // 16-bit counters: half the shared memory
    for (int b = threadIdx.x; b < kBins; b += blockDim.x) local[b] = 0;
    __syncthreads();
    const int n4 = n / 4;
    const unsigned int* words = reinterpret_cast<const unsigned int*>(data);
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n4; i += blockDim.x * gridDim.x) {
        const unsigned int w = words[i];
        atomicAdd(&local[w & 0xFFu], 1u);
        atomicAdd(&local[(w >> 8) & 0xFFu], 1u);
        atomicAdd(&local[(w >> 16) & 0xFFu], 1u);
        atomicAdd(&local[w >> 24], 1u);
    }
    for (int i = 4 * n4 + blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        atomicAdd(&local[data[i]], 1u);
    }
    __syncthreads();
    for (int b = threadIdx.x; b < kBins; b += blockDim.x) {
        if (local[b] != 0) atomicAdd(&bins[b], local[b]);
    }
}

void launch_histogram256(const unsigned char* data, unsigned int* bins, int n)
{
    CUDA_CHECK(cudaMemsetAsync(bins, 0, kBins * sizeof(unsigned int)));
    histogram256_kernel<<<1024, kThreads>>>(data, bins, n);
}
