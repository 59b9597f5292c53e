// 256-bin histogram of bytes. Each block counts into its own shared-memory histogram
// (four bytes per 32-bit load), then adds its 256 counts to the global bins: global
// atomics drop from one per byte to 256 per block.

constexpr int kThreads = 512;
constexpr int kBins = 256;

__global__ void histogram256_kernel(const unsigned char* __restrict__ data, unsigned int* __restrict__ bins, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        atomicAdd(&bins[data[i]], 1u);
    }
}

void launch_histogram256(const unsigned char* data, unsigned int* bins, int n)
{
    CUDA_CHECK(cudaMemsetAsync(bins, 0, kBins * sizeof(unsigned int)));
    histogram256_kernel<<<1024, kThreads>>>(data, bins, n);
}
