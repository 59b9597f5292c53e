// RMS normalisation of each row of a row-major rows x cols matrix:
// y = x / sqrt(mean(x^2) + eps) * weight, one block per row; each thread strides the row in
// float4 vectors (cols is a multiple of 4).

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
    return result;
}

__global__ void rmsnorm_kernel(const float* __restrict__ in, const float* __restrict__ weight, float* __restrict__ out,
                               int cols, float eps)
{
    const float4* x = in + (size_t)blockIdx.x * cols;
    const float4* w = weight;
    float4* y = out + (size_t)blockIdx.x * cols;
    const int n4 = cols / 4;
    float sq = 0.0f;
    for (int c = threadIdx.x; c < n4; c += blockDim.x) {
        const float4 v = x[c];
        sq += v.x * v.x + v.y * v.y + v.z * v.z + v.w * v.w;
    }
    const float scale = rsqrtf(block_sum(sq) / cols + eps);
    for (int c = threadIdx.x; c < n4; c += blockDim.x) {
        const float4 v = x[c], g = w[c];
        y[c] = make_float4(v.x * scale * g.x, v.y * scale * g.y, v.z * scale * g.z, v.w * scale * g.w);
    }
}

void launch_rmsnorm(const float* in, const float* weight, float* out, int rows, int cols, float eps)
{
    rmsnorm_kernel<<<rows, kThreads>>>(in, weight, out, cols, eps);
}
