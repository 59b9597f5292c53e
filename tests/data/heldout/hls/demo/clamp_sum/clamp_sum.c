/* clamp_sum.c - saturating sum of a table, checked against a value computed by hand. */
#include <stdint.h>
#include <stdio.h>

static const int16_t table[8] = { 1200, -300, 2500, 4000, -1500, 900, 3000, -200 };

static int32_t clamp(int32_t v, int32_t lo, int32_t hi)
{
    return v < lo ? lo : (v > hi ? hi : v);
}

int main(void)
{
    int32_t sum = 0;
    for (int i = 0; i < 8; i++)
        sum = clamp(sum + (table[i] >> 2), -2048, 2047);
    printf("sum = %d\n", (int)sum);
    return sum == 1997 ? 0 : 1;
}
