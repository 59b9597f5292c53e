/* Harness-owned driver: makes the inputs, calls the kernel, writes its outputs to output.data.
 * The harness compares output.data with the reference build's; the candidate never sees that. */
#include <stdio.h>

void scale(const int *in, int *out, int n);

int main(void)
{
    enum { N = 64 };
    int in[N], out[N];
    unsigned s = 12345u;
    for (int i = 0; i < N; i++) {
        s = s * 1103515245u + 12345u;
        in[i] = (int)((s >> 16) % 1000u);
        out[i] = -1;
    }
    scale(in, out, N);
    FILE *f = fopen("output.data", "w");
    if (f == NULL)
        return 2;
    for (int i = 0; i < N; i++)
        fprintf(f, "%d\n", out[i]);
    return fclose(f) != 0;
}
