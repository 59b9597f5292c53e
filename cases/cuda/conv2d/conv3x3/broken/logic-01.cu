// 3x3 convolution (cross-correlation) of a single-channel image with zero padding. The
// filter lives in constant memory; each 32x8 block stages its output tile plus a one-pixel
// halo in shared memory, so every input pixel is read from global memory about once.

constexpr int kTileX = 32;
constexpr int kTileY = 8;
constexpr int kRadius = 1;
constexpr int kSharedX = kTileX + 2 * kRadius;
constexpr int kSharedY = kTileY + 2 * kRadius;

__constant__ float c_filter[3][3];

__global__ void conv3x3_kernel(const float* __restrict__ in, float* __restrict__ out, int height, int width)
{
    __shared__ float tile[kSharedY][kSharedX];
    const int tid = threadIdx.y * kTileX + threadIdx.x;
    for (int i = tid; i < kSharedX * kSharedY; i += kTileX * kTileY) {
        const int ty = i / kSharedX, tx = i % kSharedX;
        const int gx = blockIdx.x * kTileX + tx;
        const int gy = blockIdx.y * kTileY + ty - kRadius;
        tile[ty][tx] = gx >= 0 && gx < width && gy >= 0 && gy < height ? in[(size_t)gy * width + gx] : 0.0f;
    }
    __syncthreads();
    const int x = blockIdx.x * kTileX + threadIdx.x;
    const int y = blockIdx.y * kTileY + threadIdx.y;
    if (x >= width || y >= height) return;
    float acc = 0.0f;
    for (int dy = 0; dy < 3; ++dy)
        for (int dx = 0; dx < 3; ++dx) acc += c_filter[dy][dx] * tile[threadIdx.y + dy][threadIdx.x + dx];
    out[(size_t)y * width + x] = acc;
}

void launch_conv3x3(const float* in, const float* filter, float* out, int height, int width)
{
    CUDA_CHECK(cudaMemcpyToSymbolAsync(c_filter, filter, sizeof(c_filter), 0, cudaMemcpyDeviceToDevice));
    const dim3 threads(kTileX, kTileY);
    const dim3 blocks((width + kTileX - 1) / kTileX, (height + kTileY - 1) / kTileY);
    conv3x3_kernel<<<blocks, threads>>>(in, out, height, width);
}
