// Test harness: deterministic inputs, CPU reference, exact check, kernel timing.
#include "hwrepair_check.cuh"

// Implemented in solution.cu: out (cols x rows) = transpose of in (rows x cols), both
// row-major device arrays.
void launch_transpose(const float* in, float* out, int rows, int cols);

int main()
{
    const int rows = HWR_SIZE(8192, 96), cols = HWR_SIZE(4096, 64);
    std::vector<float> in = hwr_uniform((size_t)rows * cols, 111, -1.0f, 1.0f);
    std::vector<float> want(in.size());
    for (int r = 0; r < rows; ++r)
        for (int c = 0; c < cols; ++c) want[(size_t)c * rows + r] = in[(size_t)r * cols + c];

    HwrBuffer<float> din(in), dout(in.size());
    float ms = hwr_time_ms([&] { launch_transpose(din.ptr, dout.ptr, rows, cols); });
    return hwr_finish(hwr_check_close("out", dout.download(), want, 0.0, 0.0), ms);
}

#include "solution.cu"
