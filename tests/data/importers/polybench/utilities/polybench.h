/* A small stand-in for PolyBench's utility header: the live-out dump goes to stderr. */
#ifndef POLYBENCH_H
#define POLYBENCH_H
#include <stdio.h>
#define POLYBENCH_DUMP_TARGET stderr
void polybench_prevent_dce(double x);
#endif
