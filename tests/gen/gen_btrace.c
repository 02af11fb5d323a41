/* Writes a btrace 3.0 `sampling` + `sampling-mapping` pair from spec/samples.md 2.1 (no public
 * fixtures exist, section 9): the btrace demo scenario - main thread parked in
 * App.attachBaseContext -> CountDownLatch.await for 27.7 ms and woken by thread 30657 (kUnpark
 * whose nano equals the park begin), four Fibonacci worker threads, a nested 150 ms wait,
 * a GC wait, a monitor contention, records in ring-buffer write order (intervals after later
 * points), a kTraceArg record, an unknown type, a partial stack, a <runtime method> frame,
 * an unmapped method pointer, thread names ending in '\n', tids >= 32768 and two tids equal
 * modulo 65536.
 * The bench variant (bench:N) writes N point samples of depth 30 on 8 threads instead: a
 * random walk over 400 methods that mostly changes the frames near the leaf, 1 ms apart.
 * Usage: gen_btrace [--variant demo|v4|truncated|corrupt|empty|map-truncated|bench:N]
 *        SAMPLING MAPPING */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned char *buf;
static size_t len, cap;

static void put(const void *p, size_t n)
{
    if (len + n > cap) {
        cap = (len + n) * 2;
        buf = realloc(buf, cap);
        if (!buf)
            exit(2);
    }
    memcpy(buf + len, p, n);
    len += n;
}

static void u8(unsigned v) { unsigned char b = (unsigned char)v; put(&b, 1); }
static void u16(unsigned v) { u8(v & 0xff); u8((v >> 8) & 0xff); }
static void u32(uint32_t v) { u16(v & 0xffff); u16(v >> 16); }
static void u64(uint64_t v) { u32((uint32_t)v); u32((uint32_t)(v >> 32)); }

#define M(i) (0x70000000ull + (uint64_t)(i) * 0x40)
static const char *const methods[] = {
    "void android.app.ActivityThread.main(java.lang.String[])",
    "void android.os.Looper.loop()",
    "void android.os.Handler.dispatchMessage(android.os.Message)",
    "void android.app.ActivityThread.handleBindApplication(android.app.ActivityThread$AppBindData)",
    "void com.example.App.attachBaseContext(android.content.Context)",
    "void java.util.concurrent.CountDownLatch.await()",
    "void jdk.internal.misc.Unsafe.park(boolean, long)",
    "void java.lang.Thread.run()",
    "int com.example.Fib.fib(int)",
    "void com.example.Worker.run()",
    "void java.util.concurrent.CountDownLatch.countDown()",
    "void jdk.internal.misc.Unsafe.unpark(java.lang.Object)",
    "<runtime method>",
    "void com.example.Feed.bind(int, java.lang.String)",
    "void java.lang.Object.wait(long)",
    "void com.example.Cache.get(java.lang.String)",
};
#define NMETHODS (sizeof methods / sizeof methods[0])

static int version = 5;
static uint64_t alloc_obj[65536];

/* frames are given root first here and written leaf first, as the device does */
static void rec(unsigned type, unsigned tid, uint32_t msg, uint64_t nano, uint64_t end,
                uint64_t cpu, uint64_t end_cpu, int saved, int actual, const uint64_t *fr)
{
    u16(type);
    u16(tid & 0xffff);
    u32(msg);
    u64(nano);
    u64(end);
    u64(cpu);
    u64(end_cpu);
    if (type == 15)
        u64(0xabcdef); /* kTraceArg: the extra argument */
    if (version >= 4) {
        alloc_obj[tid & 0xffff] += 10;
        u64(alloc_obj[tid & 0xffff]);
        u64(alloc_obj[tid & 0xffff] * 48);
    }
    if (version >= 5) {
        u32(1);
        u32((uint32_t)(alloc_obj[tid & 0xffff] / 10));
        u32(2);
    }
    u32((uint32_t)saved);
    u32((uint32_t)actual);
    for (int i = saved; i-- > 0;)
        u64(fr[i]);
}

static void write_file(const char *path)
{
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(buf, 1, len, f) != len || fclose(f)) {
        fprintf(stderr, "gen_btrace: cannot write %s\n", path);
        exit(2);
    }
    len = 0;
}

#define T0 925074300000000ull
#define MS 1000000ull

static unsigned records(void)
{
    unsigned n = 0;
    const uint64_t feed[] = {M(0), M(1), M(2), M(13)};
    const uint64_t park[] = {M(0), M(1), M(2), M(3), M(4), M(5), M(6)};
    const uint64_t unpark[] = {M(7), M(9), M(10), M(11)};
    uint64_t cpu = 800 * MS;
    /* main: msg 1 runs Feed.bind for 10 ms (1 ms sampling) */
    for (int i = 0; i < 10; i++, n++)
        rec(4, 4411, 1, T0 + i * MS, 0, cpu + i * MS, 0, 4, 4, feed);
    /* the same stack again in msg 2: the message split must cut it */
    for (int i = 10; i < 12; i++, n++)
        rec(4, 4411, 2, T0 + i * MS, 0, cpu + i * MS, 0, 4, 4, feed);
    uint64_t pb = T0 + 11680435, pe = pb + 27695791;
    /* workers: Fibonacci recursion, 1 ms sampling, written before the park that began
     * earlier (ring-buffer write order) */
    for (int w = 0; w < 4; w++) {
        unsigned tid = 4420 + (unsigned)w;
        if (w == 2)
            tid = 40000;           /* >= 32768: negative in btrace's signed reading */
        if (w == 3)
            tid = 4420 + 65536;    /* equals 4420 modulo 65536 */
        for (int i = 0; i < 30; i++, n++) {
            uint64_t fr[12] = {M(7), M(9)};
            int d = 2 + 1 + (i % 5);
            for (int k = 2; k < d; k++)
                fr[k] = M(8);
            if (i == 7)
                fr[d++] = M(12); /* ART runtime trampoline at the leaf */
            if (i == 9 && w == 0)
                fr[d++] = 0xdeadbeef0ull; /* no mapping entry */
            rec(4, tid, 0, T0 + (uint64_t)i * MS + (uint64_t)w * 100000, 0,
                (uint64_t)i * 900000, 0, d, d, fr);
        }
    }
    /* the waker: kUnpark with nano = the park begin, its own time in end_nano */
    rec(17, 30657, 0, pb, pe - 20000, 0, 50 * MS, 4, 4, unpark);
    n++;
    rec(7, 4411, 3, pb, pe, cpu + 12 * MS, cpu + 12 * MS + 66676, 7, 7, park);
    n++;
    /* main continues with msg 77 */
    for (int i = 0; i < 5; i++, n++)
        rec(4, 4411, 77, pe + (uint64_t)(i + 1) * MS, 0, cpu + (13 + i) * MS, 0, 4, 4, feed);
    /* worker 4421: a nested 150 ms Object.wait, a GC wait, a monitor contention */
    const uint64_t wt[] = {M(7), M(9), M(15), M(14)};
    rec(6, 4421, 0, T0 + 40 * MS, T0 + 190 * MS, 30 * MS, 31 * MS, 4, 4, wt);
    n++;
    rec(11, 4421, 0, T0 + 191 * MS, T0 + 195 * MS, 31 * MS, 32 * MS, 2, 2, wt);
    n++;
    const uint64_t mon[] = {M(0), M(1), M(2), M(15)};
    rec(8, 4411, 78, pe + 10 * MS, pe + 14 * MS, cpu + 20 * MS, cpu + 20 * MS + 5000, 4, 4, mon);
    n++;
    rec(15, 4422, 0, T0 + 31 * MS, 0, 31 * MS, 0, 2, 2, wt); /* kTraceArg */
    n++;
    rec(99, 4422, 0, T0 + 32 * MS, 0, 32 * MS, 0, 2, 2, wt); /* unknown type */
    n++;
    rec(4, 4422, 0, T0 + 33 * MS, 0, 33 * MS, 0, 2, 3, wt); /* partial stack */
    n++;
    return n;
}

/* wakeups:N: N parks of main, each woken by pool-2-thread-1, which samples all along (one
 * long subtree holding every waker moment): the wake-up arrows of export --format chrome at
 * scale */
static unsigned wakeup_records(unsigned nparks)
{
    unsigned n = 0;
    const uint64_t feed[] = {M(0), M(1), M(2), M(13)};
    const uint64_t park[] = {M(0), M(1), M(2), M(3), M(4), M(5), M(6)};
    const uint64_t work[] = {M(7), M(9), M(10)};
    const uint64_t unpark[] = {M(7), M(9), M(10), M(11)};
    for (unsigned i = 0; i < nparks; i++) {
        uint64_t t = T0 + (uint64_t)i * 10 * MS, cpu = (uint64_t)i * 4 * MS;
        for (int k = 0; k < 3; k++, n++)
            rec(4, 4411, i + 1, t + (uint64_t)k * MS, 0, cpu + (uint64_t)k * MS, 0, 4, 4, feed);
        uint64_t pb = t + 3 * MS, pe = pb + 6 * MS;
        for (int k = 0; k < 10; k++, n++) /* the waker works without a break */
            rec(4, 30657, 0, t + (uint64_t)k * MS, 0, cpu + (uint64_t)k * MS, 0, 3, 3, work);
        rec(17, 30657, 0, pb, pe - 20000 - (uint64_t)(i % 7) * 100000, 0, cpu, 4, 4, unpark);
        rec(7, 4411, i + 1, pb, pe, cpu + 3 * MS, cpu + 3 * MS + 50000, 7, 7, park);
        n += 2;
    }
    return n;
}

static void flush_to(FILE *f)
{
    if (fwrite(buf, 1, len, f) != len)
        exit(2);
    len = 0;
}

static unsigned long long rng = 88172645463325252ull;
static unsigned rnd(unsigned n)
{
    rng ^= rng << 13;
    rng ^= rng >> 7;
    rng ^= rng << 17;
    return (unsigned)(rng % n);
}

/* bench: n samples, depth 30, 8 threads; returns after writing the whole file */
static void bench(const char *spath, const char *mpath, unsigned n)
{
    FILE *f = fopen(spath, "wb");
    if (!f)
        exit(2);
    const char *extra = "{\"processId\": 5000}";
    u32(0x01020304);
    u32(0);
    u32(5);
    u64(1);
    u32(n);
    u32((uint32_t)strlen(extra));
    put(extra, strlen(extra));
    uint64_t st[8][30];
    for (int t = 0; t < 8; t++)
        for (int d = 0; d < 30; d++)
            st[t][d] = 0x80000000ull + (uint64_t)(d * 13 + rnd(3)) * 0x40;
    for (unsigned i = 0; i < n; i++) {
        int t = (int)(i % 8);
        /* code paths repeat: 3 callees per frame near the leaf, 4 entry paths */
        int from = 30 - 1 - (int)rnd(6);
        int entry = rnd(40) == 0 ? (int)rnd(4) : -1;
        if (entry >= 0)
            from = 0;
        for (int d = from; d < 30; d++) {
            unsigned pick = d < 24 ? (entry >= 0 ? (unsigned)entry : 0) : rnd(3);
            st[t][d] = 0x80000000ull + (uint64_t)((d * 13 + pick) % 400) * 0x40;
        }
        rec(4, 5000 + (unsigned)t, i / 64 + 1, T0 + (uint64_t)(i / 8) * MS, 0,
            (uint64_t)(i / 8) * 900000, 0, 30, 30, st[t]);
        if (len > (1 << 20))
            flush_to(f);
    }
    flush_to(f);
    if (fclose(f))
        exit(2);
    u64(0);
    u32(1);
    u32(400);
    for (unsigned m = 0; m < 400; m++) {
        char name[80];
        snprintf(name, sizeof name, "void com.example.bench.C%u.m%u(int, java.lang.String)",
                 m / 10, m);
        u64(0x80000000ull + (uint64_t)m * 0x40);
        u16((unsigned)strlen(name));
        put(name, strlen(name));
    }
    for (unsigned t = 0; t < 8; t++) {
        char name[16];
        snprintf(name, sizeof name, "worker-%u\n", t);
        u16(5000 + t);
        u8((unsigned)strlen(name));
        put(name, strlen(name));
    }
    write_file(mpath);
}

static void mapping(const char *path, int truncate)
{
    u64(0);
    u32(1);
    u32((uint32_t)NMETHODS);
    size_t nm = truncate ? NMETHODS - 3 : NMETHODS;
    for (size_t i = 0; i < nm; i++) {
        u64(M(i));
        u16((unsigned)strlen(methods[i]));
        put(methods[i], strlen(methods[i]));
    }
    if (truncate) {
        u64(M(nm));
        u16(40);
        put("void com.exa", 12); /* PrettyMethod crashed mid-entry */
    } else {
        const struct { unsigned tid; const char *name; } th[] = {
            {4411, "main\n"}, {30657, "pool-2-thread-1\n"}, {4420, "fib-0\n"},
            {4421, "fib-1\n"}, {40000 & 0xffff, "fib-2\n"}, {4420, "fib-3\n"}};
        for (size_t i = 0; i < sizeof th / sizeof th[0]; i++) {
            u16(th[i].tid);
            u8((unsigned)strlen(th[i].name));
            put(th[i].name, strlen(th[i].name));
        }
    }
    write_file(path);
}

int main(int argc, char **argv)
{
    const char *variant = "demo";
    int a = 1;
    if (argc > 2 && !strcmp(argv[1], "--variant")) {
        variant = argv[2];
        a = 3;
    }
    if (argc - a != 2) {
        fprintf(stderr, "usage: gen_btrace [--variant demo|v4|truncated|corrupt|empty|"
                        "map-truncated|bench:N|wakeups:N] SAMPLING MAPPING\n");
        return 2;
    }
    if (!strcmp(variant, "v4"))
        version = 4;
    if (!strncmp(variant, "bench:", 6)) {
        bench(argv[a], argv[a + 1], (unsigned)strtoul(variant + 6, NULL, 10));
        return 0;
    }
    const char *extra = "{\"processId\": 4411}";
    u32(0x01020304);
    u32(0);
    u32((uint32_t)version);
    u64(925074400000ull);
    size_t count_at = len;
    u32(0);
    u32((uint32_t)strlen(extra));
    put(extra, strlen(extra));
    unsigned n = 0;
    if (!strncmp(variant, "wakeups:", 8))
        n = wakeup_records((unsigned)strtoul(variant + 8, NULL, 10));
    else if (strcmp(variant, "empty"))
        n = records();
    memcpy(buf + count_at, &n, 4); /* little-endian hosts only, as the device */
    if (!strcmp(variant, "truncated"))
        len -= 50;
    if (!strcmp(variant, "corrupt")) {
        /* a saved_depth of 4096 in the second record */
        size_t rec2 = 28 + strlen(extra) + 76 + 4 * 8;
        uint32_t bad = 4096;
        memcpy(buf + rec2 + 68, &bad, 4);
    }
    write_file(argv[a]);
    mapping(argv[a + 1], !strcmp(variant, "map-truncated"));
    return 0;
}
