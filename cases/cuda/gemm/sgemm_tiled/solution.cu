// C = A * B for row-major float matrices (A: M x K, B: K x N, C: M x N). Each 32x32 block
// of threads computes a 32x32 tile of C, staging matching tiles of A and B in shared memory
// so that every global load is coalesced and reused 32 times.

constexpr int kTile = 32;

__global__ void sgemm_tiled_kernel(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C,
                                   int M, int N, int K)
{
    __shared__ float As[kTile][kTile];
    __shared__ float Bs[kTile][kTile + 1];
    const int row = blockIdx.y * kTile + threadIdx.y;
    const int col = blockIdx.x * kTile + threadIdx.x;
    float acc = 0.0f;
    for (int k0 = 0; k0 < K; k0 += kTile) {
        const int ka = k0 + threadIdx.x;
        const int kb = k0 + threadIdx.y;
        As[threadIdx.y][threadIdx.x] = row < M && ka < K ? A[(size_t)row * K + ka] : 0.0f;
        Bs[threadIdx.y][threadIdx.x] = kb < K && col < N ? B[(size_t)kb * N + col] : 0.0f;
        __syncthreads();
        for (int k = 0; k < kTile; ++k) {
            acc += As[threadIdx.y][k] * Bs[k][threadIdx.x];
        }
        __syncthreads();
    }
    if (row < M && col < N) C[(size_t)row * N + col] = acc;
}

void launch_sgemm(const float* A, const float* B, float* C, int M, int N, int K)
{
    const dim3 threads(kTile, kTile);
    const dim3 blocks((N + kTile - 1) / kTile, (M + kTile - 1) / kTile);
    sgemm_tiled_kernel<<<blocks, threads>>>(A, B, C, M, N, K);
}
