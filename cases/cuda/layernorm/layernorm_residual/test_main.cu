// Test harness: deterministic inputs, CPU reference, tolerance check, kernel timing.
#include "hwrepair_check.cuh"

// Implemented in solution.cu: h = x + residual (written to h_out) and y = layernorm(h) per
// row with per-column gamma and beta; row-major rows x cols, cols <= 2048 (device pointers).
void launch_add_layernorm(const float* x, const float* residual, const float* gamma, const float* beta, float* h_out,
                          float* y, int rows, int cols, float eps);

int main()
{
    const int rows = HWR_SIZE(16384, 20), cols = HWR_SIZE(768, 300);
    const float eps = 1e-5f;
    std::vector<float> x = hwr_uniform((size_t)rows * cols, 231, -2.0f, 2.0f);
    std::vector<float> res = hwr_uniform((size_t)rows * cols, 232, -1.0f, 3.0f);
    std::vector<float> gamma = hwr_uniform(cols, 233, 0.5f, 1.5f);
    std::vector<float> beta = hwr_uniform(cols, 234, -0.5f, 0.5f);
    std::vector<float> want_h(x.size()), want_y(x.size());
    for (int r = 0; r < rows; ++r) {
        const size_t base = (size_t)r * cols;
        double mean = 0.0, var = 0.0;
        for (int c = 0; c < cols; ++c) mean += want_h[base + c] = x[base + c] + res[base + c];
        mean /= cols;
        for (int c = 0; c < cols; ++c) var += (want_h[base + c] - mean) * (want_h[base + c] - mean);
        const double inv_std = 1.0 / std::sqrt(var / cols + eps);
        for (int c = 0; c < cols; ++c) want_y[base + c] = (float)((want_h[base + c] - mean) * inv_std * gamma[c] + beta[c]);
    }

    HwrBuffer<float> dx(x), dres(res), dgamma(gamma), dbeta(beta), dh(x.size()), dy(x.size());
    float ms = hwr_time_ms(
        [&] { launch_add_layernorm(dx.ptr, dres.ptr, dgamma.ptr, dbeta.ptr, dh.ptr, dy.ptr, rows, cols, eps); });
    size_t bad = hwr_check_close("h_out", dh.download(), want_h, 0.0, 0.0);
    bad += hwr_check_close("y", dy.download(), want_y, 1e-5, 1e-4);
    return hwr_finish(bad, ms);
}

#include "solution.cu"
