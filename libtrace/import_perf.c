/* `perf script` / simpleperf report_sample.py text reader, spec/samples.md section 2.2:
 * header lines found by their timestamp, leaf-first frame lines, one point sample per block
 * weighted by the period. Streams line by line. */
#include "tt.h"

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
    int frac_digits, has_period;
    tok comm, event, rest;
} hdr;

/* Header rules 2-4 of 2.2 on a line whose tabs are already blanks. 0 when it parses. */
static int parse_header(hdr *h, const char *s, size_t n)
{
    memset(h, 0, sizeof *h);
    h->pid = h->tid = -1;
    size_t ts_b = 0, ts_e = 0;
    int found = 0;
    for (size_t j = 0; j < n && !found; j++) {
        if (s[j] != ':')
            continue;
        size_t b = j;
        while (b > 0 && s[b - 1] != ' ')
            b--;
        if (!tt_perf_parse_ts(s + b, j - b, &h->ts, &h->frac_digits)) {
            found = 1;
            ts_b = b;
            ts_e = j;
        }
    }
    if (!found)
        return TT_EFORMAT;
    tok t[64];
    size_t k = split(t, 64, s, ts_b);
    if (k && t[k - 1].n > 2 && t[k - 1].p[0] == '[' && t[k - 1].p[t[k - 1].n - 1] == ']' &&
        all_digits(t[k - 1].p + 1, t[k - 1].n - 2))
        k--; /* [cpu] */
    if (k) {
        const char *p = t[k - 1].p;
        size_t tn = t[k - 1].n;
        const char *sl = memchr(p, '/', tn);
        uint64_t a, b;
        if (sl && all_digits(p, (size_t)(sl - p)) && all_digits(sl + 1, tn - (size_t)(sl - p) - 1) &&
            !tt__parse_u64(p, (size_t)(sl - p), &a) &&
            !tt__parse_u64(sl + 1, tn - (size_t)(sl - p) - 1, &b)) {
            h->pid = (int64_t)a;
            h->tid = (int64_t)b;
            k--;
        } else if (all_digits(p, tn) && !tt__parse_u64(p, tn, &a)) {
            h->tid = (int64_t)a;
            k--;
        }
    }
    if (k) {
        h->comm.p = t[0].p;
        h->comm.n = (size_t)(t[k - 1].p + t[k - 1].n - t[0].p);
    }
    const char *r = s + ts_e + 1;
    size_t rn = n - ts_e - 1;
    tok a[3];
    size_t m = split(a, 3, r, rn);
    size_t i = 0;
    uint64_t per;
    if (i < m && all_digits(a[i].p, a[i].n) && !tt__parse_u64(a[i].p, a[i].n, &per)) {
        h->period = (int64_t)per;
        h->has_period = 1;
        i++;
    }
    if (i < m && a[i].p[a[i].n - 1] == ':') {
        h->event.p = a[i].p;
        h->event.n = a[i].n - 1;
        i++;
    }
    if (i < m) {
        h->rest.p = a[i].p;
        h->rest.n = (size_t)(r + rn - a[i].p);
    }
    return 0;
}

typedef struct pstate {
    tt_profile *p;
    const tt_import_opts *o;
    tt_stats *stats;
    const char *file;
    tt_vec frames;  /* uint32_t, leaf first */
    tt_vec last_ts; /* int64_t per utid */
    tt_buf line, name, comm; /* comm: the block's thread name, copied from its header */
    tt_perf_maps *maps;      /* PERF_RECORD_MMAP lines (--show-mmap-events) */
    char path[1024];         /* the current frame's module path */
    int in_block, keep, have_frame, first_frac;
    hdr h;
    uint64_t samples, bad_lines, bad_first;
    char bad_example[160];
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

static int add_frame(pstate *st, const char *s, size_t n)
{
    tt__trim(&s, &n);
    if (!n)
        return 0;
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
    if (unnamed && f.has_addr && dso && dn && dso[0] == '/')
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
    uint32_t id;
    int rc = tt_frame_intern(st->p, &id, &f);
    if (rc)
        return rc;
    st->have_frame = 1;
    return tt_vec_push(&st->frames, &id) ? 0 : TT_ENOMEM;
}

/* "file:line" printed by -F +srcline after a frame. */
static int srcline(pstate *st, const char *s, size_t n)
{
    tt__trim(&s, &n);
    const char *c = NULL;
    for (size_t i = n; i > 0; i--)
        if (s[i - 1] == ':') {
            c = s + i - 1;
            break;
        }
    if (!c || c == s || memchr(s, ' ', n) || !all_digits(c + 1, (size_t)(s + n - c - 1)))
        return 0;
    if (!st->frames.len)
        return 1;
    uint32_t id = TT_VEC_AT(&st->frames, uint32_t, st->frames.len - 1);
    tt_stack_frame *f = &TT_VEC_AT(&st->p->frames, tt_stack_frame, id);
    if (!f->file) {
        f->file = tt_profile_str(st->p, s, (size_t)(c - s));
        uint64_t ln = 0;
        tt__parse_u64(c + 1, (size_t)(s + n - c - 1), &ln);
        f->line = ln > INT32_MAX ? 0 : (int32_t)ln;
    }
    return 1;
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
        tt_stats_add(st->stats, "perf_empty_stack", st->file, TT_SEV_WARN, 1,
                     "a sample without frames was skipped");
        return 0;
    }
    if (n > TT_MAX_STACK_DEPTH) {
        tt_stats_add(st->stats, "stack_too_deep", st->file, TT_SEV_DATA_LOSS, 1,
                     "a stack deeper than 4096 frames was skipped");
        return 0;
    }
    uint32_t *f = st->frames.data;
    for (size_t i = 0; i < n / 2; i++) { /* leaf first -> root first */
        uint32_t t = f[i];
        f[i] = f[n - 1 - i];
        f[n - 1 - i] = t;
    }
    tt_sample s;
    tt_sample_init(&s);
    hdr *h = &st->h;
    int rc = tt_thread_intern(st->p, &s.utid, st->o->source, h->pid, h->tid, 32);
    if (!rc)
        rc = tt_callsite_intern(st->p, &s.callsite, f, n);
    if (rc)
        return tt_error_set(err, rc, st->file, TT_LOC_LINE, lineno, "out of memory");
    if (h->comm.n)
        tt_thread_set_name(st->p, s.utid, h->comm.p, h->comm.n, 0);
    if (h->pid >= 0 && h->pid == h->tid) {
        tt_thread_set_main(st->p, s.utid);
        tt_profile_meta *m = tt_profile_meta_get(st->p);
        if (m->pid < 0 || m->pid == h->pid) {
            m->pid = h->pid;
            if (h->comm.n)
                m->process = tt_profile_str(st->p, h->comm.p, h->comm.n);
        }
    }
    s.ts = s.end_ts = h->ts;
    s.weight = h->has_period ? h->period : 1;
    s.type = TT_ST_CPU;
    while (st->last_ts.len <= s.utid) {
        int64_t z = INT64_MIN;
        if (!tt_vec_push(&st->last_ts, &z))
            return tt_error_set(err, TT_ENOMEM, st->file, 0, 0, "out of memory");
    }
    int64_t *lt = &TT_VEC_AT(&st->last_ts, int64_t, s.utid);
    if (s.ts < *lt)
        tt_stats_add(st->stats, "perf_time_backwards", st->file, TT_SEV_INFO, 1, NULL);
    *lt = s.ts;
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

static int start_block(pstate *st, const hdr *h, uint64_t lineno)
{
    st->h = *h;
    st->comm.len = 0;
    if (tt_buf_put(&st->comm, h->comm.p ? h->comm.p : "", h->comm.n))
        return TT_ENOMEM;
    st->h.comm.p = st->comm.data;
    st->in_block = 1;
    st->frames.len = 0;
    tt_profile_meta *m = tt_profile_meta_get(st->p);
    const char *want = st->o->event ? st->o->event : m->event;
    if (!want) {
        m->event = tt_profile_str(st->p, h->event.p ? h->event.p : "", h->event.n);
        want = m->event;
    }
    st->keep = strlen(want) == h->event.n && !memcmp(want, h->event.p ? h->event.p : "",
                                                     h->event.n);
    if (!st->keep) {
        char ex[200];
        snprintf(ex, sizeof ex, "%s:%llu: event \"%.*s\" skipped (keeping \"%s\"; pick one with "
                 "--event)", st->file, (unsigned long long)lineno, (int)(h->event.n > 60 ? 60 :
                 h->event.n), h->event.p ? h->event.p : "", want);
        tt_stats_add(st->stats, "perf_other_event", st->file, TT_SEV_WARN, 1, ex);
        return 0;
    }
    if (st->first_frac < 0)
        st->first_frac = h->frac_digits;
    else if (st->first_frac != h->frac_digits && !m->ambiguous_ts) {
        m->ambiguous_ts = 1;
        tt_stats_add(st->stats, "perf_ambiguous_timestamps", st->file, TT_SEV_WARN, 1,
                     "timestamp fractions vary in length (old report_sample.py without zero "
                     "padding): aggregates are valid, slices are not");
    }
    /* no call graph: the frame is on the header line */
    if (h->rest.n) {
        tok t[2];
        if (split(t, 2, h->rest.p, h->rest.n) == 2 && is_hex(t[0].p, t[0].n))
            return add_frame(st, h->rest.p, h->rest.n);
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
    snprintf(ex, sizeof ex, "%s:%llu: not a sample header (no <sec>.<frac>: timestamp): %s",
             st->file, (unsigned long long)lineno, snip);
    tt_stats_add(st->stats, "perf_unparsable_line", st->file, TT_SEV_WARN, 1, ex);
}

static int perf_line(pstate *st, const char *line, size_t n, uint64_t lineno, int *skipping,
                     tt_error *err)
{
    /* tabs separate fields as blanks do (simpleperf writes both) */
    st->line.len = 0;
    if (tt_buf_put(&st->line, line, n))
        return tt_error_set(err, TT_ENOMEM, st->file, 0, 0, "out of memory");
    for (size_t i = 0; i < n; i++)
        if (st->line.data[i] == '\t' || st->line.data[i] == '\r')
            st->line.data[i] = ' ';
    line = st->line.data;
    const char *s = line;
    size_t sn = n;
    tt__trim(&s, &sn);
    if (!sn) {
        *skipping = 0;
        return finish_block(st, err, lineno);
    }
    if (*skipping)
        return 0;
    if (line[0] == '#' && !st->in_block)
        return 0;
    int indented = line[0] == ' ';
    if (st->in_block) {
        size_t sp = 0;
        while (sp < n && line[sp] != ' ')
            sp++;
        if (indented || (sp == 16 && is_hex(line, 16))) {
            if (!st->keep)
                return 0;
            if (st->have_frame && srcline(st, s, sn))
                return 0;
            int rc = add_frame(st, s, sn);
            return rc ? tt_error_set(err, rc, st->file, TT_LOC_LINE, lineno, "out of memory")
                      : 0;
        }
        int rc = finish_block(st, err, lineno);
        if (rc)
            return rc;
    }
    if (tt__memmem(line, n, "PERF_RECORD_", 12)) {
        tt_perf_mmap mm;
        if (tt_perf_mmap_parse(&mm, line, n) == 0) {
            int rc = tt_perf_maps_add(st->maps, &mm);
            if (rc)
                return tt_error_set(err, rc, st->file, TT_LOC_LINE, lineno,
                                    rc == TT_ELIMIT ? "too many memory maps" : "out of memory");
            tt_stats_add(st->stats, "perf_mmap_records", st->file, TT_SEV_INFO, 1, NULL);
            return 0;
        }
        tt_stats_add(st->stats, "perf_sideband_records", st->file, TT_SEV_INFO, 1, NULL);
        return 0;
    }
    hdr h;
    if (parse_header(&h, line, n)) {
        bad_line(st, s, sn, lineno);
        *skipping = 1;
        return 0;
    }
    st->have_frame = 0;
    int rc = start_block(st, &h, lineno);
    return rc ? tt_error_set(err, rc, st->file, TT_LOC_LINE, lineno, "out of memory") : 0;
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
    tt_vec_init(&st.frames, sizeof(uint32_t));
    tt_vec_init(&st.last_ts, sizeof(int64_t));
    if (tt_perf_maps_new(&st.maps))
        return tt_error_set(err, TT_ENOMEM, st.file, 0, 0, "out of memory");
    tt_profile_meta *m = tt_profile_meta_get(p);
    m->source_format = "perf_script";
    int rc = 0, skipping = 0;
    const char *line;
    size_t n;
    uint64_t lineno = 0;
    for (;;) {
        rc = tt_input_line(in, &line, &n, &lineno, err);
        if (rc == TT_DONE) {
            rc = finish_block(&st, err, lineno);
            break;
        }
        if (rc || (rc = perf_line(&st, line, n, lineno, &skipping, err)))
            break;
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
    tt_perf_maps_free(st.maps);
    tt_buf_free(&st.line);
    tt_buf_free(&st.name);
    tt_buf_free(&st.comm);
    return rc;
}
