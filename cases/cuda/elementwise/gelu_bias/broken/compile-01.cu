// out = gelu(x + bias) for a row-major rows x cols matrix; bias has one value per column.
// GELU uses the tanh approximation.

__host__ __forceinline__ float gelu_tanh(float v)
{
    const float k = 0.7978845608f;  // sqrt(2 / pi)
    return 0.5f * v * (1.0f + tanhf(k * (v + 0.044715f * v * v * v)));
}

__global__ void gelu_bias_kernel(const float* __restrict__ x, const float* __restrict__ bias, float* __restrict__ out,
                                 int rows, int cols)
{
    const int col = blockIdx.x * blockDim.x + threadIdx.x;
    const int row = blockIdx.y;
    if (col >= cols || row >= rows) return;
    const size_t i = (size_t)row * cols + col;
    out[i] = gelu_tanh(x[i] + bias[col]);
}

void launch_gelu_bias(const float* x, const float* bias, float* out, int rows, int cols)
{
    const dim3 threads(256);
    const dim3 blocks((cols + threads.x - 1) / threads.x, rows);
    gelu_bias_kernel<<<blocks, threads>>>(x, bias, out, rows, cols);
}
