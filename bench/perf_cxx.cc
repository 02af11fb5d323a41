// bench_samples' perf workload: a recursive C++ program whose `perf record -g` stacks look
// like real ones (namespaces, templates, lambdas and std:: names; deep recursion; system calls
// and page faults, so kernel frames under the user frames). Runs for about SECONDS seconds.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

namespace workload {
namespace tree {
struct Node {
    std::string key;
    std::vector<std::unique_ptr<Node>> kids;
    long weight = 0;
};

template <typename Visitor> long walk(const Node &n, Visitor &&v, int depth)
{
    long s = v(n, depth);
    for (const auto &k : n.kids)
        s += walk(*k, v, depth + 1);
    return s;
}

std::unique_ptr<Node> build(int depth, int fan, unsigned &seed)
{
    auto n = std::make_unique<Node>();
    seed = seed * 1103515245u + 12345u;
    n->key = "node-" + std::to_string(seed % 100000) + "-" + std::to_string(depth);
    n->weight = seed % 97;
    if (depth > 0)
        for (int i = 0; i < fan; i++)
            n->kids.push_back(build(depth - 1, fan, seed));
    return n;
}
} // namespace tree

namespace io {
class Sink {
  public:
    explicit Sink(const char *path) : fd_(open(path, O_WRONLY)) {}
    ~Sink() { if (fd_ >= 0) close(fd_); }
    void emit(const std::string &s) { if (fd_ >= 0 && write(fd_, s.data(), s.size()) < 0) fd_ = -1; }
  private:
    int fd_;
};
} // namespace io

namespace mem {
// fresh pages each round: page faults (kernel frames) under user code
long touch_pages(size_t mib)
{
    size_t n = mib << 20;
    void *p = mmap(nullptr, n, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (p == MAP_FAILED)
        return 0;
    long s = 0;
    for (size_t i = 0; i < n; i += 4096) {
        static_cast<char *>(p)[i] = (char)i;
        s += static_cast<char *>(p)[i];
    }
    munmap(p, n);
    return s;
}
} // namespace mem

class Engine {
  public:
    Engine() { root_ = tree::build(7, 3, seed_); }
    // not inlined, no tail calls: one frame per level, as in real recursive code
    __attribute__((noinline)) long recurse(int depth, const std::function<long(int)> &leaf)
    {
        if (depth == 0)
            return leaf(depth);
        if (depth % 5 == 0)
            return fold(depth - 1, leaf);
        long r = recurse(depth - 1, leaf);
        calls_ = calls_ + 1;
        return r ^ calls_;
    }
    __attribute__((noinline)) long fold(int depth, const std::function<long(int)> &leaf)
    {
        std::map<std::string, long> acc;
        long s = recurse(depth, leaf);
        acc[std::to_string(s)] += s;
        return s + (long)acc.size();
    }
    long score()
    {
        return tree::walk(*root_, [](const tree::Node &n, int d) {
            return n.weight * d + (long)std::hash<std::string>{}(n.key) % 7;
        }, 0);
    }
    long round(io::Sink &sink, unsigned k)
    {
        int depth = 10 + (int)(k % 15);
        return recurse(depth, [&](int) -> long {
            switch (k % 4) {
            case 0: return score();
            case 1: { std::string s(4096, 'x'); sink.emit(s); return (long)s.size(); }
            case 2: return mem::touch_pages(2);
            default: {
                std::vector<std::string> v;
                for (int i = 0; i < 2000; i++)
                    v.push_back(std::to_string((i * 7919) % 2003));
                std::sort(v.begin(), v.end());
                return (long)v.front().size();
            }
            }
        });
    }
  private:
    unsigned seed_ = 1;
    volatile long calls_ = 0;
    std::unique_ptr<tree::Node> root_;
};
} // namespace workload

int main(int argc, char **argv)
{
    double seconds = argc > 1 ? atof(argv[1]) : 3.0;
    workload::Engine e;
    workload::io::Sink sink("/dev/null");
    auto t0 = std::chrono::steady_clock::now();
    long s = 0;
    for (unsigned k = 0;; k++) {
        s += e.round(sink, k);
        if ((k & 15) == 0 && std::chrono::duration<double>(std::chrono::steady_clock::now() - t0)
                                     .count() > seconds)
            break;
    }
    printf("%ld\n", s & 1);
    return 0;
}
