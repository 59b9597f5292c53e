// Test harness: deterministic inputs, CPU reference, tolerance check, kernel timing.
#include "hwrepair_check.cuh"

// Implemented in solution.cu: a horizontal then a vertical 9-tap blur with the given taps,
// indices clamped to the image (row-major height x width, device pointers).
void launch_separable_blur(const float* in, const float* taps, float* out, int height, int width);

int main()
{
    const int height = HWR_SIZE(4096, 40), width = HWR_SIZE(4100, 50);
    std::vector<float> in = hwr_uniform((size_t)height * width, 291, 0.0f, 1.0f);
    std::vector<float> taps = {0.02f, 0.05f, 0.11f, 0.18f, 0.28f, 0.18f, 0.11f, 0.05f, 0.02f};
    auto clamp = [](int i, int n) { return i < 0 ? 0 : (i >= n ? n - 1 : i); };
    std::vector<double> rows_pass(in.size());
    for (int y = 0; y < height; ++y)
        for (int x = 0; x < width; ++x) {
            double acc = 0.0;
            for (int k = 0; k < 9; ++k) acc += (double)taps[k] * in[(size_t)y * width + clamp(x + k - 4, width)];
            rows_pass[(size_t)y * width + x] = acc;
        }
    std::vector<float> want(in.size());
    for (int y = 0; y < height; ++y)
        for (int x = 0; x < width; ++x) {
            double acc = 0.0;
            for (int k = 0; k < 9; ++k) acc += taps[k] * rows_pass[(size_t)clamp(y + k - 4, height) * width + x];
            want[(size_t)y * width + x] = (float)acc;
        }

    HwrBuffer<float> din(in), dtaps(taps), dout(in.size());
    float ms = hwr_time_ms([&] { launch_separable_blur(din.ptr, dtaps.ptr, dout.ptr, height, width); });
    return hwr_finish(hwr_check_close("out", dout.download(), want, 1e-5, 1e-5), ms);
}

#include "solution.cu"
