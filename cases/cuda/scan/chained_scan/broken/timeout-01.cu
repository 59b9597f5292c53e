// Single-pass inclusive scan with a chained carry: blocks take tile numbers in launch order
// from a counter, scan their tile, wait for the previous tile's running total, publish
// their own, and add the carry. One pass over the data, no second kernel.

constexpr int kThreads = 256;
constexpr int kItems = 8;
constexpr int kTile = kThreads * kItems;

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

__global__ void chained_scan_kernel(const int* __restrict__ in, int* __restrict__ out, int n, int* tile_counter,
                                    volatile int* ready, volatile int* running_totals)
{
    __shared__ int tile_shared, carry_shared;
    if (threadIdx.x == 0) tile_shared = atomicAdd(tile_counter, 1);
    __syncthreads();
    const int tile = tile_shared;
    const int base = tile * kTile + threadIdx.x * kItems;

    int items[kItems];
    int running = 0;
    for (int k = 0; k < kItems; ++k) {
        running += base + k < n ? in[base + k] : 0;
        items[k] = running;
    }
    int tile_total = 0;
    const int before = block_inclusive_scan(running, &tile_total) - running;

    if (threadIdx.x == 0) {
        int carry = 0;
        if (tile > 0) {
            while (ready[tile] == 0) {
            }
            __threadfence();
            carry = running_totals[tile - 1];
        }
        running_totals[tile] = carry + tile_total;
        __threadfence();
        ready[tile] = 1;
        carry_shared = carry;
    }
    __syncthreads();
    const int carry = carry_shared;
    for (int k = 0; k < kItems; ++k) {
        if (base + k < n) out[base + k] = carry + before + items[k];
    }
}

// Per-call state: a tile counter, then one ready flag and one running total per tile.
static int* g_state = nullptr;
static int g_tiles = 0;

void launch_chained_scan(const int* in, int* out, int n)
{
    const int tiles = (n + kTile - 1) / kTile;
    if (tiles > g_tiles) {
        if (g_state != nullptr) CUDA_CHECK(cudaFree(g_state));
        CUDA_CHECK(cudaMalloc(&g_state, (1 + 2 * (size_t)tiles) * sizeof(int)));
        g_tiles = tiles;
    }
    int* counter = g_state;
    int* ready = g_state + 1;
    int* totals = ready + tiles;
    CUDA_CHECK(cudaMemsetAsync(g_state, 0, (1 + (size_t)tiles) * sizeof(int)));
    chained_scan_kernel<<<tiles, kThreads>>>(in, out, n, counter, ready, totals);
}
