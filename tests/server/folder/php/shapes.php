<?php
// Classes: areas of shapes through an interface.
interface Shape { public function area(): float; }
class Circle implements Shape { public function __construct(private float $r) {} public function area(): float { return M_PI * $this->r ** 2; } }
class Rect implements Shape { public function __construct(private float $w, private float $h) {} public function area(): float { return $this->w * $this->h; } }
function total(array $shapes): float { return array_sum(array_map(fn($s) => $s->area(), $shapes)); }
$s = [];
for ($i = 1; $i <= 20; $i++) $s[] = $i % 2 ? new Circle($i) : new Rect($i, $i + 1);
printf("%.2f\n", total($s));
