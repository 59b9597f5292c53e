#include "vdiff.h"

void vdiff(TYPE a[N], TYPE b[N], TYPE out[N]) {
  int i;
  loop: for (i = 0; i < N; i++) {
    out[i] = a[i] - b[i];
  }
}
