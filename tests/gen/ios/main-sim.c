/* ios fixture: simulator main calling top only */
int top(int);

int main(void)
{
    return top(3);
}
