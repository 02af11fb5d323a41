/* KSCrash and Matrix iOS reports (spec/ios.md 2-4): containers (one report, arrays, JSON
 * lines), the big-integer rewrite of 2.2, images, PAC masking, slides, return-address
 * adjustment, threads, the point stack and the profile tree; names come from tt_resolver. */
#include "tt_kscrash.h"

#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tt_int.h"
#include "json_int.h"
#include "kscrash_int.h"

/* ---- detection (2.1) ---- */

static int has_key(const char *p, size_t n, const char *k)
{
    return tt__memmem(p, n, k, strlen(k)) != NULL;
}

int tt_ks_detect(const unsigned char *up, size_t n)
{
    const char *p = (const char *)up;
    size_t i = 0;
    if (n >= 3 && !memcmp(p, "\xEF\xBB\xBF", 3))
        i = 3;
    while (i < n && (p[i] == ' ' || p[i] == '\t' || p[i] == '\r' || p[i] == '\n'))
        i++;
    if (i == n || (p[i] != '{' && p[i] != '['))
        return 0;
    p += i;
    n -= i;
    if (has_key(p, n, "\"stack_string\""))
        return 1;
    return has_key(p, n, "\"report\"") &&
           (has_key(p, n, "\"binary_images\"") || has_key(p, n, "\"crash\""));
}

/* ---- the big-integer rewrite (2.2) ---- */

static int is_num_char(char c)
{
    return (c >= '0' && c <= '9') || c == '+' || c == '-' || c == '.' || c == 'e' || c == 'E';
}

int tt_ks__rewrite(char **out, size_t *out_n, const char *p, size_t n, uint64_t *rewritten,
                   uint64_t *overflow, tt_vec *values, tt_vec *ords)
{
    tt_buf b = {0};
    uint64_t ints = 0;
    *rewritten = *overflow = 0;
    int in_str = 0;
    size_t i = 0;
    while (i < n) {
        char c = p[i];
        if (in_str) {
            size_t s = i;
            while (i < n && p[i] != '"' && p[i] != '\\')
                i++;
            if (i < n && p[i] == '\\')
                i = i + 2 < n ? i + 2 : n;
            else if (i < n) {
                i++;
                in_str = 0;
            }
            if (tt_buf_put(&b, p + s, i - s))
                goto oom;
            continue;
        }
        if (c == '"') {
            in_str = 1;
            if (tt_buf_put(&b, p + i++, 1))
                goto oom;
            continue;
        }
        if (c == '-' || (c >= '0' && c <= '9')) {
            size_t s = i, digits = 1, real = 0;
            while (i < n && is_num_char(p[i])) {
                if (p[i] < '0' || p[i] > '9')
                    digits = 0;
                real |= p[i] == '.' || p[i] == 'e' || p[i] == 'E';
                i++;
            }
            size_t len = i - s;
            uint64_t ord = ints; /* this token's position among the integer tokens */
            ints += !real;
            /* 2^63 has 19 digits; leading zeros are not JSON, so length decides first */
            if (digits && len >= 19) {
                uint64_t v = 0;
                int big = len > 20;
                for (size_t k = s; k < i && !big; k++) {
                    unsigned d = (unsigned)(p[k] - '0');
                    if (v > (UINT64_MAX - d) / 10)
                        big = 1;
                    else
                        v = v * 10 + d;
                }
                if (big) {
                    (*overflow)++;
                    if (tt_buf_puts(&b, "0"))
                        goto oom;
                    continue;
                }
                if (v > (uint64_t)INT64_MAX) {
                    int64_t neg = (int64_t)(v - UINT64_C(9223372036854775808)) + INT64_MIN;
                    (*rewritten)++;
                    if (values && !tt_vec_push(values, &neg))
                        goto oom;
                    if (ords && !tt_vec_push(ords, &ord))
                        goto oom;
                    if (tt_buf_printf(&b, "%lld", (long long)neg))
                        goto oom;
                    continue;
                }
            }
            if (tt_buf_put(&b, p + s, len))
                goto oom;
            continue;
        }
        size_t s = i;
        while (i < n && p[i] != '"' && p[i] != '-' && (p[i] < '0' || p[i] > '9'))
            i++;
        if (tt_buf_put(&b, p + s, i - s))
            goto oom;
    }
    if (tt_buf_put(&b, "", 0))
        goto oom;
    *out = b.data ? b.data : calloc(1, 1);
    *out_n = b.len;
    return *out ? 0 : TT_ENOMEM;
oom:
    tt_buf_free(&b);
    return TT_ENOMEM;
}

int tt_ks_rewrite_big(char **out, size_t *out_n, const char *p, size_t n, uint64_t *rewritten,
                      uint64_t *overflow)
{
    return tt_ks__rewrite(out, out_n, p, n, rewritten, overflow, NULL, NULL);
}

/* ---- the point-stack rule (3.1) ---- */

int tt_ks_point_select(size_t *chosen, int64_t *repeat, const uint64_t *const *stacks,
                       const size_t *lens, size_t n)
{
    *chosen = 0;
    if (!n)
        return TT_EINVAL;
    int64_t *top = calloc(n, sizeof *top);
    if (!top)
        return TT_ENOMEM;
    int64_t max = 0;
    for (size_t k = 1; k < n; k++) {
        size_t p = k - 1;
        if (lens[k] && lens[p] && stacks[p][0] == stacks[k][0])
            top[k] = top[p] + 1;
        if (top[k] > max)
            max = top[k];
    }
    size_t c = n;
    while (c-- > 0)
        if (top[c] == max && lens[c])
            break;
    if (c == SIZE_MAX)
        c = n - 1;
    *chosen = c;
    for (size_t i = 0; i < lens[c]; i++) {
        repeat[i] = 0;
        for (size_t k = 0; k < n; k++)
            for (size_t j = 0; j < lens[k]; j++)
                repeat[i] += stacks[k][j] == stacks[c][i];
    }
    free(top);
    return 0;
}

/* ---- reader: one top-level value (or top-level array element) at a time ---- */

#define CHUNK ((size_t)256 * 1024)
#define MAX_VALUE ((size_t)512 * 1024 * 1024)

const char *tt_ks_reader_warning(const tt_ks_reader *r) { return r->warn; }

static int cmp_ptr(const void *x, const void *y)
{
    uintptr_t a = (uintptr_t) * (const void *const *)x, b = (uintptr_t) * (const void *const *)y;
    return a < b ? -1 : a > b;
}

static int cmp_i64(const void *x, const void *y)
{
    int64_t a = *(const int64_t *)x, b = *(const int64_t *)y;
    return a < b ? -1 : a > b;
}

int tt_ks__is_big(const tt_ks_reader *r, const json_t *v)
{
    if (!r->rewritten)
        return 0;
    if (r->big_by_value) {
        int64_t i = json_integer_value(v);
        return r->big.len && bsearch(&i, r->big.data, r->big.len, sizeof i, cmp_i64);
    }
    return r->bigp.len && bsearch(&v, r->bigp.data, r->bigp.len, sizeof v, cmp_ptr);
}

/* The integers of v in document order (jansson keeps key order; no duplicate keys) paired
 * with the integer tokens of the rewritten text: those at the ordinals ords[*k..] were
 * rewritten (2.2) and go to r->bigp. */
static int mark_big(tt_ks_reader *r, const json_t *v, const uint64_t *ords, size_t n_ords,
                    uint64_t *ord, size_t *k)
{
    const char *key;
    json_t *x;
    size_t i;
    switch (json_typeof(v)) {
    case JSON_INTEGER:
        if (*k < n_ords && ords[*k] == *ord) {
            if (!tt_vec_push(&r->bigp, &v))
                return TT_ENOMEM;
            ++*k;
        }
        ++*ord;
        return 0;
    case JSON_OBJECT:
        json_object_foreach((json_t *)v, key, x) {
            if (mark_big(r, x, ords, n_ords, ord, k))
                return TT_ENOMEM;
        }
        return 0;
    case JSON_ARRAY:
        json_array_foreach(v, i, x) {
            if (mark_big(r, x, ords, n_ords, ord, k))
                return TT_ENOMEM;
        }
        return 0;
    default: return 0;
    }
}

int tt_ks_reader_new(tt_ks_reader **out, tt_input *in, const tt_ks_opts *o, tt_stats *stats,
                     tt_error *err)
{
    *out = NULL;
    tt_ks_reader *r = calloc(1, sizeof *r);
    if (!r || !(r->text = malloc(CHUNK))) {
        free(r);
        return tt_error_set(err, TT_ENOMEM, tt_input_name(in), 0, 0, "out of memory");
    }
    r->in = in;
    r->cap = CHUNK;
    r->stats = stats;
    if (o)
        r->opts = *o;
    r->file = tt_input_name(in);
    r->line = 1;
    tt_vec_init(&r->big, sizeof(int64_t));
    tt_vec_init(&r->bigp, sizeof(const json_t *));
    tt_vec_init(&r->images, sizeof(tt_ks_image));
    tt_vec_init(&r->threads, sizeof(tt_ks_thread));
    tt_vec_init(&r->frames, sizeof(tt_ks_frame));
    tt_vec_init(&r->syms, sizeof(tt_native_frame));
    tt_vec_init(&r->nodes, sizeof(tt_ks_node));
    tt_vec_init(&r->fimgs, sizeof(tt_ks_fimg));
    tt_vec_init(&r->jnodes, sizeof(tt_ks_jn));
    *out = r;
    return 0;
}

void tt_ks_reader_free(tt_ks_reader *r)
{
    if (!r)
        return;
    json_decref(r->value);
    free(r->text);
    tt_arena_free(r->arena);
    tt_vec_free(&r->big);
    tt_vec_free(&r->bigp);
    tt_vec_free(&r->images);
    tt_vec_free(&r->threads);
    tt_vec_free(&r->frames);
    tt_vec_free(&r->syms);
    tt_vec_free(&r->nodes);
    tt_vec_free(&r->fimgs);
    tt_vec_free(&r->jnodes);
    tt_buf_free(&r->scratch);
    free(r);
}

static uint64_t count_lines(const char *p, size_t n)
{
    uint64_t k = 0;
    for (const char *e = p + n; (p = memchr(p, '\n', (size_t)(e - p))); p++)
        k++;
    return k;
}

/* More input after text[len): drops the consumed prefix, grows when full. 0 and *got. */
static int fill(tt_ks_reader *r, size_t *got, tt_error *err)
{
    *got = 0;
    if (r->eof)
        return 0;
    if (r->pos) {
        memmove(r->text, r->text + r->pos, r->len - r->pos);
        r->len -= r->pos;
        r->pos = 0;
    }
    if (r->len == r->cap) {
        if (r->cap >= MAX_VALUE)
            return tt_error_set(err, TT_ELIMIT, r->file, TT_LOC_LINE, r->line,
                                "a report larger than %zu MiB", MAX_VALUE >> 20);
        char *t = realloc(r->text, r->cap * 2);
        if (!t)
            return tt_error_set(err, TT_ENOMEM, r->file, 0, 0, "out of memory");
        r->text = t;
        r->cap *= 2;
    }
    int rc = tt_input_read(r->in, r->text + r->len, r->cap - r->len, got, err);
    if (rc)
        return rc;
    if (!*got)
        r->eof = 1;
    if (!r->started && r->len + *got >= 3 && !memcmp(r->text, "\xEF\xBB\xBF", 3)) {
        memmove(r->text, r->text + 3, r->len + *got - 3); /* UTF-8 byte-order mark */
        r->len -= 3;
    }
    r->started = 1;
    r->len += *got;
    return 0;
}

/* The next byte after whitespace (lines counted); 0 with *c = -1 at the end of input. */
static int peek(tt_ks_reader *r, int *c, tt_error *err)
{
    for (;;) {
        while (r->pos < r->len && strchr(" \t\r\n", r->text[r->pos]) && r->text[r->pos]) {
            r->line += r->text[r->pos] == '\n';
            r->pos++;
        }
        if (r->pos < r->len) {
            *c = (unsigned char)r->text[r->pos];
            return 0;
        }
        size_t got;
        int rc = fill(r, &got, err);
        if (rc)
            return rc;
        if (!got) {
            *c = -1;
            return 0;
        }
    }
}

/* Bytes that matter outside strings while a container's extent is scanned. */
static int structural(unsigned char ch)
{
    return ch == '"' || ch == '{' || ch == '[' || ch == '}' || ch == ']';
}

/* Length of the value at text[pos): brackets and strings tracked, nothing else parsed.
 * *complete = 0 when the input ended first. */
static int scan_value(tt_ks_reader *r, size_t *n, int *complete, tt_error *err)
{
    size_t i = 0, depth = 0;
    int in_str = 0, esc = 0, scalar = r->text[r->pos] != '{' && r->text[r->pos] != '[';
    for (;;) {
        const char *t = r->text + r->pos;
        size_t end = r->len - r->pos;
        while (i < end) {
            if (esc) {
                esc = 0;
                i++;
                continue;
            }
            if (in_str) {
                while (i < end && t[i] != '"' && t[i] != '\\')
                    i++;
                if (i < end) {
                    esc = t[i] == '\\';
                    in_str = esc;
                    i++;
                }
                continue;
            }
            if (!scalar)
                while (i < end && !structural((unsigned char)t[i]))
                    i++;
            if (i == end)
                break;
            char ch = t[i];
            if (scalar && (strchr(" \t\r\n,]}[{", ch) && ch)) {
                *n = i;
                *complete = 1;
                return 0;
            } else if (ch == '"') {
                in_str = 1;
            } else if (ch == '{' || ch == '[') {
                depth++;
            } else if (ch == '}' || ch == ']') {
                if (depth && --depth == 0) {
                    *n = i + 1;
                    *complete = 1;
                    return 0;
                }
            }
            i++;
        }
        size_t got;
        int rc = fill(r, &got, err);
        if (rc)
            return rc;
        if (!got) {
            *n = i;
            *complete = scalar && !in_str;
            return 0;
        }
    }
}

static int parse_value(tt_ks_reader *r, const char *p, size_t n, json_t **v, tt_error *err)
{
    json_error_t je;
    uint64_t nul;
    /* a null element is a bad report (I8) */
    *v = tt__json_loadb(p, n, JSON_DECODE_ANY, &nul, &je);
    if (!*v && strstr(je.text, "too big integer")) {
        char *t;
        size_t tn;
        uint64_t rw, ov;
        tt_vec ords;
        tt_vec_init(&ords, sizeof(uint64_t));
        if (tt_ks__rewrite(&t, &tn, p, n, &rw, &ov, &r->big, &ords)) {
            tt_vec_free(&ords);
            return tt_error_set(err, TT_ENOMEM, r->file, 0, 0, "out of memory");
        }
        r->rewritten = 1;
        /* which integers were rewritten is known by position (mark_big); with duplicate
         * keys jansson keeps the last value only and positions no longer pair up, so the
         * values decide (a genuine negative equal to a rewritten one then prints unsigned) */
        *v = tt__json_loadb(t, tn, JSON_DECODE_ANY | JSON_REJECT_DUPLICATES, &nul,
                            &je);
        if (!*v && strstr(je.text, "duplicate")) {
            r->big_by_value = 1;
            if (r->big.len > 1)
                qsort(r->big.data, r->big.len, sizeof(int64_t), cmp_i64);
            *v = tt__json_loadb(t, tn, JSON_DECODE_ANY, &nul, &je);
        }
        free(t);
        uint64_t ord = 0;
        size_t k = 0;
        int mrc = *v && !r->big_by_value ? mark_big(r, *v, ords.data, ords.len, &ord, &k) : 0;
        tt_vec_free(&ords);
        if (mrc)
            return tt_error_set(err, TT_ENOMEM, r->file, 0, 0, "out of memory");
        if (r->bigp.len > 1)
            qsort(r->bigp.data, r->bigp.len, sizeof(void *), cmp_ptr);
        /* counted for a report that is read: of one that is not valid JSON anyway, where its
         * text ends is a guess, and so would be the count */
        if (*v)
            tt_stats_add(r->stats, "kscrash_big_uint_rewritten", r->file, TT_SEV_INFO,
                         (int64_t)rw, NULL);
        if (*v && ov)
            tt_stats_add(r->stats, "kscrash_number_overflow", r->file, TT_SEV_DATA_LOSS,
                         (int64_t)ov, "an integer >= 2^64 was replaced by 0");
    }
    if (!*v)
        return tt_error_set(err, TT_EFORMAT, r->file, TT_LOC_LINE,
                            r->value_line + (je.line > 0 ? (uint64_t)je.line - 1 : 0),
                            "invalid JSON: %s", je.text);
    tt__json_nul_note(r->stats, r->file, nul);
    return 0;
}

/* I10: with opts.no_image_json, binary_images are read by tt_ks__scan_images and jansson
 * gets the report with an empty array in their place (newlines kept, so that its line
 * numbers stay those of the input). The scanner also finds the report's end, so the
 * bracket scan is skipped when it succeeds. *n: the value's length when known (0: not
 * yet); on success *p, *pn: the text to give jansson. 1 when taken, 0 when not, or an error. */
static int fast_images(tt_ks_reader *r, size_t *n, const char **p, size_t *pn)
{
    size_t vs, ve, end;
    r->fast = 0;
    if (!r->opts.no_image_json || r->text[r->pos] != '{')
        return 0;
    const char *t = r->text + r->pos;
    int rc = tt_ks__scan_images(&r->fimgs, &vs, &ve, &end, t, *n ? *n : r->len - r->pos);
    if (rc <= 0)
        return rc;
    tt_buf *b = &r->scratch;
    b->len = 0;
    if (tt_buf_put(b, t, vs) || tt_buf_put(b, "[", 1))
        return TT_ENOMEM;
    for (uint64_t k = count_lines(t + vs, ve - vs); k; k--)
        if (tt_buf_put(b, "\n", 1))
            return TT_ENOMEM;
    if (tt_buf_put(b, "]", 1) || tt_buf_put(b, t + ve, end - ve))
        return TT_ENOMEM;
    r->fast = 1;
    r->fast_text = t;
    *n = end;
    *p = b->data;
    *pn = b->len;
    return 1;
}

/* I10, first choice: the whole report read by tt_ks__scan_report, no jansson value at all
 * (r->tree); unsigned integers >= 2^63 counted as the 2.2 rewrite counts them. 1 when
 * taken (*n: the report's length), 0 when not, or TT_ENOMEM. */
static int fast_tree(tt_ks_reader *r, size_t *n)
{
    size_t end;
    uint64_t big;
    r->tree = r->fast = 0;
    if (!r->opts.no_image_json || r->text[r->pos] != '{')
        return 0;
    const char *t = r->text + r->pos;
    int rc = tt_ks__scan_report(&r->jnodes, &r->fimgs, &big, &end, t, *n ? *n : r->len - r->pos);
    if (rc <= 0)
        return rc;
    if (big) {
        r->rewritten = 1;
        tt_stats_add(r->stats, "kscrash_big_uint_rewritten", r->file, TT_SEV_INFO, (int64_t)big,
                     NULL);
    }
    r->tree = r->fast = 1;
    r->fast_text = t;
    *n = end;
    return 1;
}

/* I8 for JSON lines: a top-level value that is not JSON, text[pos..pos+*n), is skipped (1,
 * with *n the skipped length), else it is an error (0):
 * - its first line followed by a line that starts with '{' (after blank lines): a JSON line
 *   cut off while written, skipped up to that line;
 * - its first line followed by nothing but blanks (the last line cut off): skipped when a
 *   report was read before it, else the input's only value and an error;
 * - its first line followed by another line: a value over several lines (a pretty-printed
 *   report cut off, whose inner lines may start with '{' too): skipped whole when a report
 *   was read before it, else the input's only report and an error at the place jansson
 *   names; never resynchronised at its inner lines (one bad report, not one per line). */
static int resync(tt_ks_reader *r, size_t *n)
{
    const char *t = r->text + r->pos, *q = memchr(t, '\n', *n);
    if (!*n) { /* a value that scans to nothing (a stray ','): step over it */
        *n = 1;
        return r->count > 0;
    }
    size_t j = q ? (size_t)(q - t) : *n;
    while (j < *n && (t[j] == ' ' || t[j] == '\t' || t[j] == '\r' || t[j] == '\n'))
        j++;
    if (j == *n)
        return r->count > 0;
    if (t[j] != '{')
        return r->count > 0;
    *n = j;
    return 1;
}

/* The next report object (a top-level value, or an element of a top-level array) into
 * r->value: 0, TT_DONE or an error. */
static int next_value(tt_ks_reader *r, tt_error *err)
{
    json_decref(r->value);
    r->value = NULL;
    r->rewritten = r->big_by_value = 0;
    r->big.len = r->bigp.len = 0;
    for (;;) {
        int c, rc = peek(r, &c, err);
        if (rc)
            return rc;
        if (c < 0) {
            if (r->in_array)
                return tt_error_set(err, TT_EFORMAT, r->file, TT_LOC_LINE, r->array_line,
                                    "invalid JSON: the array opened here is not closed");
            return TT_DONE;
        }
        if (r->in_array && (c == ',' || c == ']')) {
            r->pos++;
            r->in_array = c == ',';
            continue;
        }
        if (!r->in_array && c == '[') {
            r->pos++;
            r->in_array = 1;
            r->array_line = r->line;
            continue;
        }
        r->value_line = r->line;
        size_t n = 0, got;
        int complete = 1;
        if (r->opts.no_image_json && r->len - r->pos < r->cap / 2 && (rc = fill(r, &got, err)))
            return rc; /* a report of up to cap / 2 bytes is then whole in the window */
        size_t avail = r->len - r->pos;
        const char *p;
        size_t pn;
        int fast = fast_tree(r, &n);
        if (!fast && !(fast = fast_images(r, &n, &p, &pn))) {
            if ((rc = scan_value(r, &n, &complete, err)))
                return rc;
            if (complete && n > avail && !(fast = fast_tree(r, &n))) /* it was cut off by */
                fast = fast_images(r, &n, &p, &pn);                /* the window's end */
            if (!fast) {
                p = r->text + r->pos;
                pn = n;
            }
        }
        if (fast < 0)
            return tt_error_set(err, fast, r->file, 0, 0, "out of memory");
        if (r->tree) {
            r->line += count_lines(r->text + r->pos, n);
            r->pos += n;
            return 0;
        }
        tt_error pe;
        rc = parse_value(r, p, pn, &r->value, &pe);
        if (!rc && !complete)
            rc = tt_error_set(&pe, TT_EFORMAT, r->file, TT_LOC_LINE, r->value_line,
                              "invalid JSON: the value starting here is cut off");
        if (rc == TT_EFORMAT && !r->in_array && resync(r, &n))
            snprintf(r->bad_json, sizeof r->bad_json, "%s", pe.msg);
        else if (rc && err)
            *err = pe;
        r->line += count_lines(r->text + r->pos, n);
        r->pos += n;
        return rc;
    }
}

int tt_ks_reader_next(tt_ks_reader *r, const tt_ks_report **rep, tt_error *err)
{
    r->warn[0] = 0;
    for (;;) {
        r->bad_json[0] = 0;
        const void *o = r->pending, *orig = NULL;
        int rc = 0;
        r->pending = NULL;
        if (!o) {
            rc = next_value(r, err);
            if (rc && !r->bad_json[0])
                return rc;
            o = r->tree ? r->jnodes.data : (const void *)r->value;
            if (!rc && (orig = tt_ks__recrash(r, o))) { /* the original first, then o */
                r->pending = o;
                o = orig;
            }
        }
        r->nested = orig != NULL;
        if (!rc)
            rc = tt_ks__build(r, &r->rep, o, r->value_line, r->count);
        if (!rc && orig) {
            r->rep.recrash = 1;
            r->rep.recrash_id = r->pending ? tt_ks__report_id(r, r->pending) : NULL;
        }
        if (rc == TT_ENOMEM)
            return tt_error_set(err, rc, r->file, 0, 0, "out of memory");
        if (rc) {
            char ex[TT_ERRMSG_MAX + 320];
            snprintf(ex, sizeof ex, "%.256s:%llu: report %llu skipped: %s", r->file ? r->file : "-",
                     (unsigned long long)r->value_line, (unsigned long long)r->count + 1,
                     r->bad_json[0] ? r->bad_json : r->warn);
            size_t n = strlen(ex) < sizeof r->warn - 1 ? strlen(ex) : sizeof r->warn - 1;
            memcpy(r->warn, ex, n);
            r->warn[n] = 0;
            tt_stats_add(r->stats, "kscrash_bad_report", r->file, TT_SEV_DATA_LOSS, 1, r->warn);
            r->count++;
            continue;
        }
        r->count++;
        *rep = &r->rep;
        return 0;
    }
}
