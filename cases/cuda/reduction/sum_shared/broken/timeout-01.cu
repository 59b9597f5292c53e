// Sum of n floats in two passes: each block reduces its grid-stride share in shared memory
// and writes one partial sum; a single block then reduces the partials into *out.

constexpr int kThreads = 256;
constexpr int kMaxBlocks = 1024;

__global__ void block_sum_kernel(const float* __restrict__ in, float* __restrict__ partial, int n)
{
    __shared__ float buf[kThreads];
    const int tid = threadIdx.x;
    float acc = 0.0f;
    for (int i = blockIdx.x * blockDim.x + tid; i < n; i += blockDim.x * gridDim.x) {
        acc += in[i];
    }
    buf[tid] = acc;
    __syncthreads();
    for (int s = blockDim.x / 2; s > 0; s >> 1) {
        if (tid < s) buf[tid] += buf[tid + s];
        __syncthreads();
    }
    if (tid == 0) partial[blockIdx.x] = buf[0];
}

// Scratch for the per-block partial sums, grown on demand and kept across calls.
static float* g_partial = nullptr;
static int g_capacity = 0;

void launch_sum(const float* in, float* out, int n)
{
    int blocks = (n + kThreads - 1) / kThreads;
    if (blocks > kMaxBlocks) blocks = kMaxBlocks;
    if (blocks > g_capacity) {
        if (g_partial != nullptr) CUDA_CHECK(cudaFree(g_partial));
        CUDA_CHECK(cudaMalloc(&g_partial, blocks * sizeof(float)));
        g_capacity = blocks;
    }
    block_sum_kernel<<<blocks, kThreads>>>(in, g_partial, n);
    block_sum_kernel<<<1, kThreads>>>(g_partial, out, blocks);
}
