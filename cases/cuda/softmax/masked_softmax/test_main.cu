// Test harness: deterministic inputs, CPU reference, tolerance check, kernel timing.
#include "hwrepair_check.cuh"

// Implemented in solution.cu: causal softmax of `heads` row-major seq x seq matrices
// stored back to back: row r uses columns 0..r, columns above r are 0 (device pointers).
void launch_masked_softmax(const float* scores, float* out, int heads, int seq);

int main()
{
    const int heads = HWR_SIZE(4, 2), seq = HWR_SIZE(2048, 300);
    std::vector<float> in = hwr_uniform((size_t)heads * seq * seq, 201, -20.0f, 20.0f);
    std::vector<float> want(in.size());
    for (size_t row = 0; row < (size_t)heads * seq; ++row) {
        const int r = (int)(row % seq);
        const float* x = &in[row * seq];
        float m = x[0];
        for (int c = 1; c <= r; ++c) m = x[c] > m ? x[c] : m;
        double s = 0.0;
        for (int c = 0; c <= r; ++c) s += std::exp((double)x[c] - m);
        for (int c = 0; c < seq; ++c) want[row * seq + c] = c <= r ? (float)(std::exp((double)x[c] - m) / s) : 0.0f;
    }

    HwrBuffer<float> din(in), dout(in.size());
    float ms = hwr_time_ms([&] { launch_masked_softmax(din.ptr, dout.ptr, heads, seq); });
    return hwr_finish(hwr_check_close("out", dout.download(), want, 1e-7, 1e-4), ms);
}

#include "solution.cu"
