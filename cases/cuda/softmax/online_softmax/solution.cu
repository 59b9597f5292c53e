// Row softmax with the online (single-pass) normaliser, one warp per row: each lane keeps a
// running maximum m and a sum s of exp(x - m), rescaling s whenever m grows; lanes then
// merge their (m, s) pairs with shuffles, and a second sweep writes exp(x - m) / s.
#include <cmath>

constexpr int kWarpsPerBlock = 8;

__device__ __forceinline__ void merge(float& m, float& s, float other_m, float other_s)
{
    const float top = fmaxf(m, other_m);
    if (top == -INFINITY) return;
    s = s * expf(m - top) + other_s * expf(other_m - top);
    m = top;
}

__global__ void online_softmax_kernel(const float* __restrict__ in, float* __restrict__ out, int rows, int cols)
{
    const int lane = threadIdx.x & 31;
    const int row = blockIdx.x * kWarpsPerBlock + (threadIdx.x >> 5);
    if (row >= rows) return;
    const float* x = in + (size_t)row * cols;
    float* y = out + (size_t)row * cols;

    float m = -INFINITY, s = 0.0f;
    for (int c = lane; c < cols; c += 32) merge(m, s, x[c], 1.0f);
    for (int offset = 16; offset > 0; offset >>= 1) {
        const float other_m = __shfl_xor_sync(0xffffffffu, m, offset);
        const float other_s = __shfl_xor_sync(0xffffffffu, s, offset);
        merge(m, s, other_m, other_s);
    }
    const float inv = 1.0f / s;
    for (int c = lane; c < cols; c += 32) y[c] = expf(x[c] - m) * inv;
}

void launch_softmax(const float* in, float* out, int rows, int cols)
{
    const int blocks = (rows + kWarpsPerBlock - 1) / kWarpsPerBlock;
    online_softmax_kernel<<<blocks, kWarpsPerBlock * 32>>>(in, out, rows, cols);
}
