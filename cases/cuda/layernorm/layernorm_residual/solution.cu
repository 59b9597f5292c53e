// Fused residual add + layer normalisation: h = x + residual is written out (the next
// residual stream) and normalised, y = (h - mean(h)) / sqrt(var(h) + eps) * gamma + beta.
// One block per row; each thread keeps its share of h in registers between the passes.

constexpr int kThreads = 256;
constexpr int kWarps = kThreads / 32;
constexpr int kMaxPerThread = 8;  // supports cols <= kThreads * kMaxPerThread

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
    const float out = result;
    __syncthreads();
    return out;
}

__global__ void add_layernorm_kernel(const float* __restrict__ x, const float* __restrict__ residual,
                                     const float* __restrict__ gamma, const float* __restrict__ beta,
                                     float* __restrict__ h_out, float* __restrict__ y, int cols, float eps)
{
    const size_t base = (size_t)blockIdx.x * cols;
    float h[kMaxPerThread];
    float s = 0.0f;
    for (int i = 0; i < kMaxPerThread; ++i) {
        const int c = threadIdx.x + i * kThreads;
        h[i] = c < cols ? x[base + c] + residual[base + c] : 0.0f;
        if (c < cols) h_out[base + c] = h[i];
        s += h[i];
    }
    const float mean = block_sum(s) / cols;
    float sq = 0.0f;
    for (int i = 0; i < kMaxPerThread; ++i) {
        const int c = threadIdx.x + i * kThreads;
        if (c < cols) sq += (h[i] - mean) * (h[i] - mean);
    }
    const float inv_std = rsqrtf(block_sum(sq) / cols + eps);
    for (int i = 0; i < kMaxPerThread; ++i) {
        const int c = threadIdx.x + i * kThreads;
        if (c < cols) y[base + c] = (h[i] - mean) * inv_std * gamma[c] + beta[c];
    }
}

void launch_add_layernorm(const float* x, const float* residual, const float* gamma, const float* beta, float* h_out,
                          float* y, int rows, int cols, float eps)
{
    add_layernorm_kernel<<<rows, kThreads>>>(x, residual, gamma, beta, h_out, y, cols, eps);
}
