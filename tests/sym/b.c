volatile int v; /* the example of spec/symbolication.md 8.1: leaf at 3, mid at 6, top at 9 */
static inline __attribute__((always_inline)) int leaf(int x)
{   return v = x * 7 + v; /* @b3 */
}
static inline __attribute__((always_inline)) int mid(int x)
{   return leaf(x + 1) + v; /* @b6 */
}
__attribute__((noinline)) int top(int x)
{   return mid(x * 3) ^ 5; /* @b9 */
}
