#ifndef REG_DETECT_H
#define REG_DETECT_H
#if defined(MINI_DATASET)
#define N 8
#else
#define N 32
#endif
#endif
