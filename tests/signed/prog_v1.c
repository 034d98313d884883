#include <stdio.h>
#include <string.h>
static unsigned long work(int n) {
  unsigned long s = 0;
  for (int i = 0; i < n; i++) s += (unsigned long)i * i % 7;
  return s;
}
static void fill(char *b, int n) { for (int i = 0; i < n; i++) b[i] = (char)(i * 3); }
static unsigned long checksum(const char *b, int n) {
  unsigned long h = 5381;
  for (int i = 0; i < n; i++) h = h * 33 + (unsigned char)b[i];
  return h;
}
int main(void) {
  static char buf[4096];
  unsigned long r = 0;
  for (int k = 0; k < 20; k++) { fill(buf, sizeof buf); r += checksum(buf, sizeof buf); }
  r += work(20000);
  printf("%lu\n", r);
  return 0;
}
