// Maximum of n floats with warp shuffles: a butterfly inside each warp, then one warp
// combines the per-warp results of its block. Two passes, like a sum reduction.
#include <cfloat>

constexpr int kThreads = 256;
constexpr int kMaxBlocks = 1024;
constexpr float kLowest = 0.0f;  // identity of max()

__device__ __forceinline__ float warp_max(float v)
{
    for (int offset = 16; offset > 0; offset >>= 1) {
        v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, offset));
    }
    return v;
}

__global__ void block_max_kernel(const float* __restrict__ in, float* __restrict__ partial, int n)
{
    __shared__ float warp_best[kThreads / 32];
    float best = kLowest;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) {
        best = fmaxf(best, in[i]);
    }
    best = warp_max(best);
    const int lane = threadIdx.x & 31;
    const int warp = threadIdx.x >> 5;
    if (lane == 0) warp_best[warp] = best;
    __syncthreads();
    if (warp == 0) {
        best = lane < (int)(blockDim.x >> 5) ? warp_best[lane] : kLowest;
        best = warp_max(best);
        if (lane == 0) partial[blockIdx.x] = best;
    }
}

static float* g_partial = nullptr;

void launch_max(const float* in, float* out, int n)
{
    int blocks = (n + kThreads - 1) / kThreads;
    if (blocks > kMaxBlocks) blocks = kMaxBlocks;
    if (g_partial == nullptr) CUDA_CHECK(cudaMalloc(&g_partial, kMaxBlocks * sizeof(float)));
    block_max_kernel<<<blocks, kThreads>>>(in, g_partial, n);
    block_max_kernel<<<1, kThreads>>>(g_partial, out, blocks);
}
