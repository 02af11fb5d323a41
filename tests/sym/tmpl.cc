// Symbolication fixture: C++ namespaces, a class template, a member function and an
// inlined template call. "@name" markers are looked up by the tests.
#include <vector>

namespace ns {
template <typename T> struct Acc {
    T sum = 0;
    __attribute__((always_inline)) inline void add(T v) { sum += v * 3; /* @add */ }
    __attribute__((noinline)) T total(const std::vector<T> &xs)
    {
        for (T x : xs)
            add(x); /* @total */
        return sum;
    }
};
} // namespace ns

int main(int argc, char **)
{
    std::vector<long> xs(argc + 3, 7);
    ns::Acc<long> a;
    return (int)a.total(xs); /* @cmain */
}
