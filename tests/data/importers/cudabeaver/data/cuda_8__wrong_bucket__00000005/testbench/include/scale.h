#pragma once
__global__ void k_scale(float *x, float a, int n);
