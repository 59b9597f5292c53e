// y = A * x for a row-major rows x cols matrix (cols a multiple of 4): one warp per row,
// each lane reading 16-byte float4 chunks of the row, then a shuffle reduction.

constexpr int kWarpsPerBlock = 8;

__global__ void gemv_kernel(const float* __restrict__ A, const float* __restrict__ x, float* __restrict__ y, int rows,
                            int cols)
{
    const int lane = threadIdx.x & 31;
    const int row = blockIdx.x * kWarpsPerBlock + (threadIdx.x >> 5);
    if (row >= rows) return;
    const float4* a4 = reinterpret_cast<const float4*>(A + (size_t)row * cols);
    const float4* x4 = reinterpret_cast<const float4*>(x);
    float acc = 0.0f;
    for (int c = lane; c < cols / 4; c += 32) {
        const float4 a = a4[c];
        const float4 v = x4[c];
        acc += a.x * v.x + a.y * v.y + a.z * v.z + a.w * v.w;
    }
    for (int offset = 16; offset > 0; offset >>= 1) {
        acc += __shfl_down_sync(0xffffffffu, acc, offset);
    }
    if (lane == 0) y[row] = acc;
}

void launch_gemv(const float* A, const float* x, float* y, int rows, int cols)
{
    const int blocks = (rows + kWarpsPerBlock - 1) / kWarpsPerBlock;
    gemv_kernel<<<blocks, kWarpsPerBlock * 32>>>(A, x, y, rows, cols);
}
