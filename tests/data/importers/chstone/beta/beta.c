#include <stdio.h>
#include "helper.c"

int
main ()
{
  int main_result = (helper_add (10, 1) != 11);
  printf ("%d\n", main_result);
  return main_result;
}
