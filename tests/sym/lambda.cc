// Symbolication fixture (gcc): a template instance over a lambda, which gcc leaves without
// DW_AT_linkage_name, and an out-of-line destructor, whose abstract DIE has the unified D4
// name while the code is D2 (with a D1 alias).
namespace ns {
struct Holder {
    int *p;
    explicit Holder(int n);
    ~Holder();
    int get() const { return *p; }
};
__attribute__((noinline)) Holder::Holder(int n) : p(new int(n)) {}
__attribute__((noinline)) Holder::~Holder() { delete p; }
template <typename F> __attribute__((noinline)) int apply(F f, int x) { return f(x) + 1; }
} // namespace ns

int main(int argc, char **)
{
    ns::Holder h(argc);
    int k = 3;
    return ns::apply([k](int v) { return v * k; }, h.get());
}
