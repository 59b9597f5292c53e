// Test harness: deterministic inputs, CPU reference, tolerance check, kernel timing.
#include "hwrepair_check.cuh"

// Implemented in solution.cu: RMS norm of each row of the row-major rows x cols `in`
// (cols % 4 == 0) with per-column weights (device pointers).
void launch_rmsnorm(const float* in, const float* weight, float* out, int rows, int cols, float eps);

int main()
{
    const int rows = HWR_SIZE(1024, 8), cols = HWR_SIZE_MULTIPLE(16384, 4096, 4);
    const float eps = 1e-6f;
    std::vector<float> in = hwr_uniform((size_t)rows * cols, 221, -2.0f, 2.0f);
    std::vector<float> weight = hwr_uniform(cols, 222, 0.5f, 1.5f);
    std::vector<float> want(in.size());
    for (int r = 0; r < rows; ++r) {
        const float* x = &in[(size_t)r * cols];
        double sq = 0.0;
        for (int c = 0; c < cols; ++c) sq += (double)x[c] * x[c];
        const double scale = 1.0 / std::sqrt(sq / cols + eps);
        for (int c = 0; c < cols; ++c) want[(size_t)r * cols + c] = (float)(x[c] * scale * weight[c]);
    }

    HwrBuffer<float> din(in), dweight(weight), dout(in.size());
    float ms = hwr_time_ms([&] { launch_rmsnorm(din.ptr, dweight.ptr, dout.ptr, rows, cols, eps); });
    return hwr_finish(hwr_check_close("out", dout.download(), want, 1e-5, 1e-4), ms);
}

#include "solution.cu"
