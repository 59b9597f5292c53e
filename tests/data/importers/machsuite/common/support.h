/* A small stand-in for a MachSuite-style support library: sectioned text data files. */
#include <stdlib.h>
#include <inttypes.h>

char *readfile(int fd);
char *find_section_start(char *s, int n);
int parse_int32_t_array(char *s, int32_t *arr, int n);
int write_int32_t_array(int fd, int32_t *arr, int n);
int write_section_header(int fd);

void run_benchmark(void *vargs);
void input_to_data(int fd, void *vdata);
void data_to_output(int fd, void *vdata);
int check_data(void *vdata, void *vref);

extern int INPUT_SIZE;
