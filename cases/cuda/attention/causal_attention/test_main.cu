// Test harness: deterministic inputs, CPU reference, tolerance check, kernel timing.
#include "hwrepair_check.cuh"

// Implemented in solution.cu: causal attention, O_i = sum_{j<=i} softmax_j(q_i . k_j / 8) v_j
// for each of `heads` heads; Q, K, V, O are [heads][seq][64] row-major device arrays.
void launch_causal_attention(const float* Q, const float* K, const float* V, float* O, int heads, int seq);

int main()
{
    const int heads = HWR_SIZE(16, 2), seq = HWR_SIZE(512, 70), d = 64;
    const size_t size = (size_t)heads * seq * d;
    std::vector<float> Q = hwr_uniform(size, 311, -1.0f, 1.0f);
    std::vector<float> K = hwr_uniform(size, 312, -1.0f, 1.0f);
    std::vector<float> V = hwr_uniform(size, 313, -1.0f, 1.0f);
    std::vector<float> want(size);
    std::vector<double> p(seq);
    for (int h = 0; h < heads; ++h)
        for (int i = 0; i < seq; ++i) {
            const float* q = &Q[((size_t)h * seq + i) * d];
            double m = -1e300, sum = 0.0;
            for (int j = 0; j <= i; ++j) {
                const float* k = &K[((size_t)h * seq + j) * d];
                double s = 0.0;
                for (int t = 0; t < d; ++t) s += (double)q[t] * k[t];
                p[j] = s / 8.0;
                m = p[j] > m ? p[j] : m;
            }
            for (int j = 0; j <= i; ++j) sum += p[j] = std::exp(p[j] - m);
            for (int t = 0; t < d; ++t) {
                double o = 0.0;
                for (int j = 0; j <= i; ++j) o += p[j] * V[((size_t)h * seq + j) * d + t];
                want[((size_t)h * seq + i) * d + t] = (float)(o / sum);
            }
        }

    HwrBuffer<float> dQ(Q), dK(K), dV(V), dO(size);
    float ms = hwr_time_ms([&] { launch_causal_attention(dQ.ptr, dK.ptr, dV.ptr, dO.ptr, heads, seq); });
    return hwr_finish(hwr_check_close("O", dO.download(), want, 1e-5, 1e-4), ms);
}

#include "solution.cu"
