// bench_sym's C++ workload: STL containers, algorithms over lambdas, regex, streams,
// std::function and virtual calls, so that -O2 -g inlines deeply and gcc emits clones.
#include <algorithm>
#include <functional>
#include <iostream>
#include <map>
#include <memory>
#include <regex>
#include <sstream>
#include <string>
#include <unordered_map>
#include <vector>
namespace app {
template <typename T> struct Box { T v; T get() const { return v; } };
struct Shape { virtual ~Shape() = default; virtual double area() const = 0; };
struct Sq : Shape { double s; explicit Sq(double x) : s(x) {} double area() const override { return s * s; } };
struct Ci : Shape { double r; explicit Ci(double x) : r(x) {} double area() const override { return 3.14159 * r * r; } };
std::map<std::string, int> count_words(const std::string &t) {
    std::map<std::string, int> m; std::istringstream is(t); std::string w;
    while (is >> w) m[w]++;
    return m;
}
int run(int argc) {
    std::vector<std::unique_ptr<Shape>> v;
    for (int i = 0; i < argc * 100; i++) { if (i % 2) v.emplace_back(new Sq(i)); else v.emplace_back(new Ci(i)); }
    std::sort(v.begin(), v.end(), [](const auto &a, const auto &b) { return a->area() < b->area(); });
    std::unordered_map<int, std::string> um; for (int i = 0; i < argc * 50; i++) um[i] = std::to_string(i);
    std::regex re("([a-z]+)([0-9]*)"); std::smatch sm; std::string s = "abc123 def";
    int k = std::regex_search(s, sm, re) ? (int)sm.size() : 0;
    auto m = count_words("a b c a b a " + um[1]);
    std::function<int(int)> f = [&](int x) { return x ? x + f(x - 1) : 0; };
    Box<long> b{f(argc)};
    std::cout << v.size() << m["a"] << k << b.get() << "\n";
    return (int)v.size();
}
}
int main(int argc, char **) { return app::run(argc) & 1; }
