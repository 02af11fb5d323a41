/* Data and bss objects for symbolicate --nearest-symbol (golden nearest-symbol-data) */
int g_data = 5;
int g_bss;
__attribute__((noinline)) int f1(int x) { return x + g_data; }
int main(int c, char **v)
{
    (void)v;
    return f1(c) + g_bss;
}
