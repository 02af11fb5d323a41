/* tests/data/symedge/mk.sh: a non-PIE executable (first PT_LOAD at 0x400000) with a .plt */
#include <stdio.h>

int work(int x);

int work(int x)
{
    return x * 31 + 7;
}

int main(int argc, char **argv)
{
    if (argc > 5)
        puts(argv[0]);
    return work(argc);
}
