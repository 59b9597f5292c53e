// Stream compaction: copy the positive values of in[0..n) to out, keeping their order, and
// write how many there were to *count. Three kernels over tiles of kTile elements:
// count the keepers per tile, exclusive-scan the counts, then scatter each tile.

constexpr int kThreads = 256;
constexpr int kTile = kThreads;

__device__ int block_exclusive_scan(int v, int* total)
{
    __shared__ int warp_totals[32];
    const int lane = threadIdx.x & 31;
    const int warp = threadIdx.x >> 5;
    const int warps = blockDim.x >> 5;
    int x = v;
    for (int d = 1; d < 32; d <<= 1) {
        const int up = __shfl_up_sync(0xffffffffu, x, d);
        if (lane >= d) x += up;
    }
    if (lane == 31) warp_totals[warp] = x;
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
    if (warp > 0) x += warp_totals[warp - 1];
    *total = warp_totals[warps - 1];
    __syncthreads();
    return x - v;
}

__global__ void count_kernel(const float* __restrict__ in, int* __restrict__ tile_counts, int n, int tiles)
{
    for (int tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
        const int i = tile * kTile + threadIdx.x;
        const int keep = i < n && in[i] > 0.0f;
        const int votes = __syncthreads_count(keep);
        if (threadIdx.x == 0) tile_counts[tile] = votes;
    }
}

__global__ void scan_counts_kernel(int* counts, int tiles, int* total)
{
    int carry = 0;
    for (int start = 0; start < tiles; start += blockDim.x) {
        const int i = start + threadIdx.x;
        const int v = i < tiles ? counts[i] : 0;
        int chunk_total = 0;
        const int before = block_exclusive_scan(v, &chunk_total);
        if (i < tiles) counts[i] = carry + before;
        carry += chunk_total;
    }
    if (threadIdx.x == 0) *total = carry;
}

__global__ void scatter_kernel(const float* __restrict__ in, float* __restrict__ out,
                               const int* __restrict__ tile_offsets, int n, int tiles)
{
    for (int tile = blockIdx.x; tile < tiles; tile += gridDim.x) {
        const int i = tile * kTile + threadIdx.x;
        const float v = i < n ? in[i] : 0.0f;
        const int keep = i < n && v > 0.0f;
        int unused = 0;
        const int slot = block_exclusive_scan(keep, &unused);
        if (keep) out[tile_offsets[tile] + slot] = v;
    }
}

static int* g_counts = nullptr;
static int g_tiles = 0;

void launch_compact(const float* in, float* out, int* count, int n)
{
    const int tiles = (n + kTile - 1) / kTile;
    if (tiles > g_tiles) {
        if (g_counts != nullptr) CUDA_CHECK(cudaFree(g_counts));
        CUDA_CHECK(cudaMalloc(&g_counts, tiles * sizeof(int)));
        g_tiles = tiles;
    }
    const int blocks = tiles;
    count_kernel<<<blocks, kThreads>>>(in, g_counts, n, tiles);
    scan_counts_kernel<<<1, 1024>>>(g_counts, tiles, count);
    scatter_kernel<<<blocks, kThreads>>>(in, out, g_counts, n, tiles);
}
