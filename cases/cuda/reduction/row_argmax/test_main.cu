// Test harness: deterministic inputs, CPU reference, exact check, kernel timing.
#include "hwrepair_check.cuh"

// Implemented in solution.cu: out[r] = the column of the largest value of row r of the
// row-major rows x cols matrix m; ties go to the smallest column (device pointers).
void launch_row_argmax(const float* m, int* out, int rows, int cols);

int main()
{
    const int rows = HWR_SIZE(16384, 40), cols = HWR_SIZE(1000, 200);
    std::vector<float> m = hwr_uniform((size_t)rows * cols, 71, -10.0f, 10.0f);
    HwrRng rng(72);
    for (int r = 0; r < rows; r += 3) {  // ties: the same maximum twice in some rows
        int a = rng.integer(0, cols - 1), b = rng.integer(0, cols - 1);
        m[(size_t)r * cols + a] = m[(size_t)r * cols + b] = 11.0f;
    }
    std::vector<int> want(rows);
    for (int r = 0; r < rows; ++r) {
        int best = 0;
        for (int c = 1; c < cols; ++c)
            if (m[(size_t)r * cols + c] > m[(size_t)r * cols + best]) best = c;
        want[r] = best;
    }

    HwrBuffer<float> dm(m);
    HwrBuffer<int> dout(rows);
    float ms = hwr_time_ms([&] { launch_row_argmax(dm.ptr, dout.ptr, rows, cols); });
    return hwr_finish(hwr_check_equal("argmax", dout.download(), want), ms);
}

#include "solution.cu"
