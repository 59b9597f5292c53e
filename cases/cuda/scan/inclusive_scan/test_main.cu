// Test harness: deterministic inputs, CPU reference, exact check, kernel timing.
#include "hwrepair_check.cuh"

// Implemented in solution.cu: out[i] = in[0] + ... + in[i] for 0 <= i < n (device pointers).
void launch_inclusive_scan(const int* in, int* out, int n);

int main()
{
    const int n = HWR_SIZE((1 << 24) + 123, 9000);
    std::vector<int> in(n), want(n);
    HwrRng rng(81);
    for (int& v : in) v = rng.integer(-5, 6);
    long long running = 0;
    for (int i = 0; i < n; ++i) want[i] = (int)(running += in[i]);

    HwrBuffer<int> din(in), dout(n);
    float ms = hwr_time_ms([&] { launch_inclusive_scan(din.ptr, dout.ptr, n); });
    return hwr_finish(hwr_check_equal("out", dout.download(), want), ms);
}

#include "solution.cu"
