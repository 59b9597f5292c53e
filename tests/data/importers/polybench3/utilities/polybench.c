/* The utility library's translation unit (nothing is needed from it here). */
#include "polybench.h"

int polybench_unused;
