/* `perf script` / simpleperf report_sample.py text one line at a time (spec/samples.md 2.2):
 * sample headers by their shape in any -F layout, frame and srcline lines, detection. No state:
 * what the lines mean together is perf_sample.c's. */
#include "perf_text_int.h"

#include <string.h>

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

static size_t split(tt__perf_tok *t, size_t cap, const char *s, size_t n)
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

/* A pid or tid as perf prints it: decimal, or "-1" for a sample without a thread (perf record
 * -a: a task sampled while it exits, after the kernel dropped its pid; perf script prints
 * ":-1    -1" and "-1/-1", perf report the thread ":-1" of pid -1). */
static int is_id(const char *s, size_t n)
{
    return (n <= 10 && all_digits(s, n)) || (n == 2 && s[0] == '-' && s[1] == '1');
}

static int is_pid_tok(const tt__perf_tok *t)
{
    const char *sl = memchr(t->p, '/', t->n);
    if (!sl)
        return is_id(t->p, t->n);
    size_t a = (size_t)(sl - t->p);
    return is_id(t->p, a) && is_id(sl + 1, t->n - a - 1);
}

/* A pid or tid (is_id): -1 when perf printed "-1". */
static int64_t id_val(const char *s, size_t n)
{
    uint64_t v = 0;
    if (n && s[0] == '-')
        return -1;
    tt__parse_u64(s, n, &v);
    return (int64_t)v;
}

/* A "pid/tid" token (is_pid_tok with the slash): it is always a header's first field. */
static int is_pid_tid_tok(const tt__perf_tok *t)
{
    return is_pid_tok(t) && memchr(t->p, '/', t->n);
}

static int is_cpu_tok(const tt__perf_tok *t)
{
    return t->n > 2 && t->p[0] == '[' && t->p[t->n - 1] == ']' && all_digits(t->p + 1, t->n - 2);
}

static int is_hex_tok(const tt__perf_tok *t) { return t->n <= 16 && is_hex(t->p, t->n); }

/* The cpu of a "[cpu]" token (is_cpu_tok); a number too long to be one is none. */
static void set_cpu(tt__perf_hdr *h, const tt__perf_tok *t)
{
    if (t->n > 11)
        return;
    h->cpu = 0;
    for (size_t i = 1; i + 1 < t->n; i++)
        h->cpu = h->cpu * 10 + (t->p[i] - '0');
}

/* perf script -F +misc: the record's misc bits as letters after the tid or cpu (perf-script(1):
 * K U H G g M E S, Sp) */
static int is_misc_tok(const tt__perf_tok *t)
{
    if (!t->n || t->n > 6 || (t->p[0] < 'A' || t->p[0] > 'Z'))
        return 0;
    for (size_t i = 0; i < t->n; i++)
        if (!strchr("KUHGgMESp", t->p[i]) || !t->p[i])
            return 0;
    return 1;
}

/* A number a header field may be: a pid/tid, a tid or a period (a u64: up to 20 digits). */
static int is_num_tok(const tt__perf_tok *t)
{
    return is_pid_tok(t) || (t->n <= 20 && all_digits(t->p, t->n));
}

/* Where the fields of a header's left part t[0..k) start when the file's layout has tail
 * numbers in them (tt__perf_layout_scan): the numbers, cpus and misc letters at its end;
 * the tid is the number before the cpu when there is one, else the tail numbers are the last
 * ones; what is before is the comm, even when it ends in a number ("worker 1"). k when the
 * part ends otherwise or has fewer numbers (the layout does not fit). */
static size_t fields_start(const tt__perf_tok *t, size_t k, int tail)
{
    size_t run = k;
    while (run > 0 && (is_num_tok(&t[run - 1]) || is_cpu_tok(&t[run - 1]) ||
                       is_misc_tok(&t[run - 1])))
        run--;
    for (size_t c = run; c < k; c++)
        if (is_cpu_tok(&t[c]))
            return tail > 0 && c > run && is_num_tok(&t[c - 1]) ? c - 1 : c;
    int cnt = 0;
    size_t i = k;
    for (; i > run; i--) {
        if (is_num_tok(&t[i - 1])) {
            if (cnt == tail)
                break;
            cnt++;
        }
    }
    return cnt == tail ? i : k;
}

static void set_pid(tt__perf_hdr *h, const tt__perf_tok *t)
{
    const char *sl = memchr(t->p, '/', t->n);
    if (sl) {
        h->pid = id_val(t->p, (size_t)(sl - t->p));
        h->tid = id_val(sl + 1, t->n - (size_t)(sl - t->p) - 1);
    } else {
        h->tid = id_val(t->p, t->n);
    }
    h->has_pid = 1;
}

static void set_period(tt__perf_hdr *h, const tt__perf_tok *t)
{
    /* perf's period is a u64 (up to 20 digits): above that, or above INT64_MAX, it is kept
     * as the largest value (the sample's weight is capped and warned of, perf_sample.c) */
    uint64_t v = 0;
    int rc = tt__parse_u64(t->p, t->n, &v);
    if (rc == -2)
        v = UINT64_MAX;
    else if (rc)
        return;
    h->period_over = rc == -2;
    h->period_u = v;
    h->period = v > INT64_MAX ? INT64_MAX : (int64_t)v;
    h->has_period = 1;
}

/* An event name ends with ':' (perf prints "cycles:u:", "sched:sched_switch:"); a comm that
 * ends with ':' is not told apart. */
static int is_event_tok(const tt__perf_tok *t)
{
    return t->n >= 2 && t->p[t->n - 1] == ':' && t->p[0] != '(' && !memchr(t->p, ';', t->n);
}

/* Fields left of the time or the event, from the right: [period] (only without a time)
 * [cpu] [pid/tid | tid]; what is left is comm. 1 when something but comm was found. notid:
 * the layout's one number is the period (tt__perf_layout's notid). */
static int left_fields(tt__perf_hdr *h, const tt__perf_tok *t, size_t k, int period_ok,
                       int tail, int notid)
{
    size_t j = k;
    int any = 0;
    size_t f = tail >= 0 ? fields_start(t, k, tail) : k;
    if (tail > 0 && f == k)
        h->layout_miss = 1; /* fewer numbers than the file's layout: read by its shape */
    if (tail == 0 && k && is_pid_tid_tok(&t[k - 1]))
        h->layout_miss = 1; /* a pid/tid where the layout has none */
    if (f < k || tail == 0) { /* the file's layout: fields_start */
        int nums = 0, cpu = 0;
        for (size_t i = f; i < k; i++) {
            if (is_cpu_tok(&t[i]) && !cpu) {
                cpu = 1;
                set_cpu(h, &t[i]);
            }
            if (!is_num_tok(&t[i]))
                continue;
            if (!cpu && tail > 0 && !notid && nums++ == 0 && is_pid_tok(&t[i]))
                set_pid(h, &t[i]);
            else if (period_ok && all_digits(t[i].p, t[i].n))
                set_period(h, &t[i]);
        }
        if (f) {
            h->comm.p = t[0].p;
            h->comm.n = (size_t)(t[f - 1].p + t[f - 1].n - t[0].p);
            h->comm_first_hex = is_hex_tok(&t[0]);
        }
        return f < k;
    }
    if (j >= 2 && is_misc_tok(&t[j - 1]) && (is_pid_tok(&t[j - 2]) || is_cpu_tok(&t[j - 2])))
        j--; /* -F +misc */
    if (period_ok && j >= 2 && all_digits(t[j - 1].p, t[j - 1].n) && t[j - 1].n <= 20 &&
        (is_pid_tok(&t[j - 2]) || is_cpu_tok(&t[j - 2]))) {
        set_period(h, &t[j - 1]);
        j--;
        any = 1;
    }
    if (j && is_cpu_tok(&t[j - 1])) {
        set_cpu(h, &t[--j]);
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

static void set_rest(tt__perf_hdr *h, const tt__perf_tok *t, size_t i, size_t k, const char *end)
{
    if (i < k) {
        h->rest.p = t[i].p;
        h->rest.n = (size_t)(end - t[i].p);
        h->inline_frame = is_hex_tok(&t[i]);
    }
}

#define MAX_TOK 48

static int parse_weak(tt__perf_hdr *h, const tt__perf_tok *t, size_t k, const char *s, size_t n,
                      int tail, int notid);
static size_t before_address(const tt__perf_tok *t, size_t k);
static int decimal_addr(const tt__perf_tok *t, size_t i, size_t k);
int tt__perf_hdr_parse(tt__perf_hdr *h, const char *s, size_t n, const tt__perf_layout *lay)
{
    memset(h, 0, sizeof *h);
    h->pid = h->tid = h->cpu = -1;
    int tail = lay ? lay->tail : -1, notid = lay && lay->tail >= 0 && lay->notid;
    tt__perf_tok t[MAX_TOK];
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
        h->time.p = t[ts_i].p;
        h->time.n = t[ts_i].n - 1;
        left_fields(h, t, ts_i, 0, tail, 0);
        size_t i = ts_i + 1;
        if (i < k && all_digits(t[i].p, t[i].n) && t[i].n <= 20)
            set_period(h, &t[i++]);
        if (i < k && is_event_tok(&t[i])) {
            h->event.p = t[i].p;
            h->event.n = t[i].n - 1;
            i++;
        }
        set_rest(h, t, i, k, end);
        return TT_PERF_HDR_STRONG;
    }
    if (ev_i < k) {
        tt__perf_hdr save = *h;
        int any = left_fields(h, t, ev_i, 1, tail, notid);
        int arrow = 0; /* "a.b.C -> x.y:" is a ProGuard class line */
        for (size_t i = 0; i < ev_i; i++)
            arrow |= t[i].n == 2 && t[i].p[0] == '-' && t[i].p[1] == '>';
        if (!arrow && (any || ev_i == 0 || !h->comm_first_hex)) {
            h->event.p = t[ev_i].p;
            h->event.n = t[ev_i].n - 1;
            set_rest(h, t, ev_i + 1, k, end);
            return TT_PERF_HDR_STRONG;
        }
        *h = save;
    }
    return k ? parse_weak(h, t, k, s, n, tail, notid) : TT_PERF_HDR_BAD;
}

/* A weak header whose comm is t[0..p) and whose fields start at t[p], a tid or a cpu:
 * [tid] [cpu] [misc] [period] [frame]. */
static int after_comm(tt__perf_hdr *h, const tt__perf_tok *t, size_t p, size_t k,
                      const char *end)
{
    if (p) {
        h->comm.p = t[0].p;
        h->comm.n = (size_t)(t[p - 1].p + t[p - 1].n - t[0].p);
        if (memchr(h->comm.p, ';', h->comm.n))
            return TT_PERF_HDR_BAD; /* a folded stack "a;b 12" */
    }
    size_t i = p;
    if (is_pid_tok(&t[i]))
        set_pid(h, &t[i++]);
    if (i < k && is_cpu_tok(&t[i]))
        set_cpu(h, &t[i++]);
    if (i < k && is_misc_tok(&t[i]))
        i++;
    /* the period before an inline frame, or alone at the end: a call chain follows on the
     * next lines (-F comm,tid,period,ip,sym with -g); an inline frame has a symbol or dso */
    if (i < k && all_digits(t[i].p, t[i].n) && t[i].n <= 20 &&
        (i + 1 == k || is_hex_tok(&t[i + 1])))
        set_period(h, &t[i++]);
    set_rest(h, t, i, k, end);
    return TT_PERF_HDR_WEAK;
}

/* Neither time nor event: [comm] pid [cpu] [period] [frame], [comm] frame, or comm alone. */
static int parse_weak(tt__perf_hdr *h, const tt__perf_tok *t, size_t k, const char *s, size_t n,
                      int tail, int notid)
{
    const char *end = s + n;
    size_t a = tail >= 0 ? before_address(t, k) : k, fa;
    if (tail == 0 && a < k && !decimal_addr(t, a, k))
        a = k; /* no numbers (-F comm,ip,sym): a hex address is found below, as before */
    if (a && a < k && t[a].p[0] != '(' && (fa = fields_start(t, a, tail)) <= a &&
        (fa < a ? fa != 0 : tail == 0)) {
        /* a one-line sample of the file's layout: comm (even "worker 1"), its numbers, the
         * frame from the address on; without numbers an all-decimal address by its place
         * (a non-PIE program's "733384 f") */
        left_fields(h, t, a, 1, tail, notid);
        if (h->comm.n && memchr(h->comm.p, ';', h->comm.n))
            return TT_PERF_HDR_BAD;
        h->rest.p = t[a].p;
        h->rest.n = (size_t)(end - t[a].p);
        h->inline_frame = 1;
        return TT_PERF_HDR_WEAK;
    }
    size_t f = tail >= 0 ? fields_start(t, k, tail) : k;
    if (f < k && (f || tail)) { /* a header line of the file's layout with a call chain below */
        left_fields(h, t, k, 1, tail, notid);
        if (h->comm.n && memchr(h->comm.p, ';', h->comm.n))
            return TT_PERF_HDR_BAD;
        return TT_PERF_HDR_WEAK;
    }
    for (size_t q = 0; q < k && t[q].p[0] != '('; q++)
        if (q && is_pid_tid_tok(&t[q]))
            return after_comm(h, t, q, k, end); /* a pid/tid: the comm is before it, even
                                                 * when it ends in a number ("worker 1") */
    size_t p = 0;
    while (p < k && !is_pid_tok(&t[p]) && !is_cpu_tok(&t[p]) && t[p].p[0] != '(')
        p++;
    if (p < k && p && is_cpu_tok(&t[p])) /* comm [cpu] without a tid (-F comm,cpu,...) */
        return after_comm(h, t, p, k, end);
    while (p < k && !is_pid_tok(&t[p]) && t[p].p[0] != '(')
        p++; /* a cpu first: the tid after it, as before */
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
                    return TT_PERF_HDR_BAD;
            }
            h->rest.p = t[q].p;
            h->rest.n = n - (size_t)(t[q].p - s);
            h->inline_frame = 1;
            return TT_PERF_HDR_WEAK;
        }
        if (n - (size_t)(t[0].p - s) > 16 || p < k)
            return TT_PERF_HDR_BAD; /* a kernel comm has at most 15 bytes */
        h->comm.p = t[0].p;
        h->comm.n = (size_t)(t[k - 1].p + t[k - 1].n - t[0].p);
        h->comm_only = 1;
        return TT_PERF_HDR_WEAK;
    }
    return after_comm(h, t, p, k, end);
}

/* Detection (2.2): the first line of a perf script file and the line after it. */
static int frame_like(const char *s, size_t n)
{
    int tab = n && s[0] == '\t'; /* perf indents call-chain lines with a tab */
    tt__trim(&s, &n);
    size_t sp = 0;
    while (sp < n && s[sp] != ' ' && s[sp] != '\t')
        sp++;
    if (!sp || sp > 16 || !is_hex(s, sp))
        return 0;
    if (sp == n) /* a bare address (-F ip without sym or dso) */
        return tab;
    s += sp;
    n -= sp;
    tt__trim(&s, &n);
    return !all_digits(s, n); /* "ab 3" is a folded line */
}

static int event_like(const tt__perf_tok *e)
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

/* perf's warning messages seen in `perf script >f 2>&1` text (perf 6.1 recordings that lost
 * events; perf-record(1), perf-script(1)): '#' stands for one or more digits. blanks: the blank
 * lines perf prints after the line ("...!\n\n"). */
static const struct {
    const char *pat;
    int blanks;
} perf_warnings[] = {
    {"Processed # events and lost # chunks!", 1},
    {"Check IO/CPU overload!", 1},
    {"Processed # samples and lost #.#%!", 1},
    {"# out of order events recorded.", 0},
    {"# unprocessable samples recorded.", 0},
    {"Do you have a KVM guest running and not using 'perf kvm'?", 0},
    {"Found # unknown events!", 1},
};

static int warning_match(const char *pat, const char *s, size_t n)
{
    size_t i = 0;
    for (; *pat; pat++) {
        if (*pat == '#') {
            size_t d = i;
            while (i < n && is_digit(s[i]))
                i++;
            if (i == d)
                return 0;
        } else if (i >= n || s[i++] != *pat) {
            return 0;
        }
    }
    return i == n;
}

int tt__perf_warning_msg(const char *s, size_t n)
{
    tt__trim(&s, &n);
    for (size_t k = 0; k < sizeof perf_warnings / sizeof perf_warnings[0]; k++)
        if (warning_match(perf_warnings[k].pat, s, n))
            return perf_warnings[k].blanks;
    return -1;
}

int tt__perf_warning_head(const char *s, size_t n, const char *next, size_t nn)
{
    tt__trim(&s, &n);
    if (n != 8 || memcmp(s, "Warning:", 8))
        return 0;
    const char *m = next;
    size_t mn = nn;
    if (next)
        tt__trim(&m, &mn);
    return !next || (mn && next[0] != '\t' && next[0] != ' ');
}

/* The line starting at p[i] (up to its '\n' or n) and the offset after it. */
static size_t line_at(const char *p, size_t n, size_t i, size_t *len)
{
    const char *e = memchr(p + i, '\n', n - i);
    *len = e ? (size_t)(e - (p + i)) : n - i;
    return e ? (size_t)(e - p) + 1 : n;
}

/* "Warning:" alone, followed by a blank line, nothing, or a line indented by blanks that is
 * no frame (a sample header whose comm perf right-aligned): perf's warning without a
 * message (tt__perf_warning_head takes the ones followed by an unindented line). */
static int warning_alone(const char *s, size_t n, const char *next, size_t nn)
{
    tt__trim(&s, &n);
    if (n != 8 || memcmp(s, "Warning:", 8))
        return 0;
    if (!next)
        return 1;
    char b[512];
    const char *m;
    size_t mn = blank_copy(b, sizeof b, next, nn, &m);
    return !mn || (next[0] == ' ' && !tt__perf_frame_text(m, mn));
}

int tt__perf_skip_warnings(const char *p, size_t n, size_t *off)
{
    int warned = 0, para = 1, head = 0;
    for (size_t i = 0; i < n;) {
        size_t ln, nn = 0, j = line_at(p, n, i, &ln);
        const char *s = p + i, *next = j < n ? p + j : NULL;
        if (next)
            line_at(p, n, j, &nn);
        size_t tn = ln;
        tt__trim(&s, &tn);
        int was_head = head;
        head = 0;
        if (!tn) {
            para = 1;
        } else if (tt__perf_warning_head(p + i, ln, next, nn) ||
                   warning_alone(p + i, ln, next, nn)) {
            warned = head = 1;
            para = 0;
        } else if (!warned) {
            return 0;
        } else if ((para || was_head) && tt__perf_detect(p + i, ln, next, nn)) {
            /* a header after a paragraph, or right after "Warning:" (no message) */
            *off = i;
            return 1;
        } else {
            /* perf's message: its lines and paragraphs up to the first header, which may
             * follow a message perf ends without a blank line ("recorded.") */
            para = tt__perf_warning_msg(p + i, ln) >= 0;
        }
        i = j;
    }
    return 0;
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
    tt__perf_hdr h;
    int kind = tt__perf_hdr_parse(&h, s, n, NULL);
    if (kind == TT_PERF_HDR_BAD)
        return 0;
    if (kind == TT_PERF_HDR_STRONG && (h.has_ts || (h.has_pid && event_like(&h.event))))
        return 1;
    if (!next)
        return 0;
    if (nn && next[0] == '\t' && frame_like(next, nn) && (kind == TT_PERF_HDR_STRONG ||
                                                           h.has_pid || h.comm.n))
        return 1; /* a header and the tab-indented call chain perf writes below it, whatever
                   * the header ends in ("worker 1 25922    1003009": comm, tid, period) */
    if (kind == TT_PERF_HDR_STRONG && h.inline_frame && event_like(&h.event)) {
        /* "cpu-clock:  7feb52015588 f" lines (-F event,ip,sym without -g) */
        tt__perf_hdr h2;
        char b2[512];
        nn = blank_copy(b2, sizeof b2, next, nn, &s);
        return tt__perf_hdr_parse(&h2, s, nn, NULL) == TT_PERF_HDR_STRONG && h2.inline_frame &&
               h2.event.n == h.event.n && !memcmp(h2.event.p, h.event.p, h.event.n);
    }
    if (kind == TT_PERF_HDR_WEAK && h.inline_frame) {
        /* one-line samples without time or event: the next line is alike */
        tt__perf_tok t[2];
        if (!h.has_pid && !h.comm.n && split(t, 2, h.rest.p, h.rest.n) < 2)
            return 0; /* a lone number (a method-beat text word) is no frame */
        tt__perf_hdr h2;
        nn = blank_copy(b, sizeof b, next, nn, &s);
        return tt__perf_hdr_parse(&h2, s, nn, NULL) == TT_PERF_HDR_WEAK && h2.inline_frame &&
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

/* The left part of a header candidate s (blanks for tabs, trimmed): the count of tokens
 * before its time or event, or all of them; *timed: 2 a time was found, 1 an event. */
static size_t left_part(const tt__perf_tok *t, size_t k, int *timed)
{
    *timed = 0;
    for (size_t i = 0; i < k; i++) {
        if (t[i].p[0] == '(')
            break;
        if (t[i].p[t[i].n - 1] != ':')
            continue;
        int64_t ts;
        if (!tt_perf_parse_ts(t[i].p, t[i].n - 1, &ts, NULL)) {
            *timed = 2;
            return i;
        }
        if (is_event_tok(&t[i])) {
            *timed = 1;
            return i;
        }
    }
    return k;
}

/* The count of numbers that are fields in one header's left part t[0..k) (timed as
 * left_part says), as far as the header alone shows it: the numbers at its end, but at most
 * what perf prints there (2.2): a pid/tid token "a/b" is always the first field (*exact);
 * left of a time only the tid; left of a cpu "[003]" only the tid, right of it only the
 * period; else the tid and the period. *period: 1 when the one number of a header without a
 * time is the period by its columns (perf prints the tid right-aligned in 7 columns after a
 * blank, the period in 10: a number ending 11 or more columns after the token before it is no
 * tid), -1 when it is the tid by them, 0 when the header does not say. */
static int header_tail(const tt__perf_tok *t, size_t k, int timed, int *exact, int *period)
{
    size_t run = k;
    while (run > 0 && (is_num_tok(&t[run - 1]) || is_cpu_tok(&t[run - 1]) ||
                       is_misc_tok(&t[run - 1])))
        run--;
    *exact = 0;
    *period = 0;
    int c = 0, left = 0, right = 0, cpu = 0;
    for (size_t i = k; i > run; i--) {
        const tt__perf_tok *x = &t[i - 1];
        if (is_cpu_tok(x)) {
            cpu = 1;
        } else if (is_num_tok(x)) {
            if (memchr(x->p, '/', x->n)) {
                *exact = 1;
                return c + 1; /* the pid/tid and the numbers after it */
            }
            c++;
            if (cpu)
                left++;
            else
                right++;
        }
    }
    int u = timed == 2 ? 1 : 2;
    if (cpu)
        u = right + (left ? 1 : 0);
    else if (u == 2 && c >= 2 && k >= 2 && is_num_tok(&t[k - 1]) &&
             t[k - 1].p + t[k - 1].n - (t[k - 2].p + t[k - 2].n) < 11)
        u = 1; /* perf prints the period right-aligned in 10 columns after a blank: a number
                * closer to the one before it is the tid ("worker 0 23933 cpu-clock:") */
    else if (u == 2 && c == 1 && k >= 2 && is_num_tok(&t[k - 1]))
        *period = t[k - 1].p + t[k - 1].n - (t[k - 2].p + t[k - 2].n) < 11 ? -1 : 1;
    return c < u ? c : u;
}

/* t[i] (i > 0) is perf's ip field by its place although all its digits are decimal (a
 * non-PIE executable's 401253): perf prints the ip as hex without 0x right-aligned in 16
 * columns, so its blanks and digits span 16 or more; the symbol or the "(dso)" follows it. */
static int decimal_addr(const tt__perf_tok *t, size_t i, size_t k)
{
    if (!i || i + 1 >= k || t[i].n > 16 || !all_digits(t[i].p, t[i].n))
        return 0;
    size_t span = (size_t)(t[i].p + t[i].n - (t[i - 1].p + t[i - 1].n));
    return span >= 17 && !all_digits(t[i + 1].p, t[i + 1].n);
}

/* A one-line sample's left part (no time nor event: -F comm,tid,ip,sym without call
 * graphs): the tokens before its address (hex with a letter, all decimal by its place
 * (decimal_addr), or a dso), k when none. */
static size_t before_address(const tt__perf_tok *t, size_t k)
{
    for (size_t i = 0; i < k; i++) {
        if (t[i].p[0] == '(')
            return i;
        if (t[i].n >= 4 && is_hex_tok(&t[i]) && !all_digits(t[i].p, t[i].n))
            return i;
        if (decimal_addr(t, i, k))
            return i;
    }
    return k;
}

int tt__perf_stdout_line(const char *line, const char *s, size_t sn, const tt__perf_layout *lay)
{
    if (!sn)
        return 0;
    if (line[0] == '\t')
        return tt__perf_frame_text(s, sn);
    if (line[0] == ' ' && tt__perf_frame_text(s, sn))
        return 1; /* else a header whose comm perf right-aligned in 16 columns (one-line
                   * samples: -F comm,tid,time,ip,sym without call graphs) */
    if (tt__memmem(s, sn, "PERF_RECORD_", 12))
        return 1;
    tt__perf_hdr h;
    return tt__perf_hdr_parse(&h, s, sn, lay) != TT_PERF_HDR_BAD && (h.has_ts || h.has_pid);
}

/* tt__perf_stdout_line of a line of the layout scan (the layout not known yet). */
static int layout_sample_line(const char *line, size_t n)
{
    char b[512];
    const char *s;
    size_t sn = blank_copy(b, sizeof b, line, n, &s);
    return tt__perf_stdout_line(line, s, sn, NULL);
}

int tt__perf_warn_start(tt__perf_warn *w, const char *line, size_t n)
{
    size_t e = n;
    while (e && (line[e - 1] == '\r' || line[e - 1] == ' '))
        e--;
    if (e < 8 || memcmp(line + e - 8, "Warning:", 8))
        return 0;
    memset(w, 0, sizeof *w);
    w->pre = e - 8;
    size_t i = 0;
    while (i < w->pre && (line[i] == ' ' || line[i] == '\t'))
        i++;
    if (i == w->pre)
        w->pre = 0; /* at a line start */
    w->state = 1;
    return 1;
}

static int warn_message(tt__perf_warn *w, int blanks)
{
    w->state = 3;
    w->known = blanks >= 0;
    w->blanks = blanks > 0 ? blanks : 0;
    w->done = 0;
    return TT__PERF_WARN_MSG;
}

int tt__perf_warn_step(tt__perf_warn *w, const char *line, size_t n, int tid_or_time,
                       tt__perf_warn_sample sample, void *ctx)
{
    const char *s = line;
    size_t sn = n;
    tt__trim(&s, &sn);
    int known = sn ? tt__perf_warning_msg(s, sn) : -1;
    if (w->state == 1 || w->state == 2) { /* after "Warning:": its message */
        if (known >= 0)
            return warn_message(w, known);
        int other = !sn || sample(ctx, line, n, 0);
        if (w->state == 1 && (!tid_or_time || (w->pre && other))) {
            w->state = 0; /* a message not known: perf's only in a file of tids or times */
            return TT__PERF_WARN_NOT;
        }
        if (other) { /* "Warning:" alone in a file of tids or times: never a header */
            w->state = 0;
            return TT__PERF_WARN_LONE;
        }
        return warn_message(w, -1);
    }
    if (!sn) {
        if (w->blanks) {
            w->blanks--;
            return TT__PERF_WARN_IN;
        }
        if (!w->known && !w->done) {
            w->done = 1; /* the message's end */
            return TT__PERF_WARN_IN;
        }
        w->state = 0;
        return TT__PERF_WARN_END;
    }
    if (sn == 8 && !memcmp(s, "Warning:", 8)) {
        w->state = 2;
        return TT__PERF_WARN_HEAD;
    }
    if (known >= 0) {
        w->known = 1;
        w->blanks = known;
        w->done = 0;
        return TT__PERF_WARN_IN;
    }
    if (!w->known && !w->done && !sample(ctx, line, n, 0) && !(w->pre && sample(ctx, line, n, 1)))
        return TT__PERF_WARN_IN; /* the next line of a message not known */
    w->state = 0;
    return TT__PERF_WARN_END;
}

/* The layout scan's state (tt__perf_layout_scan). */
typedef struct layout_scan {
    const char *p;
    size_t n;
    int best, exact, cand, period, tid, timed_any, tid_or_time;
    int hint;     /* the file's headers have a tid or a time (a first scan said so) */
    int warn_dep; /* a warning was read while no header had shown one yet */
    size_t seen;
    tt__perf_warn w;
    const char *held; /* the line held by tt__perf_warn_start: in p, or hb when joined */
    size_t held_n;
    char hb[512];
} layout_scan;

/* tt__perf_warn_sample of the layout scan. */
static int layout_sample(void *ctx, const char *line, size_t n, int joined)
{
    const layout_scan *sc = ctx;
    if (!joined)
        return layout_sample_line(line, n);
    char jb[512];
    size_t a = sc->w.pre < sizeof jb ? sc->w.pre : sizeof jb;
    memcpy(jb, sc->held, a);
    size_t ln = a + (n < sizeof jb - a ? n : sizeof jb - a);
    memcpy(jb + a, line, ln - a);
    return layout_sample_line(jb, ln);
}

/* One line of the layout scan, line[0..ln) (not perf's warning), next: the text after it, nn
 * bytes. */
static void layout_line(layout_scan *sc, const char *line, size_t ln, const char *next, size_t nn)
{
    char b[512];
    const char *s;
    size_t sn = blank_copy(b, sizeof b, line, ln, &s);
    if (!sn) {
        sc->cand = 1;
        return;
    }
    if (s[0] == '#')
        return;
    if (tt__memmem(line, ln, "PERF_RECORD_", 12)) {
        sc->cand = 1; /* a side-band record: a header may follow without a blank line */
        return;
    }
    if (tt__perf_srccode_line(line, ln))
        return; /* -F +srccode's source line: the header after it may be a sample's first */
    int first = sc->cand;
    sc->cand = 0;
    if ((line[0] == '\t' && tt__perf_addr_first(s, sn)) ||
        (line[0] == ' ' && tt__perf_frame_text(s, sn)))
        return; /* a call-chain line */
    sc->seen++;
    tt__perf_tok t[MAX_TOK];
    size_t k = split(t, MAX_TOK, s, sn);
    int timed;
    size_t left = left_part(t, k, &timed);
    if (!timed) {
        size_t l1 = before_address(t, k);
        if (l1 < k) { /* a one-line sample: its numbers before the address */
            if (tt__perf_frame_text(s, sn))
                return; /* a frame line of simpleperf's, address first */
            left = l1;
        } else { /* a header line alone: a call chain follows it, tab-indented */
            const char *ne = next ? memchr(next, '\n', nn) : NULL;
            size_t nl = ne ? (size_t)(ne - next) : 0;
            if (!first || !ne || !nl || next[0] != '\t' || !frame_like(next, nl))
                return;
        }
    }
    tt__perf_hdr h;
    if (!left || tt__perf_hdr_parse(&h, s, sn, NULL) == TT_PERF_HDR_BAD)
        return; /* no header ("garbage without a time"), nothing said ("Warning:") */
    sc->tid_or_time |= h.has_ts || h.has_pid;
    sc->timed_any |= h.has_ts;
    int x, pe, c = header_tail(t, left, timed, &x, &pe);
    if (x && (sc->exact < 0 || c < sc->exact))
        sc->exact = c;
    sc->period |= pe > 0;
    sc->tid |= pe < 0 || (c > 0 && pe == 0);
    if (sc->best < 0 || c < sc->best)
        sc->best = c;
}

/* The scan of p[0..n) with perf's warnings read as the sample reader reads them
 * (tt__perf_warn_step); the last line only when it ends there. */
static void layout_pass(layout_scan *sc)
{
    const char *p = sc->p;
    size_t n = sc->n;
    char jb[512];
    for (size_t i = 0; i < n && sc->seen < TT__PERF_LAYOUT_HEADERS;) {
        const char *e = memchr(p + i, '\n', n - i);
        if (!e)
            break;
        size_t ln = (size_t)(e - (p + i));
        const char *line = p + i;
        i += ln + 1;
        if (sc->w.state) {
            int tt = sc->tid_or_time || sc->hint;
            sc->warn_dep |= sc->w.state == 1 && !tt;
            int r = tt__perf_warn_step(&sc->w, line, ln, tt, layout_sample, sc);
            if (r >= TT__PERF_WARN_IN)
                continue;
            if (r == TT__PERF_WARN_NOT) { /* the held line was none: read it, then this one */
                int cand = sc->cand, alone = !sc->w.pre;
                sc->w.pre = 0;
                layout_line(sc, sc->held, sc->held_n, line, n - (size_t)(line - p));
                if (alone)
                    sc->cand = cand; /* "Warning:" alone, read before a header showed a tid:
                                      * the line after it may start a sample, perhaps the
                                      * only one that shows it (then read again, warn_dep) */
            } else if (sc->w.pre) { /* the line perf's warning was written into: whole again */
                size_t a = sc->w.pre < sizeof jb ? sc->w.pre : sizeof jb;
                memcpy(jb, sc->held, a);
                size_t jn = a + (ln < sizeof jb - a ? ln : sizeof jb - a);
                memcpy(jb + a, line, jn - a);
                sc->w.pre = 0;
                if (tt__perf_warn_start(&sc->w, jb, jn)) { /* another warning ends it */
                    memcpy(sc->hb, jb, jn);
                    sc->held = sc->hb;
                    sc->held_n = jn;
                } else {
                    layout_line(sc, jb, jn, p + i, n - i);
                }
                continue;
            }
        }
        if (tt__perf_warn_start(&sc->w, line, ln)) {
            sc->held = line;
            sc->held_n = ln;
            continue;
        }
        layout_line(sc, line, ln, p + i, n - i);
    }
}

void tt__perf_layout_scan(tt__perf_layout *lay, int *tid_or_time, size_t *headers, const char *p,
                          size_t n)
{
    layout_scan sc;
    memset(&sc, 0, sizeof sc);
    sc.p = p;
    sc.n = n;
    sc.best = sc.exact = -1;
    sc.cand = 1;
    layout_pass(&sc);
    if (sc.warn_dep && sc.tid_or_time) {
        /* a warning met before the first header with a tid or a time: read again as the
         * sample reader reads it, knowing the file has them */
        memset(&sc, 0, sizeof sc);
        sc.p = p;
        sc.n = n;
        sc.best = sc.exact = -1;
        sc.cand = 1;
        sc.hint = 1;
        layout_pass(&sc);
    }
    *tid_or_time = sc.tid_or_time;
    *headers = sc.seen;
    lay->notid = 0;
    if (sc.exact >= 0) {
        lay->tail = sc.exact;
        return;
    }
    lay->tail = sc.best;
    /* every header with one number has it where perf prints a period: the file has no tid
     * (the number hdr_parse took for one was the period) */
    if (sc.best != 1 || !sc.period || sc.tid)
        return;
    *tid_or_time = sc.timed_any;
    lay->notid = 1;
}

static const char *basename_of(const char *s, size_t n, size_t *bn)
{
    size_t i = n;
    while (i > 0 && s[i - 1] != '/')
        i--;
    *bn = n - i;
    return s + i;
}

/* A bracketed dso of user space code: perf's and simpleperf's pseudo files. Any other
 * "[name]" is a kernel module ("[nf_conntrack]", "[i915]"). */
static int user_pseudo_dso(const char *dso, size_t n)
{
    static const char *const user[] = {"[unknown]", "[vdso", "[vsyscall]", "[vectors]",
                                       "[sigpage]", "[uprobes]", "[heap]", "[stack", "[anon",
                                       "[perf-", "[JIT", "[jit", "[dex", "[zygote", "[uffd"};
    for (size_t i = 0; i < sizeof user / sizeof user[0]; i++) {
        size_t l = strlen(user[i]);
        if (n >= l && !memcmp(dso, user[i], l))
            return 1;
    }
    return 0;
}

int tt_perf_dso_kind(const char *dso, size_t n)
{
    static const char *const java[] = {".oat", ".odex", ".vdex", ".dex", ".jar", ".art"};
    if (n >= 7 && !memcmp(dso, "[kernel", 7))
        return TT_FRAME_KERNEL;
    for (size_t i = 0; i < sizeof java / sizeof java[0]; i++) {
        size_t l = strlen(java[i]);
        if (n >= l && !memcmp(dso + n - l, java[i], l))
            return TT_FRAME_JAVA;
    }
    /* ART's JIT code: "/memfd:jit-cache", simpleperf's "[JIT app cache]" and "[JIT zygote
     * cache]" */
    if (tt__memmem(dso, n, "jit", 3) || tt__memmem(dso, n, "[JIT ", 5) ||
        tt__memmem(dso, n, "dalvik", 6))
        return TT_FRAME_JAVA;
    if (n > 2 && dso[0] == '[' && dso[n - 1] == ']' && !memchr(dso, '/', n) &&
        !user_pseudo_dso(dso, n))
        return TT_FRAME_KERNEL; /* a kernel module */
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

/* perf's event modifiers (perf-list(1): u k h I G H p P S D W e b) after the last ':' or,
 * for a PMU event "cpu/cycles/Pu", after the last '/'. The length without them. */
size_t tt__perf_event_base(const char *e, size_t n)
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

int tt__perf_event_key(tt_buf *out, const char *e, size_t n)
{
    /* the modifiers that choose what is counted, in perf-list(1)'s order; the others (p, P
     * precision, S read, D pinned, W weak group, e exclusive, b BPF counter) only change how */
    static const char counted[] = "ukhIGH";
    size_t b = tt__perf_event_base(e, n);
    out->len = 0;
    if (tt_buf_put(out, e, b))
        return TT_ENOMEM;
    int any = 0;
    for (const char *c = counted; *c; c++) {
        if (!memchr(e + b, *c, n - b))
            continue;
        if (!any++ && b < n && e[b] == ':' && tt_buf_put(out, ":", 1))
            return TT_ENOMEM;
        if (tt_buf_put(out, c, 1))
            return TT_ENOMEM;
    }
    return 0;
}

int tt_perf_event_is_clock(const char *e)
{
    if (!e)
        return 0;
    size_t n = strlen(e), b = tt__perf_event_base(e, n);
    if (b < n && e[b] == '/')
        return 0;
    return (b == 9 && !memcmp(e, "cpu-clock", 9)) || (b == 10 && !memcmp(e, "task-clock", 10));
}

/* The ')' closing the '(' at s[i - 1], or n when none. */
static size_t close_paren(const char *s, size_t n, size_t i)
{
    for (size_t depth = 1; i < n; i++)
        if (s[i] == '(')
            depth++;
        else if (s[i] == ')' && !--depth)
            return i;
    return n;
}

/* A frame on the header line ends at its "(dso)": perf prints some fields after it
 * ("insn: 89 c8"). The dso may hold parentheses ("(/memfd:jit-cache (deleted))"). */
size_t tt__perf_inline_len(const char *s, size_t n)
{
    for (size_t i = n; i > 2; i--) {
        if (s[i - 3] != ' ' || s[i - 2] != '(' || (s[i - 1] != '/' && s[i - 1] != '['))
            continue;
        size_t c = close_paren(s, n, i);
        return c < n ? c + 1 : n;
    }
    return n;
}

/* A blank or the end of the line after some ':' (a time or an event); C++ and Java names
 * ("std::move", "Lfoo;::bar") have none, so most frame lines are passed over at once. */
int tt__perf_colon_blank(const char *s, size_t n)
{
    for (const char *c = memchr(s, ':', n); c; c = memchr(c + 1, ':', (size_t)(s + n - c - 1)))
        if (c + 1 == s + n || c[1] == ' ')
            return 1;
    return 0;
}


int tt__simpleperf_report_sample(const char *p, size_t n)
{
    size_t i = 0;
    while (i < n && (p[i] == '\n' || p[i] == '\r' || p[i] == ' ' || p[i] == '\t'))
        i++;
    static const char *const first[] = {"meta_info:", "sample:"};
    for (size_t k = 0; k < 2; k++) {
        size_t l = strlen(first[k]);
        if (n - i > l && !memcmp(p + i, first[k], l) && (p[i + l] == '\n' || p[i + l] == '\r'))
            return tt__memmem(p + i, n - i, "vaddr_in_file:", 14) ||
                   tt__memmem(p + i, n - i, "event_count:", 12);
    }
    return 0;
}

int tt__perf_addr_first(const char *s, size_t n)
{
    size_t sp = 0;
    while (sp < n && s[sp] != ' ')
        sp++;
    return sp <= 16 && is_hex(s, sp);
}

int tt__perf_srccode_line(const char *line, size_t n)
{
    size_t i = 1;
    if (!n || line[0] != '|')
        return 0;
    while (i < n && line[i] >= '0' && line[i] <= '9')
        i++;
    return i > 1 && (i == n || line[i] == ' ' || line[i] == '\t' || line[i] == '\r');
}

int tt__perf_frame_text(const char *s, size_t n)
{
    return tt__perf_addr_first(s, n) && !tt__perf_colon_blank(s, n);
}

int tt__perf_blank(tt_buf *b, const char *line, size_t n, const char **s, size_t *sn)
{
    b->len = 0;
    if (tt_buf_put(b, line, n) || !b->data)
        return TT_ENOMEM;
    for (size_t i = 0; i < n; i++)
        if (b->data[i] == '\t' || b->data[i] == '\r')
            b->data[i] = ' ';
    *s = b->data;
    *sn = n;
    tt__trim(s, sn);
    return 0;
}

#define DELETED " (deleted)"
#define DELETED_N (sizeof DELETED - 1)

/* Where the dso's '(' is in a frame line ending in ')' (s trimmed), n when it has none: the
 * parenthesized group at the end, balanced, so that neither a symbol's parentheses
 * ("foo(int, char) (/lib/x.so)") nor the dso's own ("(/memfd:jit-cache (deleted))") cut it;
 * after a blank, or the whole line. Unbalanced: the last " (" (2.2). */
static size_t dso_open(const char *s, size_t n)
{
    size_t depth = 0, i = n;
    while (i > 0) {
        char c = s[--i];
        if (c == ')')
            depth++;
        else if (c == '(' && !--depth)
            return i == 0 || s[i - 1] == ' ' ? i : n;
    }
    for (i = n - 1; i > 0; i--)
        if (s[i] == '(' && s[i - 1] == ' ')
            return i;
    return s[0] == '(' ? 0 : n;
}

/* simpleperf's "<dso file name>[+<hex>]" for a frame without a symbol (with "*" before it
 * when it marks unknown symbols): the name of the frame's own dso (its basename, or the
 * whole name of a pseudo file), the hex its vaddr_in_file. */
static void unknown_ip(tt__perf_fline *f)
{
    const char *s = f->sym;
    size_t n = f->n;
    if (n && s[0] == '*') {
        s++;
        n--;
    }
    if (!f->dso || n < 5 || s[n - 1] != ']')
        return;
    size_t b = n - 1;
    while (b > 0 && s[b - 1] != '[')
        b--;
    if (b < 2 || s[b] != '+' || n - 2 - b == 0 || n - 2 - b > 16 || !is_hex(s + b + 1, n - 2 - b))
        return;
    size_t name = b - 1;
    if (!((name == f->bn && !memcmp(s, f->base, name)) ||
          (name == f->dn && !memcmp(s, f->dso, name))))
        return;
    f->has_vaddr = 1;
    f->vaddr = hexval(s + b + 1, n - 2 - b);
    f->unnamed = 1;
    f->symn = 0;
}

void tt__perf_frame_split(tt__perf_fline *f, const char *s, size_t n)
{
    memset(f, 0, sizeof *f);
    size_t sp = 0;
    while (sp < n && s[sp] != ' ')
        sp++;
    if (is_hex(s, sp) && (sp == n || sp >= 8 || n > sp)) {
        f->has_addr = 1;
        f->addr = hexval(s, sp);
        s += sp;
        n -= sp;
        tt__trim(&s, &n);
    }
    if (n && s[n - 1] == ')') {
        size_t i = dso_open(s, n);
        if (i < n) {
            f->dso = s + i + 1;
            f->dn = n - i - 2;
            n = i ? i - 1 : 0;
        }
    }
    tt__trim(&s, &n);
    f->sym = s;
    f->n = n;
    f->symn = strip_offset(s, n);
    if (f->symn < n && n - f->symn - 3 <= 16) {
        f->has_off = 1;
        f->off = hexval(s + f->symn + 3, n - f->symn - 3);
    }
    f->unnamed = f->symn == 0 || (f->symn == 9 && !memcmp(s, "[unknown]", 9));
    if (f->dso && f->dn > DELETED_N && !memcmp(f->dso + f->dn - DELETED_N, DELETED, DELETED_N)) {
        f->dn -= DELETED_N; /* the file was deleted or replaced while perf recorded */
        f->deleted = 1;
    }
    f->base = f->dso ? basename_of(f->dso, f->dn, &f->bn) : NULL;
    if (f->base && f->bn > 6 && !memcmp(f->base, "memfd:", 6) && f->base == f->dso + 1) {
        f->base += 6; /* "/memfd:jit-cache": the name the program gave memfd_create */
        f->bn -= 6;
    }
    unknown_ip(f);
    f->kind = f->dso ? tt_perf_dso_kind(f->dso, f->dn) : TT_FRAME_NATIVE;
}

int tt__perf_srcline_parse(const char *s, size_t n, size_t *file_n, int32_t *line)
{
    static const char inl[] = " (inlined)";
    if (n > sizeof inl - 1 && !memcmp(s + n - (sizeof inl - 1), inl, sizeof inl - 1))
        n -= sizeof inl - 1;
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
    if (!c)
        return 0;
    size_t ln_n = (size_t)(s + n - c - 1);
    if (c == s) /* ":0": perf found no source line (its file part is empty) */
        return ln_n && all_digits(c + 1, ln_n);
    if (ln_n == 1 && c[1] == '?')
        return 1;
    if (!all_digits(c + 1, ln_n))
        return 0;
    if (c - s == 2 && s[0] == '?' && s[1] == '?')
        return 1;
    uint64_t ln = 0;
    tt__parse_u64(c + 1, ln_n, &ln);
    *file_n = (size_t)(c - s);
    *line = ln > INT32_MAX ? 0 : (int32_t)ln;
    return 2;
}
