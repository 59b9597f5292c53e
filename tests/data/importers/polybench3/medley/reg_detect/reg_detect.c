/* reg_detect: a 3.x-only kernel (4.x dropped it): running sums of a signal, with the 3.x array dump. */
#include <polybench.h>
#include "reg_detect.h"

static int x[N];
static int sum[N];

static void init_array (int n)
{
  int i;
  for (i = 0; i < n; i++)
    x[i] = (i * 5) % 11;
}

static void print_array (int n)
{
  int i;
  for (i = 0; i < n; i++)
    fprintf (stderr, "%d\n", sum[i]);
}

static void kernel_reg_detect (int n)
{
  int i, acc = 0;
  for (i = 0; i < n; i++)
    {
      acc += x[i];
      sum[i] = acc;
    }
}

int main (int argc, char **argv)
{
  init_array (N);
  kernel_reg_detect (N);
  polybench_prevent_dce (print_array (N));
  return 0;
}
