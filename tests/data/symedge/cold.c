/* tests/cli/symbolicate/start-address-cold: gcc -O2 splits work into work and work.cold
 * (DW_AT_ranges with two ranges) */
#include <stdio.h>
#include <stdlib.h>
__attribute__((cold, noinline)) void report(int n)
{
    fprintf(stderr, "bad %d\n", n);
}
int work(int *a, int n)
{
    int s = 0;
    for (int i = 0; i < n; i++) {
        if (__builtin_expect(a[i] < 0, 0)) {
            report(a[i]);
            report(i);
            abort();
        }
        s += a[i];
    }
    return s;
}
int main(int argc, char **argv)
{
    (void)argv;
    int a[4] = {argc, 2, 3, 4};
    return work(a, 4);
}
