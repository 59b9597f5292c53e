// Test harness: deterministic inputs, CPU reference, tolerance check, kernel timing.
#include "hwrepair_check.cuh"

// Implemented in solution.cu: out[r][c] = gelu(x[r][c] + bias[c]), row-major, device pointers.
void launch_gelu_bias(const float* x, const float* bias, float* out, int rows, int cols);

static float gelu_reference(float v)
{
    return 0.5f * v * (1.0f + std::tanh(0.7978845608f * (v + 0.044715f * v * v * v)));
}

int main()
{
    const int rows = HWR_SIZE(1024, 24), cols = HWR_SIZE(4096 + 32, 300);
    std::vector<float> x = hwr_uniform((size_t)rows * cols, 21, -4.0f, 4.0f);
    std::vector<float> bias = hwr_uniform(cols, 22, -1.0f, 1.0f);
    std::vector<float> want(x.size());
    for (int r = 0; r < rows; ++r)
        for (int c = 0; c < cols; ++c) want[(size_t)r * cols + c] = gelu_reference(x[(size_t)r * cols + c] + bias[c]);

    HwrBuffer<float> dx(x), dbias(bias), dout(x.size());
    float ms = hwr_time_ms([&] { launch_gelu_bias(dx.ptr, dbias.ptr, dout.ptr, rows, cols); });
    return hwr_finish(hwr_check_close("out", dout.download(), want, 1e-5, 1e-5), ms);
}

#include "solution.cu"
