#ifndef TRI_IMPER_H
#define TRI_IMPER_H
#if defined(MINI_DATASET)
#define N 10
#elif defined(SMALL_DATASET)
#define N 40
#elif defined(LARGE_DATASET)
#define N 400
#else /* STANDARD, the 3.x default */
#define N 100
#endif
#endif
