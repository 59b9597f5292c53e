// Causal attention in two kernels, d = 64: the first writes the masked, scaled scores
// S = Q K^T / sqrt(d) (keys after the query get -inf) into a scratch buffer; the second
// gives each query row to one warp, which takes the softmax over keys 0..i and accumulates
// O = P V, each lane owning two output dimensions. Q, K, V, O are [heads][seq][64].
#include <cmath>

constexpr int kDim = 64;
constexpr int kWarps = 4;

__global__ void causal_scores_kernel(const float* __restrict__ Q, const float* __restrict__ K,
                                     float* __restrict__ scores, int seq, float scale)
{
    const int j = blockIdx.x * blockDim.x + threadIdx.x;
    const int i = blockIdx.y * blockDim.y + threadIdx.y;
    const size_t head = blockIdx.z;
    if (i >= seq || j >= seq) return;
    float s = -INFINITY;
    if (j <= i) {
        const float* q = Q + (head * seq + i) * kDim;
        const float* k = K + (head * seq + j) * kDim;
        s = 0.0f;
        for (int t = 0; t < kDim; ++t) s += q[t] * k[t];
        s *= scale;
    }
    scores[(head * seq + i) * seq + j] = s;
}

__global__ void causal_softmax_pv_kernel(const float* __restrict__ scores, const float* __restrict__ V,
                                         float* __restrict__ O, int rows, int seq)
{
    const int lane = threadIdx.x & 31;
    const int row = blockIdx.x * kWarps + (threadIdx.x >> 5);
    if (row >= rows) return;
    const int i = row % seq;
    const float* s = scores + (size_t)row * seq;
    const float* v = V + (size_t)(row - i) * kDim;
    float m = -INFINITY;
    for (int j = lane; j <= i; j += 32) m = fmaxf(m, s[j]);
    for (int offset = 16; offset > 0; offset >>= 1) m = fmaxf(m, __shfl_xor_sync(0xffffffffu, m, offset));
    float sum = 0.0f, o0 = 0.0f, o1 = 0.0f;
    for (int j = 0; j <= i; ++j) {
        const float p = expf(s[j] - m);
        sum += p;
        o0 += p * v[(size_t)j * kDim + lane];
        o1 += p * v[(size_t)j * kDim + lane + 32];
    }
    O[(size_t)row * kDim + lane] = o0 / sum;
    O[(size_t)row * kDim + lane + 32] = o1 / sum;
}

// Scratch for the score matrices, kept between calls and grown on demand.
static float* g_scores = nullptr;
static size_t g_scores_bytes = 0;

void launch_causal_attention(const float* Q, const float* K, const float* V, float* O, int heads, int seq)
{
    const size_t bytes = (size_t)heads * seq * seq * sizeof(float);
    if (bytes > g_scores_bytes) {
        if (g_scores != nullptr) CUDA_CHECK(cudaFree(g_scores));
        CUDA_CHECK(cudaMalloc(&g_scores, bytes));
        g_scores_bytes = bytes;
    }
    float* scores = g_scores;
    const float scale = 1.0f / sqrtf((float)kDim);
    const dim3 threads(32, 8);
    const dim3 blocks((seq + 31) / 32, (seq + 7) / 8, heads);
    causal_scores_kernel<<<blocks, threads>>>(Q, K, scores, seq, scale);
    const int rows = heads * seq;
    causal_softmax_pv_kernel<<<(rows + kWarps - 1) / kWarps, kWarps * 32>>>(scores, V, O, rows, seq);
}
