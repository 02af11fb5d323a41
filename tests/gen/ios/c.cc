// ios fixture: a C++ template member function and an extern "C" entry
namespace ns {
template <typename T> struct Acc {
    T base;
    __attribute__((noinline)) T total(int n) const
    {
        T s = base;
        for (int i = 0; i < n; i++)
            s += (T)i;
        return s;
    }
};
} // namespace ns

extern "C" long cxx_entry(int n)
{
    ns::Acc<long> a{3};
    return a.total(n);
}
