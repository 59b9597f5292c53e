// Attention without a score matrix (flash-style), d = 64: each thread owns one query row,
// keeping q and the output accumulator in registers; the block walks the keys in tiles of
// 64 staged in shared memory and updates an online softmax (running max, rescaled sum).
// Q, K, V, O are [heads][seq][64] row-major; seq is a multiple of 64.
#include <cmath>

constexpr int kDim = 64;
constexpr int kQueries = 64;  // query rows per block
constexpr int kKeys = 64;     // keys per shared-memory tile

__global__ void flash_attention_kernel(const float* __restrict__ Q, const float* __restrict__ K,
                                       const float* __restrict__ V, float* __restrict__ O, int seq, float scale,
                                       int head_dim)
{
    __shared__ float k_s[kKeys][kDim];
    __shared__ float v_s[kKeys][kDim];
    const int row = blockIdx.x * blockDim.x + threadIdx.x;  // global query row
    const size_t head = (size_t)row / seq;
    const float* k = K + head * seq * kDim;
    const float* v = V + head * seq * kDim;

    float q[head_dim], o[head_dim];
    for (int t = 0; t < kDim; ++t) {
        q[t] = Q[(size_t)row * kDim + t] * scale;
        o[t] = 0.0f;
    }
    float m = -INFINITY, sum = 0.0f;
    for (int j0 = 0; j0 < seq; j0 += kKeys) {
        for (int l = threadIdx.x; l < kKeys * kDim; l += blockDim.x) {
            k_s[l / kDim][l % kDim] = k[(size_t)j0 * kDim + l];
            v_s[l / kDim][l % kDim] = v[(size_t)j0 * kDim + l];
        }
        __syncthreads();
        for (int j = 0; j < kKeys; ++j) {
            float s = 0.0f;
            for (int t = 0; t < kDim; ++t) s += q[t] * k_s[j][t];
            const float top = fmaxf(m, s);
            const float rescale = expf(m - top);
            const float p = expf(s - top);
            sum = sum * rescale + p;
            for (int t = 0; t < kDim; ++t) o[t] = o[t] * rescale + p * v_s[j][t];
            m = top;
        }
        __syncthreads();
    }
    const float inv = 1.0f / sum;
    for (int t = 0; t < kDim; ++t) O[(size_t)row * kDim + t] = o[t] * inv;
}

void launch_flash_attention(const float* Q, const float* K, const float* V, float* O, int heads, int seq)
{
    const float scale = 1.0f / sqrtf((float)kDim);
    const int rows = heads * seq;
    flash_attention_kernel<<<rows / kQueries, kQueries>>>(Q, K, V, O, seq, scale, kDim);
}
