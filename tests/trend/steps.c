/* steps.c — the program of tests/trend/make_runs.sh: work() runs ARGV[1] rounds of a loop,
   steady() always the same, so that under callgrind work()'s self cost follows ARGV[1] and
   the rest stays. */
#include <stdlib.h>

static volatile unsigned long sink;

__attribute__((noinline)) void work(unsigned long rounds) {
  for (unsigned long i = 0; i < rounds; ++i) sink += i * 7;
}

__attribute__((noinline)) void steady(void) {
  for (unsigned long i = 0; i < 300000; ++i) sink ^= i;
}

int main(int argc, char** argv) {
  work(argc > 1 ? strtoul(argv[1], NULL, 10) : 100000);
  steady();
  return 0;
}
