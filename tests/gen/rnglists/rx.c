#include <stdio.h>
#include <stdlib.h>
int g;
void fail(int x);
static inline int helper(int x) { if (x > 1000) { printf("%d", x); fail(x); } return x * 7 + g; }
int work(int x) { int s = 0; for (int i = 0; i < x; i++) { s += helper(i + g); if (s > 500) { printf("%d\n", s); s -= helper(s); } } return s; }
void fail(int x) { printf("bad %d\n", x); exit(x); }
