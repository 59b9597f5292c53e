// Test harness: deterministic inputs, CPU reference, exact check, kernel timing.
#include "hwrepair_check.cuh"

// Implemented in solution.cu: for each of `batch` matrices stored back to back, out's
// b-th cols x rows matrix = transpose of in's b-th rows x cols matrix (row-major, device).
void launch_batched_transpose(const float* in, float* out, int batch, int rows, int cols);

int main()
{
    const int batch = 8, rows = HWR_SIZE(2048, 32), cols = 2048;
    const size_t size = (size_t)rows * cols;
    std::vector<float> in = hwr_uniform(batch * size, 131, -1.0f, 1.0f);
    std::vector<float> want(in.size());
    for (int b = 0; b < batch; ++b)
        for (int r = 0; r < rows; ++r)
            for (int c = 0; c < cols; ++c) want[b * size + (size_t)c * rows + r] = in[b * size + (size_t)r * cols + c];

    HwrBuffer<float> din(in), dout(in.size());
    float ms = hwr_time_ms([&] { launch_batched_transpose(din.ptr, dout.ptr, batch, rows, cols); });
    return hwr_finish(hwr_check_close("out", dout.download(), want, 0.0, 0.0), ms);
}

#include "solution.cu"
