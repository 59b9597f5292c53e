// Row-wise argmax of a row-major matrix: one warp per row. Each lane scans a strided share
// of the row, then the warp combines (value, index) pairs with shuffles. Ties go to the
// smallest column index.

constexpr int kWarpsPerBlock = 8;

__device__ __forceinline__ void take_better(float& value, int& index, float other_value, int other_index)
{
    if (other_value > value || (other_value == value && other_index < index)) {
        value = other_value;
        index = other_index;
    }
}

__global__ void row_argmax_kernel(const float* __restrict__ m, int* __restrict__ out, int rows, int cols)
{
    const int lane = threadIdx.x & 31;
    const int row = blockIdx.x * kWarpsPerBlock + (threadIdx.x >> 5);
    if (row >= rows) return;
    const float* r = m + (size_t)row * cols;
    float value = r[0];
    int index = 0;
    for (int c = lane; c < cols; c += 32) {
        take_better(value, index, r[c], c);
    }
    for (int offset = 16; offset > 0; offset >>= 1) {
        const float other_value = __shfl_down_sync(0xffffffffu, value, offset);
        const int other_index = __shfl_down_sync(0xffffffffu, index, offset);
        take_better(value, index, other_value, other_index);
    }
    if (lane == 0) out[row] = index;
}

void launch_row_argmax(const float* m, int* out, int rows, int cols)
{
    const int blocks = (rows + kWarpsPerBlock - 1) / kWarpsPerBlock;
    row_argmax_kernel<<<blocks, kWarpsPerBlock * 32>>>(m, out, rows, cols);
}
