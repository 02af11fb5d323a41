/* analyze pass 2, one input at a time: its canonical options and import key (storage.md 5.2),
 * the mapping rows, the import by kind (or the replay of a --jobs worker's rows), a failed
 * input recorded under --keep-going. */
#include "cli_an_int.h"

#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* Part of every import key (storage.md 5.2, tracetool-analyze(1)): bump it in the change that
 * makes analyze write different rows for the same input and options (a new table or column
 * filled, a new stats row, a changed algorithm), so that the traces of an older tracetool are
 * imported again beside it instead of "already imported", and merge keeps both copies.
 * 1: the first analyses (schema 1 databases hold them); 2: from schema 4 (perf_* stats rows,
 * module paths, ...). */
#define ANALYSIS_VERSION 2

const char *const cli_an__buffmts[] = {"auto", "bin", "text", NULL};

/* ---- canonical options and keys (storage.md 5.2) ---- */
static int cmp_str(const void *x, const void *y)
{
    return strcmp(*(char *const *)x, *(char *const *)y);
}

/* The options that change an event stream's startup rows, only when they differ from the
 * defaults (so the keys of earlier imports stay valid): the splash set as its sorted, distinct
 * class names, the thresholds in effect, no_ui_process. */
static void startup_options(tt_jsonw *w, const cli_an *a)
{
    char *copy = a->splash ? strdup(a->splash) : NULL, *save = NULL;
    const char **names = copy ? calloc(strlen(copy) / 2 + 1, sizeof *names) : NULL;
    size_t n = 0;
    for (char *t = names ? strtok_r(copy, ";", &save) : NULL; t; t = strtok_r(NULL, ";", &save))
        if (*t)
            names[n++] = t;
    if (n) {
        qsort(names, n, sizeof *names, cmp_str);
        tt_jsonw_key(w, "splash");
        tt_jsonw_arr_begin(w);
        for (size_t i = 0; i < n; i++)
            if (!i || strcmp(names[i], names[i - 1]))
                tt_jsonw_str(w, names[i]);
        tt_jsonw_arr_end(w);
    }
    free(names);
    free(copy);
    if (a->has_cold_ms && a->cold_ms != TT_SU_COLD_MS_DEFAULT) {
        tt_jsonw_key(w, "startup_cold_ms");
        tt_jsonw_int(w, a->cold_ms);
    }
    if (a->has_warm_ms && a->warm_ms != TT_SU_WARM_MS_DEFAULT) {
        tt_jsonw_key(w, "startup_warm_ms");
        tt_jsonw_int(w, a->warm_ms);
    }
    if (a->no_ui) {
        tt_jsonw_key(w, "no_ui_process");
        tt_jsonw_bool(w, 1);
    }
}

static void options_json(tt_buf *out, const cli_an *a, const ainput *ai, const char *map_sha,
                         const char *pg_sha)
{
    tt_jsonw w;
    tt_jsonw_init(&w, 0);
    tt_jsonw_obj_begin(&w);
    tt_jsonw_key(&w, "analysis_version");
    tt_jsonw_int(&w, ANALYSIS_VERSION);
    tt_jsonw_key(&w, "kind");
    tt_jsonw_str(&w, tt_kind_name(ai->kind));
    tt_jsonw_key(&w, "mapping_sha256");
    if (map_sha)
        tt_jsonw_str(&w, map_sha);
    else
        tt_jsonw_null(&w);
    tt_jsonw_key(&w, "proguard_sha256");
    if (pg_sha)
        tt_jsonw_str(&w, pg_sha);
    else
        tt_jsonw_null(&w);
    if (ai->kind == TT_KIND_BEAT) {
        tt_jsonw_key(&w, "base_ms");
        tt_jsonw_int(&w, a->base_ms);
        tt_jsonw_key(&w, "buffer_format");
        tt_jsonw_str(&w, cli_an__buffmts[a->beat_fmt]);
        tt_jsonw_key(&w, "end_ms");
        if (a->have_end)
            tt_jsonw_int(&w, a->end_ms);
        else
            tt_jsonw_null(&w);
        tt_jsonw_key(&w, "evil_ms");
        tt_jsonw_int(&w, a->evil_ms);
        if (a->ring_next > 0) { /* absent otherwise: keys of earlier imports stay valid */
            tt_jsonw_key(&w, "ring_next");
            tt_jsonw_int(&w, a->ring_next);
        }
        tt_jsonw_key(&w, "trim");
        tt_jsonw_int(&w, a->trim);
    }
    if (ai->kind == TT_KIND_STARTUP)
        startup_options(&w, a);
    if (ai->kind == TT_KIND_SAMPLES && a->event) { /* absent otherwise: earlier keys stay */
        tt_jsonw_key(&w, "event");
        tt_jsonw_str(&w, a->event);
    }
    tt_jsonw_obj_end(&w);
    out->len = 0;
    tt_buf_put(out, w.buf.data, w.buf.len);
    tt_jsonw_free(&w);
}

/* ---- the mapping in the database ---- */
static void remember_row(void *ctx, uint32_t method_id, int64_t row)
{
    cli_an *a = ctx;
    a->method_rows[method_id & TT_BEAT_ID_MAX] = row;
}

/* The rows cli_an__store_mapping gives a new database (empty: the mapping is row 1, its
 * methods rows 1..n in mapping order), so that --jobs workers can start before they are
 * written. */
void cli_an__predict_mapping(cli_an *a)
{
    a->mapping_row = 1;
    for (size_t i = 0; i < tt_mapping_count(a->map); i++)
        a->method_rows[tt_mapping_at(a->map, i)->id & TT_BEAT_ID_MAX] = (int64_t)i + 1;
}

/* The lines of the ignoreMethodMapping.txt files, for "why is method X never in my stacks"
 * (method-beat.md 4.3): one row per distinct line, kept by the mapping row; rows the mapping
 * already has (a database of this schema) are not written again, so a mapping stored by an
 * older schema gets them when it is used again. */
static int store_ignored(cli_an *a, tt_error *err)
{
    tt_buf name = {0};
    int rc = 0;
    for (size_t i = 0; i < tt_mapping_ignored_lines(a->map) && !rc; i++) {
        const tt_method *m = tt_mapping_ignored_at(a->map, i);
        name.len = 0;
        if (tt_method_format(&name, m, TT_NAME_JAVA) || !name.data)
            rc = tt_error_set(err, TT_ENOMEM, NULL, 0, 0, "out of memory");
        else
            rc = tdb_ignored_method_add(a->db, a->mapping_row, m, name.data, err);
    }
    tt_buf_free(&name);
    return rc;
}

/* predicted: cli_an__predict_mapping filled the rows (workers may be reading them): the rows
 * written are checked against them instead of stored. */
int cli_an__store_mapping(cli_an *a, const char *sha, const char *path, const char *pg_sha,
                          int predicted, tt_error *err)
{
    int64_t mapping_row = a->mapping_row;
    int rc = tdb_mapping_find(a->db, sha, pg_sha, &a->mapping_row, err);
    if (rc < 0)
        return rc;
    if (rc == 1 && !predicted) {
        rc = tdb_method_each(a->db, a->mapping_row, remember_row, a, err);
        return rc ? rc : store_ignored(a, err);
    }
    int wrong = rc == 1;
    if (!rc)
        rc = tdb_mapping_add(a->db, sha, path, (int64_t)tt_mapping_count(a->map), pg_sha,
                             &a->mapping_row, err);
    wrong |= predicted && a->mapping_row != mapping_row;
    for (size_t i = 0; i < tt_mapping_count(a->map) && !wrong && !rc; i++) {
        const tt_method *m = tt_mapping_at(a->map, i);
        int64_t row;
        const char *name = cli_an_name(a, m->id);
        rc = name ? tdb_method_add(a->db, a->mapping_row, m, name, &row, err) : TT_ENOMEM;
        if (!rc && predicted)
            wrong = a->method_rows[m->id & TT_BEAT_ID_MAX] != row;
        else if (!rc)
            a->method_rows[m->id & TT_BEAT_ID_MAX] = row;
    }
    if (wrong) /* a bug: the workers used other rows */
        rc = tt_error_set(err, TT_EINVAL, path, 0, 0, "method rows differ from their prediction");
    if (!rc)
        rc = store_ignored(a, err);
    if (!rc && tdb_tmp_path(a->db)) /* a new database: no more methods come */
        rc = tdb_method_index(a->db, err);
    return rc;
}

/* ---- one input ---- */
/* Reads one input and writes its rows into a->db (a recording under --jobs: then this runs
 * on a worker thread, so it touches nothing but a and t). */
int cli_an__import_parse(cli_an *a, const char *path, tt_kind kind, cli_an_trace *t,
                         tt_error *err)
{
    tt_input *in;
    int rc = cli_an__open_input(&in, path, err);
    if (rc)
        return rc;
    a->cur_path = path;
    switch (kind) {
    case TT_KIND_BEAT: rc = cli_an_beat(a, in, t, err); break;
    case TT_KIND_REPORT: rc = cli_an_report(a, in, t, err); break;
    case TT_KIND_KSCRASH: rc = cli_an_kscrash(a, in, t, err); break;
    case TT_KIND_FRAMES: rc = cli_an_frames(a, in, t, err); break;
    case TT_KIND_STARTUP: rc = cli_an_startup(a, in, t, 0, err); break;
    case TT_KIND_LAUNCHES: /* a logcat capture may hold Matrix reports after its launches */
        rc = cli_an_report_holds(path) ? cli_an_report(a, in, t, err)
                                       : cli_an_startup(a, in, t, 1, err);
        break;
    case TT_KIND_SAMPLES: rc = cli_an_samples(a, path, t, err); break;
    case TT_KIND_ART: rc = cli_an_art(a, in, t, err); break;
    default:
        rc = tt_error_set(err, TT_EUNSUPPORTED, path, 0, 0, "%s inputs are not analysed yet",
                          tt_kind_name(kind));
    }
    tt_input_close(in);
    return rc;
}

/* The canonical options (opts) and import key (ai->key) of an input (storage.md 5.2). */
static void input_key(cli_an *a, ainput *ai, const char *map_sha, const char *pg_sha,
                      tt_buf *opts, char content[65])
{
    tt_buf cat = {0};
    options_json(opts, a, ai, map_sha, pg_sha);
    if (ai->map_path) { /* a btrace sampling file, then its mapping, in whatever order given */
        char two[128];
        memcpy(two, ai->sha, 64);
        memcpy(two + 64, ai->map_sha, 64);
        tt_sha256_buf(content, two, sizeof two);
    } else {
        tt_sha256_buf(content, ai->sha, 64);
    }
    tt_buf_printf(&cat, "%s\n%s", content, opts->data);
    tt_sha256_buf(ai->key, cat.data, cat.len);
    tt_buf_free(&cat);
}

int cli_an__dry_run_status(cli_an *a, tt_vec *inputs, const aopts *o, const char *map_sha,
                           const char *pg_sha, tt_error *err)
{
    tdb_db *db = NULL;
    struct stat sb;
    int newer, rc = 0;
    if (o->append && !o->replace && !stat(o->out, &sb) &&
        (rc = tdb_open_read(&db, o->out, 0, &newer, err)))
        return rc;
    tt_intern *keys = tt_intern_new();
    tt_vec first; /* int: the first input of each key id */
    tt_vec_init(&first, sizeof(int));
    if (!keys)
        rc = tt_error_set(err, TT_ENOMEM, NULL, 0, 0, "out of memory");
    for (size_t i = 0; i < inputs->len && !rc; i++) {
        ainput *ai = &TT_VEC_AT(inputs, ainput, i);
        if (ai->status != IN_PENDING)
            continue;
        tt_buf opts = {0};
        char content[65];
        input_key(a, ai, map_sha, pg_sha, &opts, content);
        tt_buf_free(&opts);
        uint32_t id;
        int at = (int)i;
        if (tt_intern_get(keys, ai->key, strlen(ai->key), &id) ||
            (id == first.len && !tt_vec_push(&first, &at))) {
            rc = tt_error_set(err, TT_ENOMEM, NULL, 0, 0, "out of memory");
            break;
        }
        const ainput *prev = &TT_VEC_AT(inputs, ainput, TT_VEC_AT(&first, int, id));
        int64_t existing;
        if (prev != ai) { /* "same content as ...; imported once" */
            ai->status = IN_DUPLICATE;
            ai->trace_id = prev->trace_id;
        } else if (db && (rc = tdb_trace_find(db, ai->key, &existing, err)) == 1) {
            ai->status = IN_DUPLICATE; /* "already imported as trace N" */
            ai->trace_id = existing;
        }
        rc = rc < 0 ? rc : 0;
    }
    tt_vec_free(&first);
    tt_intern_free(keys);
    tdb_close(db);
    return rc;
}

/* ---- inputs imported so far, by import key ---- */
/* The earlier imported input with ai's key, or NULL. */
static ainput *seen_find(const aopts *o, tt_vec *inputs, const ainput *ai, int ordinal)
{
    const aseen *t = o->seen;
    uint32_t id;
    if (t && !t->failed)
        return t->keys && !tt_intern_find(t->keys, ai->key, strlen(ai->key), &id)
                   ? &TT_VEC_AT(inputs, ainput, TT_VEC_AT(&t->ordinal, int, id))
                   : NULL;
    for (int j = 0; j < ordinal; j++) {
        ainput *prev = &TT_VEC_AT(inputs, ainput, j);
        if (prev->status == IN_IMPORTED && !strcmp(prev->key, ai->key))
            return prev;
    }
    return NULL;
}

/* Adds imported input ordinal (its key is not there yet). */
static void seen_add(const aopts *o, tt_vec *inputs, int ordinal)
{
    aseen *t = o->seen;
    const char *key = TT_VEC_AT(inputs, ainput, ordinal).key;
    uint32_t id;
    if (!t || t->failed)
        return;
    if (!t->keys)
        tt_vec_init(&t->ordinal, sizeof(int));
    if ((!t->keys && !(t->keys = tt_intern_new())) ||
        tt_intern_get(t->keys, key, strlen(key), &id) || id != t->ordinal.len ||
        !tt_vec_push(&t->ordinal, &ordinal))
        t->failed = 1; /* the slow way from now on */
}

/* job: the input parsed by a worker (--jobs), replayed here; NULL parses it now. */
static int import_one(cli_an *a, ainput *ai, int ordinal_seen, const char *map_sha,
                      const char *pg_sha, tt_vec *inputs, const aopts *o, cli_an_pool *pool,
                      cli_an_job *job, tt_error *err)
{
    tt_buf opts = {0};
    char content[65] = "";
    if (!job) /* else computed when the job was queued */
        input_key(a, ai, map_sha, pg_sha, &opts, content);
    int rc = 0;
    ainput *prev = seen_find(o, inputs, ai, ordinal_seen);
    if (prev) {
        ai->status = IN_DUPLICATE;
        ai->trace_id = prev->trace_id;
        cli_stderrf("tracetool: %s: note: same content as %s; imported once\n", ai->path,
                prev->path);
        goto out;
    }
    int64_t existing;
    rc = tdb_trace_find(a->db, ai->key, &existing, err);
    if (rc < 0)
        goto out;
    if (rc == 1) {
        if (!o->replace) {
            ai->status = IN_DUPLICATE;
            ai->trace_id = existing;
            cli_stderrf("tracetool: %s: note: already imported as trace %lld\n", ai->path,
                    (long long)existing);
            rc = 0;
            goto out;
        }
        if ((rc = tdb_trace_delete(a->db, existing, err)))
            goto out;
    }
    cli_an_trace t = {.path = ai->path, .kind = tt_kind_name(ai->kind), .sha256 = ai->sha,
                      .content_sha256 = content, .import_key = ai->key, .options = opts.data,
                      .btrace_map = ai->btrace_map, .bytes = ai->bytes,
                      .map_path = ai->map_path, .map_sha = ai->map_sha,
                      .map_bytes = ai->map_bytes};
    if (job)
        rc = cli_an_pool_replay(pool, job, a, &t, err);
    else
        rc = cli_an__import_parse(a, ai->path, ai->kind, &t, err);
    if (!rc) {
        ai->status = IN_IMPORTED;
        ai->trace_id = t.trace_id;
        seen_add(o, inputs, ordinal_seen);
    }
out:
    tt_buf_free(&opts);
    return rc;
}

/* --jobs: queues the pending inputs from next on while fewer than 2 x jobs are in flight and
 * returns the first one not queued. An input already in the database is not parsed (unless
 * --replace): import_one skips it. Out of memory leaves an input to import_one too. */
size_t cli_an__dispatch(cli_an *a, tt_vec *inputs, size_t next, cli_an_pool *pool,
                        cli_an_job **jobs, const aopts *o, const char *map_sha,
                        const char *pg_sha)
{
    for (; next < inputs->len && !cli_an_pool_full(pool); next++) {
        ainput *ai = &TT_VEC_AT(inputs, ainput, next);
        /* frames inputs are parsed by the writer in input order: their framestats rows are
         * de-duplicated against the earlier inputs' (frames.md 7.3, analyze(1)) */
        if (ai->status != IN_PENDING || ai->kind == TT_KIND_FRAMES)
            continue;
        tt_buf opts = {0};
        char content[65];
        input_key(a, ai, map_sha, pg_sha, &opts, content);
        int64_t id;
        tt_error e = {0};
        /* only traces of an appended database: this run's are not written yet */
        if (!o->append || o->replace || tdb_trace_find(a->db, ai->key, &id, &e) != 1) {
            cli_an_trace t = {.path = ai->path, .kind = tt_kind_name(ai->kind),
                              .sha256 = ai->sha, .content_sha256 = content,
                              .import_key = ai->key, .options = opts.data,
                              .btrace_map = ai->btrace_map, .bytes = ai->bytes,
                      .map_path = ai->map_path, .map_sha = ai->map_sha,
                      .map_bytes = ai->map_bytes};
            jobs[next] = cli_an_pool_submit(pool, ai->path, ai->kind, &t);
        }
        tt_buf_free(&opts);
    }
    return next;
}

/* import_one; with --keep-going inside a savepoint, so that a failing input leaves nothing
 * behind and the run goes on (errors of the database itself stay fatal). */
int cli_an__import_kept(cli_an *a, ainput *ai, int ordinal_seen, const char *map_sha,
                        const char *pg_sha, tt_vec *inputs, const aopts *o, cli_an_pool *pool,
                        cli_an_job *job, tt_error *err)
{
    if (!o->keep_going)
        return import_one(a, ai, ordinal_seen, map_sha, pg_sha, inputs, o, pool, job, err);
    int rc = tdb_savepoint(a->db, TDB_SP_BEGIN, err);
    if (!rc)
        rc = import_one(a, ai, ordinal_seen, map_sha, pg_sha, inputs, o, pool, job, err);
    if (!rc)
        return tdb_savepoint(a->db, TDB_SP_RELEASE, err);
    if (!err->file[0] || !strcmp(err->file, o->out))
        return rc;
    tt_error e2 = {0};
    if (tdb_savepoint(a->db, TDB_SP_ROLLBACK, &e2)) {
        *err = e2;
        return TT_EIO;
    }
    rc = cli_an__input_failed(ai, o, err) ? TT_ENOMEM : 0;
    memset(err, 0, sizeof *err);
    return rc;
}

/* A failed input (--keep-going) is a trace row without data: its input, an import_failed
 * stats row and the message as import_error metadata. */
int cli_an__record_failure(cli_an *a, ainput *ai, tt_error *err)
{
    char key[65], content[65];
    tt_buf b = {0};
    tt_buf_printf(&b, "import_failed\n%s\n%s", ai->sha, ai->path);
    tt_sha256_buf(key, b.data, b.len);
    tt_buf_free(&b);
    tt_sha256_buf(content, ai->sha, strlen(ai->sha));
    int64_t old;
    int rc = tdb_trace_find(a->db, key, &old, err);
    if (rc == 1)
        rc = tdb_trace_delete(a->db, old, err);
    if (rc < 0)
        return rc;
    tdb_trace tr = {.import_key = key, .content_sha256 = content,
                    .source_format = tt_kind_name(ai->kind), .options = "{}",
                    .clock = "unknown"};
    rc = tdb_trace_add(a->db, &tr, &ai->trace_id, err);
    if (!rc)
        rc = tdb_input_add(a->db, ai->trace_id, 0, ai->path, tt_kind_name(ai->kind), ai->sha,
                           ai->bytes, err);
    const char *was = a->cur_path; /* the warning names the failed input, not the last read */
    a->cur_path = ai->path;
    if (!rc)
        rc = cli_an_stat(a, ai->trace_id, "import_failed", "error", "trace", 1,
                         "the input could not be imported (analyze --keep-going); the error is "
                         "the trace's import_error metadata", err);
    a->cur_path = was;
    if (!rc)
        rc = tdb_metadata_add(a->db, ai->trace_id, "import_error", NULL, ai->error, err);
    return rc;
}
