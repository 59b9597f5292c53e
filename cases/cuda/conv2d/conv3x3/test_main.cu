// Test harness: deterministic inputs, CPU reference, tolerance check, kernel timing.
#include "hwrepair_check.cuh"

// Implemented in solution.cu: out[y][x] = sum over dy, dx in 0..2 of
// filter[dy][dx] * in[y + dy - 1][x + dx - 1], pixels outside the image being 0; row-major
// height x width images, a 3x3 row-major filter (all device pointers).
void launch_conv3x3(const float* in, const float* filter, float* out, int height, int width);

int main()
{
    const int height = HWR_SIZE(4099, 37), width = HWR_SIZE(4093, 70);
    std::vector<float> in = hwr_uniform((size_t)height * width, 271, 0.0f, 1.0f);
    std::vector<float> filter = {0.05f, -0.20f, 0.10f, 0.30f, 0.45f, -0.15f, 0.00f, 0.25f, 0.20f};
    std::vector<float> want(in.size());
    for (int y = 0; y < height; ++y)
        for (int x = 0; x < width; ++x) {
            double acc = 0.0;
            for (int dy = 0; dy < 3; ++dy)
                for (int dx = 0; dx < 3; ++dx) {
                    const int yy = y + dy - 1, xx = x + dx - 1;
                    if (yy >= 0 && yy < height && xx >= 0 && xx < width)
                        acc += (double)filter[dy * 3 + dx] * in[(size_t)yy * width + xx];
                }
            want[(size_t)y * width + x] = (float)acc;
        }

    HwrBuffer<float> din(in), dfilter(filter), dout(in.size());
    float ms = hwr_time_ms([&] { launch_conv3x3(din.ptr, dfilter.ptr, dout.ptr, height, width); });
    return hwr_finish(hwr_check_close("out", dout.download(), want, 1e-5, 1e-5), ms);
}

#include "solution.cu"
