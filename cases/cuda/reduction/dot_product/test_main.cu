// Test harness: deterministic inputs, CPU reference, exact check, kernel timing.
#include "hwrepair_check.cuh"

// Implemented in solution.cu: *out = sum of x[i] * y[i] for 0 <= i < n (device pointers).
void launch_dot(const float* x, const float* y, float* out, int n);

int main()
{
    const int n = HWR_SIZE((1 << 24) + 9, 30001);
    // Small integers: products and all partial sums are exact in any order.
    std::vector<float> x = hwr_small_ints(n, 61, -2, 2);
    std::vector<float> y = hwr_small_ints(n, 62, -2, 2);
    double total = 0.0;
    for (int i = 0; i < n; ++i) total += (double)x[i] * y[i];
    std::vector<float> want(1, (float)total);

    HwrBuffer<float> dx(x), dy(y), dout(1);
    float ms = hwr_time_ms([&] { launch_dot(dx.ptr, dy.ptr, dout.ptr, n); });
    return hwr_finish(hwr_check_close("dot", dout.download(), want, 0.0, 0.0), ms);
}

#include "solution.cu"
