<?php
// Strings and arrays: count the words of a text.
function words($text) { return preg_split('/\W+/', strtolower($text), -1, PREG_SPLIT_NO_EMPTY); }
function count_words($words) {
  $n = [];
  foreach ($words as $w) $n[$w] = ($n[$w] ?? 0) + 1;
  arsort($n);
  return $n;
}
$text = str_repeat("the quick brown fox jumps over the lazy dog ", 50);
print_r(array_slice(count_words(words($text)), 0, 3));
