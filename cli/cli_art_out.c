/* tracetool art: shared output helpers (times in ms or us, JSON buffers), spec/art-trace.md 6.5. */
#include "cli_art.h"

#include <stdlib.h>
#include <string.h>

void cli_art_put_time(int64_t us, int have, int in_us)
{
    if (!have)
        cli_out_puts("-");
    else if (in_us)
        cli_out_printf("%lld", (long long)us);
    else
        cli_out_printf("%lld.%03lld", (long long)(us / 1000), (long long)(us % 1000));
}

void cli_art_json_flush(tt_jsonw *w)
{
    cli_out_buf(&w->buf);
}

void cli_art_json_end(const art_run *r, tt_jsonw *w)
{
    if (r->format == F_JSON) {
        tt_jsonw_arr_end(w);
        tt_jsonw_obj_end(w);
        tt_buf_puts(&w->buf, "\n");
    }
    cli_art_json_flush(w);
    tt_jsonw_free(w);
}

void cli_art_json_time(tt_jsonw *w, const char *k, int64_t v, int have)
{
    tt_jsonw_key(w, k);
    if (have)
        tt_jsonw_int(w, v);
    else
        tt_jsonw_null(w);
}

