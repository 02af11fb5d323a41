/* The report object after jansson read it, written back (issue.raw_json) with the number
 * formatting of method-beat.md 7.6 ("\u0000" is made U+FFFD by json_nul.c). */
#include "report_int.h"

#include <string.h>

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
