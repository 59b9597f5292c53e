// Test harness: deterministic inputs, CPU reference, tolerance check, kernel timing.
#include "hwrepair_check.cuh"

// Implemented in solution.cu: z[i] = a * x[i] + y[i] for 0 <= i < n (device pointers).
void launch_saxpy(float a, const float* x, const float* y, float* z, int n);

int main()
{
    const int n = HWR_SIZE((1 << 24) + 3, 4099);
    const float a = 1.75f;
    std::vector<float> x = hwr_uniform(n, 11, -2.0f, 2.0f);
    std::vector<float> y = hwr_uniform(n, 12, -2.0f, 2.0f);
    std::vector<float> want(n);
    for (int i = 0; i < n; ++i) want[i] = a * x[i] + y[i];

    HwrBuffer<float> dx(x), dy(y), dz(n);
    float ms = hwr_time_ms([&] { launch_saxpy(a, dx.ptr, dy.ptr, dz.ptr, n); });
    return hwr_finish(hwr_check_close("z", dz.download(), want, 1e-6, 1e-6), ms);
}

#include "solution.cu"
