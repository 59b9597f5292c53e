// Test harness: deterministic inputs, CPU reference, tolerance check, kernel timing.
#include "hwrepair_check.cuh"

// Implemented in solution.cu: O = softmax(Q K^T / sqrt(64)) V for each of `heads` heads;
// Q, K, V, O are [heads][seq][64] row-major device arrays; seq <= 512 and a multiple of 32.
void launch_attention(const float* Q, const float* K, const float* V, float* O, int heads, int seq);

int main()
{
    const int heads = HWR_SIZE(32, 2), seq = HWR_SIZE(256, 64), d = 64;
    const size_t size = (size_t)heads * seq * d;
    std::vector<float> Q = hwr_uniform(size, 301, -1.0f, 1.0f);
    std::vector<float> K = hwr_uniform(size, 302, -1.0f, 1.0f);
    std::vector<float> V = hwr_uniform(size, 303, -1.0f, 1.0f);
    std::vector<float> want(size);
    std::vector<double> p(seq);
    for (int h = 0; h < heads; ++h)
        for (int i = 0; i < seq; ++i) {
            const float* q = &Q[((size_t)h * seq + i) * d];
            double m = -1e300, sum = 0.0;
            for (int j = 0; j < seq; ++j) {
                const float* k = &K[((size_t)h * seq + j) * d];
                double s = 0.0;
                for (int t = 0; t < d; ++t) s += (double)q[t] * k[t];
                p[j] = s / std::sqrt((double)d);
                m = p[j] > m ? p[j] : m;
            }
            for (int j = 0; j < seq; ++j) sum += p[j] = std::exp(p[j] - m);
            for (int t = 0; t < d; ++t) {
                double o = 0.0;
                for (int j = 0; j < seq; ++j) o += p[j] * V[((size_t)h * seq + j) * d + t];
                want[((size_t)h * seq + i) * d + t] = (float)(o / sum);
            }
        }

    HwrBuffer<float> dQ(Q), dK(K), dV(V), dO(size);
    float ms = hwr_time_ms([&] { launch_attention(dQ.ptr, dK.ptr, dV.ptr, dO.ptr, heads, seq); });
    return hwr_finish(hwr_check_close("O", dO.download(), want, 1e-5, 1e-4), ms);
}

#include "solution.cu"
