/* includes the shared header by its path in the MachSuite tree, as backprop does */
#include "../../common/support.h"
#define N 8
#define TYPE int32_t

void vdiff(TYPE a[N], TYPE b[N], TYPE out[N]);

struct bench_args_t {
  TYPE a[N];
  TYPE b[N];
  TYPE out[N];
};
