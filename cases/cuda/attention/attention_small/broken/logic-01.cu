// Scaled dot-product attention for small heads, O = softmax(Q K^T / sqrt(d)) V per head,
// d = 64. One warp per query row: lanes score a strided share of the keys, the warp reduces
// the softmax max and sum with shuffles, and each lane accumulates two output dimensions.
// Q, K, V, O are [heads][seq][64] row-major; seq <= 512.
#include <cmath>

constexpr int kDim = 64;
constexpr int kWarps = 4;
constexpr int kMaxSeq = 512;

__device__ __forceinline__ float warp_max(float v)
{
    for (int offset = 16; offset > 0; offset >>= 1) v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, offset));
    return v;
}

__device__ __forceinline__ float warp_sum(float v)
{
    for (int offset = 16; offset > 0; offset >>= 1) v += __shfl_xor_sync(0xffffffffu, v, offset);
    return v;
}

__global__ void attention_kernel(const float* __restrict__ Q, const float* __restrict__ K, const float* __restrict__ V,
                                 float* __restrict__ O, int rows, int seq, float scale)
{
    __shared__ float q_s[kWarps][kDim];
    __shared__ float p_s[kWarps][kMaxSeq];
    const int lane = threadIdx.x & 31;
    const int w = threadIdx.x >> 5;
    const int row = blockIdx.x * kWarps + w;
    if (row >= rows) return;
    const size_t head = row / seq;
    const float* k = K + head * seq * kDim;
    const float* v = V + head * seq * kDim;
    q_s[w][lane] = Q[(size_t)row * kDim + lane];
    q_s[w][lane + 32] = Q[(size_t)row * kDim + lane + 32];
    __syncwarp();

    float m = -INFINITY;
    for (int j = lane; j < seq; j += 32) {
        const float* kj = k + (size_t)j * kDim;
        float s = 0.0f;
        for (int t = 0; t < kDim; ++t) s += q_s[w][t] * kj[t];
        s *= scale;
        p_s[w][j] = s;
        m = fmaxf(m, s);
    }
    m = warp_max(m);
    float sum = 0.0f;
    for (int j = lane; j < seq; j += 32) {
        const float e = expf(p_s[w][j] - m);
        p_s[w][j] = e;
        sum += e;
    }
    sum = warp_sum(sum);
    __syncwarp();

    float o0 = 0.0f, o1 = 0.0f;
    for (int j = 0; j < seq; ++j) {
        const float p = p_s[w][j];
        o0 += p * v[(size_t)j * kDim + lane];
        o1 += p * v[(size_t)j * kDim + lane + 32];
    }
    const float inv = 1.0f / sum;
    O[(size_t)row * kDim + lane] = o0 * inv;
    O[(size_t)row * kDim + lane + 32] = o1 * inv;
}

void launch_attention(const float* Q, const float* K, const float* V, float* O, int heads, int seq)
{
    const float scale = 1.0f;
    const int rows = heads * seq;
    attention_kernel<<<(rows + kWarps - 1) / kWarps, kWarps * 32>>>(Q, K, V, O, rows, seq, scale);
}
