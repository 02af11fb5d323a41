// tests/cli/symbolicate/inline-deeper-than-64: an inline chain of 82 frames (root, f<80>..f<0>)
volatile int sink;
template <int N> __attribute__((always_inline)) inline void f(int x)
{
    sink = x + N;
    f<N - 1>(x * 3 + N); // @call
    sink = x;
}
template <> __attribute__((always_inline)) inline void f<0>(int x)
{
    sink = x * 7;
}
__attribute__((noinline)) void root(int x)
{
    f<80>(x);
}
int main()
{
    root(sink);
}
