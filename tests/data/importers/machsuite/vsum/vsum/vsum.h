#include "support.h"
#define N 8
#define TYPE int32_t

void vsum(TYPE a[N], TYPE b[N], TYPE out[N]);

struct bench_args_t {
  TYPE a[N];
  TYPE b[N];
  TYPE out[N];
};
