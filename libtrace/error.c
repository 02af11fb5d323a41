/* Error values, messages and the stats sink (STYLE.md section 4). */
#include "tt.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "tt_int.h"

int tt_error_set(tt_error *err, int code, const char *file, int loc_kind, uint64_t loc,
                 const char *fmt, ...)
{
    if (!err)
        return code;
    err->code = code;
    err->loc_kind = loc_kind;
    err->loc = loc;
    err->file[0] = 0;
    if (file)
        snprintf(err->file, sizeof err->file, "%s", file);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    va_end(ap);
    return code;
}

void tt_error_clear(tt_error *err)
{
    if (err)
        memset(err, 0, sizeof *err);
}

const char *tt_strerror(int code)
{
    switch (code) {
    case TT_OK: return "success";
    case TT_ENOMEM: return "out of memory";
    case TT_EIO: return "input/output error";
    case TT_EFORMAT: return "bad input";
    case TT_EUNSUPPORTED: return "unsupported";
    case TT_ENOTFOUND: return "not found";
    case TT_ELIMIT: return "limit exceeded";
    case TT_EINVAL: return "invalid argument";
    default: return "unknown error";
    }
}

void tt__snippet(char *dst, size_t cap, const char *s, size_t n)
{
    const unsigned char *u = (const unsigned char *)s;
    size_t max = 40, o = 0, i = 0;
    for (size_t chars = 0; i < n && chars < max && o + 5 < cap; chars++) {
        /* control bytes and bytes that are no valid UTF-8 (binary data) as \xNN, so the
         * message stays valid UTF-8 */
        size_t k = u[i] < 0x80 ? 1 : tt__utf8_len(u + i, n - i);
        if (u[i] < 0x20 || u[i] == 0x7f || k == 0) {
            o += (size_t)snprintf(dst + o, cap - o, "\\x%02x", u[i]);
            i++;
        } else if (k == 2 && u[i] == 0xc2 && u[i + 1] <= 0x9f && o + 7 < cap) {
            /* a C1 control character, as text output writes it (tracetool(1) OUTPUT) */
            o += (size_t)snprintf(dst + o, cap - o, "\\u00%02x", u[i + 1]);
            i += 2;
        } else if (o + k + 5 < cap) {
            memcpy(dst + o, u + i, k);
            o += k;
            i += k;
        } else {
            break;
        }
    }
    if (i < n && o + 4 < cap) {
        memcpy(dst + o, "...", 3);
        o += 3;
    }
    dst[o < cap ? o : cap - 1] = 0;
}

int tt__parse_u64(const char *s, size_t n, uint64_t *out)
{
    if (n == 0)
        return -1;
    uint64_t v = 0;
    for (size_t i = 0; i < n; i++) {
        if (s[i] < '0' || s[i] > '9')
            return -1;
        unsigned d = (unsigned)(s[i] - '0');
        if (v > (UINT64_MAX - d) / 10)
            return -2;
        v = v * 10 + d;
    }
    *out = v;
    return 0;
}

int tt__parse_i64(const char *s, size_t n, int64_t *out)
{
    int neg = 0;
    if (n > 0 && (s[0] == '-' || s[0] == '+')) {
        neg = s[0] == '-';
        s++;
        n--;
    }
    uint64_t v;
    int rc = tt__parse_u64(s, n, &v);
    if (rc)
        return rc;
    if (neg) {
        if (v > (uint64_t)INT64_MAX + 1)
            return -2;
        *out = v == (uint64_t)INT64_MAX + 1 ? INT64_MIN : -(int64_t)v;
    } else {
        if (v > (uint64_t)INT64_MAX)
            return -2;
        *out = (int64_t)v;
    }
    return 0;
}

void tt__trim(const char **s, size_t *n)
{
    const char *p = *s;
    size_t l = *n;
    while (l && (*p == ' ' || *p == '\t')) {
        p++;
        l--;
    }
    while (l && (p[l - 1] == ' ' || p[l - 1] == '\t' || p[l - 1] == '\r'))
        l--;
    *s = p;
    *n = l;
}

/* ---- stats ---- */
struct tt_stats {
    tt_vec v;
};

tt_stats *tt_stats_new(void)
{
    tt_stats *s = calloc(1, sizeof *s);
    if (s)
        tt_vec_init(&s->v, sizeof(tt_stat));
    return s;
}

void tt_stats_free(tt_stats *s)
{
    if (!s)
        return;
    tt_vec_free(&s->v);
    free(s);
}

/* An example cut short by a buffer (snprintf) ends in a whole UTF-8 character: a sequence
 * cut at its end is dropped. */
static void cut_utf8_end(char *s)
{
    size_t n = strlen(s), j = n;
    while (j && n - j < 4 && ((unsigned char)s[j - 1] & 0xc0) == 0x80)
        j--;
    if (!j || (unsigned char)s[j - 1] < 0x80)
        return; /* ASCII last, or continuation bytes with no lead: left as they are */
    j--;
    if (!tt__utf8_len((const unsigned char *)s + j, n - j))
        s[j] = 0;
}

/* The one adder: told marks an example kept by this call. */
static void add(tt_stats *s, const char *name, const char *file, int severity, int64_t n,
                const char *example, int told)
{
    if (!s || n == 0)
        return;
    if (!file)
        file = "";
    for (size_t i = 0; i < s->v.len; i++) {
        tt_stat *st = &TT_VEC_AT(&s->v, tt_stat, i);
        if (!strcmp(st->name, name) && !strcmp(st->file, file)) {
            st->count += n;
            if (!st->example[0] && example) {
                snprintf(st->example, sizeof st->example, "%s", example);
                cut_utf8_end(st->example);
                st->told = told;
            }
            return;
        }
    }
    tt_stat *st = tt_vec_push(&s->v, NULL);
    if (!st)
        return;
    snprintf(st->name, sizeof st->name, "%s", name);
    snprintf(st->file, sizeof st->file, "%s", file);
    st->severity = severity;
    st->count = n;
    st->told = 0;
    if (example) {
        snprintf(st->example, sizeof st->example, "%s", example);
        cut_utf8_end(st->example);
        st->told = told;
    }
}

void tt_stats_add(tt_stats *s, const char *name, const char *file, int severity, int64_t n,
                  const char *example)
{
    add(s, name, file, severity, n, example, 0);
}

void tt_stats_add_told(tt_stats *s, const char *name, const char *file, int severity,
                       int64_t n, const char *example)
{
    add(s, name, file, severity, n, example, 1);
}

void tt_stats_add_stat(tt_stats *s, const tt_stat *x)
{
    add(s, x->name, x->file, x->severity, x->count, x->example[0] ? x->example : NULL, x->told);
}

/* The sentence stored as stats.description (schema(5)) for the names whose readers count
 * without an example; sorted by name. */
static const struct {
    const char *name, *text;
} stat_text[] = {
    {"beat_child_clamped",
     "calls whose children's times add up to more than the call were given a self time of 0"},
    {"btrace_empty_stack", "records with no frame left were skipped"},
    {"btrace_invalid_type", "records of type kInvalid (1) were skipped"},
    {"btrace_runtime_frame",
     "ART runtime trampoline frames (<runtime ...>) were dropped from stacks"},
    {"frames_other_reports_ignored", "reports that are not frame reports were ignored"},
    {"kscrash_big_uint_rewritten",
     "unsigned integers from 2^63 to 2^64-1 were read with their exact bit pattern"},
    {"kscrash_pac_stripped", "arm64 pointer authentication bits were stripped from addresses"},
    {"kscrash_unresolved", "frames the symbol stores could not name were kept unnamed"},
    {"macho_no_dwarf", "Mach-O files without DWARF were used for their symbol table only"},
    {"perf_mmap_records", "perf script memory map records were read for the module map"},
    {"perf_sideband_records", "perf script side-band records (not samples) were read"},
    {"report_lines_skipped", "log lines without a report wrapper were skipped"},
    {"retrace_ambiguous",
     "obfuscated names with several original names in the ProGuard map kept the first"},
    {"samples_unknown_kind", "JSON lines of an unknown kind were skipped"},
    {"slice_negative_counter_delta",
     "slice counter deltas were negative (a cumulative counter went backwards): stored as NULL"},
    {"startup_lines_skipped", "log lines that are not Displayed or Fully drawn lines were skipped"},
    {"startup_reports_ignored", "reports that are not startup reports were ignored"},
    {"sym_build_id_mismatch", "a module file was refused because its build id differs"},
    {"sym_module_not_found", "modules were found neither as files nor in the symbol stores"},
    {"sym_no_debug_info", "modules without debug information were used for their symbol table"},
    {"sym_split_dwarf", "modules with split DWARF were read without their .dwo files"},
};

const char *tt_stats_description(const char *name)
{
    size_t lo = 0, hi = sizeof stat_text / sizeof stat_text[0];
    while (name && lo < hi) {
        size_t mid = (lo + hi) / 2;
        int c = strcmp(name, stat_text[mid].name);
        if (!c)
            return stat_text[mid].text;
        if (c < 0)
            hi = mid;
        else
            lo = mid + 1;
    }
    return NULL;
}

const char *tt_stats_text(const tt_stat *s)
{
    if (s->example[0])
        return s->example; /* a name counted with and without one (btrace_empty_stack) */
    const char *d = tt_stats_description(s->name);
    return d ? d : s->name;
}

size_t tt_stats_count(const tt_stats *s) { return s ? s->v.len : 0; }

const tt_stat *tt_stats_get(const tt_stats *s, size_t i)
{
    return s && i < s->v.len ? &TT_VEC_AT(&s->v, tt_stat, i) : NULL;
}

/* How often a byte occurs in the texts detection scans (letters, digits and blanks often,
 * punctuation rarely): memchr looks for the needle's rarest byte, so it stops seldom. */
static int byte_rank(unsigned char c)
{
    if (c == ' ' || c == 'e' || c == 't' || c == 'a' || c == 'o' || c == 'i' || c == 'n')
        return 4;
    if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '\n' || c == '\t' || c == '"')
        return 3;
    if ((c >= 'A' && c <= 'Z') || c == ',' || c == ':' || c == '.' || c == '_')
        return 2;
    return 1;
}

const char *tt__memmem(const char *h, size_t hn, const char *n, size_t nn)
{
    if (nn == 0)
        return h;
    if (hn < nn)
        return NULL;
    size_t k = 0; /* the needle's rarest byte, the first of its rank */
    for (size_t i = 1; i < nn && byte_rank((unsigned char)n[k]) > 1; i++)
        if (byte_rank((unsigned char)n[i]) < byte_rank((unsigned char)n[k]))
            k = i;
    const char *p = h + k, *end = h + (hn - nn) + k + 1; /* where n[k] may be */
    while (p < end && (p = memchr(p, n[k], (size_t)(end - p))) != NULL) {
        if (!memcmp(p - k, n, nn))
            return p - k;
        p++;
    }
    return NULL;
}
