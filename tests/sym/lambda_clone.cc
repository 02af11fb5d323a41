// Symbolication fixture (g++ -O2): a template instance over a lambda (no DW_AT_linkage_name)
// that gcc also clones for a constant argument: its ELF symbol is the mangled name with a
// ".constprop.0" suffix, which the qualified name drops (spec R3).
#include <cstdio>
#include <cstdlib>
template <typename F> __attribute__((noinline)) int apply(F f, int n, int k)
{
    int s = 0;
    for (int i = 0; i < n; i++)
        s += f(i) * k + (i ^ k);
    if (n > 1000000)
        printf("%d\n", s);
    return s;
}

int main(int argc, char **argv)
{
    int m = argc > 1 ? atoi(argv[1]) : 3;
    auto g = [m](int x) { return x * m; };
    printf("%d\n", apply(g, argc * 100, 7) + apply(g, argc * 200, 7));
    return 0;
}
