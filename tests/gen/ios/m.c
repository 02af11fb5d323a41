/* ios fixture (spec/ios.md 12.1): an inlined leaf in a loop under two noinline functions */
volatile int sink;

static inline int leaf(int x)
{
    sink = x * 3;
    return sink + 1;
}

__attribute__((noinline)) int mid(int n)
{
    int s = 0;
    for (int i = 0; i < n; i++)
        s += leaf(i);
    return s;
}

__attribute__((noinline)) int top(int n)
{
    return mid(n) + 7;
}
