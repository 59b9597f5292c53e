// Inclusive prefix sum of n ints in three passes:
//   1. each block scans a tile of kTile elements and records the tile's total;
//   2. one block scans the tile totals in place;
//   3. every tile but the first adds the total of all tiles before it.

constexpr int kThreads = 512;
constexpr int kItems = 4;
constexpr int kTile = kThreads * kItems;

// Inclusive scan of one value per thread across the block; *total gets the block's sum.
__device__ int block_inclusive_scan(int v, int* total)
{
    __shared__ int warp_totals[32];
    const int lane = threadIdx.x & 31;
    const int warp = threadIdx.x >> 5;
    const int warps = blockDim.x >> 5;
    for (int d = 1; d < 32; d <<= 1) {
        const int up = __shfl_up_sync(0xffffffffu, v, d);
        if (lane >= d) v += up;
    }
    if (lane == 31) warp_totals[warp] = v;
    __syncthreads();
    if (warp == 0) {
        int w = lane < warps ? warp_totals[lane] : 0;
        for (int d = 1; d < 32; d <<= 1) {
            const int up = __shfl_up_sync(0xffffffffu, w, d);
            if (lane >= d) w += up;
        }
        warp_totals[lane] = w;
    }
    __syncthreads();
    if (warp > 0) v += warp_totals[warp - 1];
    *total = warp_totals[warps - 1];
    __syncthreads();
    return v;
}

__global__ void scan_tiles_kernel(const int* __restrict__ in, int* __restrict__ out, int* __restrict__ tile_sums, int n)
{
    const int base = blockIdx.x * kTile + threadIdx.x * kItems;
    int items[kItems];
    __shared__ int tile_total = 0;
    int running = 0;
    for (int k = 0; k < kItems; ++k) {
        running += base + k < n ? in[base + k] : 0;
        items[k] = running;
    }
    const int before = block_inclusive_scan(running, &tile_total) - running;
    for (int k = 0; k < kItems; ++k) {
        if (base + k < n) out[base + k] = before + items[k];
    }
    if (threadIdx.x == 0) tile_sums[blockIdx.x] = tile_total;
}

// One block scans `count` values in place, a block-sized chunk at a time.
__global__ void scan_sums_kernel(int* sums, int count)
{
    int carry = 0;
    for (int start = 0; start < count; start += blockDim.x) {
        const int i = start + threadIdx.x;
        const int v = i < count ? sums[i] : 0;
        int chunk_total = 0;
        const int scanned = block_inclusive_scan(v, &chunk_total);
        if (i < count) sums[i] = carry + scanned;
        carry += chunk_total;
    }
}

__global__ void add_offsets_kernel(int* __restrict__ out, const int* __restrict__ tile_sums, int n)
{
    const int offset = blockIdx.x == 0 ? 0 : tile_sums[blockIdx.x - 1];
    const int base = blockIdx.x * kTile;
    for (int k = threadIdx.x; k < kTile && base + k < n; k += blockDim.x) {
        out[base + k] += offset;
    }
}

static int* g_tile_sums = nullptr;
static int g_tiles = 0;

void launch_inclusive_scan(const int* in, int* out, int n)
{
    const int tiles = (n + kTile - 1) / kTile;
    if (tiles > g_tiles) {
        if (g_tile_sums != nullptr) CUDA_CHECK(cudaFree(g_tile_sums));
        CUDA_CHECK(cudaMalloc(&g_tile_sums, tiles * sizeof(int)));
        g_tiles = tiles;
    }
    scan_tiles_kernel<<<tiles, kThreads>>>(in, out, g_tile_sums, n);
    scan_sums_kernel<<<1, 1024>>>(g_tile_sums, tiles);
    add_offsets_kernel<<<tiles, kThreads>>>(out, g_tile_sums, n);
}
