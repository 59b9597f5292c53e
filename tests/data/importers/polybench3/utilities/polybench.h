/* A small stand-in for the utility header of PolyBench/C 3.2: its kernels print their live-out
   arrays to stderr themselves, and only when built with -DPOLYBENCH_DUMP_ARRAYS. */
#ifndef POLYBENCH_H
#define POLYBENCH_H
#include <stdio.h>
#include <string.h>
#ifndef POLYBENCH_DUMP_ARRAYS
# define POLYBENCH_DCE_ONLY_CODE if (argc > 42 && ! strcmp (argv[0], ""))
#else
# define POLYBENCH_DCE_ONLY_CODE
#endif
#define polybench_prevent_dce(func) POLYBENCH_DCE_ONLY_CODE func
#endif
