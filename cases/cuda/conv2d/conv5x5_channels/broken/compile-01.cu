// 5x5 convolution of a 3-channel image to one output channel, zero padding:
// out[y][x] = sum_c sum_dy sum_dx filter[c][dy][dx] * in[c][y + dy - 2][x + dx - 2].
// The 75 weights sit in constant memory (every thread of a warp reads the same one); each
// 32x8 block stages a (32+4)x(8+4) halo tile of one channel at a time in shared memory.

constexpr int kChannels = 3;
constexpr int kK = 5;
constexpr int kRadius = kK / 2;
constexpr int kTileX = 32;
constexpr int kTileY = 8;
constexpr int kSharedX = kTileX + 2 * kRadius;
constexpr int kSharedY = kTileY + 2 * kRadius;

__global__ void conv5x5_kernel(const float* __restrict__ in, float* __restrict__ out, int height, int width,
                               const float (*c_weights)[kK][kK])
{
    __shared__ float tile[kSharedY][kSharedX];
    const int tid = threadIdx.y * kTileX + threadIdx.x;
    const int x = blockIdx.x * kTileX + threadIdx.x;
    const int y = blockIdx.y * kTileY + threadIdx.y;
    float acc = 0.0f;
    for (int c = 0; c < kChannels; ++c) {
        const float* plane = in + (size_t)c * height * width;
        for (int i = tid; i < kSharedX * kSharedY; i += kTileX * kTileY) {
            const int ty = i / kSharedX, tx = i % kSharedX;
            const int gx = blockIdx.x * kTileX + tx - kRadius;
            const int gy = blockIdx.y * kTileY + ty - kRadius;
            tile[ty][tx] = gx >= 0 && gx < width && gy >= 0 && gy < height ? plane[(size_t)gy * width + gx] : 0.0f;
        }
        __syncthreads();
        for (int dy = 0; dy < kK; ++dy)
            for (int dx = 0; dx < kK; ++dx) acc += c_weights[c][dy][dx] * tile[threadIdx.y + dy][threadIdx.x + dx];
        __syncthreads();
    }
    if (x < width && y < height) out[(size_t)y * width + x] = acc;
}

void launch_conv5x5(const float* in, const float* weights, float* out, int height, int width)
{
    __constant__ float c_weights[kChannels][kK][kK];
    CUDA_CHECK(cudaMemcpyToSymbolAsync(c_weights, weights, sizeof(c_weights), 0, cudaMemcpyDeviceToDevice));
    const dim3 threads(kTileX, kTileY);
    const dim3 blocks((width + kTileX - 1) / kTileX, (height + kTileY - 1) / kTileY);
    conv5x5_kernel<<<blocks, threads>>>(in, out, height, width, c_weights);
}
