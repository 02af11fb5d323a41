// Build-variant survey program in C++ (tests/sym/variants.sh): templates, lambdas, a
// recursive template, a static function, a class with inlined members.
#include <algorithm>
#include <cstdio>
#include <vector>

namespace var {
template <typename T> struct Acc {
    std::vector<T> v;
    void add(T x) { v.push_back(x); }
    T total() const
    {
        T s = T();
        for (const T &x : v)
            s += x;
        return s;
    }
};

template <int N> struct Fact {
    static long get(long k) { return N * Fact<N - 1>::get(k) + k; }
};
template <> struct Fact<0> {
    static long get(long k) { return k; }
};

static int __attribute__((noinline)) depth(int n) { return n <= 0 ? 0 : 1 + depth(n - 2); }

template <typename F> __attribute__((noinline)) long apply_all(const std::vector<int> &v, F f)
{
    long s = 0;
    for (int x : v)
        s += f(x);
    return s;
}
} // namespace var

int main(int argc, char **)
{
    var::Acc<long> a;
    var::Acc<double> d;
    for (int i = 0; i < argc + 5; i++) {
        a.add(i);
        d.add(i * 0.5);
    }
    std::vector<int> v{3, 1, 2, argc};
    std::sort(v.begin(), v.end(), [](int x, int y) { return x > y; });
    int k = argc;
    long r = var::apply_all(v, [k](int x) { return x * k; });
    std::printf("%ld %f %ld %d\n", a.total(), d.total(), r + var::Fact<5>::get(argc),
                var::depth(argc * 7));
    return 0;
}
