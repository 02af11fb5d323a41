/* libFuzzer target: the one-line JSON fast path (libtrace/jscan.c), differentially against
 * jansson. Whenever the scanner accepts a line, jansson must parse it to an object whose
 * values (the last occurrence of each key, as jansson keeps) are exactly the scanner's. */
#include <jansson.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "../libtrace/tt_int.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char *const keys[] = {"type", "scene", "start_ns", "end_ns", "refresh_hz",
                                   "vsync", "m", "x"};
static const char *const sub_keys[] = {"TOTAL_DURATION", "a", "b"};
static const uint8_t key_lens[] = {4, 5, 8, 6, 10, 5, 1, 1}, sub_lens[] = {14, 1, 1};
static const tt_jscan_spec spec = {keys, 8, 6, sub_keys, 3, key_lens, sub_lens};

static void same(const tt_jval *v, const json_t *j)
{
    int ok;
    switch (v->type) {
    case TT_JV_ABSENT: ok = j == NULL; break;
    case TT_JV_INT: ok = json_is_integer(j) && json_integer_value(j) == v->i; break;
    case TT_JV_REAL: ok = json_is_real(j) && json_real_value(j) == v->d; break;
    case TT_JV_STR:
        ok = json_is_string(j) && json_string_length(j) == v->n &&
             !memcmp(json_string_value(j), v->s, v->n);
        break;
    case TT_JV_TRUE: ok = json_is_true(j); break;
    case TT_JV_FALSE: ok = json_is_false(j); break;
    case TT_JV_NULL: ok = json_is_null(j); break;
    case TT_JV_OBJ: ok = json_is_object(j); break;
    default: ok = 0;
    }
    if (!ok)
        __builtin_trap();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    tt_jval v[8], sub[3];
    if (!tt_jscan(&spec, (const char *)data, size, v, sub))
        return 0;
    json_error_t je;
    json_t *o = json_loadb((const char *)data, size, 0, &je);
    if (!json_is_object(o))
        __builtin_trap();
    for (int i = 0; i < 8; i++)
        same(&v[i], json_object_get(o, keys[i]));
    json_t *m = json_object_get(o, "m");
    if (json_is_object(m))
        for (int i = 0; i < 3; i++)
            same(&sub[i], json_object_get(m, sub_keys[i]));
    json_decref(o);
    return 0;
}
