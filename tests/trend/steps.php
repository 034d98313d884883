<?php
// steps.php — the script of tests/trend/make_runs.sh: work() runs $argv[1] rounds, steady()
// always the same (Xdebug profiles whose work() steps when the argument does).
function work($rounds) {
  $s = 0;
  for ($i = 0; $i < $rounds; ++$i) $s += ($i * 7) % 13;
  return $s;
}
function steady() {
  $s = 0;
  for ($i = 0; $i < 200000; ++$i) $s ^= $i;
  return $s;
}
echo work((int)($argv[1] ?? 100000)) + steady(), "\n";
