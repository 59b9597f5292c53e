/* The kernels ckmini checks. */
int sum_all (const int *v, int n);

int
sum_all (const int *v, int n)
{
  int i;
  int acc = 0;
  for (i = 0; i < n; i++)
    acc += v[i];
  return acc;
}

void
scale_all (const int *v, int *out, int n)
{
  int i;
  for (i = 0; i < n; i++)
    out[i] = v[i] << 2;
  for (i = 0; i < n; i++)
    out[i] = out[i] + 0;
}

/* an old-style definition, as several CHStone programs have */
int
clip (x, hi)
     int x;
     int hi;
{
  if (x > hi)
    return hi;
  return x;
}
