/* Matrix issue reports: the containers of method-beat.md 7.1 and the reader (the fields of
 * 7.2-7.5 and the stack decoding of 7.7 are in report_fields.c). jansson parses every object;
 * this file only finds where each top-level object of a JSON array or stream ends, so reading
 * is streamed per report. */
#include "tt.h"

#include <stdlib.h>
#include <string.h>

#include "json_int.h"
#include "report_int.h"

#define CHUNK ((size_t)64 * 1024)

/* ---- lifecycle and detection ---- */

static int is_ws(int c) { return c == ' ' || c == '\t' || c == '\r' || c == '\n'; }

/* '{' = stream; '[' followed by '{' or ']' = array (a logcat "-v long" header also starts
 * with '['); anything else = text lines. */
static int detect(const unsigned char *p, size_t n)
{
    size_t i = 0;
    while (i < n && is_ws(p[i]))
        i++;
    if (i < n && p[i] == '{')
        return TT_REPORT_STREAM;
    if (i < n && p[i] == '[') {
        i++;
        while (i < n && is_ws(p[i]))
            i++;
        if (i == n || p[i] == '{' || p[i] == ']')
            return TT_REPORT_ARRAY;
    }
    return TT_REPORT_LOG;
}

int tt_report_reader_new(tt_report_reader **out, tt_input *in, tt_stats *stats, tt_error *err)
{
    *out = NULL;
    const unsigned char *p;
    size_t n;
    int rc = tt_input_peek(in, &p, &n, CHUNK, err);
    if (rc)
        return rc;
    tt_report_reader *r = calloc(1, sizeof *r);
    if (!r || !(r->chunk = malloc(CHUNK))) {
        free(r);
        return tt_error_set(err, TT_ENOMEM, tt_input_name(in), 0, 0, "out of memory");
    }
    r->in = in;
    r->stats = stats;
    r->file = tt_input_name(in);
    r->line = 1;
    if (n >= 3 && p[0] == 0xEF && p[1] == 0xBB && p[2] == 0xBF) { /* UTF-8 byte-order mark */
        size_t got;
        char bom[3];
        if ((rc = tt_input_read(in, bom, 3, &got, err))) {
            tt_report_reader_free(r);
            return rc;
        }
        p += 3;
        n -= 3;
    }
    r->container = detect(p, n);
    *out = r;
    return 0;
}

static void release(tt_report_reader *r)
{
    json_decref(r->root);
    r->root = NULL;
    free(r->dump);
    r->dump = NULL;
    free(r->items);
    r->items = NULL;
    tt_arena_free(r->arena);
    r->arena = NULL;
}

void tt_report_reader_free(tt_report_reader *r)
{
    if (!r)
        return;
    release(r);
    tt_buf_free(&r->obj);
    tt_buf_free(&r->fix);
    free(r->chunk);
    free(r);
}

int tt_report_reader_container(const tt_report_reader *r) { return r->container; }
void tt_report_reader_set_json(tt_report_reader *r, int on) { r->no_json = !on; }
uint64_t tt_report_reader_count(const tt_report_reader *r) { return r->count; }
uint64_t tt_report_reader_skipped(const tt_report_reader *r) { return r->skipped; }

/* ---- JSON containers ---- */

static int refill(tt_report_reader *r, tt_error *err)
{
    if (r->cpos < r->clen || r->eof)
        return 0;
    size_t got;
    int rc = tt_input_read(r->in, r->chunk, CHUNK, &got, err);
    if (rc)
        return rc;
    r->cpos = 0;
    r->clen = got;
    if (!got)
        r->eof = 1;
    return 0;
}

static void describe(char *dst, size_t cap, int c)
{
    if (c < 0)
        snprintf(dst, cap, "end of input");
    else if (c > 0x20 && c < 0x7f)
        snprintf(dst, cap, "'%c'", c);
    else
        snprintf(dst, cap, "byte 0x%02x", c);
}

/* Appends the rest of an object whose '{' is in r->obj, up to its matching close. Returns
 * 1 when the input ends first. Strings are skipped so brackets inside them do not count. */
static int collect_object(tt_report_reader *r, tt_error *err)
{
    int depth = 1, instr = 0, esc = 0;
    for (;;) {
        int rc = refill(r, err);
        if (rc)
            return rc;
        if (r->eof)
            return 1;
        const unsigned char *p = r->chunk + r->cpos;
        size_t n = r->clen - r->cpos, i;
        for (i = 0; i < n && depth > 0; i++) {
            unsigned char c = p[i];
            if (c == '\n') {
                r->line++;
                r->col = 0;
            } else if ((c & 0xC0) != 0x80) {
                r->col++;
            }
            if (instr) {
                if (esc)
                    esc = 0;
                else if (c == '\\')
                    esc = 1;
                else if (c == '"')
                    instr = 0;
            } else if (c == '"') {
                instr = 1;
            } else if (c == '{' || c == '[') {
                depth++;
            } else if (c == '}' || c == ']') {
                depth--;
            }
        }
        if (tt_buf_put(&r->obj, (const char *)p, i))
            return tt_error_set(err, TT_ENOMEM, r->file, 0, 0, "out of memory");
        r->cpos += i;
        if (r->obj.len > tt_input_line_max(r->in)) {
            char cap[32];
            tt_input_line_max_text(cap, sizeof cap, tt_input_line_max(r->in));
            return tt_error_set(err, TT_ELIMIT, r->file, TT_LOC_LINE, r->line,
                                "report object longer than %s", cap);
        }
        if (depth == 0)
            return 0;
    }
}

/* jansson's message for a parse error, with the column (1-based, in characters) in the
 * input's line; col0 is the column of the object's first character on its line. */
static int parse_error(tt_report_reader *r, const json_error_t *je, uint64_t line,
                       uint64_t col0, tt_error *err)
{
    uint64_t at = line + (je->line > 0 ? (uint64_t)je->line - 1 : 0);
    uint64_t col = je->column > 0 ? (uint64_t)je->column : 1;
    if (je->line <= 1)
        col += col0 - 1;
    return tt_error_set(err, TT_EFORMAT, r->file, TT_LOC_LINE, at,
                        "invalid JSON (column %llu): %s", (unsigned long long)col, je->text);
}

static int hex4(const char *p, const char *end, unsigned *u)
{
    *u = 0;
    for (int i = 0; i < 4; i++) {
        if (p + i >= end)
            return 0;
        int c = (unsigned char)p[i], d = c >= '0' && c <= '9'   ? c - '0'
                                         : c >= 'a' && c <= 'f' ? c - 'a' + 10
                                         : c >= 'A' && c <= 'F' ? c - 'A' + 10
                                                                : -1;
        if (d < 0)
            return 0;
        *u = *u << 4 | (unsigned)d;
    }
    return 1;
}

/* Rewrites every "\uD800".."\uDFFF" escape that is not half of a surrogate pair as
 * "\uFFFD" (same length, in place): JSON text may hold one (RFC 8259 section 8.2 leaves it
 * to the reader; Python reads it), jansson refuses it. Returns how many. */
static uint64_t fix_surrogates(char *p, size_t n)
{
    char *end = p + n;
    uint64_t fixed = 0;
    int instr = 0;
    for (char *q = p; q < end; q++) {
        if (!instr) {
            instr = *q == '"';
            continue;
        }
        if (*q == '"') {
            instr = 0;
            continue;
        }
        if (*q != '\\' || q + 1 >= end)
            continue;
        unsigned u, lo;
        if (q[1] != 'u' || !hex4(q + 2, end, &u) || u < 0xD800 || u > 0xDFFF) {
            q++;
            continue;
        }
        if (u < 0xDC00 && end - q >= 12 && q[6] == '\\' && q[7] == 'u' &&
            hex4(q + 8, end, &lo) && lo >= 0xDC00 && lo <= 0xDFFF) {
            q += 11;
            continue;
        }
        memcpy(q + 2, "FFFD", 4);
        fixed++;
        q += 5;
    }
    return fixed;
}

/* An error found in the repaired copy, moved back to the original text: each ".0" inserted
 * before it (at[0..n), increasing copy offsets) shifts its position, and its column when on
 * the same line. */
static void unshift_error(json_error_t *je, const tt_buf *b, const size_t *at, size_t n)
{
    size_t pos = je->position > 0 ? (size_t)je->position : 0;
    int nl = 0;
    for (size_t k = n; k-- > 0;) {
        if (at[k] >= pos)
            continue;
        for (size_t i = at[k]; !nl && i < pos && i < b->len; i++)
            nl = b->data[i] == '\n';
        je->position -= 2;
        if (!nl && je->column > 2)
            je->column -= 2;
    }
}

#define RETRY_MAX 64

/* jansson refuses what Python's json module reads: an integer beyond the 64-bit range
 * (read as a double, as JavaScript would), a lone surrogate escape (read as U+FFFD) and a
 * "\u0000" in an object key (read as U+FFFD, as in strings: *keynul counts them). All are
 * rare, so they are repaired only after a refusal, in a copy, and counted. When the copy
 * still fails, *je is the copy's error (the real cause) at its place in the original. */
static json_t *retry(tt_report_reader *r, const char *p, size_t n, json_error_t *je,
                     uint64_t *keynul)
{
    tt_buf *b = &r->fix;
    b->len = 0;
    const json_error_t first = *je; /* what is said when out of memory */
    if (tt_buf_put(b, p, n))
        return NULL;
    uint64_t big = 0, sur = 0;
    size_t at_big[RETRY_MAX];
    json_t *o = NULL;
    for (int tries = 0; tries < RETRY_MAX && !o; tries++) {
        size_t at = (size_t)je->position;
        if (!strncmp(je->text, "too big", 7) && at <= b->len && at > 0 &&
            b->data[at - 1] >= '0' && b->data[at - 1] <= '9') {
            if (tt_buf_put(b, "..", 2)) { /* room; the bytes are moved below */
                *je = first;
                return NULL;
            }
            memmove(b->data + at + 2, b->data + at, b->len - 2 - at);
            memcpy(b->data + at, ".0", 2);
            at_big[big++] = at;
        } else if (!strncmp(je->text, "invalid Unicode '\\uD", 19) && !sur) {
            sur = fix_surrogates(b->data, b->len);
            if (!sur)
                break;
        } else if (tt__json_key_nul_refused(je) && !*keynul) {
            *keynul = tt__json_key_nul(b->data, b->len);
            if (!*keynul)
                break;
        } else {
            break;
        }
        o = json_loadb(b->data, b->len, JSON_ALLOW_NUL, je);
    }
    if (!o) {
        unshift_error(je, b, at_big, (size_t)big);
        return NULL;
    }
    if (o && big)
        tt_stats_add(r->stats, "report_big_integer", r->file, TT_SEV_WARN, (int64_t)big,
                     "an integer beyond the 64-bit range is read as a double");
    if (o && sur)
        tt_stats_add(r->stats, "report_lone_surrogate", r->file, TT_SEV_WARN, (int64_t)sur,
                     "a lone surrogate escape in a report string is read as U+FFFD");
    return o;
}

/* RFC 8259 allows "\u0000" (org.json writes control characters so, 7.6): read it, and make
 * it U+FFFD (counted) so that strings stay C strings for every consumer. */
static json_t *load(tt_report_reader *r, const char *p, size_t n, json_error_t *je)
{
    json_t *o = json_loadb(p, n, JSON_ALLOW_NUL, je);
    uint64_t nul = 0;
    if (!o)
        o = retry(r, p, n, je, &nul);
    if (o && tt__json_nul(o, &nul)) {
        json_decref(o);
        snprintf(je->text, sizeof je->text, "out of memory");
        return NULL;
    }
    if (nul)
        tt_stats_add(r->stats, "report_nul_replaced", r->file, TT_SEV_WARN, (int64_t)nul,
                     "a \\u0000 in a report string is read as U+FFFD");
    return o;
}

/* Structure between the objects: '[', ',', ']' and whitespace. */
static int array_punct(tt_report_reader *r, int c, tt_error *err)
{
    char what[32];
    describe(what, sizeof what, c);
    if (c == ']') {
        if (r->expect == 2)
            return tt_error_set(err, TT_EFORMAT, r->file, TT_LOC_LINE, r->line,
                                "invalid JSON: expected a report object after ',', found ']'");
        r->in_array = 0;
        return 0;
    }
    if (c == ',' && r->expect == 1) {
        r->expect = 2;
        return 0;
    }
    if (c == '{' && r->expect == 1)
        return tt_error_set(err, TT_EFORMAT, r->file, TT_LOC_LINE, r->line,
                            "invalid JSON: expected ',' or ']' after an array element, found "
                            "'{'");
    if (c == '{')
        return 1;
    return tt_error_set(err, TT_EFORMAT, r->file, TT_LOC_LINE, r->line,
                        "invalid JSON: expected a report object in the array, found %s", what);
}

static int next_json(tt_report_reader *r, json_t **out, uint64_t *line, tt_error *err)
{
    for (;;) {
        int rc = refill(r, err);
        if (rc)
            return rc;
        if (r->eof) {
            if (r->in_array)
                return tt_error_set(err, TT_EFORMAT, r->file, TT_LOC_LINE, r->line,
                                    "invalid JSON: array opened at line %llu is not closed",
                                    (unsigned long long)r->array_line);
            return TT_DONE;
        }
        int c = r->chunk[r->cpos++];
        if (c == '\n')
            r->col = 0;
        else if ((c & 0xC0) != 0x80)
            r->col++;
        if (is_ws(c)) {
            if (c == '\n')
                r->line++;
            continue;
        }
        if (r->in_array) {
            rc = array_punct(r, c, err);
            if (rc <= 0) {
                if (rc)
                    return rc;
                continue;
            }
            r->expect = 1;
        } else if (c == '[') {
            r->in_array = 1;
            r->expect = 0;
            r->array_line = r->line;
            continue;
        } else if (c != '{') {
            char what[32];
            describe(what, sizeof what, c);
            return tt_error_set(err, TT_EFORMAT, r->file, TT_LOC_LINE, r->line,
                                "invalid JSON: expected '{' or '[', found %s", what);
        }
        *line = r->line;
        uint64_t col0 = r->col;
        r->obj.len = 0;
        if (tt_buf_put(&r->obj, "{", 1))
            return tt_error_set(err, TT_ENOMEM, r->file, 0, 0, "out of memory");
        rc = collect_object(r, err);
        if (rc < 0)
            return rc;
        json_error_t je;
        *out = load(r, r->obj.data, r->obj.len, &je);
        if (!*out)
            return parse_error(r, &je, *line, col0, err);
        if (rc == 1) { /* unbalanced yet accepted: cannot happen, but never trust it */
            json_decref(*out);
            return tt_error_set(err, TT_EFORMAT, r->file, TT_LOC_LINE, r->line,
                                "invalid JSON: unexpected end of input in the object started "
                                "at line %llu",
                                (unsigned long long)*line);
        }
        return 0;
    }
}

/* ---- text lines with the Issue wrapper ---- */

static const char *find(const char *h, const char *end, const char *needle)
{
    return h < end ? tt__memmem(h, (size_t)(end - h), needle, strlen(needle)) : NULL;
}

/* "NAME[value]" between from and to: copies value into the arena. */
static const char *wrapper_field(tt_report_reader *r, const char *from, const char *to,
                                 const char *name)
{
    const char *f = find(from, to, name);
    if (!f)
        return NULL;
    f += strlen(name);
    const char *e = memchr(f, ']', (size_t)(to - f));
    return e ? tt_arena_strndup(r->arena, f, (size_t)(e - f)) : NULL;
}

static int parse_wrapper(tt_report_reader *r, const char *t, const char *content)
{
    r->rep.wrap_tag = wrapper_field(r, t, content, "tag[");
    const char *type = wrapper_field(r, t, content, "type[");
    int64_t v;
    if (type && !tt__parse_i64(type, strlen(type), &v)) {
        r->rep.have_wrap_type = 1;
        r->rep.wrap_type = v;
    }
    const char *key = wrapper_field(r, t, content, "key[");
    r->rep.wrap_key = key && strcmp(key, "null") ? key : NULL;
    return r->rep.wrap_tag ? 0 : TT_ENOMEM;
}

static int next_log(tt_report_reader *r, json_t **out, uint64_t *line, tt_error *err)
{
    for (;;) {
        const char *s;
        size_t n;
        int rc = tt_input_line(r->in, &s, &n, line, err);
        if (rc)
            return rc;
        const char *end = s + n;
        const char *t = find(s, end, "tag[");
        const char *content = t ? find(t, end, "content[") : NULL;
        if (!content) {
            r->lines_skipped++;
            continue;
        }
        if (!r->arena && !(r->arena = tt_arena_new()))
            return tt_error_set(err, TT_ENOMEM, r->file, 0, 0, "out of memory");
        if (parse_wrapper(r, t, content))
            return tt_error_set(err, TT_ENOMEM, r->file, 0, 0, "out of memory");
        const char *js = content + 8, *je = end;
        while (je > js && je[-1] != ']')
            je--;
        json_error_t jerr;
        *out = je == js ? NULL : load(r, js, (size_t)(je - 1 - js), &jerr);
        if (!*out) {
            /* logcat cuts an entry at about 4 KB: one cut report must not lose the
             * capture, so the line is counted and skipped like a malformed Displayed line */
            char ex[200];
            if (je == js)
                snprintf(ex, sizeof ex,
                         "%s:%llu: content[ without a closing ']' (a truncated log line?); "
                         "report skipped",
                         r->file, (unsigned long long)*line);
            else
                snprintf(ex, sizeof ex,
                         "%s:%llu: invalid JSON in content[...] (column %lld): %.80s; report "
                         "skipped",
                         r->file, (unsigned long long)*line,
                         (long long)(js - s) + jerr.position + 1, jerr.text);
            tt_stats_add(r->stats, "report_line_malformed", r->file, TT_SEV_DATA_LOSS, 1, ex);
            r->lines_cut++;
            continue;
        }
        if (!json_is_object(*out)) {
            json_decref(*out);
            *out = NULL;
            return tt_error_set(err, TT_EFORMAT, r->file, TT_LOC_LINE, *line,
                                "content[...] is not a JSON object");
        }
        return 0;
    }
}

static int finish(tt_report_reader *r, tt_error *err)
{
    if (!r->done) {
        r->done = 1;
        tt_stats_add(r->stats, "report_lines_skipped", r->file, TT_SEV_INFO,
                     (int64_t)r->lines_skipped, NULL);
    }
    if (r->count)
        return TT_DONE;
    if (r->skipped)
        return tt_error_set(err, TT_EFORMAT, r->file, 0, 0,
                            "no usable Matrix report: %llu skipped for missing or mistyped "
                            "fields",
                            (unsigned long long)r->skipped);
    if (r->lines_cut)
        return tt_error_set(err, TT_EFORMAT, r->file, 0, 0,
                            "no usable Matrix report: %llu log line%s with a cut or invalid "
                            "content[...]",
                            (unsigned long long)r->lines_cut, r->lines_cut == 1 ? "" : "s");
    if (r->container == TT_REPORT_LOG)
        return tt_error_set(err, TT_EFORMAT, r->file, 0, 0,
                            "no Matrix report found (no line holds tag[...]...content[...])");
    return tt_error_set(err, TT_EFORMAT, r->file, 0, 0, "no Matrix report found");
}

int tt_report_reader_next(tt_report_reader *r, const tt_report **rep, tt_error *err)
{
    *rep = NULL;
    for (;;) {
        release(r);
        memset(&r->rep, 0, sizeof r->rep);
        if (r->done)
            return finish(r, err);
        json_t *o = NULL;
        uint64_t line = 0;
        int rc = r->container == TT_REPORT_LOG ? next_log(r, &o, &line, err)
                                                : next_json(r, &o, &line, err);
        if (rc == TT_DONE)
            return finish(r, err);
        if (rc)
            return rc;
        r->root = o;
        r->rep.file = r->file;
        r->rep.line = line;
        r->rep.index = r->count;
        r->rep.container = r->container;
        rc = tt_report__fill(r, o, err);
        if (rc == 0) {
            r->count++;
            *rep = &r->rep;
            return 0;
        }
        if (rc < 0)
            return rc;
        r->skipped++;
    }
}

int tt_report_reader_keys(tt_report_reader *r, tt_report_key_fn fn, void *ctx, tt_error *err)
{
    if (!r->root)
        return 0;
    const char *key;
    json_t *v;
    json_object_foreach(r->root, key, v) {
        int type = json_is_object(v)    ? TT_JSON_OBJECT
                   : json_is_array(v)   ? TT_JSON_ARRAY
                   : json_is_string(v)  ? TT_JSON_STRING
                   : json_is_integer(v) ? TT_JSON_INT
                   : json_is_real(v)    ? TT_JSON_REAL
                   : json_is_boolean(v) ? TT_JSON_BOOL
                                        : TT_JSON_NULL;
        int rc;
        if (type == TT_JSON_STRING) {
            rc = fn(ctx, key, type, json_string_value(v), json_string_length(v));
        } else {
            char *t = json_dumps(v, JSON_COMPACT | JSON_ENCODE_ANY);
            if (!t)
                return tt_error_set(err, TT_ENOMEM, r->file, 0, 0, "out of memory");
            rc = fn(ctx, key, type, t, strlen(t));
            free(t);
        }
        if (rc)
            return rc;
    }
    return 0;
}
