/* libFuzzer target: ProGuard/R8 mapping.txt reader and retrace (method-beat.md 4.6).
 * Input: a mapping.txt, optionally followed by a line "--" and query lines; a query with a
 * space is a methodMapping entry "class method [descriptor]" retraced as a method, any
 * other query is a stack frame "[at ]class.method(File:line)". */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "../libtrace/tt.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static const char fixed[] = "a.b.c.a(SourceFile:2)\nat a.b.c.b(Unknown Source)\n"
                            "a.b.c a (La.b.d;)V\na.b.c b\n";

static void queries(const tt_proguard *p, const char *q, size_t n)
{
    tt_buf frames = {0}, mm = {0};
    unsigned k = 0;
    size_t start = 0;
    for (size_t i = 0; i <= n; i++) {
        if (i < n && q[i] != '\n')
            continue;
        const char *l = q + start;
        size_t len = i - start;
        start = i + 1;
        if (len == 0)
            continue;
        if (memchr(l, ' ', len) && !(len > 3 && !memcmp(l, "at ", 3))) {
            tt_buf_printf(&mm, "%u,1,", ++k);
            tt_buf_put(&mm, l, len);
            tt_buf_puts(&mm, "\n");
        } else {
            tt_proguard_retrace_frame(&frames, p, l, len);
        }
    }
    if (mm.len) {
        tt_error err;
        tt_input *in = NULL;
        tt_mapping *m = tt_mapping_new();
        if (m && tt_input_open_mem(&in, "methods", mm.data, mm.len, &err) == 0 &&
            tt_mapping_load(m, in, NULL, &err) == 0) {
            size_t amb;
            tt_mapping_retrace(m, p, &amb);
            tt_buf b = {0};
            for (unsigned id = 1; id <= k; id++)
                tt_mapping_format_id(&b, m, id, TT_NAME_FULL);
            tt_buf_free(&b);
        }
        tt_input_close(in);
        tt_mapping_free(m);
    }
    tt_buf_free(&frames);
    tt_buf_free(&mm);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const char *s = (const char *)data;
    size_t mlen = size;
    const char *q = fixed;
    size_t qlen = sizeof fixed - 1;
    for (size_t i = 0; i + 4 <= size; i++)
        if (!memcmp(s + i, "\n--\n", 4)) {
            mlen = i + 1;
            q = s + i + 4;
            qlen = size - i - 4;
            break;
        }
    tt_error err;
    tt_input *in = NULL;
    if (tt_input_open_mem(&in, "fuzz", data, mlen, &err))
        return 0;
    tt_proguard *p = NULL;
    if (tt_proguard_load(&p, in, &err) == 0) {
        queries(p, q, qlen);
        tt_proguard_class(p, "a.b.c");
    }
    tt_proguard_free(p);
    tt_input_close(in);
    return 0;
}
