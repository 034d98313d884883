<?php
// xdebug-work.php N — the PHP work that bench/make-xdebug-profile.sh profiles with Xdebug.
//
// Many calls of many kinds, as a PHP application makes them: methods of a few classes (an
// interface, inheritance, static methods), closures, recursion, string and array built-ins,
// includes of no file (one script). N rounds; the profile grows by about 60 KB a round.
declare(strict_types=1);

interface Shape { public function area(): float; }

abstract class Base implements Shape {
    public function __construct(protected float $a) {}
    public function scaled(float $k): static { $c = clone $this; $c->a *= $k; return $c; }
    public static function make(string $kind, float $a): Shape {
        return match ($kind) { 'sq' => new Square($a), 'ci' => new Circle($a), default => new Tri($a) };
    }
}
final class Square extends Base { public function area(): float { return $this->a * $this->a; } }
final class Circle extends Base { public function area(): float { return M_PI * $this->a * $this->a; } }
final class Tri extends Base { public function area(): float { return sqrt(3.0) / 4.0 * $this->a * $this->a; } }

class Tokenizer {
    private array $seen = [];
    public function split(string $s): array { return preg_split('/[\s,;]+/', $s, -1, PREG_SPLIT_NO_EMPTY); }
    public function normal(string $w): string { return strtolower(trim($w, '.!?')); }
    public function count(string $s): array {
        foreach ($this->split($s) as $w) {
            $w = $this->normal($w);
            $this->seen[$w] = ($this->seen[$w] ?? 0) + 1;
        }
        return $this->seen;
    }
}

function fib(int $n): int { return $n < 2 ? $n : fib($n - 1) + fib($n - 2); }
function ackermann(int $m, int $n): int {
    if ($m === 0) return $n + 1;
    if ($n === 0) return ackermann($m - 1, 1);
    return ackermann($m - 1, ackermann($m, $n - 1));
}
function quicksort(array $xs): array {
    if (count($xs) < 2) return $xs;
    $p = array_shift($xs);
    return array_merge(quicksort(array_filter($xs, fn ($x) => $x < $p)), [$p],
                       quicksort(array_filter($xs, fn ($x) => $x >= $p)));
}
function checksum(string $s): int { return crc32(md5($s)) & 0xffff; }
function render(array $row): string { return implode(',', array_map('strval', $row)) . "\n"; }

function round_of_work(int $i, Tokenizer $t): float {
    $total = 0.0;
    foreach (['sq', 'ci', 'tr'] as $k) {
        $s = Base::make($k, 1.0 + $i % 7);
        $total += $s->area() + $s->scaled(0.5)->area();
    }
    $total += fib(8 + $i % 3);
    $total += ackermann(1, 3 + $i % 4);
    $xs = [];
    for ($j = 0; $j < 12; ++$j) $xs[] = ($i * 7919 + $j * 104729) % 1000;
    $sorted = quicksort($xs);
    $total += $sorted[0] + checksum(render($sorted));
    $t->count("The quick brown fox, round $i; jumps over the lazy dog!");
    $total += array_sum(array_map(fn ($x) => $x * 2, array_slice($sorted, 0, 4)));
    usort($xs, fn ($a, $b) => $b <=> $a);
    return $total + $xs[0];
}

$n = (int) ($argv[1] ?? 1000);
$t = new Tokenizer();
$sum = 0.0;
for ($i = 0; $i < $n; ++$i) $sum += round_of_work($i, $t);
printf("%d rounds: %.1f\n", $n, $sum);
