/* Build-variant survey shared library (tests/sym/variants.sh). */
volatile int var_lib_sink;

static inline int twice(int x)
{
    var_lib_sink = x * 2;
    return var_lib_sink;
}

int var_lib_scale(int x)
{
    int r = 0;
    for (int i = 0; i < x + 3; i++)
        r += twice(i);
    return r;
}
