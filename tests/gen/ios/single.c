/* ios fixture: one file linked through the clang driver */
volatile int sink;

static inline void poke(int v)
{
    sink = v;
}

int main(void)
{
    for (int i = 0; i < 4; i++)
        poke(i);
    return sink;
}
