// z = a * x + y over n floats, reading and writing 16-byte float4 vectors where it can.

__global__ void saxpy_kernel(float a, const float* __restrict__ x, const float* __restrict__ y, float* __restrict__ z,
                             int n)
{
    const int stride = blockDim.x * gridDim.x;
    const int first = blockIdx.x * blockDim.x + threadIdx.x;
    const int n4 = n / 4;
    const float4* x4 = reinterpret_cast<const float4*>(x);
    const float4* y4 = reinterpret_cast<const float4*>(y);
    float4* z4 = reinterpret_cast<float4*>(z);
    for (int i = first; i < n4; i += stride) {
        const float4 xv = x4[i];
        const float4 yv = y4[i];
        z4[i] = make_float4(a * xv.x + yv.x, a * xv.y + yv.y, a * xv.z + yv.z, a * xv.w + yv.w);
    }
    for (int i = 4 * n4 + first; i < n; i += stride) {
        z[i] = a * x[i] + y[i];
    }
}

void launch_saxpy(float a, const float* x, const float* y, float* z, int n)
{
    const int threads = 256;
    int blocks = (n / 4 + threads - 1) / threads;
    if (blocks > 4096) blocks = 4096;
    if (blocks < 1) blocks = 1;
    saxpy_kernel<<<blocks, threads>>>(a, x, y, z, n);
}
