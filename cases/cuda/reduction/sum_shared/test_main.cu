// Test harness: deterministic inputs, CPU reference, exact check, kernel timing.
#include "hwrepair_check.cuh"

// Implemented in solution.cu: *out = in[0] + ... + in[n-1] (device pointers).
void launch_sum(const float* in, float* out, int n);

int main()
{
    const int n = HWR_SIZE((1 << 25) + 13, 70001);
    // Small integers: every partial sum is exact, so any summation order gives the same float.
    std::vector<float> in = hwr_small_ints(n, 41, -2, 2);
    double total = 0.0;
    for (float v : in) total += v;
    std::vector<float> want(1, (float)total);

    HwrBuffer<float> din(in), dout(1);
    float ms = hwr_time_ms([&] { launch_sum(din.ptr, dout.ptr, n); });
    return hwr_finish(hwr_check_close("sum", dout.download(), want, 0.0, 0.0), ms);
}

#include "solution.cu"
