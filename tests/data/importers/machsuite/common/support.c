#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include "support.h"

char *readfile(int fd) {
  size_t size = 0, cap = 4096;
  char *buf = malloc(cap + 1);
  ssize_t got;
  while (buf != NULL && (got = read(fd, buf + size, cap - size)) > 0) {
    size += (size_t)got;
    if (size == cap) {
      cap *= 2;
      buf = realloc(buf, cap + 1);
    }
  }
  if (buf != NULL)
    buf[size] = '\0';
  return buf;
}

/* Section n (1-based) starts after the n-th line holding "%%". */
char *find_section_start(char *s, int n) {
  int seen = 0;
  while (*s != '\0') {
    if (s[0] == '%' && s[1] == '%') {
      seen++;
      while (*s != '\0' && *s != '\n')
        s++;
      if (seen == n)
        return *s == '\n' ? s + 1 : s;
    }
    while (*s != '\0' && *s++ != '\n')
      ;
  }
  return s;
}

int parse_int32_t_array(char *s, int32_t *arr, int n) {
  int k;
  for (k = 0; k < n; k++) {
    char *end;
    arr[k] = (int32_t)strtol(s, &end, 10);
    if (end == s)
      return k;
    s = end;
  }
  return n;
}

int write_int32_t_array(int fd, int32_t *arr, int n) {
  int k;
  for (k = 0; k < n; k++)
    dprintf(fd, "%" PRId32 "\n", arr[k]);
  return n;
}

int write_section_header(int fd) {
  return dprintf(fd, "%%%%\n");
}
