// Test harness: deterministic inputs, CPU reference, exact check, kernel timing.
#include "hwrepair_check.cuh"

// Implemented in solution.cu: copy every in[i] > 0 to out in order; *count = how many
// (device pointers; out has room for n values).
void launch_compact(const float* in, float* out, int* count, int n);

int main()
{
    const int n = HWR_SIZE((1 << 24) + 7, 5000);
    std::vector<float> in = hwr_uniform(n, 101, -1.0f, 1.0f);
    std::vector<float> want;
    for (float v : in)
        if (v > 0.0f) want.push_back(v);

    HwrBuffer<float> din(in), dout(n);
    HwrBuffer<int> dcount(1);
    float ms = hwr_time_ms([&] { launch_compact(din.ptr, dout.ptr, dcount.ptr, n); });
    std::vector<int> count = dcount.download();
    size_t bad = hwr_check_equal("count", count, std::vector<int>(1, (int)want.size()));
    std::vector<float> got = dout.download();
    got.resize(want.size());
    bad += hwr_check_close("out", got, want, 0.0, 0.0);
    return hwr_finish(bad, ms);
}

#include "solution.cu"
