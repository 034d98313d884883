// mix.c — the shared library of tests/asm/hot.c: a small loop of its own.
__attribute__((noinline)) int mix(int x) {
  int r = 0;
  for (int k = 0; k < 4; ++k) r += (x >> k) & 1 ? k : -k;
  return r;
}
