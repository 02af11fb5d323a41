/* The native sample of samples/README: a tiny shared library whose debug build is
 * samples/native/libdemo.so; samples/native-tombstone.txt is a crash inside it. Rebuild with
 * samples/native/build.sh (gcc, -O2 -g). */
#include <stdlib.h>

static inline int checksum_byte(int acc, unsigned char b)
{
    if (b == 0xff)
        abort(); /* the crash of the sample tombstone */
    return acc * 31 + b;
}

__attribute__((noinline)) int demo_checksum(const unsigned char *p, int n)
{
    int acc = 7;
    for (int i = 0; i < n; i++)
        acc = checksum_byte(acc, p[i]);
    return acc;
}

__attribute__((noinline)) int demo_parse_record(const unsigned char *rec, int len)
{
    if (len < 4)
        return -1;
    return demo_checksum(rec + 4, len - 4) ^ rec[0];
}

int demo_load(const unsigned char *buf, int len)
{
    int total = 0;
    for (int off = 0; off + 8 <= len; off += 8)
        total += demo_parse_record(buf + off, 8);
    return total;
}
