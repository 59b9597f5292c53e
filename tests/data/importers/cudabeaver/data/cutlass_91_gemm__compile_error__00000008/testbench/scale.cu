#include <cstdio>
#include "solution.h"
int main() { return scale_factor() == 2.0f ? 0 : 1; }
