/* ckmini: a small self-checking program in the CHStone manner: test vectors inside, main_result
   printed last and returned. */
#include <stdio.h>
#include "ckmini_ops.c"

static const int in_data[8] = { 3, 1, 4, 1, 5, 9, 2, 6 };
static const int out_sum = 31;
static const int out_scaled[8] = { 12, 4, 16, 4, 20, 36, 8, 24 };

int main_result;

int
main ()
{
  int i;
  int scaled[8];
  main_result = 0;
  main_result += (sum_all (in_data, 8) != out_sum);
  scale_all (in_data, scaled, 8);
  for (i = 0; i < 8; i++)
    main_result += (scaled[i] != out_scaled[i]);
  main_result += (clip (in_data[5], 8) != 8);
  printf ("%d\n", main_result);
  return main_result;
}
