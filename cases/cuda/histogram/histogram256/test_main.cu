// Test harness: deterministic inputs, CPU reference, exact check, kernel timing.
#include "hwrepair_check.cuh"

// Implemented in solution.cu: bins[v] = number of bytes equal to v in data[0..n), for
// 256 bins (device pointers; bins holds garbage on entry).
void launch_histogram256(const unsigned char* data, unsigned int* bins, int n);

int main()
{
    const int n = HWR_SIZE((1 << 26) + 3, 40003);
    // A skewed image-like distribution: most bytes are dark, a third are exactly 0.
    std::vector<unsigned char> data(n);
    HwrRng rng(241);
    for (auto& v : data) {
        const uint32_t r = rng.next();
        v = (unsigned char)(r % 3 == 0 ? 0 : (r % 5 == 0 ? (r >> 8) & 0xFF : (r >> 8) & 0x0F));
    }
    std::vector<unsigned int> want(256, 0);
    for (unsigned char v : data) ++want[v];

    HwrBuffer<unsigned char> ddata(data);
    HwrBuffer<unsigned int> dbins(256);
    float ms = hwr_time_ms([&] { launch_histogram256(ddata.ptr, dbins.ptr, n); });
    return hwr_finish(hwr_check_equal("bins", dbins.download(), want), ms);
}

#include "solution.cu"
