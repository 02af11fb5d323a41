/* ios fixture: main calling the C, Objective-C and C++ parts */
int top(int);
int objc_main(void);
long cxx_entry(int);

int main(void)
{
    return top(5) + objc_main() + (int)cxx_entry(4);
}
