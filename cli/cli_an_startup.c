/* analyze: startups into the database (storage.md 3.6, startup.md 5): the JSON-lines event
 * stream gives startups with their segments, TTID/TTFD and threshold flags (and the
 * STARTUP issue Matrix's state machine would report); logcat Displayed/Fully drawn lines
 * and `am start -W` output give system-measured launches. */
#include "cli_an.h"

#include <stdlib.h>
#include <string.h>

#define NS_PER_MS 1000000LL

/* Matrix's STARTUP issue of a row (when the state machine emitted one) as an issue row. */
static int store_issue(cli_an *a, int64_t trace_id, const tt_su_matrix *m, int64_t *issue_id,
                       tt_error *err)
{
    tt_jsonw w;
    tt_jsonw_init(&w, 1);
    tt_su_matrix_json(&w, m, 1);
    tt_mitem *items = NULL;
    size_t n = 0;
    int rc = tt_stack_parse(&items, &n, m->stack, strlen(m->stack), "startup", 1, err);
    int32_t key = -1;
    ptrdiff_t key_index = -1;
    if (!rc && m->stack_key[0]) {
        long v = strtol(m->stack_key, NULL, 10);
        key = v >= 0 && v <= INT32_MAX ? (int32_t)v : -1;
        key_index = tt_mstack_tree_key(items, n, m->cost);
    }
    int mapped = key >= 0 && (tt_mapping_get(a->map, (uint32_t)key) ||
                              (uint32_t)key == TT_BEAT_DISPATCH);
    tdb_issue is = {.trace_id = trace_id, .tag = "Trace_EvilMethod", .detail = "STARTUP",
                    .kind = "startup", .process_name = m->process_name, .have_cost = 1,
                    .cost_ms = m->cost, .have_sub_type = 1, .sub_type = m->sub_type,
                    .stack_key_raw = m->stack_key,
                    .stack_key_method_id = key >= 0 ? cli_an_method_row(a, (uint32_t)key) : 0,
                    .stack_key = mapped ? cli_an_name(a, (uint32_t)key) : NULL,
                    .stack_key_path = mapped ? cli_an_key_path(a, items, n, key_index) : NULL,
                    .raw_json = w.buf.data};
    int64_t tree;
    if (!rc)
        rc = tdb_issue_add(a->db, &is, issue_id, err);
    if (!rc && n) {
        rc = cli_an_store_stack(a, trace_id, "issue_stack", *issue_id, 0, items, n, &tree, err);
        if (!rc)
            rc = tdb_issue_set_tree(a->db, *issue_id, tree, err);
    }
    free(items);
    tt_jsonw_free(&w);
    return rc;
}

int cli_an_startup_rows(cli_an *a, int64_t trace_id, const tt_startup *s, int make_issues,
                        tt_error *err)
{
    size_t n;
    const tt_su_row *rows = tt_startup_rows(s, &n);
    int rc = 0;
    for (size_t i = 0; i < n && !rc; i++) {
        const tt_su_row *r = &rows[i];
        const tt_su_matrix *m = r->matrix;
        int64_t issue_id = 0, id;
        if (make_issues && m && m->has_issue && m->stack)
            rc = store_issue(a, trace_id, m, &issue_id, err);
        else if (m && m->has_issue)
            issue_id = m->issue_ref; /* the issue row of a Matrix report, stored already */
        tdb_startup st = {
            .trace_id = trace_id, .kind = tt_su_type_name(r->type), .source = r->source,
            .have_ts = r->has_start, .ts = r->start_ms * NS_PER_MS,
            .have_dur = r->has_start && r->has_end, .dur = r->duration_ms * NS_PER_MS,
            .start_event = r->start_event, .end_event = r->end_event,
            .have_matrix = m && !m->issue_only,
            .application_create_ms = m ? m->application_create : 0,
            .application_create_scene = m ? m->scene : 0,
            .first_activity_create_ms = m ? m->first_activity_create : 0,
            .startup_duration_ms = m ? m->startup_duration : 0,
            .have_ttid = r->has_ttid, .ttid_dur = r->ttid_ms * NS_PER_MS,
            .have_ttfd = r->has_ttfd, .ttfd_dur = r->ttfd_ms * NS_PER_MS,
            .matrix_over_threshold = r->matrix_over_threshold,
            .matrix_stack_collected = r->matrix_stack_collected,
            .vitals_excessive = r->vitals_excessive, .issue_id = issue_id};
        if (!rc)
            rc = tdb_startup_add(a->db, &st, &id, err);
        for (size_t k = 0; k < r->n_segs && !rc; k++) {
            const tt_su_segment *g = &r->segs[k];
            rc = tdb_segment_add(a->db, id, (int)k, g->name, g->from, g->to, 1,
                                 g->from_ms * NS_PER_MS, g->dur_ms * NS_PER_MS, err);
        }
    }
    return rc;
}

int cli_an_startup_launches(cli_an *a, int64_t trace_id, const tt_startup *s, tt_error *err)
{
    size_t n;
    const tt_su_launch *l = tt_startup_launches(s, &n);
    int rc = 0;
    for (size_t i = 0; i < n && !rc; i++) {
        tdb_launch row = {.trace_id = trace_id, .source = l[i].source,
                          .component = l[i].component, .launch_state = l[i].launch_state,
                          .status = l[i].status, .log_time = l[i].log_time,
                          .have_total = l[i].has_total, .total_ms = l[i].total_ms,
                          .have_wait = l[i].has_wait, .wait_ms = l[i].wait_ms,
                          .have_this = l[i].has_this, .this_ms = l[i].this_ms,
                          .have_fully_drawn = l[i].has_fully_drawn,
                          .fully_drawn_ms = l[i].fully_drawn_ms,
                          .not_launched = l[i].not_launched, .incomplete = l[i].incomplete};
        rc = tdb_launch_add(a->db, &row, err);
    }
    return rc;
}

int cli_an_startup(cli_an *a, tt_input *in, cli_an_trace *t, int launches, tt_error *err)
{
    tt_stats *stats = tt_stats_new();
    if (!stats)
        return tt_error_set(err, TT_ENOMEM, NULL, 0, 0, "out of memory");
    tt_su_opts o = {.mapping = tt_mapping_count(a->map) ? a->map : NULL,
                    .splash = a->splash, .cold_ms = a->cold_ms, .warm_ms = a->warm_ms,
                    .has_cold_ms = a->has_cold_ms, .has_warm_ms = a->has_warm_ms,
                    .no_ui = a->no_ui};
    tt_startup *s;
    int rc = tt_startup_new(&s, &o, stats, err);
    if (rc) {
        tt_stats_free(stats);
        return rc;
    }
    rc = launches ? tt_startup_read_launches(s, in, err) : tt_startup_read_events(s, in, err);
    if (!rc)
        rc = tt_startup_finish(s, err);
    tdb_trace tr = {.import_key = t->import_key, .content_sha256 = t->content_sha256,
                    .source_format = launches ? "launches" : "tt_startup_events",
                    .options = t->options, .clock = launches ? "unknown" : "uptime",
                    .mapping_id = a->mapping_row};
    if (!rc)
        rc = tdb_trace_add(a->db, &tr, &t->trace_id, err);
    if (!rc)
        rc = tdb_input_add(a->db, t->trace_id, 0, t->path, t->kind, t->sha256, t->bytes, err);
    if (!rc)
        rc = cli_an_startup_rows(a, t->trace_id, s, 1, err);
    if (!rc)
        rc = cli_an_startup_launches(a, t->trace_id, s, err);
    if (!rc)
        rc = cli_an_reader_stats(a, t->trace_id, stats, err);
    tt_startup_free(s);
    tt_stats_free(stats);
    return rc;
}
