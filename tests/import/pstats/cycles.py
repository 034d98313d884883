"""cProfile workload: a three-function cycle entered from outside through two of its members."""


def a(n):
    return n if n <= 0 else b(n - 1) + 1


def b(n):
    return n if n <= 0 else c(n - 1) + 1


def c(n):
    return n if n <= 0 else a(n - 1) + 1


def walk(n):
    return walk(n - 1) if n > 0 else 0


def main():
    for k in range(200):
        a(k % 40)
        b(k % 25)
    walk(300)


main()
