/* the whole upstream example, which includes solution.h */
#include "solution.h"
int main() { return 0; }
