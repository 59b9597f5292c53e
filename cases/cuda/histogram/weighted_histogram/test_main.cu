// Test harness: deterministic inputs, CPU reference, tolerance check, kernel timing.
#include "hwrepair_check.cuh"

// Implemented in solution.cu: sums[b] = sum of weights[i] over i with keys[i] == b, for 256
// bins in double precision (device pointers; sums holds garbage on entry).
void launch_weighted_histogram(const int* keys, const float* weights, double* sums, int n);

int main()
{
    const int n = HWR_SIZE((1 << 23) + 5, 20005);
    std::vector<int> keys(n);
    HwrRng rng(261);
    for (int& k : keys) k = rng.integer(0, 3) == 0 ? rng.integer(0, 255) : rng.integer(0, 7);
    std::vector<float> weights = hwr_uniform(n, 262, 0.0f, 1.0f);
    std::vector<double> exact(256, 0.0);
    for (int i = 0; i < n; ++i) exact[keys[i]] += weights[i];

    HwrBuffer<int> dkeys(keys);
    HwrBuffer<float> dweights(weights);
    HwrBuffer<double> dsums(256);
    float ms = hwr_time_ms([&] { launch_weighted_histogram(dkeys.ptr, dweights.ptr, dsums.ptr, n); });
    std::vector<double> sums = dsums.download();
    std::vector<float> got(sums.begin(), sums.end()), want(exact.begin(), exact.end());
    return hwr_finish(hwr_check_close("sums", got, want, 1e-6, 1e-6), ms);
}

#include "solution.cu"
