/* Build-variant survey program (tests/sym/variants.sh): recursion, inlining at -O2, a
 * static function and a call into a shared library (var_lib.c). */
#include <stdio.h>
#include <stdlib.h>

int var_lib_scale(int x);
volatile int var_sink;

static inline int clampi(int x, int lo, int hi)
{
    return x < lo ? lo : x > hi ? hi : x;
}

static inline int mix(int a, int b)
{
    var_sink = clampi(a * 31 + b, -1000, 1000);
    return var_sink;
}

static int __attribute__((noinline)) fib(int n)
{
    if (n < 2)
        return n;
    return fib(n - 1) + fib(n - 2);
}

int __attribute__((noinline)) walk(const int *v, int n)
{
    int acc = 0;
    for (int i = 0; i < n; i++)
        acc = mix(acc, v[i]);
    return acc;
}

int main(int argc, char **argv)
{
    int v[8];
    for (int i = 0; i < 8; i++)
        v[i] = argc > 1 ? atoi(argv[1]) + i : i;
    printf("%d %d %d\n", walk(v, 8), fib(argc + 10), var_lib_scale(argc));
    return 0;
}
