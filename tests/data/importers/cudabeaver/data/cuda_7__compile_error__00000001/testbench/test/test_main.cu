#include <cstdio>
#include <cuda_runtime.h>
#include "scale.h"

int main() {
  const int n = 256;
  float h[n], *d;
  for (int i = 0; i < n; i++) h[i] = (float)i;
  cudaMalloc(&d, n * sizeof(float));
  cudaMemcpy(d, h, n * sizeof(float), cudaMemcpyHostToDevice);
  k_scale<<<(n + 127) / 128, 128>>>(d, 2.0f, n);
  cudaMemcpy(h, d, n * sizeof(float), cudaMemcpyDeviceToHost);
  for (int i = 0; i < n; i++)
    if (h[i] != 2.0f * i) { printf("FAILED at %d\n", i); return 1; }
  printf("PASSED\n");
  return 0;
}
