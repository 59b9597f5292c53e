// Row-wise softmax of a row-major rows x cols matrix, one block per row:
// y = exp(x - max(x)) / sum(exp(x - max(x))). Block reductions use warp shuffles, then a
// shared-memory combine of the per-warp results.
#include <cmath>

constexpr int kThreads = 256;
constexpr int kWarps = kThreads / 32;

__device__ float block_max(float v)
{
    __shared__ float partial[kWarps];
    __shared__ float result;
    for (int offset = 16; offset > 0; offset >>= 1) v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, offset));
    if ((threadIdx.x & 31) == 0) partial[threadIdx.x >> 5] = v;
    __syncthreads();
    if (threadIdx.x == 0) {
        float m = partial[0];
        for (int w = 1; w < kWarps; ++w) m = fmaxf(m, partial[w]);
        result = m;
    }
    __syncthreads();
    return result;
}

__device__ float block_sum(float v)
{
    __shared__ float partial[kWarps];
    __shared__ float result;
    for (int offset = 16; offset > 0; offset >>= 1) v += __shfl_xor_sync(0xffffffffu, v, offset);
    if ((threadIdx.x & 31) == 0) partial[threadIdx.x >> 5] = v;
    __syncthreads();
    if (threadIdx.x == 0) {
        float s = 0.0f;
        for (int w = 0; w < kWarps; ++w) s += partial[w];
        result = s;
    }
    __syncthreads();
    return result;
}

__global__ void softmax_kernel(const float* __restrict__ in, float* __restrict__ out, int rows, int cols)
{
    // One thread handles one whole row.
    const int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= rows) return;
    const float* x = in + (size_t)row * cols;
    float* y = out + (size_t)row * cols;
    float m = -INFINITY;
    for (int c = 0; c < cols; ++c) m = fmaxf(m, x[c]);
    float s = 0.0f;
    for (int c = 0; c < cols; ++c) s += expf(x[c] - m);
    const float inv = 1.0f / s;
    for (int c = 0; c < cols; ++c) y[c] = expf(x[c] - m) * inv;
}

void launch_softmax(const float* in, float* out, int rows, int cols)
{
    softmax_kernel<<<(rows + kThreads - 1) / kThreads, kThreads>>>(in, out, rows, cols);
}
