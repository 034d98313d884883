/* bench.c — the benchmark of the project docs/ci.md's recipes are run on (tests/docs/ci_recipes.py):
 * hot() is about a third of the run, the rest is other(). A pull request that makes hot() 5 %
 * slower (HOT_ROUNDS 300000 -> 315000) moves the program total by less than 2 %. */
#include <stdio.h>

#ifndef HOT_ROUNDS
#define HOT_ROUNDS 300000
#endif

__attribute__((noinline)) static unsigned long hot(unsigned long rounds) {
  unsigned long x = 1;
  for (unsigned long i = 0; i < rounds; ++i) x = x * 2654435761u + i;
  return x;
}

__attribute__((noinline)) static unsigned long other(unsigned long rounds) {
  unsigned long x = 7;
  for (unsigned long i = 0; i < rounds; ++i) x ^= (x << 3) + i;
  return x;
}

int main(void) {
  printf("%lu\n", hot(HOT_ROUNDS) ^ other(600000));
  return 0;
}
