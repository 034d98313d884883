// hot.c — the program tests/cli/annotate_asm.sh profiles: a hot loop with a conditional, run
// as many times as its first argument says, and a call per ten iterations into a shared
// library (mix.c). Built with -DCHANGED it has one statement more (the "rebuilt" program).
#include <stdio.h>
#include <stdlib.h>

int mix(int x);

__attribute__((noinline)) long hot_loop(long n, const int *v) {
  long s = 0;
#ifdef CHANGED
  if (n > 1000000) s = n * 7;
#endif
  for (long i = 0; i < n; ++i) {
    if (v[i & 7] > 3)
      s += v[i & 7] * 3;
    else
      s -= i;
  }
  return s;
}

int main(int argc, char **argv) {
  long n = argc > 1 ? atol(argv[1]) : 1000;
  int v[8] = {1, 5, 2, 7, 3, 9, 4, 0};
  long s = hot_loop(n, v);
  for (long i = 0; i < n / 10; ++i) s += mix((int)i);
  printf("%ld\n", s);
  return 0;
}
