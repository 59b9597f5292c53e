// Separable 9-tap blur with clamp-to-edge borders: a horizontal pass into a scratch image,
// then a vertical pass into out. Taps sit in constant memory; threads map x to
// threadIdx.x so that every row access is coalesced.

constexpr int kRadius = 4;
constexpr int kTaps = 2 * kRadius + 1;

__constant__ float c_taps[kTaps];

__device__ __forceinline__ int2 pixel_of_thread()
{
    return make_int2(blockIdx.y * blockDim.y + threadIdx.y, blockIdx.x * blockDim.x + threadIdx.x);
}

__device__ __forceinline__ int clamp_index(int i, int n) { return i < 0 ? 0 : (i >= n ? n - 1 : i); }

__global__ void blur_rows_kernel(const float* __restrict__ in, float* __restrict__ tmp, int height, int width)
{
    const int2 p = pixel_of_thread();
    if (p.x >= width || p.y >= height) return;
    const float* row = in + (size_t)p.y * width;
    float acc = 0.0f;
    for (int k = 0; k < kTaps; ++k) acc += c_taps[k] * row[clamp_index(p.x + k - kRadius, width)];
    tmp[(size_t)p.y * width + p.x] = acc;
}

__global__ void blur_cols_kernel(const float* __restrict__ tmp, float* __restrict__ out, int height, int width)
{
    const int2 p = pixel_of_thread();
    if (p.x >= width || p.y >= height) return;
    float acc = 0.0f;
    for (int k = 0; k < kTaps; ++k) acc += c_taps[k] * tmp[(size_t)clamp_index(p.y + k - kRadius, height) * width + p.x];
    out[(size_t)p.y * width + p.x] = acc;
}

// The horizontal pass's output, kept between calls and grown when an image is larger.
static float* g_tmp = nullptr;
static size_t g_tmp_bytes = 0;

void launch_separable_blur(const float* in, const float* taps, float* out, int height, int width)
{
    CUDA_CHECK(cudaMemcpyToSymbolAsync(c_taps, taps, sizeof(c_taps), 0, cudaMemcpyDeviceToDevice));
    const size_t bytes = (size_t)height * width * sizeof(float);
    if (bytes > g_tmp_bytes) {
        if (g_tmp != nullptr) CUDA_CHECK(cudaFree(g_tmp));
        CUDA_CHECK(cudaMalloc(&g_tmp, bytes));
        g_tmp_bytes = bytes;
    }
    const dim3 threads(32, 8);
    const dim3 blocks((height + 31) / 32, (width + 7) / 8);
    blur_rows_kernel<<<blocks, threads>>>(in, g_tmp, height, width);
    blur_cols_kernel<<<blocks, threads>>>(g_tmp, out, height, width);
}
