#include <stdio.h>
#include "helper.c"

int
main ()
{
  int main_result = (helper_add (2, 3) != 5) + (helper_add (-4, 4) != 0);
  printf ("%d\n", main_result);
  return main_result;
}
