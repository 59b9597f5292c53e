/* rfail: its own self-check fails, so no bug injected here can be judged. */
#include <stdio.h>

int
triple (int x)
{
  return x * 3;
}

int
main ()
{
  int main_result = (triple (2) != 7);
  printf ("%d\n", main_result);
  return main_result;
}
