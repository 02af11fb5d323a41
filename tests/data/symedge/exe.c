/* tests/data/symedge/mk.sh: a non-PIE executable (first PT_LOAD at 0x400000) */
int work(int x);

int work(int x)
{
    return x * 31 + 7;
}

int main(int argc, char **argv)
{
    (void)argv;
    return work(argc);
}
