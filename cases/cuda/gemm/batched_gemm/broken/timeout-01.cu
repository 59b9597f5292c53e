// Batched GEMM: C[b] = A[b] * B[b] for `batch` independent small products (row-major,
// A[b]: M x K, B[b]: K x N, stored back to back). Grid z walks the batch; a 32x8 block
// computes a 32x32 tile of C[b], four rows per thread, through 32-wide K slices in
// shared memory. M, N and K are multiples of 32.

constexpr int kTile = 32;
constexpr int kRowsPerThread = 4;

__global__ void batched_gemm_kernel(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C,
                                    int M, int N, int K)
{
    __shared__ float As[kTile][kTile];
    __shared__ float Bs[kTile][kTile];
    const size_t b = blockIdx.z;
    const float* a = A + b * M * K;
    const float* bm = B + b * K * N;
    float* c = C + b * M * N;
    const int col = blockIdx.x * kTile + threadIdx.x;
    const int row0 = blockIdx.y * kTile + threadIdx.y * kRowsPerThread;
    float acc[kRowsPerThread] = {};

    for (int k0 = 0; k0 < K; k0 + kTile) {
        for (int i = 0; i < kRowsPerThread; ++i) {
            const int r = threadIdx.y * kRowsPerThread + i;
            As[r][threadIdx.x] = a[(size_t)(blockIdx.y * kTile + r) * K + k0 + threadIdx.x];
            Bs[r][threadIdx.x] = bm[(size_t)(k0 + r) * N + col];
        }
        __syncthreads();
        for (int k = 0; k < kTile; ++k) {
            const float bk = Bs[k][threadIdx.x];
            for (int i = 0; i < kRowsPerThread; ++i) acc[i] += As[threadIdx.y * kRowsPerThread + i][k] * bk;
        }
        __syncthreads();
    }
    for (int i = 0; i < kRowsPerThread; ++i) c[(size_t)(row0 + i) * N + col] = acc[i];
}

void launch_batched_gemm(const float* A, const float* B, float* C, int batch, int M, int N, int K)
{
    const dim3 threads(kTile, kTile / kRowsPerThread);
    const dim3 blocks(N / kTile, M / kTile, batch);
    batched_gemm_kernel<<<blocks, threads>>>(A, B, C, M, N, K);
}
