// symbolicate/addr2line-discriminator: a cold block (cold_path.cold) whose address is in
// std::string's destructor inlined into cold_path, on a line row with a discriminator:
// GNU addr2line -i repeats the discriminator on the "inlined by" line.
#include <string>
int __attribute__((noinline)) cold_path(int x) {
  if (__builtin_expect(x > 1000000, 0)) { std::string s = "big" + std::to_string(x); return (int)s.size(); }
  return x + 1;
}
