// Causal (lower-triangular) softmax over attention scores: `heads` square seq x seq
// matrices; in row r only columns c <= r take part, the others get 0. One block per row,
// shared-memory tree reductions.
#include <cmath>

constexpr int kThreads = 256;

__device__ float block_reduce(float v, float* red, bool take_max)
{
    red[threadIdx.x] = v;
    __syncthreads();
    for (unsigned s = blockDim.x / 2; s > 0; s >>= 1) {
        if (threadIdx.x < s) {
            const float other = red[threadIdx.x + s];
            red[threadIdx.x] = take_max ? fmaxf(red[threadIdx.x], other) : red[threadIdx.x] + other;
        }
        __syncthreads();
    }
    const float result = red[0];
    __syncthreads();
    return result;
}

__global__ void masked_softmax_kernel(const float* __restrict__ scores, float* __restrict__ out, int seq)
{
    __shared__ float red[kThreads];
    const int row = blockIdx.x % seq;
    const float* x = scores + (size_t)blockIdx.x * seq;
    float* y = out + (size_t)blockIdx.x * seq;
    float m = -INFINITY;
    for (int c = threadIdx.x; c <= row; c += blockDim.x) m = fmaxf(m, x[c]);
    m = block_reduce(m, red, true);
    float s = 0.0f;
    for (int c = threadIdx.x; c <= row; c += blockDim.x) s += expf(x[c] - m);
    s = block_reduce(s, red, false);
    const float inv = 1.0f / s;
    for (int c = threadIdx.x; c < seq; c += blockDim.x) y[c] = c <= row ? expf(x[c] - m) * inv : 0.0f;
}

void launch_masked_softmax(const float* scores, float* out, int heads, int seq)
{
    masked_softmax_kernel<<<heads * seq, kThreads>>>(scores, out, seq);
}
