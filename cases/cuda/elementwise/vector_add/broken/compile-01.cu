// c = a + b over n floats: a grid-stride loop, enough blocks to fill the GPU.
#include <algorithm>

__global__ void vector_add_kernel(const float* __restrict__ a, const float* __restrict__ b, float* __restrict__ c,
                                  int n)
{
    const int stride = std::min<int>(blockDim.x * gridDim.x, n);
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride) {
        c[i] = a[i] + b[i];
    }
}

void launch_vector_add(const float* a, const float* b, float* c, int n)
{
    const int threads = 256;
    int blocks = (n + threads - 1) / threads;
    if (blocks > 8192) blocks = 8192;
    vector_add_kernel<<<blocks, threads>>>(a, b, c, n);
}
