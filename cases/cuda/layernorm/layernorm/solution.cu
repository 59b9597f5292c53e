// Layer normalisation over the rows of a row-major rows x cols matrix, one block per row:
// y = (x - mean) / sqrt(var + eps) * gamma + beta, with the biased (population) variance
// computed in a second pass over the row.

constexpr int kThreads = 256;
constexpr int kWarps = kThreads / 32;

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

__global__ void layernorm_kernel(const float* __restrict__ in, const float* __restrict__ gamma,
                                 const float* __restrict__ beta, float* __restrict__ out, int cols, float eps)
{
    const float* x = in + (size_t)blockIdx.x * cols;
    float* y = out + (size_t)blockIdx.x * cols;
    float s = 0.0f;
    for (int c = threadIdx.x; c < cols; c += blockDim.x) s += x[c];
    const float mean = block_sum(s) / cols;
    float sq = 0.0f;
    for (int c = threadIdx.x; c < cols; c += blockDim.x) {
        const float d = x[c] - mean;
        sq += d * d;
    }
    const float var = block_sum(sq) / cols;
    const float inv_std = rsqrtf(var + eps);
    for (int c = threadIdx.x; c < cols; c += blockDim.x) y[c] = (x[c] - mean) * inv_std * gamma[c] + beta[c];
}

void launch_layernorm(const float* in, const float* gamma, const float* beta, float* out, int rows, int cols,
                      float eps)
{
    layernorm_kernel<<<rows, kThreads>>>(in, gamma, beta, out, cols, eps);
}
