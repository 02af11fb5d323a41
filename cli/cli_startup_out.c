/* tracetool startup output: the JSON object of startup.md 5.5, JSON lines, CSV, text and
 * the Matrix-compatible report objects (5.1, method-beat.md 7.3 and 7.6). */
#include "cli.h"
#include "cli_csv.h"

#include <string.h>

#include "cli_startup.h"

static void opt_int(tt_jsonw *w, const char *k, int have, int64_t v)
{
    tt_jsonw_key(w, k);
    if (have)
        tt_jsonw_int(w, v);
    else
        tt_jsonw_null(w);
}

static void opt_str(tt_jsonw *w, const char *k, const char *v)
{
    tt_jsonw_key(w, k);
    if (v)
        tt_jsonw_str(w, v);
    else
        tt_jsonw_null(w);
}

static void matrix_obj(tt_jsonw *w, const tt_su_matrix *m)
{
    tt_jsonw_key(w, "matrix");
    if (!m) {
        tt_jsonw_null(w);
        return;
    }
    tt_jsonw_obj_begin(w);
    opt_int(w, "application_create", !m->issue_only, m->application_create);
    opt_int(w, "application_create_scene", !m->issue_only, m->scene);
    opt_int(w, "first_activity_create", !m->issue_only, m->first_activity_create);
    tt_jsonw_key(w, "startup_duration");
    tt_jsonw_int(w, m->startup_duration);
    tt_jsonw_key(w, "is_warm_start_up");
    tt_jsonw_bool(w, m->is_warm);
    tt_jsonw_obj_end(w);
}

static void native_obj(tt_jsonw *w, const tt_su_native *n)
{
    tt_jsonw_key(w, "native");
    tt_jsonw_obj_begin(w);
    tt_jsonw_key(w, "blame");
    if (n && n->blame_id >= 0) {
        tt_jsonw_obj_begin(w);
        tt_jsonw_key(w, "id");
        tt_jsonw_int(w, n->blame_id);
        tt_jsonw_key(w, "method");
        tt_jsonw_str(w, n->blame_name);
        tt_jsonw_key(w, "dur_ms");
        tt_jsonw_int(w, n->blame_ms);
        tt_jsonw_key(w, "path");
        tt_jsonw_str(w, n->blame_path);
        tt_jsonw_obj_end(w);
    } else {
        tt_jsonw_null(w);
    }
    tt_jsonw_key(w, "top_self");
    tt_jsonw_arr_begin(w);
    for (size_t i = 0; n && i < n->n_top_self; i++) {
        tt_jsonw_obj_begin(w);
        tt_jsonw_key(w, "id");
        tt_jsonw_int(w, n->top_self[i].id);
        tt_jsonw_key(w, "method");
        tt_jsonw_str(w, n->top_self[i].name);
        tt_jsonw_key(w, "self_ms");
        tt_jsonw_int(w, n->top_self[i].self_ms);
        tt_jsonw_key(w, "calls");
        tt_jsonw_uint(w, n->top_self[i].calls);
        tt_jsonw_obj_end(w);
    }
    tt_jsonw_arr_end(w);
    if (n) {
        const char *k[] = {"calls", "truncated", "unterminated", "stray_exits", "negative"};
        uint64_t v[] = {n->calls, n->truncated, n->unterminated, n->stray_exits, n->negative};
        for (int i = 0; i < 5; i++) {
            tt_jsonw_key(w, k[i]);
            tt_jsonw_uint(w, v[i]);
        }
    }
    tt_jsonw_obj_end(w);
}

static void row_obj(tt_jsonw *w, const tt_su_row *r)
{
    tt_jsonw_obj_begin(w);
    tt_jsonw_key(w, "type");
    tt_jsonw_str(w, tt_su_type_name(r->type));
    tt_jsonw_key(w, "source");
    tt_jsonw_str(w, r->source);
    opt_str(w, "file", r->file);
    tt_jsonw_key(w, "process");
    tt_jsonw_uint(w, r->process);
    opt_int(w, "pid", r->has_pid, r->pid);
    if (r->matrix && r->matrix->process_name)
        opt_str(w, "process_name", r->matrix->process_name);
    opt_int(w, "start_ms", r->has_start, r->start_ms);
    opt_str(w, "start_event", r->start_event);
    opt_int(w, "end_ms", r->has_end, r->end_ms);
    opt_str(w, "end_event", r->end_event);
    opt_int(w, "duration_ms", r->has_start && r->has_end, r->duration_ms);
    matrix_obj(w, r->matrix);
    tt_jsonw_key(w, "segments");
    tt_jsonw_arr_begin(w);
    for (size_t i = 0; i < r->n_segs; i++) {
        const tt_su_segment *g = &r->segs[i];
        tt_jsonw_obj_begin(w);
        tt_jsonw_key(w, "name");
        tt_jsonw_str(w, g->name);
        tt_jsonw_key(w, "from");
        tt_jsonw_str(w, g->from);
        tt_jsonw_key(w, "to");
        tt_jsonw_str(w, g->to);
        tt_jsonw_key(w, "duration_ms");
        tt_jsonw_int(w, g->dur_ms);
        tt_jsonw_obj_end(w);
    }
    tt_jsonw_arr_end(w);
    opt_int(w, "ttid_ms", r->has_ttid, r->ttid_ms);
    opt_int(w, "ttfd_ms", r->has_ttfd, r->ttfd_ms);
    tt_jsonw_key(w, "flags");
    tt_jsonw_obj_begin(w);
    tt_jsonw_key(w, "matrix_over_threshold");
    tt_jsonw_bool(w, r->matrix_over_threshold);
    tt_jsonw_key(w, "matrix_stack_collected");
    tt_jsonw_bool(w, r->matrix_stack_collected);
    tt_jsonw_key(w, "vitals_excessive");
    tt_jsonw_bool(w, r->vitals_excessive);
    tt_jsonw_key(w, "vitals_basis");
    tt_jsonw_str(w, r->vitals_basis);
    tt_jsonw_obj_end(w);
    opt_str(w, "stack", r->has_stack ? r->stack : NULL);
    opt_str(w, "stackKey", r->has_stack ? r->stack_key : NULL);
    opt_int(w, "stackCost", r->has_stack, r->stack_cost);
    native_obj(w, r->native);
    tt_jsonw_obj_end(w);
}

static void launch_obj(tt_jsonw *w, const tt_su_launch *l)
{
    tt_jsonw_obj_begin(w);
    tt_jsonw_key(w, "source");
    tt_jsonw_str(w, l->source);
    tt_jsonw_key(w, "component");
    tt_jsonw_str(w, l->component);
    opt_str(w, "launch_state", l->launch_state);
    opt_int(w, "total_ms", l->has_total, l->total_ms);
    opt_int(w, "wait_ms", l->has_wait, l->wait_ms);
    opt_int(w, "this_ms", l->has_this, l->this_ms);
    opt_str(w, "status", l->status);
    opt_int(w, "fully_drawn_ms", l->has_fully_drawn, l->fully_drawn_ms);
    opt_str(w, "log_time", l->log_time[0] ? l->log_time : NULL);
    tt_jsonw_key(w, "not_launched");
    tt_jsonw_bool(w, l->not_launched);
    tt_jsonw_key(w, "incomplete");
    tt_jsonw_bool(w, l->incomplete);
    tt_jsonw_key(w, "file");
    tt_jsonw_str(w, l->file);
    tt_jsonw_key(w, "line");
    tt_jsonw_uint(w, l->line);
    tt_jsonw_obj_end(w);
}

static void dist_obj(tt_jsonw *w, const char *k, const tt_su_dist *d)
{
    tt_jsonw_key(w, k);
    tt_jsonw_obj_begin(w);
    tt_jsonw_key(w, "count");
    tt_jsonw_uint(w, d->count);
    opt_int(w, "min", d->count, d->min);
    opt_int(w, "median", d->count, d->median);
    opt_int(w, "mean", d->count, d->mean);
    opt_int(w, "p90", d->count, d->p90);
    opt_int(w, "max", d->count, d->max);
    tt_jsonw_obj_end(w);
}

static void stats_obj(tt_jsonw *w, const tt_startup *s)
{
    tt_jsonw_obj_begin(w);
    dist_obj(w, "am_total_ms", tt_startup_am_stats(s));
    dist_obj(w, "logcat_total_ms", tt_startup_logcat_stats(s));
    tt_jsonw_obj_end(w);
}

static void flush_line(tt_jsonw *w)
{
    tt_buf_puts(&w->buf, "\n");
    cli_out_buf(&w->buf);
}

void cli_startup_json(const tt_startup *s)
{
    tt_jsonw w;
    tt_jsonw_init(&w, 0);
    size_t n, nl;
    const tt_su_row *r = tt_startup_rows(s, &n);
    const tt_su_launch *l = tt_startup_launches(s, &nl);
    tt_jsonw_obj_begin(&w);
    tt_jsonw_key(&w, "startups");
    tt_jsonw_arr_begin(&w);
    for (size_t i = 0; i < n; i++) {
        row_obj(&w, &r[i]);
        if (w.buf.len > 65536)
            cli_out_buf(&w.buf);
    }
    tt_jsonw_arr_end(&w);
    tt_jsonw_key(&w, "launches");
    tt_jsonw_arr_begin(&w);
    for (size_t i = 0; i < nl; i++) {
        launch_obj(&w, &l[i]);
        if (w.buf.len > 65536)
            cli_out_buf(&w.buf);
    }
    tt_jsonw_arr_end(&w);
    tt_jsonw_key(&w, "stats");
    stats_obj(&w, s);
    tt_jsonw_obj_end(&w);
    flush_line(&w);
    tt_jsonw_free(&w);
}

void cli_startup_jsonl(const tt_startup *s)
{
    size_t n, nl;
    const tt_su_row *r = tt_startup_rows(s, &n);
    const tt_su_launch *l = tt_startup_launches(s, &nl);
    for (size_t i = 0; i < n + nl; i++) {
        tt_jsonw w;
        tt_jsonw_init(&w, 0);
        if (i < n)
            row_obj(&w, &r[i]);
        else
            launch_obj(&w, &l[i - n]);
        flush_line(&w);
        tt_jsonw_free(&w);
    }
    tt_jsonw w;
    tt_jsonw_init(&w, 0);
    stats_obj(&w, s);
    flush_line(&w);
    tt_jsonw_free(&w);
}

void cli_startup_matrix(const tt_startup *s, int array)
{
    size_t n, nr;
    const tt_su_matrix *const *m = tt_startup_matrix(s, &n);
    const tt_su_row *r = tt_startup_rows(s, &nr);
    tt_jsonw w;
    tt_jsonw_init(&w, 1);
    if (array)
        tt_jsonw_arr_begin(&w);
    /* the state machine's emissions, then reports read as they were reported */
    for (size_t i = 0; i < n + nr; i++) {
        const tt_su_matrix *x = i < n ? m[i] : r[i - n].matrix;
        if (i >= n && (!x || strcmp(r[i - n].source, "matrix_report")))
            continue;
        for (int issue = 0; issue <= 1; issue++) {
            if (issue ? !x->has_issue : x->issue_only)
                continue;
            tt_su_matrix_json(&w, x, issue);
            if (!array)
                flush_line(&w);
        }
    }
    if (array) {
        tt_jsonw_arr_end(&w);
        flush_line(&w);
    }
    tt_jsonw_free(&w);
}

/* ---- CSV ---- */
void cli_startup_csv(const tt_startup *s, int launches)
{
    tt_buf b = {0};
    size_t n;
    if (launches) {
        const tt_su_launch *l = tt_startup_launches(s, &n);
        tt_buf_puts(&b, "source,component,launch_state,total_ms,wait_ms,this_ms,status,"
                        "fully_drawn_ms,log_time,not_launched,incomplete,file,line\n");
        for (size_t i = 0; i < n; i++) {
            tt_buf_puts(&b, l[i].source);
            tt_buf_puts(&b, ",");
            cli_csv_str(&b, l[i].component);
            tt_buf_puts(&b, ",");
            cli_csv_str(&b, l[i].launch_state);
            cli_csv_int(&b, l[i].has_total, l[i].total_ms);
            cli_csv_int(&b, l[i].has_wait, l[i].wait_ms);
            cli_csv_int(&b, l[i].has_this, l[i].this_ms);
            tt_buf_puts(&b, ",");
            cli_csv_str(&b, l[i].status);
            cli_csv_int(&b, l[i].has_fully_drawn, l[i].fully_drawn_ms);
            tt_buf_printf(&b, ",%s,%d,%d,", l[i].log_time, l[i].not_launched, l[i].incomplete);
            cli_csv_str(&b, l[i].file);
            tt_buf_printf(&b, ",%llu\n", (unsigned long long)l[i].line);
            cli_out_buf(&b);
        }
        cli_out_buf(&b);
        tt_buf_free(&b);
        return;
    }
    const tt_su_row *r = tt_startup_rows(s, &n);
    tt_buf_puts(&b, "process,pid,type,source,start_ms,start_event,end_ms,end_event,duration_ms,"
                    "ttid_ms,ttfd_ms,application_create,application_create_scene,"
                    "first_activity_create,startup_duration,is_warm_start_up,"
                    "matrix_over_threshold,matrix_stack_collected,vitals_excessive,"
                    "vitals_basis,stackCost,stackKey\n");
    for (size_t i = 0; i < n; i++) {
        const tt_su_row *x = &r[i];
        const tt_su_matrix *m = x->matrix;
        tt_buf_printf(&b, "%u", x->process);
        cli_csv_int(&b, x->has_pid, x->pid);
        tt_buf_printf(&b, ",%s,%s", tt_su_type_name(x->type), x->source);
        cli_csv_int(&b, x->has_start, x->start_ms);
        tt_buf_printf(&b, ",%s", x->start_event ? x->start_event : "");
        cli_csv_int(&b, x->has_end, x->end_ms);
        tt_buf_printf(&b, ",%s", x->end_event ? x->end_event : "");
        cli_csv_int(&b, x->has_start && x->has_end, x->duration_ms);
        cli_csv_int(&b, x->has_ttid, x->ttid_ms);
        cli_csv_int(&b, x->has_ttfd, x->ttfd_ms);
        int known = m && !m->issue_only;
        cli_csv_int(&b, known, m ? m->application_create : 0);
        cli_csv_int(&b, known, m ? m->scene : 0);
        cli_csv_int(&b, known, m ? m->first_activity_create : 0);
        cli_csv_int(&b, m != NULL, m ? m->startup_duration : 0);
        tt_buf_printf(&b, ",%s", m ? (m->is_warm ? "true" : "false") : "");
        tt_buf_printf(&b, ",%s,%s,%s,%s", x->matrix_over_threshold ? "true" : "false",
                      x->matrix_stack_collected ? "true" : "false",
                      x->vitals_excessive ? "true" : "false", x->vitals_basis);
        cli_csv_int(&b, x->has_stack, x->stack_cost);
        tt_buf_puts(&b, ","); /* the report's stackKey: any text, quoted as CSV needs */
        if (x->has_stack)
            cli_csv_str(&b, x->stack_key);
        tt_buf_puts(&b, "\n");
        cli_out_buf(&b);
    }
    cli_out_buf(&b);
    tt_buf_free(&b);
}

/* ---- text ---- */
static void text_row(tt_buf *b, size_t i, const tt_su_row *r)
{
    tt_buf_printf(b, "startup %zu: %s (%s", i + 1, tt_su_type_name(r->type), r->source);
    if (r->file)
        tt_buf_printf(b, ", %s", r->file);
    if (r->has_pid)
        tt_buf_printf(b, ", pid %lld", (long long)r->pid);
    if (r->matrix && r->matrix->process_name)
        tt_buf_printf(b, ", %s", r->matrix->process_name);
    tt_buf_puts(b, ")\n");
    if (r->has_start || r->has_end) {
        tt_buf_puts(b, "  window: ");
        if (r->has_start)
            tt_buf_printf(b, "%lld ms (%s)", (long long)r->start_ms, r->start_event);
        else
            tt_buf_puts(b, "? (creation not observed)");
        if (r->has_end)
            tt_buf_printf(b, " -> %lld ms (%s)", (long long)r->end_ms, r->end_event);
        else
            tt_buf_puts(b, " -> ? (no first_frame or focus)");
        if (r->has_start && r->has_end)
            tt_buf_printf(b, " = %lld ms", (long long)r->duration_ms);
        tt_buf_puts(b, "\n");
    }
    if (r->has_ttid || r->has_ttfd) {
        tt_buf_puts(b, "  ");
        if (r->has_ttid)
            tt_buf_printf(b, "TTID %lld ms%s", (long long)r->ttid_ms, r->has_ttfd ? ", " : "");
        if (r->has_ttfd)
            tt_buf_printf(b, "TTFD %lld ms", (long long)r->ttfd_ms);
        tt_buf_puts(b, "\n");
    }
    if (r->n_segs)
        tt_buf_puts(b, "  segments:\n");
    for (size_t k = 0; k < r->n_segs; k++)
        tt_buf_printf(b, "    %-24s %8lld ms  %s -> %s\n", r->segs[k].name,
                      (long long)r->segs[k].dur_ms, r->segs[k].from, r->segs[k].to);
    const tt_su_matrix *m = r->matrix;
    if (m) {
        tt_buf_puts(b, "  matrix:");
        if (!m->issue_only)
            tt_buf_printf(b, " application_create %lld, scene %d, first_activity_create %lld,",
                          (long long)m->application_create, (int)m->scene,
                          (long long)m->first_activity_create);
        tt_buf_printf(b, " startup_duration %lld (%s)\n", (long long)m->startup_duration,
                      m->is_warm ? "warm" : "cold");
    } else if (!strcmp(r->source, "events")) {
        tt_buf_puts(b, "  matrix: no report (Matrix would not report this start)\n");
    }
    tt_buf_printf(b, "  flags: matrix over threshold %s, stack collected %s, vitals excessive "
                  "%s (by %s)\n", r->matrix_over_threshold ? "yes" : "no",
                  r->matrix_stack_collected ? "yes" : "no", r->vitals_excessive ? "yes" : "no",
                  r->vitals_basis);
    if (r->has_stack) {
        tt_buf_printf(b, "  stackCost %lld ms, stackKey %s\n", (long long)r->stack_cost,
                      r->stack_key[0] ? r->stack_key : "(empty)");
        if (r->stack[0]) {
            tt_buf_puts(b, "  stack:\n");
            for (const char *p = r->stack; *p;) {
                const char *e = strchr(p, '\n');
                size_t len = e ? (size_t)(e - p) : strlen(p);
                tt_buf_puts(b, "    ");
                tt_buf_put(b, p, len);
                tt_buf_puts(b, "\n");
                p += len + (e ? 1 : 0);
            }
        }
    }
    const tt_su_native *nt = r->native;
    if (nt) {
        if (nt->blame_id >= 0)
            tt_buf_printf(b, "  blame: %s (%lld ms): %s\n", nt->blame_name,
                          (long long)nt->blame_ms, nt->blame_path);
        for (size_t k = 0; k < nt->n_top_self; k++)
            tt_buf_printf(b, "    self %6lld ms %6llu call%s  %s\n",
                          (long long)nt->top_self[k].self_ms,
                          (unsigned long long)nt->top_self[k].calls,
                          nt->top_self[k].calls == 1 ? " " : "s", nt->top_self[k].name);
    }
}

static void text_dist(tt_buf *b, const char *what, const tt_su_dist *d)
{
    if (!d->count)
        return;
    tt_buf_printf(b, "%s over %zu launch%s: min %lld, median %lld, mean %lld, p90 %lld, "
                  "max %lld ms\n", what, d->count, d->count == 1 ? "" : "es", (long long)d->min,
                  (long long)d->median, (long long)d->mean, (long long)d->p90,
                  (long long)d->max);
}

/* s as a cell of at least width characters (escaped to one line), then one space. */
static void launch_cell(tt_buf *b, const char *s, size_t width)
{
    size_t w = 0;
    if (!tt_textesc_cell(b, s, strlen(s), &w))
        tt_buf_printf(b, "%*s ", w < width ? (int)(width - w) : 0, "");
}

/* The width of s as launch_cell writes it. */
static size_t launch_width(tt_buf *tmp, const char *s, size_t min)
{
    size_t w = 0;
    tmp->len = 0;
    if (tt_textesc_cell(tmp, s, strlen(s), &w))
        return min;
    return w > min ? w : min;
}

static const char *launch_component(const tt_su_launch *l)
{
    return l->component[0] ? l->component : "?";
}

static const char *launch_state(const tt_su_launch *l)
{
    return l->launch_state ? l->launch_state : "-";
}

void cli_startup_text(const tt_startup *s)
{
    tt_buf b = {0};
    size_t n, nl;
    const tt_su_row *r = tt_startup_rows(s, &n);
    const tt_su_launch *l = tt_startup_launches(s, &nl);
    for (size_t i = 0; i < n; i++) {
        if (i)
            tt_buf_puts(&b, "\n");
        text_row(&b, i, &r[i]);
        cli_out_buf(&b);
    }
    if (nl) {
        /* columns as wide as their longest value (a long component, "UNKNOWN (0)") */
        size_t ws = 6, wc = 32, wl = 8;
        tt_buf tmp = {0};
        for (size_t i = 0; i < nl; i++) {
            ws = launch_width(&tmp, l[i].source, ws);
            wc = launch_width(&tmp, launch_component(&l[i]), wc);
            wl = launch_width(&tmp, launch_state(&l[i]), wl);
        }
        tt_buf_free(&tmp);
        tt_buf_printf(&b, "%slaunches:\n  ", n ? "\n" : "");
        launch_cell(&b, "source", ws);
        launch_cell(&b, "component", wc);
        launch_cell(&b, "state", wl);
        tt_buf_printf(&b, "%8s %8s %8s %8s  %s\n", "total", "wait", "this", "drawn", "status");
        for (size_t i = 0; i < nl; i++) {
            char v[4][24];
            const int have[4] = {l[i].has_total, l[i].has_wait, l[i].has_this,
                                 l[i].has_fully_drawn};
            const int64_t val[4] = {l[i].total_ms, l[i].wait_ms, l[i].this_ms,
                                    l[i].fully_drawn_ms};
            for (int k = 0; k < 4; k++)
                snprintf(v[k], sizeof v[k], have[k] ? "%lld" : "-", (long long)val[k]);
            tt_buf_puts(&b, "  ");
            launch_cell(&b, l[i].source, ws);
            launch_cell(&b, launch_component(&l[i]), wc);
            launch_cell(&b, launch_state(&l[i]), wl);
            tt_buf_printf(&b, "%8s %8s %8s %8s  ", v[0], v[1], v[2], v[3]);
            tt_textesc_cell(&b, l[i].status ? l[i].status : "-",
                            strlen(l[i].status ? l[i].status : "-"), NULL);
            tt_buf_printf(&b, "%s%s\n", l[i].not_launched ? " (not launched)" : "",
                          l[i].incomplete ? " (incomplete)" : "");
            cli_out_buf(&b);
        }
        tt_buf_puts(&b, "\n");
        text_dist(&b, "am start -W TotalTime", tt_startup_am_stats(s));
        text_dist(&b, "logcat Displayed", tt_startup_logcat_stats(s));
    }
    cli_out_buf(&b);
    tt_buf_free(&b);
}

/* ---- Matrix reports (startup.md 4.1) through the report reader of import_report.c ---- */
int cli_startup_report(tt_su_report *r, const tt_report *rep)
{
    memset(r, 0, sizeof *r);
    r->file = rep->file;
    r->line = rep->line;
    r->process = rep->process;
    r->time_ms = rep->have_time ? rep->time_ms : -1;
    if (rep->kind == TT_RKIND_STARTUP) {
        const tt_report_startup *st = &rep->startup;
        r->application_create = st->application_create_ms;
        r->first_activity_create = st->first_activity_create_ms;
        r->startup_duration = st->startup_duration_ms;
        r->scene = st->have_application_create_scene &&
                           st->application_create_scene >= INT32_MIN &&
                           st->application_create_scene <= INT32_MAX
                       ? (int32_t)st->application_create_scene
                       : TT_SU_SCENE_UNKNOWN;
        r->is_warm = st->is_warm_start_up;
        return 1;
    }
    if (rep->kind == TT_RKIND_EVIL && rep->detail && !strcmp(rep->detail, "STARTUP")) {
        r->is_issue = 1;
        r->cost = rep->have_cost ? rep->cost_ms : 0;
        r->stack = rep->stack ? rep->stack : "";
        r->stack_key = rep->stack_key ? rep->stack_key : "";
        r->sub_type = rep->have_sub_type ? (int)rep->sub_type : 1;
        return 1;
    }
    return 0;
}

int cli_startup_read_reports(tt_startup *s, tt_input *in, tt_stats *stats, tt_error *err)
{
    tt_report_reader *rr;
    int rc = tt_report_reader_new(&rr, in, stats, err);
    if (rc)
        return rc;
    const tt_report *rep;
    uint64_t used = 0, other = 0;
    if (err)
        err->loc_kind = TT_LOC_NONE;
    while ((rc = tt_report_reader_next(rr, &rep, err)) == 0) {
        tt_su_report r;
        if (!cli_startup_report(&r, rep)) {
            other++;
            continue;
        }
        if ((rc = tt_startup_add_report(s, &r, err)))
            break;
        used++;
    }
    int none = tt_report_reader_count(rr) == 0 && err->loc_kind == TT_LOC_NONE;
    tt_report_reader_free(rr);
    if (rc != TT_DONE && !(rc == TT_EFORMAT && none))
        return rc;
    if (other)
        tt_stats_add(stats, "startup_reports_ignored", tt_input_name(in), TT_SEV_INFO,
                     (int64_t)other, NULL);
    if (!used)
        return tt_error_set(err, TT_ENOTFOUND, tt_input_name(in), TT_LOC_NONE, 0,
                            "no Trace_StartUp or STARTUP report found");
    return 0;
}
