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
    __shared__ float warp_sums[kThreads / 32];
    float acc = 0.0f;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        acc += x[i] * y[i];
    }
    acc = warp_sum(acc);
    const int lane = threadIdx.x & 31;
    const int warp = threadIdx.x >> 5;
    if (lane == 0) warp_sums[warp] = acc;
    __syncthreads();
    if (warp == 0) {
        acc = lane < (int)(blockDim.x >> 5) ? warp_sums[lane] : 0.0f;
        acc = warp_sum(acc);
        if (lane == 0) atomicAdd(out, acc);
    }
}

void launch_dot(const float* x, const float* y, float* out, int n)
{
    int blocks = (n + kThreads - 1) / kThreads;
    if (blocks > 1024) blocks = 1024;
    CUDA_CHECK(cudaMemsetAsync(out, 0, sizeof(float)));
    dot_kernel<<<blocks, kThreads>>>(x, y, out, n);
}
