/* tri: three-point smoothing of a line, a PolyBench-style kernel with its array dump. */
#include <polybench.h>
#include "tri.h"

static double A[N];
static double B[N];

static void init_array(void)
{
  int i;
  for (i = 0; i < N; i++)
    A[i] = (double)(i * i % 7) / 3.0;
}

static void kernel_tri_smooth(int n)
{
  int t, i;
  for (t = 0; t < 4; t++) {
    for (i = 1; i < n - 1; i++)
      B[i] = (A[i - 1] + A[i] + A[i + 1]) / 3.0;
    for (i = 1; i < n - 1; i++)
      A[i] = B[i];
  }
}

int main(void)
{
  int i;
  init_array();
  kernel_tri_smooth(N);
#ifdef POLYBENCH_DUMP_ARRAYS
  for (i = 0; i < N; i++)
    fprintf(POLYBENCH_DUMP_TARGET, "%0.6f\n", A[i]);
#endif
  polybench_prevent_dce(A[0]);
  return 0;
}
