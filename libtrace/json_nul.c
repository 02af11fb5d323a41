/* "\u0000" in JSON strings (valid JSON, RFC 8259; org.json and Python write control
 * characters so) read as U+FFFD by every reader, method-beat.md 7.6. */
#include "json_int.h"

#include <stdio.h>
#include <string.h>

#include "tt.h"
#include "tt_int.h"

/* U+FFFD in UTF-8 */
static const char fffd[] = "\xef\xbf\xbd";

static int fix_string(json_t *v)
{
    const char *s = json_string_value(v);
    size_t n = json_string_length(v), nul = 0;
    for (size_t i = 0; i < n; i++)
        nul += s[i] == '\0';
    if (!nul)
        return 0;
    tt_buf b = {0};
    int bad = 0;
    for (size_t i = 0; i < n && !bad; i++)
        bad = s[i] ? tt_buf_put(&b, s + i, 1) : tt_buf_put(&b, fffd, 3);
    int rc = bad || json_string_setn(v, b.data, b.len) ? TT_ENOMEM : (int)nul;
    tt_buf_free(&b);
    return rc;
}

int tt__json_nul(json_t *v, uint64_t *count)
{
    if (json_is_string(v)) {
        int rc = fix_string(v);
        if (rc < 0)
            return rc;
        *count += (uint64_t)rc;
    } else if (json_is_object(v)) {
        const char *k;
        json_t *e;
        json_object_foreach(v, k, e) {
            int rc = tt__json_nul(e, count);
            if (rc)
                return rc;
        }
    } else if (json_is_array(v)) {
        size_t i;
        json_t *e;
        json_array_foreach(v, i, e) {
            int rc = tt__json_nul(e, count);
            if (rc)
                return rc;
        }
    }
    return 0;
}

void tt__json_nul_note(tt_stats *stats, const char *file, uint64_t nul)
{
    if (nul)
        tt_stats_add(stats, "json_nul_replaced", file, TT_SEV_WARN, (int64_t)nul,
                     "a \\u0000 in a JSON string is read as U+FFFD");
}

int tt__json_key_nul_refused(const json_error_t *je)
{
    return !strncmp(je->text, "NUL byte in object key", 22);
}

/* End of the string whose opening quote is at p[i]: the index after its closing quote, or n.
 * If key, every "\u0000" in it becomes "\ufffd" (counted in *count). */
static size_t string_end(char *p, size_t n, size_t i, int key, uint64_t *count)
{
    for (i++; i < n && p[i] != '"'; i++) {
        if (p[i] != '\\')
            continue;
        if (i + 5 < n && p[i + 1] == 'u' && !memcmp(p + i + 2, "0000", 4) && key) {
            memcpy(p + i + 2, "fffd", 4);
            ++*count;
        }
        i++; /* the escaped character; a \uXXXX's hex digits are plain bytes */
    }
    return i < n ? i + 1 : n;
}

uint64_t tt__json_key_nul(char *p, size_t n)
{
    uint64_t count = 0;
    for (size_t i = 0; i < n;) {
        if (p[i] != '"') {
            i++;
            continue;
        }
        /* a string followed by ':' is a key: look ahead over the whitespace once, without
         * rewriting, then rewrite that key in a second pass over the same bytes */
        uint64_t none = 0;
        size_t e = string_end(p, n, i, 0, &none), c = e;
        while (c < n && (p[c] == ' ' || p[c] == '\t' || p[c] == '\n' || p[c] == '\r'))
            c++;
        if (c < n && p[c] == ':')
            string_end(p, n, i, 1, &count);
        i = c > e ? c : e;
    }
    return count;
}

json_t *tt__json_loadb(const char *p, size_t n, size_t flags, uint64_t *nul, json_error_t *je)
{
    *nul = 0;
    json_t *o = json_loadb(p, n, flags | JSON_ALLOW_NUL, je);
    if (!o && tt__json_key_nul_refused(je)) {
        /* rare: repaired in a copy of the same length, so that positions stay */
        tt_buf b = {0};
        if (tt_buf_put(&b, n ? p : "", n)) {
            snprintf(je->text, sizeof je->text, "out of memory");
            return NULL;
        }
        *nul = tt__json_key_nul(b.data, b.len);
        o = json_loadb(b.data, b.len, flags | JSON_ALLOW_NUL, je);
        tt_buf_free(&b);
    }
    if (o && tt__json_nul(o, nul)) {
        json_decref(o);
        snprintf(je->text, sizeof je->text, "out of memory");
        return NULL;
    }
    return o;
}
