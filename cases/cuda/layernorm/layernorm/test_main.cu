// Test harness: deterministic inputs, CPU reference, tolerance check, kernel timing.
#include "hwrepair_check.cuh"

// Implemented in solution.cu: layer norm of each row of the row-major rows x cols `in`
// with per-column gamma and beta (device pointers).
void launch_layernorm(const float* in, const float* gamma, const float* beta, float* out, int rows, int cols,
                      float eps);

int main()
{
    const int rows = HWR_SIZE(8192, 20), cols = HWR_SIZE(1024, 300);
    const float eps = 1e-5f;
    std::vector<float> in = hwr_uniform((size_t)rows * cols, 211, -3.0f, 5.0f);
    std::vector<float> gamma = hwr_uniform(cols, 212, 0.5f, 1.5f);
    std::vector<float> beta = hwr_uniform(cols, 213, -0.5f, 0.5f);
    std::vector<float> want(in.size());
    for (int r = 0; r < rows; ++r) {
        const float* x = &in[(size_t)r * cols];
        double mean = 0.0, var = 0.0;
        for (int c = 0; c < cols; ++c) mean += x[c];
        mean /= cols;
        for (int c = 0; c < cols; ++c) var += (x[c] - mean) * (x[c] - mean);
        var /= cols;
        const double inv_std = 1.0 / std::sqrt(var + eps);
        for (int c = 0; c < cols; ++c) want[(size_t)r * cols + c] = (float)((x[c] - mean) * inv_std * gamma[c] + beta[c]);
    }

    HwrBuffer<float> din(in), dgamma(gamma), dbeta(beta), dout(in.size());
    float ms = hwr_time_ms([&] { launch_layernorm(din.ptr, dgamma.ptr, dbeta.ptr, dout.ptr, rows, cols, eps); });
    return hwr_finish(hwr_check_close("out", dout.download(), want, 1e-5, 1e-4), ms);
}

#include "solution.cu"
