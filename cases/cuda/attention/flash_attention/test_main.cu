// Test harness: deterministic inputs, CPU reference, tolerance check, kernel timing.
#include "hwrepair_check.cuh"

// Implemented in solution.cu: O = softmax(Q K^T / sqrt(64)) V for each of `heads` heads;
// Q, K, V, O are [heads][seq][64] row-major device arrays; seq a multiple of 64.
void launch_flash_attention(const float* Q, const float* K, const float* V, float* O, int heads, int seq);

int main()
{
    const int heads = HWR_SIZE(16, 2), seq = HWR_SIZE_MULTIPLE(1024, 128, 64), d = 64;
    const size_t size = (size_t)heads * seq * d;
    std::vector<float> Q = hwr_uniform(size, 321, -1.0f, 1.0f);
    std::vector<float> K = hwr_uniform(size, 322, -1.0f, 1.0f);
    std::vector<float> V = hwr_uniform(size, 323, -1.0f, 1.0f);
    // The CPU reference covers every 16th query row and the last one of each head.
    std::vector<float> want;
    std::vector<size_t> checked;
    std::vector<double> p(seq);
    for (int h = 0; h < heads; ++h)
        for (int i = 0; i < seq; ++i) {
            if (i % 16 != 0 && i != seq - 1) continue;
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
                want.push_back((float)(o / sum));
                checked.push_back(((size_t)h * seq + i) * d + t);
            }
        }

    HwrBuffer<float> dQ(Q), dK(K), dV(V), dO(size);
    float ms = hwr_time_ms([&] { launch_flash_attention(dQ.ptr, dK.ptr, dV.ptr, dO.ptr, heads, seq); });
    std::vector<float> O = dO.download(), got;
    for (size_t index : checked) got.push_back(O[index]);
    return hwr_finish(hwr_check_close("O(sampled rows)", got, want, 1e-5, 1e-4), ms);
}

#include "solution.cu"
