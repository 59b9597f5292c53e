// Batched transpose: `batch` row-major rows x cols matrices stored back to back, each
// transposed into its own cols x rows slot of out. The grid's z dimension walks the batch;
// each block moves one 32x32 tile through shared memory.

constexpr int kTile = 32;
constexpr int kRowsPerPass = 8;

__global__ void batched_transpose_kernel(const float* __restrict__ in, float* __restrict__ out, int rows, int cols)
{
    __shared__ float tile[kTile][kTile + 1];
    const size_t matrix = (size_t)blockIdx.z * rows * cols;
    const float* src = in + matrix;
    float* dst = out + matrix;
    int x = blockIdx.x * kTile + threadIdx.x;
    int y = blockIdx.y * kTile + threadIdx.y;
    for (int j = 0; j < kTile; j += kRowsPerPass) {
        if (x < cols && y + j < rows) tile[threadIdx.y + j][threadIdx.x] = src[(size_t)(y + j) * cols + x];
    }
    __syncthreads();
    x = blockIdx.y * kTile + threadIdx.x;
    y = blockIdx.x * kTile + threadIdx.y;
    for (int j = 0; j < kTile; j += kRowsPerPass) {
        if (x < rows && y + j < cols) dst[(size_t)(y + j) * rows + x] = tile[threadIdx.x][threadIdx.y + j];
    }
}

void launch_batched_transpose(const float* in, float* out, int batch, int rows, int cols)
{
    const dim3 threads(kTile, kRowsPerPass);
    const dim3 blocks(batch, (rows + kTile - 1) / kTile, (cols + kTile - 1) / kTile);
    batched_transpose_kernel<<<blocks, threads>>>(in, out, rows, cols);
}
