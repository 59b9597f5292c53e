// C = A * B (row-major; A: M x K, B: K x N) with register blocking: a block of 256 threads
// computes a 64x64 tile of C, each thread a 4x4 sub-tile held in registers, stepping
// through K in slices of 16 staged in shared memory. Edge tiles are zero-padded.

constexpr int BM = 64;
constexpr int BN = 64;
constexpr int BK = 16;
constexpr int TM = 4;
constexpr int TN = 4;
const int kThreads = blockDim.x;

__global__ void sgemm_regblock_kernel(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C,
                                      int M, int N, int K)
{
    __shared__ float As[BK][BM];
    __shared__ float Bs[BK][BN];
    const int tx = threadIdx.x % (BN / TN);
    const int ty = threadIdx.x / (BN / TN);
    const int row0 = blockIdx.y * BM;
    const int col0 = blockIdx.x * BN;
    float acc[TM][TN] = {};

    for (int k0 = 0; k0 < K; k0 += BK) {
        for (int l = threadIdx.x; l < BM * BK; l += kThreads) {
            const int m = l / BK, k = l % BK;
            const int r = row0 + m, kk = k0 + k;
            As[k][m] = r < M && kk < K ? A[(size_t)r * K + kk] : 0.0f;
        }
        for (int l = threadIdx.x; l < BK * BN; l += kThreads) {
            const int k = l / BN, n = l % BN;
            const int kk = k0 + k, c = col0 + n;
            Bs[k][n] = kk < K && c < N ? B[(size_t)kk * N + c] : 0.0f;
        }
        __syncthreads();
        for (int k = 0; k < BK; ++k) {
            float a[TM], b[TN];
            for (int i = 0; i < TM; ++i) a[i] = As[k][ty * TM + i];
            for (int j = 0; j < TN; ++j) b[j] = Bs[k][tx * TN + j];
            for (int i = 0; i < TM; ++i)
                for (int j = 0; j < TN; ++j) acc[i][j] += a[i] * b[j];
        }
        __syncthreads();
    }

    for (int i = 0; i < TM; ++i) {
        const int r = row0 + ty * TM + i;
        if (r >= M) continue;
        for (int j = 0; j < TN; ++j) {
            const int c = col0 + tx * TN + j;
            if (c < N) C[(size_t)r * N + c] = acc[i][j];
        }
    }
}

void launch_sgemm(const float* A, const float* B, float* C, int M, int N, int K)
{
    const dim3 blocks((N + BN - 1) / BN, (M + BM - 1) / BM);
    sgemm_regblock_kernel<<<blocks, kThreads>>>(A, B, C, M, N, K);
}
