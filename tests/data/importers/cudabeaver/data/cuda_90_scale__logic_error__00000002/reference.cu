#pragma once
#include "cutlass_lite.h"
inline float scale_factor() { return 2.0f; }
