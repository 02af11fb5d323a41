/* Symbolication fixture (tests/sym/mkfixtures.sh lt0): plain functions, nothing inlined,
 * built with clang -O0 -gline-tables-only: a compilation unit DIE and a line table, no
 * subprogram DIEs. */
volatile int lt_sink;

__attribute__((noinline)) int lt_leaf(int x)
{
    lt_sink = x * 3; /* @ltleaf */
    return lt_sink;
}

int main(int argc, char **argv)
{
    (void)argv;
    return lt_leaf(argc); /* @ltmain */
}
