#ifndef TRI_H
#define TRI_H
#if defined(MINI_DATASET)
#define N 10
#elif defined(SMALL_DATASET)
#define N 40
#else
#define N 100
#endif
#endif
