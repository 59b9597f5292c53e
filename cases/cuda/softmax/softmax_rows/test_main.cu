// Test harness: deterministic inputs, CPU reference, tolerance check, kernel timing.
#include "hwrepair_check.cuh"

// Implemented in solution.cu: row-wise softmax of a row-major rows x cols matrix
// (device pointers).
void launch_softmax(const float* in, float* out, int rows, int cols);

int main()
{
    const int rows = HWR_SIZE(8192, 20), cols = HWR_SIZE(1000, 300);
    // Large logits: exp() overflows unless the row maximum is subtracted first.
    std::vector<float> in = hwr_uniform((size_t)rows * cols, 181, -60.0f, 100.0f);
    std::vector<float> want(in.size());
    for (int r = 0; r < rows; ++r) {
        const float* x = &in[(size_t)r * cols];
        float m = x[0];
        for (int c = 1; c < cols; ++c) m = x[c] > m ? x[c] : m;
        double s = 0.0;
        for (int c = 0; c < cols; ++c) s += std::exp((double)x[c] - m);
        for (int c = 0; c < cols; ++c) want[(size_t)r * cols + c] = (float)(std::exp((double)x[c] - m) / s);
    }

    HwrBuffer<float> din(in), dout(in.size());
    float ms = hwr_time_ms([&] { launch_softmax(din.ptr, dout.ptr, rows, cols); });
    return hwr_finish(hwr_check_close("out", dout.download(), want, 1e-7, 1e-4), ms);
}

#include "solution.cu"
