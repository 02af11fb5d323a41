/* The report object after jansson read it (method-beat.md 7.6): a "\u0000" in a string is
 * made U+FFFD so every consumer can take strings as C strings, and the object is written
 * back (issue.raw_json) with the number formatting of 7.6. */
#include "report_int.h"

#include <string.h>

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

int tt_report__json_nul(json_t *v, uint64_t *count)
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
            int rc = tt_report__json_nul(e, count);
            if (rc)
                return rc;
        }
    } else if (json_is_array(v)) {
        size_t i;
        json_t *e;
        json_array_foreach(v, i, e) {
            int rc = tt_report__json_nul(e, count);
            if (rc)
                return rc;
        }
    }
    return 0;
}

void tt_report__json_write(tt_jsonw *w, const json_t *v)
{
    if (json_is_object(v)) {
        const char *k;
        json_t *e;
        tt_jsonw_obj_begin(w);
        json_object_foreach((json_t *)v, k, e) {
            tt_jsonw_key(w, k);
            tt_report__json_write(w, e);
        }
        tt_jsonw_obj_end(w);
    } else if (json_is_array(v)) {
        size_t i;
        json_t *e;
        tt_jsonw_arr_begin(w);
        json_array_foreach(v, i, e)
            tt_report__json_write(w, e);
        tt_jsonw_arr_end(w);
    } else if (json_is_string(v)) {
        tt_jsonw_strn(w, json_string_value(v), json_string_length(v));
    } else if (json_is_integer(v)) {
        tt_jsonw_int(w, (int64_t)json_integer_value(v));
    } else if (json_is_real(v)) {
        tt_jsonw_double(w, json_real_value(v));
    } else if (json_is_boolean(v)) {
        tt_jsonw_bool(w, json_is_true(v));
    } else {
        tt_jsonw_null(w);
    }
}
