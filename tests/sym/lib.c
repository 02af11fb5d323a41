/* Symbolication fixture: a shared object with an inlined helper. */
volatile int lib_sink;

static inline __attribute__((always_inline)) int lib_helper(int x)
{
    lib_sink = x + 11; /* @libhelper */
    return lib_sink;
}

__attribute__((noinline)) int lib_entry(int x)
{
    return lib_helper(x * 5) + 1; /* @libentry */
}
