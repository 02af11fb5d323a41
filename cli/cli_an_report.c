/* analyze: Matrix issue reports into the database (storage.md 3.4): one issue per report
 * with its stack as a call tree, the blamed id resolved to its canonical name so issues
 * group across builds; counted reader warnings as stats. */
#include "cli_an.h"

#include <stdlib.h>
#include <string.h>

#include "cli_startup.h"

static int store_report(cli_an *a, int64_t trace_id, const tt_report *r, int64_t *issue_id,
                        tt_error *err)
{
    int mapped = r->key_id >= 0 && (tt_mapping_get(a->map, (uint32_t)r->key_id) ||
                                    (uint32_t)r->key_id == TT_BEAT_DISPATCH);
    tdb_issue is = {
        .trace_id = trace_id,
        .tag = r->tag ? r->tag : "",
        .detail = r->detail,
        .kind = tt_report_issue_kind(r),
        .scene = r->scene,
        .process_name = r->process,
        .have_report_time = r->have_time,
        .report_unix_ms = r->time_ms,
        .have_sub_type = r->have_sub_type,
        .sub_type = r->sub_type,
        .stack_key_raw = r->stack_key,
        .stack_key_method_id = r->key_id >= 0 ? cli_an_method_row(a, (uint32_t)r->key_id) : 0,
        .stack_key = mapped ? cli_an_name(a, (uint32_t)r->key_id) : NULL,
        .stack_key_path = mapped ? cli_an_key_path(a, r->items, r->n_items, r->key_index) : NULL,
        .have_foreground = r->anr.have_is_foreground,
        .is_foreground = r->anr.is_foreground,
        .thread_stack = r->thread_stack,
        .raw_json = r->json,
    };
    is.have_cost = tt_report_cost(r, &is.cost_ms); /* Trace_StartUp: startup_duration */
    if (r->key_id >= 0 && !mapped && tt_mapping_count(a->map))
        a->unknown_ids++;
    int64_t tree_id;
    int rc = tdb_issue_add(a->db, &is, issue_id, err);
    if (!rc && r->n_items) {
        rc = cli_an_store_stack(a, trace_id, "issue_stack", *issue_id, 0, r->items, r->n_items,
                                &tree_id, err);
        if (!rc)
            rc = tdb_issue_set_tree(a->db, *issue_id, tree_id, err);
    }
    return rc;
}

/* The launches of a log container (startup.md 4.3, 4.4): the input read a second time, as
 * `tracetool startup` reads a logcat capture; none is no error. */
static int log_launches(cli_an *a, const cli_an_trace *t, tt_startup **su, tt_stats *st,
                        tt_error *err)
{
    tt_input *in;
    int rc = cli_input_open(&in, t->path, 1, err);
    if (!rc && !*su) {
        tt_su_opts so = {.mapping = tt_mapping_count(a->map) ? a->map : NULL};
        rc = tt_startup_new(su, &so, st, err);
    }
    if (!rc && (rc = tt_startup_read_launches(*su, in, err)) == TT_ENOTFOUND) {
        rc = 0;
        memset(err, 0, sizeof *err);
    }
    tt_input_close(in);
    return rc;
}

int cli_an_report_holds(const char *path)
{
    tt_input *in;
    tt_report_reader *r;
    const tt_report *rep;
    int yes = 0;
    if (cli_input_open(&in, path, 1, NULL))
        return 0;
    if (!tt_report_reader_new(&r, in, NULL, NULL)) {
        tt_report_reader_set_json(r, 0);
        yes = tt_report_reader_container(r) == TT_REPORT_LOG &&
              tt_report_reader_next(r, &rep, NULL) == 0;
        tt_report_reader_free(r);
    }
    tt_input_close(in);
    return yes;
}

int cli_an_report(cli_an *a, tt_input *in, cli_an_trace *t, tt_error *err)
{
    tt_stats *st = tt_stats_new();
    if (!st)
        return tt_error_set(err, TT_ENOMEM, NULL, 0, 0, "out of memory");
    tt_report_reader *r;
    int rc = tt_report_reader_new(&r, in, st, err);
    if (rc) {
        tt_stats_free(st);
        return rc;
    }
    /* the trace row first: its issues reference it (foreign keys are on when appending) */
    tdb_trace tr = {.import_key = t->import_key, .content_sha256 = t->content_sha256,
                    .source_format = "matrix_report", .options = t->options,
                    .clock = "unknown", .mapping_id = a->mapping_row};
    rc = tdb_trace_add(a->db, &tr, &t->trace_id, err);
    if (!rc)
        rc = tdb_input_add(a->db, t->trace_id, 0, t->path, t->kind, t->sha256, t->bytes, err);
    tt_frames *fps = NULL; /* Trace_FPS reports aggregated per scene (frames.md 7.1) */
    tt_startup *su = NULL; /* Trace_StartUp and STARTUP reports (startup.md 4.1) */
    int64_t n = 0, tmin = 0, tmax = 0;
    const char *process = NULL;
    char *process_copy = NULL;
    while (!rc) {
        const tt_report *rep;
        rc = tt_report_reader_next(r, &rep, err);
        if (rc == TT_DONE) {
            rc = 0;
            break;
        }
        if (rc)
            break;
        if (rep->have_time) {
            if (!n || rep->time_ms < tmin)
                tmin = rep->time_ms;
            if (!n || rep->time_ms > tmax)
                tmax = rep->time_ms;
        }
        if (!process && rep->process)
            process = process_copy = strdup(rep->process);
        n++;
        int64_t issue_id = 0;
        rc = store_report(a, t->trace_id, rep, &issue_id, err);
        tt_su_report sr;
        if (!rc && cli_startup_report(&sr, rep)) {
            sr.ref = issue_id; /* a STARTUP issue's row, linked from its startup row */
            tt_su_opts so = {.mapping = tt_mapping_count(a->map) ? a->map : NULL};
            if (!su)
                rc = tt_startup_new(&su, &so, st, err);
            if (!rc)
                rc = tt_startup_add_report(su, &sr, err);
        }
        if (!rc && rep->kind == TT_RKIND_FPS) {
            tt_frames_opts fo = {.model = TT_FMODEL_REPORTS};
            tt_fps_report fr;
            tt_fps_report_from_report(&fr, rep);
            if (!fps)
                rc = tt_frames_new(&fps, &fo, err);
            if (!rc)
                rc = tt_frames_add_fps_report(fps, &fr, err);
            if (!rc)
                rc = cli_an_fps_report_row(a, t->trace_id, &fr, issue_id, err);
        }
    }
    if (!rc && fps && !(rc = tt_frames_finish(fps, err)))
        rc = cli_an_frame_stats(a, t->trace_id, fps, 0, err);
    tt_frames_free(fps);
    if (!rc && tt_report_reader_container(r) == TT_REPORT_LOG)
        rc = log_launches(a, t, &su, st, err);
    if (!rc && su && !(rc = tt_startup_finish(su, err)))
        rc = cli_an_startup_rows(a, t->trace_id, su, 0, err);
    if (!rc && su)
        rc = cli_an_startup_launches(a, t->trace_id, su, err);
    tt_startup_free(su);
    if (!rc)
        rc = cli_an_reader_stats(a, t->trace_id, st, err);
    if (!rc) {
        const char *c = tt_report_container_name(tt_report_reader_container(r));
        rc = tdb_metadata_add(a->db, t->trace_id, "report_container", NULL, c, err);
        if (!rc)
            rc = tdb_metadata_add(a->db, t->trace_id, "reports", &n, NULL, err);
        if (!rc && process)
            rc = tdb_metadata_add(a->db, t->trace_id, "process_name", NULL, process, err);
        if (!rc && n && tmax) {
            rc = tdb_metadata_add(a->db, t->trace_id, "first_report_unix_ms", &tmin, NULL, err);
            if (!rc)
                rc = tdb_metadata_add(a->db, t->trace_id, "last_report_unix_ms", &tmax, NULL,
                                      err);
        }
    }
    free(process_copy);
    tt_report_reader_free(r);
    tt_stats_free(st);
    return rc;
}
