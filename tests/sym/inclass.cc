// symbolicate/startline-in-class: members defined in their class (a destructor, a lambda's
// call operator) have decl_file/decl_line only on the declaration their
// DW_AT_specification points to
volatile int sink;
namespace q {
struct V {
    int n;
    __attribute__((noinline)) ~V()
    {
        sink = n;
    }
};
} // namespace q

int main(void)
{
    auto twice = [](int x) __attribute__((noinline)) { return sink + 2 * x; };
    {
        q::V v{3};
    }
    return twice(sink);
}
