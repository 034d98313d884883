/* hot.c — a small CPU-bound program for perf record -g: two hot leaf functions and a
   recursive one, called from main. */
#include <stdio.h>
#include <stdlib.h>

__attribute__((noinline)) static double leaf_sqrt(long n) {
  double s = 0;
  for (long i = 1; i < n; ++i) s += 1.0 / (double)(i * i + 1);
  return s;
}

__attribute__((noinline)) static long leaf_mix(long n) {
  unsigned long h = 1469598103934665603ul;
  for (long i = 0; i < n; ++i) h = (h ^ (unsigned long)i) * 1099511628211ul;
  return (long)(h & 0xff);
}

__attribute__((noinline)) static long fib(int n) {
  if (n < 2) return n + leaf_mix(200);
  return fib(n - 1) + fib(n - 2);
}

int main(int argc, char** argv) {
  int rounds = argc > 1 ? atoi(argv[1]) : 6;
  double total = 0;
  for (int r = 0; r < rounds; ++r) {
    total += leaf_sqrt(20000000);
    total += (double)leaf_mix(30000000);
    total += (double)fib(22);
  }
  printf("%f\n", total);
  return 0;
}
