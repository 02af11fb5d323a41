// ios fixture: C++ members defined in their class (a virtual destructor, a lambda's call
// operator): their definitions point to the declaration in the class (DW_AT_specification),
// which carries DW_AT_decl_file / DW_AT_decl_line; with -gline-tables-only the destructor's
// DWARF name is only "~V"
namespace q {
struct V {
    virtual ~V() {}
    virtual int h(int) const;
};
int V::h(int x) const
{
    return x + 1;
}
} // namespace q

extern "C" int bmain(int x)
{
    q::V v;
    auto twice = [](int y) __attribute__((noinline)) { return 2 * y; };
    return v.h(x) + twice(x);
}

int main(void)
{
    return bmain(1);
}
