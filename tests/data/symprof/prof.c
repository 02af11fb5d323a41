/* Native frames for samples/export -e tests (built -O0 -g by mk.sh, no inlining). */
static volatile long sink;

void leaf_work(int n)
{
    for (int i = 0; i < n; i++)
        sink += i;
}

void middle(int n)
{
    leaf_work(n);
    leaf_work(n + 1);
}

int main(void)
{
    middle(10);
    return 0;
}
