/* tri-imper: three-point smoothing of a line in the 3.x manner (an `_imper` kernel that swaps its
   buffers by copying), with the 3.x array dump. */
#include <polybench.h>
#include "tri-imper.h"

static double A[N];
static double B[N];

static void init_array (int n)
{
  int i;
  for (i = 0; i < n; i++)
    A[i] = (double) (i * i % 7) / 3.0;
}

static void print_array (int n)
{
  int i;
  for (i = 0; i < n; i++)
    fprintf (stderr, "%0.6f\n", A[i]);
}

static void kernel_tri_smooth_imper (int n)
{
  int t, i;
  for (t = 0; t < 4; t++)
    {
      for (i = 1; i < n - 1; i++)
        B[i] = (A[i - 1] + A[i] + A[i + 1]) / 3.0;
      for (i = 1; i < n - 1; i++)
        A[i] = B[i];
    }
}

int main (int argc, char **argv)
{
  init_array (N);
  kernel_tri_smooth_imper (N);
  polybench_prevent_dce (print_array (N));
  return 0;
}
