// Transpose of a matrix whose sides are not multiples of the tile: 32x32 shared-memory
// tiles (one padding column), with edge tiles guarded on both the read and the write side.

constexpr int kTile = 32;
constexpr int kRowsPerPass = 8;

__global__ void transpose_kernel(const float* __restrict__ in, float* __restrict__ out, int rows, int cols)
{
    __shared__ float tile[kTile][kTile + 1];
    int x = blockIdx.x * kTile + threadIdx.x;
    int y = blockIdx.y * kTile + threadIdx.y;
    for (int j = 0; j < kTile; j += kRowsPerPass) {
        if (x < cols && y + j < rows) tile[threadIdx.y + j][threadIdx.x] = in[(size_t)(y + j) * cols + x];
    }
    __syncthreads();
    x = blockIdx.y * kTile + threadIdx.x;
    y = blockIdx.x * kTile + threadIdx.y;
    for (int j = 0; j < kTile; j += kRowsPerPass) {
        if (x < rows && y + j < cols) out[(size_t)(y + j) * rows + x] = tile[threadIdx.y + j][threadIdx.x];
    }
}

void launch_transpose_rect(const float* in, float* out, int rows, int cols)
{
    const dim3 threads(kTile, kRowsPerPass);
    const dim3 blocks((cols + kTile - 1) / kTile, (rows + kTile - 1) / kTile);
    transpose_kernel<<<blocks, threads>>>(in, out, rows, cols);
}
