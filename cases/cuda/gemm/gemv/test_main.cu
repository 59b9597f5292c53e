// Test harness: deterministic inputs, CPU reference, exact check, kernel timing.
#include "hwrepair_check.cuh"

// Implemented in solution.cu: y = A * x, A row-major rows x cols (cols % 4 == 0), device
// pointers.
void launch_gemv(const float* A, const float* x, float* y, int rows, int cols);

int main()
{
    const int rows = HWR_SIZE(8192, 50), cols = HWR_SIZE_MULTIPLE(4096, 200, 4);
    // Small integers: every partial sum is exact in any order.
    std::vector<float> A = hwr_small_ints((size_t)rows * cols, 161, -2, 2);
    std::vector<float> x = hwr_small_ints(cols, 162, -3, 3);
    std::vector<float> want(rows);
    for (int r = 0; r < rows; ++r) {
        double acc = 0.0;
        for (int c = 0; c < cols; ++c) acc += (double)A[(size_t)r * cols + c] * x[c];
        want[r] = (float)acc;
    }

    HwrBuffer<float> dA(A), dx(x), dy(rows);
    float ms = hwr_time_ms([&] { launch_gemv(dA.ptr, dx.ptr, dy.ptr, rows, cols); });
    return hwr_finish(hwr_check_close("y", dy.download(), want, 0.0, 0.0), ms);
}

#include "solution.cu"
