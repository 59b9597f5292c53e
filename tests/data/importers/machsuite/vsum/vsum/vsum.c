#include "vsum.h"

void vsum(TYPE a[N], TYPE b[N], TYPE out[N]) {
  int i;
  loop: for (i = 0; i < N; i++) {
    out[i] = a[i] + b[i];
  }
  tail: for (i = 0; i < N; i++) {
    out[i] = out[i] | 0;
  }
}
