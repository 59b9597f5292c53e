// Test harness: deterministic inputs, CPU reference, exact check, kernel timing.
#include "hwrepair_check.cuh"

// Implemented in solution.cu: C[b] = A[b] * B[b] for b < batch; row-major, stored back to
// back; A[b] is M x K, B[b] is K x N, C[b] is M x N; M, N, K multiples of 32 (device).
void launch_batched_gemm(const float* A, const float* B, float* C, int batch, int M, int N, int K);

int main()
{
    const int batch = HWR_SIZE(1024, 3), M = 64, N = 64, K = 256;
    std::vector<float> A = hwr_small_ints((size_t)batch * M * K, 171, -2, 2);
    std::vector<float> B = hwr_small_ints((size_t)batch * K * N, 172, -2, 2);
    HwrBuffer<float> dA(A), dB(B), dC((size_t)batch * M * N);
    float ms = hwr_time_ms([&] { launch_batched_gemm(dA.ptr, dB.ptr, dC.ptr, batch, M, N, K); });

    // Check every 16th product and the last one against the CPU.
    std::vector<float> C = dC.download(), got, want;
    for (int b = 0; b < batch; ++b) {
        if (b % 16 != 0 && b != batch - 1) continue;
        const float* a = &A[(size_t)b * M * K];
        const float* bm = &B[(size_t)b * K * N];
        for (int r = 0; r < M; ++r)
            for (int c = 0; c < N; ++c) {
                double acc = 0.0;
                for (int k = 0; k < K; ++k) acc += (double)a[(size_t)r * K + k] * bm[(size_t)k * N + c];
                want.push_back((float)acc);
                got.push_back(C[(size_t)b * M * N + (size_t)r * N + c]);
            }
    }
    return hwr_finish(hwr_check_close("C(sampled batches)", got, want, 0.0, 0.0), ms);
}

#include "solution.cu"
