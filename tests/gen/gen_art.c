/* Writes ART method traces (.trace) from a plain-text event script, spec/art-trace.md 8:
 * legacy versions 1-3 and streaming files, every clock, overflow and hostile variants.
 * Usage: gen_art SCRIPT OUT        (SCRIPT "-" reads standard input)
 *        gen_art bench N OUT       N records, 2,000 methods, 2 threads, legacy v3 dual
 * Script lines (# starts a comment):
 *   format legacy|streaming VERSION thread-cpu|wall|dual
 *   start-us N | pid N | thread ID NAME | method ID CLASS NAME SIG [SRC]
 *   method-line TEXT          a raw *methods line, "\t" written as a tab
 *   ev TID MID enter|exit|unroll|bad CPU_US WALL_US
 *   option overflow true | no-summary | truncate N | no-clock-key | header-version N |
 *          bad-packet | no-threads | elapsed-us N | record-size-field N (written at
 *          offset 16 of the binary header instead of the records' size, a corrupt field) */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static unsigned char *buf;
static size_t len, cap;

static void put(const void *p, size_t n)
{
    if (len + n > cap) {
        cap = (len + n) * 2 + 4096;
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
static void str(const char *s) { put(s, strlen(s)); }

typedef struct ev {
    unsigned tid, action;
    uint32_t mid;
    uint64_t cpu, wall;
} ev;

static struct {
    int streaming, version, clock; /* clock 0 cpu, 1 wall, 2 dual */
    uint64_t start_us;
    long pid;
    int overflow, no_summary, no_clock_key, hdr_version, bad_packet, no_threads;
    long truncate, elapsed, rs_field;
    char *threads[256];
    unsigned tids[256];
    int nthreads;
    char *methods[4096];
    uint32_t mids[4096];
    int nmethods;
    ev *evs;
    size_t nev, evcap;
} g = {0, 3, 2, 1000000000ull, 1234, 0, 0, 0, 0, 0, 0, 0, -1, -1, {0}, {0}, 0, {0}, {0}, 0, 0, 0, 0};

static const char *const clocks[] = {"thread-cpu", "wall", "dual"};

static void die(const char *msg, const char *l)
{
    fprintf(stderr, "gen_art: %s: %s\n", msg, l);
    exit(2);
}

static char *xstrdup(const char *s)
{
    char *d = strdup(s);
    if (!d)
        exit(2);
    return d;
}

static void add_ev(unsigned tid, uint32_t mid, unsigned action, uint64_t cpu, uint64_t wall)
{
    if (g.nev == g.evcap) {
        g.evcap = g.evcap ? g.evcap * 2 : 1024;
        g.evs = realloc(g.evs, g.evcap * sizeof *g.evs);
        if (!g.evs)
            exit(2);
    }
    g.evs[g.nev++] = (ev){tid, action, mid, cpu, wall};
}

static void add_method(uint32_t id, const char *line)
{
    if (g.nmethods == 4096)
        die("too many methods", line);
    g.mids[g.nmethods] = id;
    g.methods[g.nmethods++] = xstrdup(line);
}

static void script_line(char *l)
{
    char a[5][512];
    char *h = strchr(l, '#');
    if (h && strncmp(l, "method-line", 11))
        *h = 0;
    int n = sscanf(l, "%511s %511s %511s %511s %511s", a[0], a[1], a[2], a[3], a[4]);
    if (n <= 0)
        return;
    if (!strcmp(a[0], "format") && n == 4) {
        g.streaming = !strcmp(a[1], "streaming");
        g.version = atoi(a[2]);
        g.clock = !strcmp(a[3], "dual") ? 2 : !strcmp(a[3], "wall") ? 1 : 0;
    } else if (!strcmp(a[0], "start-us") && n == 2) {
        g.start_us = strtoull(a[1], NULL, 0);
    } else if (!strcmp(a[0], "pid") && n == 2) {
        g.pid = atol(a[1]);
    } else if (!strcmp(a[0], "thread") && n >= 3) {
        char *name = strstr(l, a[1]) + strlen(a[1]);
        name += strspn(name, " \t");
        name[strcspn(name, "\r\n")] = 0;
        g.tids[g.nthreads] = (unsigned)strtoul(a[1], NULL, 0);
        g.threads[g.nthreads++] = xstrdup(name);
    } else if (!strcmp(a[0], "method") && n >= 4) {
        char line[2100];
        char sig[512] = "", src[512] = "";
        sscanf(l, "%*s %*s %*s %*s %511s %511s", sig, src);
        uint32_t id = (uint32_t)strtoul(a[1], NULL, 0);
        if (id)
            snprintf(line, sizeof line, "%#x\t%s\t%s\t%s\t%s", id, a[2], a[3], sig, src);
        else
            snprintf(line, sizeof line, "0\t%s\t%s\t%s\t%s", a[2], a[3], sig, src);
        add_method(id, line);
    } else if (!strcmp(a[0], "method-line")) {
        char line[2100];
        const char *s = l + 11 + strspn(l + 11, " ");
        size_t k = 0;
        for (; *s && *s != '\n' && k + 1 < sizeof line; s++) {
            if (s[0] == '\\' && s[1] == 't') {
                line[k++] = '\t';
                s++;
            } else {
                line[k++] = *s;
            }
        }
        line[k] = 0;
        add_method(0, line);
    } else if (!strcmp(a[0], "ev") && n >= 4) {
        unsigned act = !strcmp(a[3], "enter") ? 0 : !strcmp(a[3], "exit") ? 1
                       : !strcmp(a[3], "unroll") ? 2 : 3;
        char c[64] = "0", w[64] = "0";
        sscanf(l, "%*s %*s %*s %*s %63s %63s", c, w);
        add_ev((unsigned)strtoul(a[1], NULL, 0), (uint32_t)strtoul(a[2], NULL, 0), act,
               strtoull(c, NULL, 0), strtoull(w, NULL, 0));
    } else if (!strcmp(a[0], "option") && n >= 2) {
        if (!strcmp(a[1], "overflow"))
            g.overflow = 1;
        else if (!strcmp(a[1], "no-summary"))
            g.no_summary = 1;
        else if (!strcmp(a[1], "truncate") && n == 3)
            g.truncate = atol(a[2]);
        else if (!strcmp(a[1], "no-clock-key"))
            g.no_clock_key = 1;
        else if (!strcmp(a[1], "header-version") && n == 3)
            g.hdr_version = atoi(a[2]);
        else if (!strcmp(a[1], "bad-packet"))
            g.bad_packet = 1;
        else if (!strcmp(a[1], "no-threads"))
            g.no_threads = 1;
        else if (!strcmp(a[1], "elapsed-us") && n == 3)
            g.elapsed = atol(a[2]);
        else if (!strcmp(a[1], "record-size-field") && n == 3)
            g.rs_field = atol(a[2]) & 0xFFFF;
        else
            die("unknown option", l);
    } else {
        die("bad script line", l);
    }
}

static unsigned rec_size(void)
{
    return (g.version == 1 ? 1u : 2u) + 4u + (g.clock == 2 ? 8u : 4u);
}

/* The text header of 2.2 from *version to *end (methods only when with_methods). */
static void text_header(int with_methods, int streaming)
{
    char l[256];
    uint64_t last = 0;
    for (size_t i = 0; i < g.nev; i++)
        if ((g.clock ? g.evs[i].wall : g.evs[i].cpu) > last)
            last = g.clock ? g.evs[i].wall : g.evs[i].cpu;
    snprintf(l, sizeof l, "*version\n%d\ndata-file-overflow=%s\n",
             g.hdr_version ? g.hdr_version : g.version, g.overflow ? "true" : "false");
    str(l);
    if (!g.no_clock_key) {
        snprintf(l, sizeof l, "clock=%s\n", clocks[g.clock]);
        str(l);
    }
    snprintf(l, sizeof l, "elapsed-time-usec=%llu\n",
             (unsigned long long)(g.elapsed >= 0 ? (uint64_t)g.elapsed : last));
    str(l);
    if (!streaming) {
        snprintf(l, sizeof l, "num-method-calls=%zu\n", g.nev);
        str(l);
    }
    snprintf(l, sizeof l, "clock-call-overhead-nsec=3424\nvm=art\npid=%ld\n*threads\n", g.pid);
    str(l);
    for (int i = 0; i < g.nthreads && !g.no_threads; i++) {
        snprintf(l, sizeof l, "%u\t", g.tids[i]);
        str(l);
        str(g.threads[i]);
        str("\n");
    }
    str("*methods\n");
    for (int i = 0; i < g.nmethods && with_methods; i++) {
        str(g.methods[i]);
        str("\n");
    }
    str("*end\n");
}

static void bin_header(void)
{
    size_t start = len;
    u32(0x574F4C53u);
    u16(g.streaming ? 0xF0u | (unsigned)g.version : (unsigned)g.version);
    u16(32);
    u64(g.start_us);
    if (g.version >= 3 || g.streaming)
        u16(g.rs_field >= 0 ? (unsigned)g.rs_field : rec_size());
    while (len - start < 32)
        u8(0);
}

static void record(const ev *e)
{
    if (g.version == 1)
        u8(e->tid & 0xff);
    else
        u16(e->tid & 0xffff);
    u32(e->mid | e->action);
    if (g.clock == 0)
        u32((uint32_t)e->cpu);
    else if (g.clock == 1)
        u32((uint32_t)e->wall);
    else {
        u32((uint32_t)e->cpu);
        u32((uint32_t)e->wall);
    }
}

static void write_streaming(void)
{
    bin_header();
    static unsigned char seen_t[65536], *seen_m;
    seen_m = calloc((size_t)g.nmethods + 1, 1);
    if (!seen_m)
        exit(2);
    for (size_t i = 0; i < g.nev; i++) {
        const ev *e = &g.evs[i];
        if (!seen_t[e->tid & 0xffff]) {
            seen_t[e->tid & 0xffff] = 1;
            for (int k = 0; k < g.nthreads; k++)
                if (g.tids[k] == e->tid) {
                    u16(0);
                    u8(2);
                    u16(e->tid);
                    u16((unsigned)strlen(g.threads[k]));
                    str(g.threads[k]);
                }
        }
        for (int k = 0; k < g.nmethods; k++)
            if (g.mids[k] == e->mid && !seen_m[k]) {
                seen_m[k] = 1;
                u16(0);
                u8(1);
                u16((unsigned)strlen(g.methods[k]) + 1);
                str(g.methods[k]);
                str("\n");
            }
        record(e);
    }
    free(seen_m);
    if (g.bad_packet) {
        u16(0);
        u8(9);
    }
    if (!g.no_summary) {
        size_t at = len;
        u16(0);
        u8(3);
        u32(0);
        size_t body = len;
        text_header(0, 1);
        uint32_t n = (uint32_t)(len - body);
        for (int i = 0; i < 4; i++)
            buf[at + 3 + (size_t)i] = (unsigned char)(n >> (8 * i));
    }
}

static void write_file(const char *out)
{
    if (g.streaming) {
        write_streaming();
    } else {
        text_header(1, 0);
        bin_header();
        for (size_t i = 0; i < g.nev; i++)
            record(&g.evs[i]);
    }
    if (g.truncate > 0)
        len = (size_t)g.truncate < len ? len - (size_t)g.truncate : 0;
    FILE *f = strcmp(out, "-") ? fopen(out, "wb") : stdout;
    if (!f || fwrite(buf, 1, len, f) != len || (f != stdout && fclose(f))) {
        perror(out);
        exit(2);
    }
}

/* Random well-nested calls over 2,000 methods on 2 threads (6.6 benchmark). */
static void bench(size_t n)
{
    g.version = 3;
    g.clock = 2;
    g.nthreads = 2;
    g.tids[0] = 1234;
    g.threads[0] = xstrdup("main");
    g.tids[1] = 1240;
    g.threads[1] = xstrdup("worker");
    for (int i = 0; i < 2000; i++) {
        char l[128];
        snprintf(l, sizeof l, "%#x\tcom.example.C%d\tm%d\t(I)V\tC%d.java", i * 4, i / 10, i, i / 10);
        add_method((uint32_t)i * 4, l);
    }
    uint32_t st[2][64];
    int depth[2] = {0, 0};
    uint64_t t[2] = {0, 0}, c[2] = {0, 0};
    uint64_t seed = 12345;
    for (size_t i = 0; i < n; i++) {
        seed = seed * 6364136223846793005ull + 1442695040888963407ull;
        int th = (int)((seed >> 40) & 1);
        unsigned r = (unsigned)(seed >> 44);
        t[th] += 1 + r % 7;
        c[th] += r % 5;
        size_t left = n - i;
        int d = depth[th], other = depth[!th];
        int enter = d == 0 || (d < 60 && (r & 3) != 0 && left > (size_t)(d + other + 2));
        if ((size_t)(d + other) >= left)
            enter = 0;
        if (enter) {
            uint32_t m = (uint32_t)(r % 2000) * 4;
            st[th][depth[th]++] = m;
            add_ev(g.tids[th], m, 0, c[th], t[th]);
        } else if (d) {
            add_ev(g.tids[th], st[th][--depth[th]], 1, c[th], t[th]);
        } else {
            i--;
        }
    }
}

int main(int argc, char **argv)
{
    if (argc == 4 && !strcmp(argv[1], "bench")) {
        bench((size_t)strtoull(argv[2], NULL, 10));
        write_file(argv[3]);
        return 0;
    }
    if (argc != 3) {
        fputs("usage: gen_art SCRIPT OUT | gen_art bench N OUT\n", stderr);
        return 2;
    }
    FILE *f = strcmp(argv[1], "-") ? fopen(argv[1], "r") : stdin;
    if (!f) {
        perror(argv[1]);
        return 2;
    }
    char line[4096];
    while (fgets(line, sizeof line, f))
        script_line(line);
    if (f != stdin)
        fclose(f);
    write_file(argv[2]);
    return 0;
}
