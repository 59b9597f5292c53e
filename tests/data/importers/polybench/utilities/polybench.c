#include "polybench.h"

volatile double polybench_sink;

void polybench_prevent_dce(double x) { polybench_sink = x; }
