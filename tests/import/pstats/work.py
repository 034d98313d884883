"""cProfile workload: hot functions, direct and mutual recursion, a generator, built-ins."""
import math


def fib(n):
    return n if n < 2 else fib(n - 1) + fib(n - 2)


def is_even(n):
    return True if n == 0 else is_odd(n - 1)


def is_odd(n):
    return False if n == 0 else is_even(n - 1)


def squares(n):
    for i in range(n):
        yield i * i


def hot(n):
    total = 0
    for i in range(n):
        total += int(math.sqrt(i)) + len(str(i))
    return total


class Box:
    def __init__(self, v):
        self.v = v


class Crate:
    def __init__(self, v):
        self.v = [v]


def main():
    fib(18)
    for k in range(50):
        is_even(k)
    sum(squares(20000))
    hot(30000)
    boxes = [Box(i) for i in range(500)]
    boxes += [Crate(i) for i in range(300)]
    sorted(boxes, key=lambda b: id(b))
    return len(boxes)


main()
