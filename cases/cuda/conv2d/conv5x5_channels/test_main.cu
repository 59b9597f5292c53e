// Test harness: deterministic inputs, CPU reference, tolerance check, kernel timing.
#include "hwrepair_check.cuh"

// Implemented in solution.cu: out[y][x] = sum over c < 3, dy, dx < 5 of
// weights[c][dy][dx] * in[c][y + dy - 2][x + dx - 2] with zero padding; `in` is 3 planes
// of height x width, all row-major device arrays.
void launch_conv5x5(const float* in, const float* weights, float* out, int height, int width);

int main()
{
    const int height = HWR_SIZE(2048, 30), width = HWR_SIZE(2050, 40), plane = height * width;
    std::vector<float> in = hwr_uniform((size_t)3 * plane, 281, -1.0f, 1.0f);
    std::vector<float> weights = hwr_uniform(75, 282, -0.2f, 0.2f);
    std::vector<float> want((size_t)plane);
    for (int y = 0; y < height; ++y)
        for (int x = 0; x < width; ++x) {
            double acc = 0.0;
            for (int c = 0; c < 3; ++c)
                for (int dy = 0; dy < 5; ++dy)
                    for (int dx = 0; dx < 5; ++dx) {
                        const int yy = y + dy - 2, xx = x + dx - 2;
                        if (yy >= 0 && yy < height && xx >= 0 && xx < width)
                            acc += (double)weights[(c * 5 + dy) * 5 + dx] * in[(size_t)c * plane + (size_t)yy * width + xx];
                    }
            want[(size_t)y * width + x] = (float)acc;
        }

    HwrBuffer<float> din(in), dweights(weights), dout(want.size());
    float ms = hwr_time_ms([&] { launch_conv5x5(din.ptr, dweights.ptr, dout.ptr, height, width); });
    return hwr_finish(hwr_check_close("out", dout.download(), want, 1e-5, 1e-4), ms);
}

#include "solution.cu"
