/* Symbolication fixture (tests/sym/mkfixtures.sh): an inline chain leaf <- mid <- top,
 * a clone candidate and a function split by DW_AT_ranges. Lines marked "@name" are
 * looked up by the tests; keep the markers unique. */
#include <stdio.h>
#include <stdlib.h>

volatile int sink;

static inline __attribute__((always_inline)) int leaf(int x)
{
    sink = x * 7 + 3; /* @leaf */
    return sink;
}

static inline __attribute__((always_inline)) int mid(int x)
{
    int r = leaf(x + 1); /* @mid */
    return r + sink;
}

__attribute__((noinline)) int top(int x)
{
    int r = mid(x * 2); /* @top */
    return r ^ 5;
}

__attribute__((noinline)) static int count_bits(unsigned v, int unused)
{
    int n = 0;
    while (v) { /* @bits */
        n += (int)(v & 1u);
        v >>= 1;
    }
    return n;
}

__attribute__((noinline, cold)) void fail_hard(const char *why)
{
    fprintf(stderr, "fatal: %s\n", why); /* @cold */
    exit(3);
}

int main(int argc, char **argv)
{
    int v = top(argc); /* @main */
    v += count_bits((unsigned)argc * 12345u, 0);
    if (argc > 5)
        fail_hard(argv[0]);
    return v & 1;
}
