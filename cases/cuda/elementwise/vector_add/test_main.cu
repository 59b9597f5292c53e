// Test harness: deterministic inputs, CPU reference, tolerance check, kernel timing.
#include "hwrepair_check.cuh"

// Implemented in solution.cu: c[i] = a[i] + b[i] for 0 <= i < n (device pointers).
void launch_vector_add(const float* a, const float* b, float* c, int n);

int main()
{
    const int n = HWR_SIZE((1 << 24) + 77, 5000);
    std::vector<float> a = hwr_uniform(n, 1, -1.0f, 1.0f);
    std::vector<float> b = hwr_uniform(n, 2, -1.0f, 1.0f);
    std::vector<float> want(n);
    for (int i = 0; i < n; ++i) want[i] = a[i] + b[i];

    HwrBuffer<float> da(a), db(b), dc(n);
    float ms = hwr_time_ms([&] { launch_vector_add(da.ptr, db.ptr, dc.ptr, n); });
    return hwr_finish(hwr_check_close("c", dc.download(), want, 0.0, 0.0), ms);
}

#include "solution.cu"
