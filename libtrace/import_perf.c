/* `perf script` / simpleperf report_sample.py text reader, spec/samples.md section 2.2:
 * header lines found by their shape in any `perf script -F` layout (time optional), leaf-first
 * frame lines, one point sample per block weighted by the period. Streams line by line. */
#include "tt.h"

#include <stdlib.h>
#include <string.h>

#include "tt_int.h"

typedef struct tok {
    const char *p;
    size_t n;
} tok;

static int is_digit(char c) { return c >= '0' && c <= '9'; }

static int is_hex(const char *s, size_t n)
{
    if (!n)
        return 0;
    for (size_t i = 0; i < n; i++) {
        char c = s[i];
        if (!is_digit(c) && !(c >= 'a' && c <= 'f') && !(c >= 'A' && c <= 'F'))
            return 0;
    }
    return 1;
}

static int all_digits(const char *s, size_t n)
{
    if (!n)
        return 0;
    for (size_t i = 0; i < n; i++)
        if (!is_digit(s[i]))
            return 0;
    return 1;
}

static uint64_t hexval(const char *s, size_t n)
{
    uint64_t v = 0;
    for (size_t i = 0; i < n && i < 16; i++) {
        char c = s[i];
        v = v * 16 + (uint64_t)(is_digit(c) ? c - '0' : (c | 0x20) - 'a' + 10);
    }
    return v;
}

int tt_perf_parse_ts(const char *s, size_t n, int64_t *ns, int *frac_digits)
{
    const char *dot = memchr(s, '.', n);
    if (!dot)
        return TT_EFORMAT;
    size_t a = (size_t)(dot - s), b = n - a - 1;
    if (!all_digits(s, a) || !all_digits(dot + 1, b) || b > 9 || a > 10)
        return TT_EFORMAT;
    uint64_t sec, frac;
    if (tt__parse_u64(s, a, &sec) || tt__parse_u64(dot + 1, b, &frac) || sec > 4000000000u)
        return TT_EFORMAT;
    for (size_t i = b; i < 9; i++)
        frac *= 10;
    *ns = (int64_t)(sec * 1000000000ULL + frac);
    if (frac_digits)
        *frac_digits = (int)b;
    return 0;
}

static size_t split(tok *t, size_t cap, const char *s, size_t n)
{
    size_t k = 0, i = 0;
    while (i < n && k < cap) {
        while (i < n && s[i] == ' ')
            i++;
        if (i >= n)
            break;
        size_t j = i;
        while (j < n && s[j] != ' ')
            j++;
        t[k].p = s + i;
        t[k].n = j - i;
        k++;
        i = j;
    }
    return k;
}

typedef struct hdr {
    int64_t ts, pid, tid, period;
    int frac_digits, has_period, has_ts, has_pid, comm_first_hex, comm_only, inline_frame;
    tok comm, event, rest;
} hdr;

static int is_pid_tok(const tok *t)
{
    const char *sl = memchr(t->p, '/', t->n);
    if (!sl)
        return t->n <= 10 && all_digits(t->p, t->n);
    size_t a = (size_t)(sl - t->p);
    return a <= 10 && t->n - a - 1 <= 10 && all_digits(t->p, a) && all_digits(sl + 1, t->n - a - 1);
}

static int is_cpu_tok(const tok *t)
{
    return t->n > 2 && t->p[0] == '[' && t->p[t->n - 1] == ']' && all_digits(t->p + 1, t->n - 2);
}

static int is_hex_tok(const tok *t) { return t->n <= 16 && is_hex(t->p, t->n); }

static void set_pid(hdr *h, const tok *t)
{
    const char *sl = memchr(t->p, '/', t->n);
    uint64_t a = 0, b = 0;
    if (sl) {
        tt__parse_u64(t->p, (size_t)(sl - t->p), &a);
        tt__parse_u64(sl + 1, t->n - (size_t)(sl - t->p) - 1, &b);
        h->pid = (int64_t)a;
        h->tid = (int64_t)b;
    } else {
        tt__parse_u64(t->p, t->n, &b);
        h->tid = (int64_t)b;
    }
    h->has_pid = 1;
}

static void set_period(hdr *h, const tok *t)
{
    uint64_t v = 0;
    if (!tt__parse_u64(t->p, t->n, &v) && v <= INT64_MAX) {
        h->period = (int64_t)v;
        h->has_period = 1;
    }
}

/* An event name ends with ':' (perf prints "cycles:u:", "sched:sched_switch:"); a comm that
 * ends with ':' is not told apart. */
static int is_event_tok(const tok *t)
{
    return t->n >= 2 && t->p[t->n - 1] == ':' && t->p[0] != '(' && !memchr(t->p, ';', t->n);
}

/* Fields left of the time or the event, from the right: [period] (only without a time)
 * [cpu] [pid/tid | tid]; what is left is comm. 1 when something but comm was found. */
static int left_fields(hdr *h, const tok *t, size_t k, int period_ok)
{
    size_t j = k;
    int any = 0;
    if (period_ok && j >= 2 && all_digits(t[j - 1].p, t[j - 1].n) && t[j - 1].n <= 19 &&
        (is_pid_tok(&t[j - 2]) || is_cpu_tok(&t[j - 2]))) {
        set_period(h, &t[j - 1]);
        j--;
        any = 1;
    }
    if (j && is_cpu_tok(&t[j - 1])) {
        j--;
        any = 1;
    }
    if (j && is_pid_tok(&t[j - 1])) {
        set_pid(h, &t[j - 1]);
        j--;
        any = 1;
    }
    if (j) {
        h->comm.p = t[0].p;
        h->comm.n = (size_t)(t[j - 1].p + t[j - 1].n - t[0].p);
        h->comm_first_hex = is_hex_tok(&t[0]);
    }
    return any;
}

static void set_rest(hdr *h, const tok *t, size_t i, size_t k, const char *end)
{
    if (i < k) {
        h->rest.p = t[i].p;
        h->rest.n = (size_t)(end - t[i].p);
        h->inline_frame = is_hex_tok(&t[i]);
    }
}

#define MAX_TOK 48

/* A sample header in any layout `perf script -F` writes (2.2): comm, pid/tid or tid, [cpu],
 * time, period and event are each optional; perf without call graphs puts the frame (or a
 * tracepoint's payload) after them on the same line. Tabs are already blanks. Returns
 * HDR_STRONG when a time or an event was found, HDR_WEAK when only comm/pid/cpu/period or a
 * bare frame, HDR_BAD when nothing fits. */
enum { HDR_BAD = 0, HDR_WEAK, HDR_STRONG };
static int parse_weak(hdr *h, const tok *t, size_t k, const char *s, size_t n);
static int parse_header(hdr *h, const char *s, size_t n)
{
    memset(h, 0, sizeof *h);
    h->pid = h->tid = -1;
    tok t[MAX_TOK];
    size_t k = split(t, MAX_TOK, s, n), ts_i = k, ev_i = k;
    const char *end = s + n;
    for (size_t i = 0; i < k; i++) {
        if (t[i].p[0] == '(')
            break; /* a dso: nothing of the header follows */
        if (t[i].p[t[i].n - 1] != ':')
            continue;
        if (!tt_perf_parse_ts(t[i].p, t[i].n - 1, &h->ts, &h->frac_digits)) {
            ts_i = i;
            break;
        }
        if (ev_i == k && is_event_tok(&t[i]))
            ev_i = i;
    }
    if (ts_i < k) {
        h->has_ts = 1;
        left_fields(h, t, ts_i, 0);
        size_t i = ts_i + 1;
        if (i < k && all_digits(t[i].p, t[i].n) && t[i].n <= 19)
            set_period(h, &t[i++]);
        if (i < k && is_event_tok(&t[i])) {
            h->event.p = t[i].p;
            h->event.n = t[i].n - 1;
            i++;
        }
        set_rest(h, t, i, k, end);
        return HDR_STRONG;
    }
    if (ev_i < k) {
        hdr save = *h;
        int any = left_fields(h, t, ev_i, 1);
        int arrow = 0; /* "a.b.C -> x.y:" is a ProGuard class line */
        for (size_t i = 0; i < ev_i; i++)
            arrow |= t[i].n == 2 && t[i].p[0] == '-' && t[i].p[1] == '>';
        if (!arrow && (any || ev_i == 0 || !h->comm_first_hex)) {
            h->event.p = t[ev_i].p;
            h->event.n = t[ev_i].n - 1;
            set_rest(h, t, ev_i + 1, k, end);
            return HDR_STRONG;
        }
        *h = save;
    }
    return k ? parse_weak(h, t, k, s, n) : HDR_BAD;
}

/* Neither time nor event: [comm] pid [cpu] [period] [frame], [comm] frame, or comm alone. */
static int parse_weak(hdr *h, const tok *t, size_t k, const char *s, size_t n)
{
    const char *end = s + n;
    size_t p = 0;
    while (p < k && !is_pid_tok(&t[p]) && t[p].p[0] != '(')
        p++;
    if (p == 0 && k >= 2 && (s[n - 1] == ')' || (!is_hex_tok(&t[1]) && !is_cpu_tok(&t[1]))))
        p = k; /* "5011 [unknown] (/usr/bin/dash)": an all-decimal address, not a tid */
    if (p == k || t[p].p[0] == '(') {
        size_t q = is_hex_tok(&t[0]) && !(p >= 2 && is_hex_tok(&t[1])) ? 0 : 1;
        while (q && q < p && !(t[q].n >= 5 && is_hex_tok(&t[q]))) /* not "a", "cafe" */
            q++;
        if (q < p) { /* [comm] <address> [symbol] [(dso)]: -F [comm,]ip,sym without -g */
            if (q) {
                h->comm.p = t[0].p;
                h->comm.n = (size_t)(t[q - 1].p + t[q - 1].n - t[0].p);
                if (h->comm.n > 16 || memchr(h->comm.p, ';', h->comm.n))
                    return HDR_BAD;
            }
            h->rest.p = t[q].p;
            h->rest.n = n - (size_t)(t[q].p - s);
            h->inline_frame = 1;
            return HDR_WEAK;
        }
        if (n - (size_t)(t[0].p - s) > 16 || p < k)
            return HDR_BAD; /* a kernel comm has at most 15 bytes */
        h->comm.p = t[0].p;
        h->comm.n = (size_t)(t[k - 1].p + t[k - 1].n - t[0].p);
        h->comm_only = 1;
        return HDR_WEAK;
    }
    if (p) {
        h->comm.p = t[0].p;
        h->comm.n = (size_t)(t[p - 1].p + t[p - 1].n - t[0].p);
        if (memchr(h->comm.p, ';', h->comm.n))
            return HDR_BAD; /* a folded stack "a;b 12" */
    }
    set_pid(h, &t[p]);
    size_t i = p + 1;
    if (i < k && is_cpu_tok(&t[i]))
        i++;
    if (i + 1 < k && all_digits(t[i].p, t[i].n) && t[i].n <= 19 && is_hex_tok(&t[i + 1]))
        set_period(h, &t[i++]);
    set_rest(h, t, i, k, end);
    return HDR_WEAK;
}

/* Detection (2.2): the first line of a perf script file and the line after it. */
static int frame_like(const char *s, size_t n)
{
    tt__trim(&s, &n);
    size_t sp = 0;
    while (sp < n && s[sp] != ' ' && s[sp] != '\t')
        sp++;
    if (!sp || sp > 16 || sp == n || !is_hex(s, sp))
        return 0;
    s += sp;
    n -= sp;
    tt__trim(&s, &n);
    return !all_digits(s, n); /* "ab 3" is a folded line */
}

static int event_like(const tok *e)
{
    int letter = 0;
    for (size_t i = 0; i < e->n; i++) {
        char c = e->p[i];
        if ((c | 0x20) >= 'a' && (c | 0x20) <= 'z')
            letter = 1;
        else if (!is_digit(c) && !strchr("_:/=,.@-", c))
            return 0;
    }
    return letter;
}

static size_t blank_copy(char *b, size_t cap, const char *line, size_t n, const char **s)
{
    if (n > cap)
        n = cap;
    for (size_t i = 0; i < n; i++)
        b[i] = line[i] == '\t' || line[i] == '\r' ? ' ' : line[i];
    *s = b;
    tt__trim(s, &n);
    return n;
}

int tt__perf_detect(const char *line, size_t n, const char *next, size_t nn)
{
    char b[512];
    if (tt__memmem(line, n, "PERF_RECORD_", 12))
        return 1;
    if (n && line[0] == '\t' && frame_like(line, n))
        return 1; /* call chain after an empty header line (-F ip,sym) */
    const char *s;
    n = blank_copy(b, sizeof b, line, n, &s);
    hdr h;
    int kind = parse_header(&h, s, n);
    if (kind == HDR_BAD)
        return 0;
    if (kind == HDR_STRONG && (h.has_ts || (h.has_pid && event_like(&h.event))))
        return 1;
    if (!next)
        return 0;
    if (kind == HDR_STRONG && h.inline_frame && event_like(&h.event)) {
        /* "cpu-clock:  7feb52015588 f" lines (-F event,ip,sym without -g) */
        hdr h2;
        char b2[512];
        nn = blank_copy(b2, sizeof b2, next, nn, &s);
        return parse_header(&h2, s, nn) == HDR_STRONG && h2.inline_frame &&
               h2.event.n == h.event.n && !memcmp(h2.event.p, h.event.p, h.event.n);
    }
    if (kind == HDR_WEAK && h.inline_frame) {
        /* one-line samples without time or event: the next line is alike */
        tok t[2];
        if (!h.has_pid && !h.comm.n && split(t, 2, h.rest.p, h.rest.n) < 2)
            return 0; /* a lone number (a method-beat text word) is no frame */
        hdr h2;
        nn = blank_copy(b, sizeof b, next, nn, &s);
        return parse_header(&h2, s, nn) == HDR_WEAK && h2.inline_frame &&
               h2.has_pid == h.has_pid && !h.comm_only && !h2.comm_only;
    }
    /* a header with few fields and a call chain: perf indents frame lines, and an
     * unindented one needs an address of real length ("cd dir" in a script is no frame) */
    if (!frame_like(next, nn))
        return 0;
    if (nn && (next[0] == ' ' || next[0] == '\t'))
        return 1;
    size_t hex = 0;
    while (hex < nn && next[hex] != ' ' && next[hex] != '\t')
        hex++;
    return hex >= 6;
}

typedef struct pstate {
    tt_profile *p;
    const tt_import_opts *o;
    tt_stats *stats;
    const char *file;
    tt_vec frames;  /* uint32_t, leaf first */
    tt_vec last_ts; /* int64_t per utid */
    tt_buf line, name, comm; /* comm: the block's thread name, copied from its header */
    tt_buf key;              /* thread key: pid, tid, comm */
    tt_buf last_comm;        /* the last sample's thread: pid, tid, comm and utid */
    int64_t last_pid, last_tid;
    uint32_t last_utid;
    tt_intern *tkeys;        /* thread keys; id -> utid in tutid */
    tt_vec tutid;            /* uint32_t per thread key */
    tt_vec claimed;          /* unsigned char per utid: a thread key uses it */
    tt_buf want;             /* event kept, without modifiers */
    tt_buf variants;         /* its spellings seen, ", "-separated */
    tt_perf_maps *maps;      /* PERF_RECORD_MMAP lines (--show-mmap-events) */
    char path[1024];         /* the current frame's module path */
    int in_block, keep, have_frame, first_frac, after_blank, weak_inline, inline_only;
    int comm_only, addr_frames; /* addr_frames: -1 unknown, 1 frames carry addresses, 0 not */
    uint64_t timed, untimed;
    hdr h;
    uint64_t samples, bad_lines, bad_first;
    char bad_example[160];
    char hdr_snip[64]; /* a comm-only header, reported when no frame follows */
    uint64_t hdr_line;
    int have_maps;           /* a memory map was read: unnamed file frames depend on the pid */
    tt__ltab lines;          /* frame lines of all chunks; kind LINE_*, val the frame id */
    tt_vec lmap;             /* uint32_t per chunk-local line id: its id in lines */
    tt__cscache *cs;         /* the previous stack: most of its root side is shared */
} pstate;

static const char *basename_of(const char *s, size_t n, size_t *bn)
{
    size_t i = n;
    while (i > 0 && s[i - 1] != '/')
        i--;
    *bn = n - i;
    return s + i;
}

static int frame_kind(const char *dso, size_t n)
{
    static const char *const java[] = {".oat", ".odex", ".vdex", ".dex", ".jar", ".art"};
    if (n >= 7 && !memcmp(dso, "[kernel", 7))
        return TT_FRAME_KERNEL;
    for (size_t i = 0; i < sizeof java / sizeof java[0]; i++) {
        size_t l = strlen(java[i]);
        if (n >= l && !memcmp(dso + n - l, java[i], l))
            return TT_FRAME_JAVA;
    }
    if (tt__memmem(dso, n, "jit", 3) || tt__memmem(dso, n, "dalvik", 6))
        return TT_FRAME_JAVA;
    return TT_FRAME_NATIVE;
}

/* Strip a trailing "+0x<hex>" only when it is exactly that (not operator+). */
static size_t strip_offset(const char *s, size_t n)
{
    for (size_t i = n; i > 0; i--) {
        if (s[i - 1] == '+') {
            if (n - i >= 3 && s[i] == '0' && s[i + 1] == 'x' && is_hex(s + i + 2, n - i - 2))
                return i - 1;
            return n;
        }
        if (!is_hex(s + i - 1, 1) && s[i - 1] != 'x')
            return n;
    }
    return n;
}

/* The frame of a frame line (s trimmed, not empty). *mapdep: its identity depends on the
 * memory maps and the sample's pid (an unnamed frame in a file path). */
static int frame_id(pstate *st, const char *s, size_t n, uint32_t *id, int *mapdep)
{
    tt_stack_frame f;
    memset(&f, 0, sizeof f);
    size_t sp = 0;
    while (sp < n && s[sp] != ' ')
        sp++;
    if (is_hex(s, sp) && (sp == n || sp >= 8 || n > sp)) {
        f.has_addr = 1;
        f.addr = hexval(s, sp);
        s += sp;
        n -= sp;
        tt__trim(&s, &n);
    }
    const char *dso = NULL;
    size_t dn = 0;
    if (n && s[n - 1] == ')') {
        for (size_t i = n - 1; i > 0; i--)
            if (s[i] == '(' && s[i - 1] == ' ') {
                dso = s + i + 1;
                dn = n - i - 2;
                n = i - 1;
                break;
            }
        if (!dso && s[0] == '(') { /* only "(dso)" */
            dso = s + 1;
            dn = n - 2;
            n = 0;
        }
    }
    tt__trim(&s, &n);
    size_t symn = strip_offset(s, n);
    int unnamed = symn == 0 || (symn == 9 && !memcmp(s, "[unknown]", 9));
    const tt_perf_map *map = NULL;
    *mapdep = unnamed && f.has_addr && dso && dn && dso[0] == '/';
    if (*mapdep)
        map = tt_perf_maps_find(st->maps, st->h.pid, dso, dn, f.addr, &f.file_off);
    if (map) {
        /* the same code has the same file offset in every process (symbolication.md 3.2) */
        f.has_file_off = 1;
        f.module_path = map->path;
    } else if (unnamed && f.has_addr && dso && dn && dso[0] == '/') {
        /* no mapping line: the path still locates the file; frame_loc decides what the
         * address is */
        if (dn < sizeof st->path) {
            memcpy(st->path, dso, dn);
            st->path[dn] = 0;
            f.module_path = st->path;
        }
    }
    size_t bn = 0;
    const char *base = dso ? basename_of(dso, dn, &bn) : NULL;
    char modbuf[256];
    if (base && bn && bn < sizeof modbuf && !(bn == 9 && !memcmp(base, "[unknown]", 9))) {
        memcpy(modbuf, base, bn);
        modbuf[bn] = 0;
        f.module = modbuf;
    }
    f.kind = dso ? frame_kind(dso, dn) : TT_FRAME_NATIVE;
    tt_buf *nb = &st->name;
    nb->len = 0;
    if (unnamed) {
        /* one frame per module, not per address; the address stays with the frame */
        tt_buf_puts(nb, "[unknown]");
        if (f.module) {
            tt_buf_puts(nb, " ");
            tt_buf_puts(nb, f.module);
        }
        f.is_unnamed = 1;
    } else {
        tt_buf_put(nb, s, symn);
    }
    char raw[512];
    if (n && n < sizeof raw && symn != n) {
        memcpy(raw, s, n);
        raw[n] = 0;
        f.raw_name = raw;
    }
    if (!nb->data)
        return TT_ENOMEM;
    f.name = nb->data;
    return tt_frame_intern(st->p, id, &f);
}

static int add_frame(pstate *st, const char *s, size_t n)
{
    tt__trim(&s, &n);
    if (!n)
        return 0;
    uint32_t id;
    int mapdep, rc = frame_id(st, s, n, &id, &mapdep);
    if (rc)
        return rc;
    st->have_frame = 1;
    return tt_vec_push(&st->frames, &id) ? 0 : TT_ENOMEM;
}

/* The line -F +srcline prints after a frame: "file:line", "??:0", "file:line (discriminator
 * 2)" or "dso[offset]" when there is no line table. 1 when it is one; file:line is attached
 * to the frame before it. */
static int srcline(pstate *st, const char *s, size_t n)
{
    const char *d = memchr(s, ' ', n); /* frame lines have blanks: most leave here */
    if (d) {
        if ((size_t)(s + n - d) < 17 || memcmp(d, " (discriminator ", 16) || s[n - 1] != ')')
            return 0;
        n = (size_t)(d - s);
    }
    if (!n)
        return 0;
    if (s[n - 1] == ']') { /* dso[offset], "[kernel.kallsyms][ffffffff813a4413]" */
        size_t b = n - 1;
        while (b > 0 && s[b - 1] != '[')
            b--;
        return b > 1 && is_hex(s + b, n - 1 - b);
    }
    const char *c = NULL;
    for (size_t i = n; i > 0; i--)
        if (s[i - 1] == ':') {
            c = s + i - 1;
            break;
        }
    if (!c || c == s)
        return 0;
    size_t ln_n = (size_t)(s + n - c - 1);
    if (ln_n == 1 && c[1] == '?')
        return 1;
    if (!all_digits(c + 1, ln_n))
        return 0;
    if (!st->frames.len || (c - s == 2 && s[0] == '?' && s[1] == '?'))
        return 1;
    uint32_t id = TT_VEC_AT(&st->frames, uint32_t, st->frames.len - 1);
    tt_stack_frame *f = &TT_VEC_AT(&st->p->frames, tt_stack_frame, id);
    if (!f->file) {
        f->file = tt_profile_str(st->p, s, (size_t)(c - s));
        uint64_t ln = 0;
        tt__parse_u64(c + 1, ln_n, &ln);
        f->line = ln > INT32_MAX ? 0 : (int32_t)ln;
    }
    return 1;
}

/* The thread of the block: one per (pid, tid, comm), so that a thread renamed by exec or
 * prctl keeps each sample under the name perf recorded it with (the folded root is the
 * sample's comm, as stackcollapse-perf.pl and speedscope show it). */
static void bad_line(pstate *st, const char *s, size_t n, uint64_t lineno);

static int thread_of_key(pstate *st, uint32_t *utid);

static int block_thread(pstate *st, uint32_t *utid)
{
    const hdr *h = &st->h;
    if (st->last_utid != TT_NONE && h->pid == st->last_pid && h->tid == st->last_tid &&
        h->comm.n == st->last_comm.len && !memcmp(h->comm.p, st->last_comm.data, h->comm.n)) {
        *utid = st->last_utid; /* consecutive samples of one thread */
        return 0;
    }
    st->last_comm.len = 0;
    if (tt_buf_put(&st->last_comm, h->comm.p ? h->comm.p : "", h->comm.n))
        return TT_ENOMEM;
    st->last_pid = h->pid;
    st->last_tid = h->tid;
    st->last_utid = TT_NONE;
    int rc = thread_of_key(st, utid);
    if (!rc)
        st->last_utid = *utid;
    return rc;
}

static int thread_of_key(pstate *st, uint32_t *utid)
{
    const hdr *h = &st->h;
    tt_buf *k = &st->key;
    k->len = 0;
    if (tt_buf_put(k, (const char *)&h->pid, sizeof h->pid) ||
        tt_buf_put(k, (const char *)&h->tid, sizeof h->tid) ||
        tt_buf_put(k, h->comm.p ? h->comm.p : "", h->comm.n))
        return TT_ENOMEM;
    uint32_t id;
    if (tt_intern_get(st->tkeys, k->data, k->len, &id))
        return TT_ENOMEM;
    if (id < st->tutid.len) {
        *utid = TT_VEC_AT(&st->tutid, uint32_t, id);
        return 0;
    }
    int rc = tt_thread_intern(st->p, utid, st->o->source, h->pid, h->tid, 32);
    if (!rc && *utid < st->claimed.len && TT_VEC_AT(&st->claimed, unsigned char, *utid))
        rc = tt_thread_add(st->p, utid, st->o->source, h->pid, h->tid, 32);
    if (rc)
        return rc;
    unsigned char zero = 0;
    while (st->claimed.len <= *utid)
        if (!tt_vec_push(&st->claimed, &zero))
            return TT_ENOMEM;
    TT_VEC_AT(&st->claimed, unsigned char, *utid) = 1;
    if (!tt_vec_push(&st->tutid, utid))
        return TT_ENOMEM;
    if (h->comm.n)
        tt_thread_set_name(st->p, *utid, h->comm.p, h->comm.n, 0);
    if (h->pid >= 0 && h->pid == h->tid)
        tt_thread_set_main(st->p, *utid);
    return 0;
}

static int finish_block(pstate *st, tt_error *err, uint64_t lineno)
{
    if (!st->in_block)
        return 0;
    st->in_block = 0;
    if (!st->keep)
        return 0;
    size_t n = st->frames.len;
    if (!n) {
        if (st->comm_only) { /* a lone word is a header only when frames follow it */
            bad_line(st, st->hdr_snip, strlen(st->hdr_snip), st->hdr_line);
            return 0;
        }
        tt_stats_add(st->stats, "perf_empty_stack", st->file, TT_SEV_WARN, 1,
                     "a sample without frames was skipped");
        return 0;
    }
    if (n > TT_MAX_STACK_DEPTH) {
        tt_stats_add(st->stats, "stack_too_deep", st->file, TT_SEV_DATA_LOSS, 1,
                     "a stack deeper than 4096 frames was skipped");
        return 0;
    }
    if (!st->want.data && tt_buf_put(&st->want, "", 0))
        return tt_error_set(err, TT_ENOMEM, st->file, 0, 0, "out of memory");
    uint32_t *f = st->frames.data;
    for (size_t i = 0; i < n / 2; i++) { /* leaf first -> root first */
        uint32_t t = f[i];
        f[i] = f[n - 1 - i];
        f[n - 1 - i] = t;
    }
    tt_sample s;
    tt_sample_init(&s);
    hdr *h = &st->h;
    int rc = block_thread(st, &s.utid);
    if (!rc)
        rc = tt__callsite_intern_cached(st->p, &s.callsite, f, n, st->cs);
    if (rc)
        return tt_error_set(err, rc, st->file, TT_LOC_LINE, lineno, "out of memory");
    tt_profile_meta *m = tt_profile_meta_get(st->p);
    if (h->pid >= 0 && h->pid == h->tid && (m->pid < 0 || m->pid == h->pid)) {
        m->pid = h->pid;
        if (h->comm.n)
            m->process = tt_profile_str(st->p, h->comm.p, h->comm.n);
    }
    s.ts = s.end_ts = h->has_ts ? h->ts : 0;
    s.weight = h->has_period ? h->period : 1;
    s.type = TT_ST_CPU;
    if (!h->has_ts) {
        if (!st->untimed++) {
            m->timeless = 1; /* perf script -F without time: profiles, no timeline */
            tt_stats_add(st->stats, "perf_no_timestamps", st->file, TT_SEV_INFO, 1,
                         "samples without the time field: flame graphs and profiles only, "
                         "no slices or Chrome JSON");
        }
    } else {
        st->timed++;
        while (st->last_ts.len <= s.utid) {
            int64_t z = INT64_MIN;
            if (!tt_vec_push(&st->last_ts, &z))
                return tt_error_set(err, TT_ENOMEM, st->file, 0, 0, "out of memory");
        }
        int64_t *lt = &TT_VEC_AT(&st->last_ts, int64_t, s.utid);
        if (s.ts < *lt)
            tt_stats_add(st->stats, "perf_time_backwards", st->file, TT_SEV_INFO, 1, NULL);
        *lt = s.ts;
    }
    if ((rc = tt_profile_add(st->p, &s, NULL)) == TT_ELIMIT) {
        tt_stats_add(st->stats, "perf_out_of_range", st->file, TT_SEV_WARN, 1,
                     "a sample with a period above 2^40 or a time beyond 2^62 ns was skipped");
        return 0;
    }
    if (rc)
        return tt_error_set(err, rc, st->file, TT_LOC_LINE, lineno, "cannot add sample");
    st->samples++;
    return 0;
}

/* perf's event modifiers (perf-list(1): u k h I G H p P S D W e b) after the last ':' or,
 * for a PMU event "cpu/cycles/Pu", after the last '/'. The length without them. */
static size_t event_base(const char *e, size_t n)
{
    for (size_t i = n; i > 0; i--) {
        char c = e[i - 1];
        if ((c == ':' || c == '/') && i < n && i > 1 && n - i <= 8)
            return c == '/' ? i : i - 1;
        if (!strchr("ukhIGHpPSDWeb", c) || !c)
            return n;
    }
    return n;
}

static void note_variant(pstate *st, const hdr *h)
{
    /* a spelling list of the kept event, e.g. "cycles:u, cycles:ppp" (short, checked once
     * per different spelling) */
    tt_buf *v = &st->variants;
    size_t n = h->event.n;
    const char *e = h->event.p ? h->event.p : "";
    for (size_t i = 0; i < v->len;) {
        size_t j = i;
        while (j < v->len && v->data[j] != ',')
            j++;
        if (j - i == n && !memcmp(v->data + i, e, n))
            return;
        i = j + 2;
    }
    if (v->len > 200)
        return;
    if (v->len)
        tt_buf_puts(v, ", ");
    tt_buf_put(v, e, n);
    tt_profile_meta *m = tt_profile_meta_get(st->p);
    if (v->data && (memchr(v->data, ',', v->len) || v->len != st->want.len))
        m->event_variants = tt_profile_str(st->p, v->data, v->len);
}

/* A frame on the header line ends at its "(dso)": perf prints some fields after it
 * ("insn: 89 c8"). */
static size_t inline_len(const char *s, size_t n)
{
    for (size_t i = n; i > 2; i--) {
        if (s[i - 3] != ' ' || s[i - 2] != '(' || (s[i - 1] != '/' && s[i - 1] != '['))
            continue;
        const char *c = memchr(s + i, ')', n - i);
        return c ? (size_t)(c - s) + 1 : n;
    }
    return n;
}

static int start_block(pstate *st, const hdr *h, int kind, uint64_t lineno)
{
    st->h = *h;
    st->comm.len = 0;
    if (tt_buf_put(&st->comm, h->comm.p ? h->comm.p : "", h->comm.n))
        return TT_ENOMEM;
    st->h.comm.p = st->comm.data;
    st->in_block = 1;
    st->have_frame = 0;
    st->frames.len = 0;
    st->comm_only = h->comm_only;
    if (h->comm_only) {
        tt__snippet(st->hdr_snip, sizeof st->hdr_snip, h->comm.p, h->comm.n);
        st->hdr_line = lineno;
    }
    /* without a time or an event and with the frame on the line, every line is a sample */
    st->weak_inline = kind == HDR_WEAK && h->inline_frame;
    if (kind == HDR_WEAK && !h->comm.n && !h->has_pid && st->after_blank)
        st->weak_inline = 0; /* -F ip,sym with call graphs: an empty header line */
    st->inline_only = 0;
    tt_profile_meta *m = tt_profile_meta_get(st->p);
    const char *ev = h->event.p ? h->event.p : "";
    size_t evn = event_base(ev, h->event.n);
    if (!st->want.data && h->comm_only) {
        st->keep = 1; /* a lone word decides nothing until frames follow it */
        return 0;
    }
    if (!st->want.data) {
        const char *w = st->o->event ? st->o->event : ev;
        size_t wn = st->o->event ? event_base(w, strlen(w)) : evn;
        if (tt_buf_put(&st->want, w, wn) || !st->want.data)
            return TT_ENOMEM;
        if (st->want.len) /* perf script -F without event: no name */
            m->event = tt_profile_str(st->p, st->want.data, st->want.len);
    }
    st->keep = st->want.len == evn && !memcmp(st->want.data, ev, evn);
    if (!st->keep) {
        char ex[200];
        snprintf(ex, sizeof ex, "%s:%llu: event \"%.*s\" skipped (keeping \"%s\"; pick one with "
                 "--event)", st->file, (unsigned long long)lineno, (int)(h->event.n > 60 ? 60 :
                 h->event.n), ev, st->want.data);
        tt_stats_add(st->stats, "perf_other_event", st->file, TT_SEV_WARN, 1, ex);
        return 0;
    }
    note_variant(st, h);
    if (h->has_ts) {
        if (st->first_frac < 0)
            st->first_frac = h->frac_digits;
        else if (st->first_frac != h->frac_digits && !m->ambiguous_ts) {
            m->ambiguous_ts = 1;
            tt_stats_add(st->stats, "perf_ambiguous_timestamps", st->file, TT_SEV_WARN, 1,
                         "timestamp fractions vary in length (old report_sample.py without zero "
                         "padding): aggregates are valid, slices are not");
        }
    }
    /* no call graph: the frame is on the header line */
    if (h->inline_frame) {
        st->inline_only = kind == HDR_STRONG;
        return add_frame(st, h->rest.p, inline_len(h->rest.p, h->rest.n));
    }
    return 0;
}

static void bad_line(pstate *st, const char *s, size_t n, uint64_t lineno)
{
    char snip[64];
    tt__snippet(snip, sizeof snip, s, n);
    if (!st->bad_lines++) {
        st->bad_first = lineno;
        snprintf(st->bad_example, sizeof st->bad_example, "%s", snip);
    }
    char ex[200];
    snprintf(ex, sizeof ex, "%s:%llu: not a sample header (no <sec>.<frac>: timestamp, "
             "<tid> or <event>:): %s", st->file, (unsigned long long)lineno, snip);
    tt_stats_add(st->stats, "perf_unparsable_line", st->file, TT_SEV_WARN, 1, ex);
}

/* A blank or the end of the line after some ':' (a time or an event); C++ and Java names
 * ("std::move", "Lfoo;::bar") have none, so most frame lines are passed over at once. */
static int colon_blank(const char *s, size_t n)
{
    for (const char *c = memchr(s, ':', n); c; c = memchr(c + 1, ':', (size_t)(s + n - c - 1)))
        if (c + 1 == s + n || c[1] == ' ')
            return 1;
    return 0;
}

static void not_a_frame(pstate *st, const char *s, size_t n, uint64_t lineno)
{
    char snip[64], ex[200];
    tt__snippet(snip, sizeof snip, s, n);
    snprintf(ex, sizeof ex, "%s:%llu: a line inside a stack that is no frame was skipped: %s",
             st->file, (unsigned long long)lineno, snip);
    tt_stats_add(st->stats, "perf_not_a_frame", st->file, TT_SEV_WARN, 1, ex);
}

static int sideband(pstate *st, const char *line, size_t n, uint64_t lineno, tt_error *err)
{
    tt_perf_mmap mm;
    if (tt_perf_mmap_parse(&mm, line, n) == 0) {
        int rc = tt_perf_maps_add(st->maps, &mm);
        if (rc)
            return tt_error_set(err, rc, st->file, TT_LOC_LINE, lineno,
                                rc == TT_ELIMIT ? "too many memory maps" : "out of memory");
        st->have_maps = 1;
        tt_stats_add(st->stats, "perf_mmap_records", st->file, TT_SEV_INFO, 1, NULL);
        return 0;
    }
    tt_stats_add(st->stats, "perf_sideband_records", st->file, TT_SEV_INFO, 1, NULL);
    return 0;
}

/* One line inside a block: a frame, a srcline, the next header, or something skipped.
 * 1 when the block ended and the line must be read as a header. */
static int block_line(pstate *st, const char *line, size_t n, const char *s, size_t sn,
                      uint64_t lineno, tt_error *err)
{
    size_t sp = 0;
    while (sp < sn && s[sp] != ' ')
        sp++;
    int addr = sp <= 16 && is_hex(s, sp); /* a srcline never starts with hex digits alone */
    if (!addr && (st->have_frame || !st->keep) && srcline(st, s, sn))
        return 0;
    if (colon_blank(s, sn)) {
        hdr h;
        if (tt__memmem(line, n, "PERF_RECORD_", 12))
            return 1;
        if (sn > 5 && !memcmp(s, "insn:", 5))
            return 0; /* -F +insn: the instruction bytes after a call chain */
        if (parse_header(&h, s, sn) == HDR_STRONG &&
            (h.has_ts || h.has_pid || h.comm.n || !(st->h.has_ts || st->h.has_pid || st->h.comm.n)))
            return 1; /* a lone "word:" is a header only in files whose headers are that */
    }
    if (st->weak_inline)
        return 1; /* the next one-line sample */
    if (!addr && (line[0] != ' ' || st->addr_frames == 1 || !st->keep)) {
        if (st->comm_only && !st->have_frame) {
            /* the lone word before was no header either */
            st->in_block = 0;
            bad_line(st, st->hdr_snip, strlen(st->hdr_snip), st->hdr_line);
            return 2;
        }
        if (st->keep)
            not_a_frame(st, s, sn, lineno);
        return 0;
    }
    if (st->addr_frames < 0)
        st->addr_frames = addr;
    if (!st->keep)
        return 0;
    if (st->inline_only) {
        /* perf prints the ip on the header line or a call chain below it, never both: the
         * header's hex field was another one (-F +addr) */
        st->frames.len = 0;
        st->inline_only = 0;
    }
    int rc = add_frame(st, s, sn);
    return rc ? tt_error_set(err, rc, st->file, TT_LOC_LINE, lineno, "out of memory") : 0;
}

/* The line with tabs and carriage returns as blanks (simpleperf separates fields with both)
 * in st->line; *s, *sn: it trimmed. */
static int blank_line(pstate *st, const char *line, size_t n, const char **s, size_t *sn)
{
    st->line.len = 0;
    if (tt_buf_put(&st->line, line, n) || !st->line.data)
        return TT_ENOMEM;
    for (size_t i = 0; i < n; i++)
        if (st->line.data[i] == '\t' || st->line.data[i] == '\r')
            st->line.data[i] = ' ';
    *s = st->line.data;
    *sn = n;
    tt__trim(s, sn);
    return 0;
}

static int perf_line(pstate *st, const char *line, size_t n, uint64_t lineno, int *skipping,
                     tt_error *err)
{
    int tab = n && line[0] == '\t'; /* perf's call chain lines, never a header */
    const char *s;
    size_t sn;
    if (blank_line(st, line, n, &s, &sn))
        return tt_error_set(err, TT_ENOMEM, st->file, 0, 0, "out of memory");
    line = st->line.data;
    if (!sn) {
        *skipping = 0;
        st->after_blank = 1;
        st->have_frame = 0;
        return finish_block(st, err, lineno);
    }
    if (*skipping)
        return 0;
    if (st->in_block) {
        int rc = block_line(st, line, n, s, sn, lineno, err);
        if (rc == 2) {
            *skipping = 1;
            return 0;
        }
        if (rc <= 0)
            return rc;
        if ((rc = finish_block(st, err, lineno)))
            return rc;
    }
    int after_blank = st->after_blank;
    st->after_blank = 0;
    if (s[0] == '#')
        return 0;
    if (tt__memmem(line, n, "PERF_RECORD_", 12))
        return sideband(st, line, n, lineno, err);
    hdr h;
    int kind = parse_header(&h, s, sn);
    size_t sp = 0;
    while (sp < sn && s[sp] != ' ')
        sp++;
    if (tab && kind != HDR_STRONG && sp <= 16 && is_hex(s, sp)) {
        memset(&h, 0, sizeof h); /* frames after an empty header line (-F ip,sym) */
        h.pid = h.tid = -1;
        h.rest.p = s;
        h.rest.n = sn;
        h.inline_frame = 1;
        kind = HDR_WEAK;
    }
    if (kind == HDR_BAD) {
        bad_line(st, s, sn, lineno);
        *skipping = 1;
        return 0;
    }
    st->after_blank = after_blank;
    int rc = start_block(st, &h, kind, lineno);
    st->after_blank = 0;
    return rc ? tt_error_set(err, rc, st->file, TT_LOC_LINE, lineno, "out of memory") : 0;
}

/* Which lines a chunk numbers: the ones that may be frame lines (indented, or an address
 * first as simpleperf writes them). */
static int frame_candidate(const char *s, size_t n)
{
    return n && (s[0] == '\t' || s[0] == ' ' || is_hex(s, 1));
}

enum { LINE_UNSEEN = 0, LINE_OTHER, LINE_FRAME, LINE_FRAME_MAPDEP };

/* Whether a numbered line is a frame line by its text alone: an address first, no time or
 * event in it (what block_line tests before it adds a frame). */
static int line_kind(pstate *st, const char *line, size_t n)
{
    const char *s;
    size_t sn;
    if (blank_line(st, line, n, &s, &sn))
        return -1;
    size_t sp = 0;
    while (sp < sn && s[sp] != ' ')
        sp++;
    return sp <= 16 && is_hex(s, sp) && !colon_blank(s, sn) ? LINE_FRAME : LINE_OTHER;
}

/* A frame line inside a kept or skipped block, read by what the text gave the first time:
 * block_line's frame branch without its tests. 1 done, 0 for the slow way, <0 an error. */
static int fast_frame(pstate *st, const tt__lchunk *c, uint32_t lid, const char *line,
                      size_t n, uint64_t lineno, tt_error *err)
{
    uint32_t *gid = &TT_VEC_AT(&st->lmap, uint32_t, lid);
    if (*gid == TT_NONE) {
        const tt__ldist *d = &c->dist[lid];
        if (tt__ltab_get(&st->lines, gid, d->hash, line, n))
            return tt_error_set(err, TT_ENOMEM, st->file, 0, 0, "out of memory");
    }
    tt__lent *e = &st->lines.ents[*gid];
    if (e->kind == LINE_UNSEEN) {
        int k = line_kind(st, line, n);
        if (k < 0)
            return tt_error_set(err, TT_ENOMEM, st->file, 0, 0, "out of memory");
        e->kind = (uint32_t)k;
    }
    if (e->kind == LINE_OTHER || (e->kind == LINE_FRAME_MAPDEP && st->have_maps))
        return 0;
    if (st->addr_frames < 0)
        st->addr_frames = 1;
    if (!st->keep)
        return 1;
    if (st->inline_only) {
        st->frames.len = 0;
        st->inline_only = 0;
    }
    uint32_t id = e->val;
    if (id == TT_NONE) {
        const char *s;
        size_t sn;
        int mapdep = 0, rc = blank_line(st, line, n, &s, &sn);
        if (!rc)
            rc = frame_id(st, s, sn, &id, &mapdep);
        if (rc)
            return tt_error_set(err, rc, st->file, TT_LOC_LINE, lineno, "out of memory");
        if (mapdep)
            e->kind = LINE_FRAME_MAPDEP;
        if (!mapdep || !st->have_maps)
            e->val = id;
    }
    st->have_frame = 1;
    if (!tt_vec_push(&st->frames, &id))
        return tt_error_set(err, TT_ENOMEM, st->file, 0, 0, "out of memory");
    return 1;
}

static int perf_chunk(pstate *st, const tt__lchunk *c, uint64_t *lineno, int *skipping,
                      tt_error *err)
{
    st->lmap.len = 0;
    uint32_t none = TT_NONE;
    for (size_t i = 0; i < c->ndistinct; i++)
        if (!tt_vec_push(&st->lmap, &none))
            return tt_error_set(err, TT_ENOMEM, st->file, 0, 0, "out of memory");
    const char *line = c->data;
    for (size_t i = 0; i < c->nrecs; i++) {
        const tt__lrec *r = &c->recs[i];
        size_t n = r->len;
        ++*lineno;
        int rc = 0;
        if (r->id != TT_NONE && st->in_block && !*skipping && !st->weak_inline)
            rc = fast_frame(st, c, r->id, line, n, *lineno, err);
        if (!rc)
            rc = perf_line(st, line, n, *lineno, skipping, err);
        if (rc < 0)
            return rc;
        line += n + 1;
    }
    return 0;
}

int tt_perf_import(tt_profile *p, tt_input *in, const tt_import_opts *o, tt_stats *stats,
                   tt_error *err)
{
    pstate st;
    memset(&st, 0, sizeof st);
    st.p = p;
    st.o = o;
    st.stats = stats;
    st.file = tt_input_name(in);
    st.first_frac = -1;
    st.addr_frames = -1;
    st.last_utid = TT_NONE;
    tt_vec_init(&st.frames, sizeof(uint32_t));
    tt_vec_init(&st.last_ts, sizeof(int64_t));
    tt_vec_init(&st.tutid, sizeof(uint32_t));
    tt_vec_init(&st.claimed, 1);
    st.tkeys = tt_intern_new();
    st.cs = calloc(1, sizeof *st.cs);
    if (!st.tkeys || !st.cs || tt_perf_maps_new(&st.maps)) {
        tt_intern_free(st.tkeys);
        free(st.cs);
        return tt_error_set(err, TT_ENOMEM, st.file, 0, 0, "out of memory");
    }
    tt_profile_meta *m = tt_profile_meta_get(p);
    m->source_format = "perf_script";
    int rc = 0, skipping = 0;
    uint64_t lineno = tt__input_lineno(in);
    tt__lreader *rd = NULL;
    tt_vec_init(&st.lmap, sizeof(uint32_t));
    rc = tt__lreader_open(&rd, in, o->jobs, o->chunk_bytes, o->jobs < 0 ? NULL : frame_candidate,
                          err);
    while (!rc) {
        const tt__lchunk *c;
        rc = tt__lreader_next(rd, &c, err);
        if (rc == TT_DONE) {
            rc = finish_block(&st, err, lineno);
            break;
        }
        if (!rc)
            rc = perf_chunk(&st, c, &lineno, &skipping, err);
    }
    tt__lreader_close(rd);
    if (!rc && st.timed && st.untimed) {
        char ex[200];
        snprintf(ex, sizeof ex, "%s: %llu of %llu samples have no time field: the input is read "
                 "without times (no slices)", st.file, (unsigned long long)st.untimed,
                 (unsigned long long)(st.timed + st.untimed));
        tt_stats_add(stats, "perf_some_timestamps", st.file, TT_SEV_WARN, (int64_t)st.untimed, ex);
    }
    if (!rc && st.samples == 0) {
        if (st.bad_lines)
            rc = tt_error_set(err, TT_EFORMAT, st.file, TT_LOC_LINE, st.bad_first,
                              "not perf script output: expected a sample header "
                              "\"<comm> <pid>/<tid> <sec>.<frac>: <period> <event>:\", found "
                              "\"%s\"", st.bad_example);
        else
            rc = tt_error_set(err, TT_EFORMAT, st.file, 0, 0,
                              "no samples with frames in perf script output");
    }
    tt_vec_free(&st.frames);
    tt_vec_free(&st.last_ts);
    tt_vec_free(&st.tutid);
    tt_vec_free(&st.claimed);
    tt_vec_free(&st.lmap);
    free(st.cs);
    tt__ltab_free(&st.lines);
    tt_intern_free(st.tkeys);
    tt_perf_maps_free(st.maps);
    tt_buf_free(&st.line);
    tt_buf_free(&st.name);
    tt_buf_free(&st.comm);
    tt_buf_free(&st.key);
    tt_buf_free(&st.last_comm);
    tt_buf_free(&st.want);
    tt_buf_free(&st.variants);
    return rc;
}
