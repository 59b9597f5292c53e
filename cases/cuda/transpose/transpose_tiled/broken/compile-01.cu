// Matrix transpose through a shared-memory tile: a block reads a 32x32 tile with coalesced
// row accesses, then writes it transposed, again along rows. The tile has one padding
// column so that reading a tile column touches 32 different shared-memory banks.

constexpr int kTile = 32;
constexpr int kRowsPerPass = 8;

__global__ void transpose_kernel(const float* __restrict__ in, float* __restrict__ out, int rows, int cols)
{
    __shared__ float tile[blockDim.x][blockDim.x + 1];
    int x = blockIdx.x * kTile + threadIdx.x;
    int y = blockIdx.y * kTile + threadIdx.y;
    for (int j = 0; j < kTile; j += kRowsPerPass) {
        if (x < cols && y + j < rows) tile[threadIdx.y + j][threadIdx.x] = in[(size_t)(y + j) * cols + x];
    }
    __syncthreads();
    x = blockIdx.y * kTile + threadIdx.x;
    y = blockIdx.x * kTile + threadIdx.y;
    for (int j = 0; j < kTile; j += kRowsPerPass) {
        if (x < rows && y + j < cols) out[(size_t)(y + j) * rows + x] = tile[threadIdx.x][threadIdx.y + j];
    }
}

void launch_transpose(const float* in, float* out, int rows, int cols)
{
    const dim3 threads(kTile, kRowsPerPass);
    const dim3 blocks((cols + kTile - 1) / kTile, (rows + kTile - 1) / kTile);
    transpose_kernel<<<blocks, threads>>>(in, out, rows, cols);
}
