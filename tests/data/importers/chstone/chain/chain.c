/* chain: walks a linked list three ways, in the CHStone manner: test vectors inside, main_result
   printed last and returned. The same statements recur in several functions, as in CHStone's own
   programs, so a bug spec is placed by the function it names. */
#include <stdio.h>

struct node
{
  int value;
  const struct node *next;
};

static const struct node n3 = { 4, 0 };
static const struct node n2 = { 3, &n3 };
static const struct node n1 = { 2, &n2 };

int
chain_last (const struct node *p)
{
  while (p->next != 0)
    p = p->next;
  return p->value;
}

int
chain_sum (const struct node *p)
{
  int s = 0;
  while (p != 0)
    {
      s += p->value;
      p = p->next;
    }
  return s;
}

int
chain_len (const struct node *p)
{
  int n = 0;
  while (p != 0)
    {
      n++;
      p = p->next;
    }
  return n;
}

int
chain_check (const struct node *p)
{
  return (chain_len (p) != 3) + (chain_sum (p) != 9);
}

int
main ()
{
  int main_result = chain_check (&n1) + (chain_last (&n1) != 4);
  printf ("%d\n", main_result);
  return main_result;
}
