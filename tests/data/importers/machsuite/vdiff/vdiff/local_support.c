#include "vdiff.h"
#include <string.h>

int INPUT_SIZE = sizeof(struct bench_args_t);

void run_benchmark(void *vargs) {
  struct bench_args_t *args = (struct bench_args_t *)vargs;
  vdiff(args->a, args->b, args->out);
}

void input_to_data(int fd, void *vdata) {
  struct bench_args_t *data = (struct bench_args_t *)vdata;
  char *p = readfile(fd);
  memset(vdata, 0, sizeof(struct bench_args_t));
  parse_int32_t_array(find_section_start(p, 1), data->a, N);
  parse_int32_t_array(find_section_start(p, 2), data->b, N);
  free(p);
}

void data_to_output(int fd, void *vdata) {
  struct bench_args_t *data = (struct bench_args_t *)vdata;
  write_section_header(fd);
  write_int32_t_array(fd, data->out, N);
}

int check_data(void *vdata, void *vref) {
  struct bench_args_t *data = (struct bench_args_t *)vdata;
  struct bench_args_t *ref = (struct bench_args_t *)vref;
  return memcmp(data->out, ref->out, sizeof(data->out)) == 0;
}
