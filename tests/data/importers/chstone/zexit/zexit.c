/* zexit: reports its mismatches but exits 0 even when some were found. */
#include <stdio.h>

int
double_it (int x)
{
  return x * 2;
}

int
main ()
{
  int main_result = 0;
  int i;
  for (i = 1; i <= 4; i++)
    main_result += (double_it (i) != i + i);
  printf ("%d\n", main_result);
  return 0;
}
