// Row-wise argmax of a row-major matrix: one warp per row. Each lane scans a strided share
// of the row, then the warp combines (value, index) pairs with shuffles. Ties go to the
// smallest column index.

constexpr int kWarpsPerBlock = 8;

struct Best {
    float value;
    int index;
};

__device__ __forceinline__ void take_better(Best& best, Best other)
{
    if (other.value > best.value || (other.value == best.value && other.index < best.index)) best = other;
}

__global__ void row_argmax_kernel(const float* __restrict__ m, int* __restrict__ out, int rows, int cols)
{
    const int lane = threadIdx.x & 31;
    const int row = blockIdx.x * kWarpsPerBlock + (threadIdx.x >> 5);
    if (row >= rows) return;
    const float* r = m + (size_t)row * cols;
    Best best = {r[0], 0};
    for (int c = lane; c < cols; c += 32) {
        take_better(best, Best{r[c], c});
    }
    for (int offset = 16; offset > 0; offset >>= 1) {
        take_better(best, __shfl_down_sync(0xffffffffu, best, offset));
    }
    if (lane == 0) out[row] = best.index;
}

void launch_row_argmax(const float* m, int* out, int rows, int cols)
{
    const int blocks = (rows + kWarpsPerBlock - 1) / kWarpsPerBlock;
    row_argmax_kernel<<<blocks, kWarpsPerBlock * 32>>>(m, out, rows, cols);
}
