/* a helper both programs carry a copy of */
int
helper_add (int a, int b)
{
  return a + b;
}
