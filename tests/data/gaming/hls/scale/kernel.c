/* scale: every output is three halves of its input, rounded down. The driver owns the data and the output file. */
void scale(const int *in, int *out, int n)
{
    for (int i = 0; i < n; i++)
        out[i] = (3 * in[i]) >> 1;
}
