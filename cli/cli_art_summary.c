/* tracetool art without a mode: summary, the main thread's top methods and Matrix-style slow
 * messages (spec/art-trace.md 6.3, 6.5). */
#include "cli_art.h"

#include <stdlib.h>
#include <string.h>

static int is_window(const art_run *r, uint32_t m)
{
    const char *k = r->a->methods[m].key;
    if (!r->nwin)
        return !strcmp(k, "android.os.Handler.dispatchMessage(android.os.Message)");
    for (int i = 0; i < r->nwin; i++)
        if (!strcmp(k, r->win[i]))
            return 1;
    return 0;
}

/* Slow messages of thread t (6.3): windows, method-beat pipeline, blame by name. */
static int slow_messages(tt_vec *out, const art_run *r, size_t t)
{
    tt_vec_init(out, sizeof(tt_art_issue));
    if (t >= r->a->nthreads)
        return 0;
    tt_vec win;
    tt_vec_init(&win, sizeof(uint32_t));
    for (uint32_t m = 0; m < r->a->nmethods; m++)
        if (is_window(r, m) && !tt_vec_push(&win, &m)) {
            tt_vec_free(&win);
            cli_errorf("out of memory");
            return CLI_BAD;
        }
    tt_error err = {0};
    int rc = win.len ? tt_art_slow_messages(out, r->a, t, win.data, win.len,
                                            r->threshold_ms * 1000, &err)
                     : 0;
    tt_vec_free(&win);
    return rc ? cli_err(&err) : 0;
}

static void summary_text(const art_run *r, size_t main_i)
{
    const tt_art *a = r->a;
    cli_out_printf("ART method trace: %s, version %d, clock %s%s, mode %s",
                   a->kind == TT_ART_STREAMING ? "streaming" : "legacy", a->version,
                   tt_art_clock_name(a->clock), a->clock_guessed ? " (guessed)" : "",
                   r->ro.samples ? "samples" : r->sampled ? "sampled" : "instrumented");
    if (r->sampled)
        cli_out_printf(" (interval %lld us)", (long long)r->interval_us);
    cli_out_printf("\nstart: %llu us (monotonic)", (unsigned long long)a->start_us);
    if (a->elapsed_us >= 0) {
        cli_out_puts(", elapsed: ");
        cli_art_put_time(a->elapsed_us, 1, r->us);
        cli_out_puts(r->us ? " us" : " ms");
    }
    cli_out_printf("\nrecords: %llu, methods: %zu, threads: %zu\n",
                   (unsigned long long)a->records, a->nmethods, a->nthreads);
    if (!tt_art_has_wall(a))
        cli_out_puts("note: CPU-time only: threads are not aligned to each other\n");
    for (size_t i = 0; i < a->nthreads; i++)
        cli_out_printf("  thread %u %s: %zu events\n", a->threads[i].tid, a->threads[i].name,
                       a->threads[i].nev);
    if (main_i < a->nthreads)
        cli_out_printf("top methods of thread %u %s by self time (%s):\n",
                       a->threads[main_i].tid, a->threads[main_i].name, r->us ? "us" : "ms");
}

int cli_art_summary(art_run *r)
{
    tt_art *a = r->a;
    size_t main_i = a->nthreads;
    for (size_t i = 0; i < a->nthreads && main_i == a->nthreads; i++)
        if (r->use[i])
            main_i = i;
    tt_vec iss;
    tt_error err = {0};
    if (slow_messages(&iss, r, main_i))
        return CLI_BAD;
    uint32_t wm = TT_NONE;
    for (uint32_t m = 0; m < a->nmethods && wm == TT_NONE; m++)
        if (is_window(r, m))
            wm = m;
    tt_buf bname = {0}, bpath = {0};
    tt_art_prof *prof = calloc(a->nmethods + 1, sizeof *prof);
    int64_t span, cspan;
    unsigned char *one = calloc(a->nthreads + 1, 1);
    if (!prof || !one) {
        free(prof);
        free(one);
        tt_art_issues_free(&iss);
        cli_errorf("out of memory");
        return CLI_BAD;
    }
    if (main_i < a->nthreads)
        one[main_i] = 1;
    int rc = tt_art_profile(prof, &span, &cspan, a, one, &r->ro, r->ctx->stats, r->file, &err)
                 ? cli_err(&err)
                 : 0;
    size_t n = 0;
    uint32_t *ix = rc ? NULL : cli_art_prof_order(r, prof, &n);
    tt_jsonw w;
    tt_jsonw_init(&w, 0);
    if (!rc && !ix) {
        cli_errorf("out of memory");
        rc = CLI_BAD;
    }
    if (!rc && r->format == F_TEXT) {
        summary_text(r, main_i);
        if (n)
            cli_art_prof_header();
        for (size_t i = 0; i < n && i < 20; i++)
            cli_art_prof_row(r, &w, &a->methods[ix[i]], &prof[ix[i]]);
        cli_out_printf("slow messages (>= %lld ms): %zu\n", (long long)r->threshold_ms,
                       iss.len);
        for (size_t i = 0; i < iss.len; i++) {
            const tt_art_issue *is = &TT_VEC_AT(&iss, tt_art_issue, i);
            tt_art_issue_blame(&bname, &bpath, a, is, wm);
            cli_out_puts("  at ");
            cli_art_put_time(is->ts_us, 1, r->us);
            cli_out_puts(", duration ");
            cli_art_put_time(is->dur_us, 1, r->us);
            cli_out_printf(": %s\n    path: %s\n", bname.len ? bname.data : "(no key)",
                           bpath.len ? bpath.data : "-");
        }
    } else if (!rc) {
        tt_jsonw_obj_begin(&w);
        tt_jsonw_key(&w, "format");
        tt_jsonw_str(&w, a->kind == TT_ART_STREAMING ? "streaming" : "legacy");
        tt_jsonw_key(&w, "version");
        tt_jsonw_int(&w, a->version);
        tt_jsonw_key(&w, "clock");
        tt_jsonw_str(&w, tt_art_clock_name(a->clock));
        tt_jsonw_key(&w, "mode");
        tt_jsonw_str(&w, r->ro.samples ? "samples" : r->sampled ? "sampled" : "instrumented");
        tt_jsonw_key(&w, "start_us");
        tt_jsonw_uint(&w, a->start_us);
        tt_jsonw_key(&w, "records");
        tt_jsonw_uint(&w, a->records);
        tt_jsonw_key(&w, "overflow");
        tt_jsonw_bool(&w, a->overflow);
        tt_jsonw_key(&w, "threads");
        tt_jsonw_arr_begin(&w);
        for (size_t i = 0; i < a->nthreads; i++) {
            tt_jsonw_obj_begin(&w);
            tt_jsonw_key(&w, "id");
            tt_jsonw_uint(&w, a->threads[i].tid);
            tt_jsonw_key(&w, "name");
            tt_jsonw_str(&w, a->threads[i].name);
            tt_jsonw_key(&w, "events");
            tt_jsonw_uint(&w, a->threads[i].nev);
            tt_jsonw_obj_end(&w);
        }
        tt_jsonw_arr_end(&w);
        tt_jsonw_key(&w, "slow_messages");
        tt_jsonw_arr_begin(&w);
        for (size_t i = 0; i < iss.len; i++) {
            const tt_art_issue *is = &TT_VEC_AT(&iss, tt_art_issue, i);
            tt_art_issue_blame(&bname, &bpath, a, is, wm);
            tt_jsonw_obj_begin(&w);
            tt_jsonw_key(&w, "ts_us");
            tt_jsonw_int(&w, is->ts_us);
            tt_jsonw_key(&w, "dur_us");
            tt_jsonw_int(&w, is->dur_us);
            tt_jsonw_key(&w, "stack_key");
            if (bname.len)
                tt_jsonw_str(&w, bname.data);
            else
                tt_jsonw_null(&w);
            tt_jsonw_key(&w, "stack_key_path");
            if (bpath.len)
                tt_jsonw_str(&w, bpath.data);
            else
                tt_jsonw_null(&w);
            tt_jsonw_obj_end(&w);
        }
        tt_jsonw_arr_end(&w);
        tt_jsonw_obj_end(&w);
        tt_buf_puts(&w.buf, "\n");
        cli_art_json_flush(&w);
    }
    tt_jsonw_free(&w);
    free(ix);
    free(prof);
    free(one);
    tt_art_issues_free(&iss);
    tt_buf_free(&bname);
    tt_buf_free(&bpath);
    return rc;
}
