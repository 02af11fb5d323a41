/* tracetool analyze: the main job (cli.md, storage.md). Detects each input by content, runs
 * every analysis that applies, writes one SQLite database atomically, prints a summary. */
#include "cli_an.h"

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli_load.h"

#define ANALYSIS_VERSION 1
#define HELP_SHOWN (-1) /* parse_opts: -h printed the usage */

static const char usage[] =
    "usage: tracetool analyze [-o DB] [-m MAPPING]... [--proguard FILE] [--append] [--replace]\n"
    "                         [--skip-unknown] [--keep-going] [--kind KIND] [-j N]\n"
    "                         [--format text|json|jsonl]\n"
    "                         [--base-ms MS] [--end-ms MS] [--evil-ms MS] [--trim N]\n"
    "                         [--buffer-format auto|bin|text] [-e BINARY]... [--symbols DIR]...\n"
    "                         [--swift-demangler CMD] [--all-images] INPUT...\n"
    "\n"
    "  -o, --output DB         database to write (default trace.db)\n"
    "  -m, --mapping FILE      methodMapping.txt or ignoreMethodMapping.txt (repeatable)\n"
    "      --proguard FILE     retrace obfuscated mapping names with a ProGuard/R8 mapping.txt\n"
    "      --append            add to an existing database instead of replacing it\n"
    "      --replace           re-import inputs already in the database\n"
    "      --skip-unknown      skip inputs of unknown kind with a warning instead of failing\n"
    "      --keep-going        an input that fails to import is recorded and skipped (exit 1)\n"
    "      --kind KIND         override detection: beat, report, frames, startup, launches,\n"
    "                          samples, mapping, ignore_mapping, proguard\n"
    "      --format FMT        summary as text (default) or json; jsonl: every row written\n"
    "  -j, --jobs N            parse N inputs at a time (default: the online cores); the\n"
    "                          database and output are those of --jobs 1\n"
    "      --base-ms MS        method-beat time base (uptime ms of the buffer's zero)\n"
    "      --end-ms MS         absolute end time for method-beat frames still open\n"
    "      --evil-ms MS        dispatches at least this long become evil-method issues (700)\n"
    "      --trim N            Matrix trim target for evil-method stacks (default 30; 0 = off)\n"
    "      --buffer-format F   method-beat buffers: auto (default), bin, text\n"
    "  -e, --exe BINARY        ELF file naming native frames of sampled stacks (repeatable)\n"
    "      --symbols DIR       symbol store searched by build id and name (repeatable)\n"
    "      --swift-demangler CMD  demangle Swift names with CMD, one name a line on its\n"
    "                          standard input (also TRACETOOL_SWIFT_DEMANGLE)\n"
    "      --all-images        iOS reports: a binary_image row for every image, not only\n"
    "                          those frames refer to\n"
    "  -h, --help              show this help\n";

enum { O_PROGUARD = 256, O_APPEND, O_REPLACE, O_SKIP, O_KIND, O_FORMAT, O_BASE, O_END, O_EVIL,
       O_TRIM, O_BUFFMT, O_KEEP, O_ALL_IMAGES };
#define MAX_JOBS 256
static const struct option longopts[] = {
    {"output", required_argument, NULL, 'o'},
    {"mapping", required_argument, NULL, 'm'},
    {"proguard", required_argument, NULL, O_PROGUARD},
    {"append", no_argument, NULL, O_APPEND},
    {"replace", no_argument, NULL, O_REPLACE},
    {"skip-unknown", no_argument, NULL, O_SKIP},
    {"keep-going", no_argument, NULL, O_KEEP},
    {"jobs", required_argument, NULL, 'j'},
    {"kind", required_argument, NULL, O_KIND},
    {"format", required_argument, NULL, O_FORMAT},
    {"base-ms", required_argument, NULL, O_BASE},
    {"end-ms", required_argument, NULL, O_END},
    {"evil-ms", required_argument, NULL, O_EVIL},
    {"trim", required_argument, NULL, O_TRIM},
    {"buffer-format", required_argument, NULL, O_BUFFMT},
    {"exe", required_argument, NULL, 'e'},
    {"symbols", required_argument, NULL, CLI_SYM_O_SYMBOLS},
    {"swift-demangler", required_argument, NULL, CLI_SYM_O_SWIFT},
    {"all-images", no_argument, NULL, O_ALL_IMAGES},
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0},
};
static const char *const formats[] = {"text", "json", "jsonl", NULL};
static const char *const buffmts[] = {"auto", "bin", "text", NULL};

enum { IN_PENDING, IN_IMPORTED, IN_DUPLICATE, IN_MAPPING, IN_SKIPPED, IN_FAILED, IN_SYMBOLS };
static const char *const status_names[] = {"pending", "imported", "already_imported", "mapping",
                                           "skipped", "failed", "symbols"};

typedef struct ainput {
    char *path;
    tt_kind kind;
    char sha[65];
    uint64_t bytes;
    int status;
    int from_dir; /* found by a directory scan: imported only when detection is positive */
    int64_t trace_id;
    char key[65];
    char *error; /* --keep-going: why it failed ("FILE:LOC: message"), malloc'ed */
    tt_detection *pre; /* --jobs: detected and hashed ahead (sha, bytes set), or NULL */
} ainput;

typedef struct aopts {
    const char *out, *proguard;
    int append, replace, skip_unknown, keep_going, kind, format;
    int jobs;                      /* --jobs; 0 = the online cores */
    int proguard_given, sym_given; /* --proguard, -e/--symbols on the command line */
    const char *dir_map[2];        /* mapping and ignore mapping taken from a directory */
    char skip_buf[512];
    char **maps;
    size_t nmaps;
} aopts;

/* ---- inputs: arguments, directories (regular files sorted by name), stdin ---- */
static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static int add_input(tt_vec *v, const char *path, int from_dir)
{
    ainput in = {0};
    in.path = strdup(path);
    in.from_dir = from_dir;
    if (!in.path || !tt_vec_push(v, &in)) {
        free(in.path);
        cli_errorf("out of memory");
        return CLI_BAD;
    }
    return 0;
}

/* Regular files of dir and of its subdirectories, depth first, each directory sorted by
 * name. Names starting with '.' are ignored; symbolic links are followed to files only (no
 * directory loops). */
static int expand_dir(tt_vec *v, const char *dir, int depth)
{
    DIR *d = opendir(dir);
    if (!d) {
        cli_errorf("%s: cannot read directory: %s", dir, strerror(errno));
        return CLI_BAD;
    }
    tt_vec names;
    tt_vec_init(&names, sizeof(char *));
    struct dirent *e;
    int rc = 0;
    size_t dl = strlen(dir);
    while ((e = readdir(d)) && !rc) {
        if (e->d_name[0] == '.')
            continue;
        size_t n = dl + strlen(e->d_name) + 2;
        char *p = malloc(n);
        if (!p || !tt_vec_push(&names, &p)) {
            free(p);
            cli_errorf("out of memory");
            rc = CLI_BAD;
            break;
        }
        snprintf(p, n, "%s%s%s", dir, dl && dir[dl - 1] == '/' ? "" : "/", e->d_name);
    }
    closedir(d);
    if (names.len)
        qsort(names.data, names.len, sizeof(char *), cmp_str);
    for (size_t i = 0; i < names.len; i++) {
        char *p = TT_VEC_AT(&names, char *, i);
        struct stat sb;
        if (!rc && !lstat(p, &sb)) {
            if (S_ISDIR(sb.st_mode) && depth < 64)
                rc = expand_dir(v, p, depth + 1);
            else if (!S_ISDIR(sb.st_mode) && !stat(p, &sb) && S_ISREG(sb.st_mode))
                rc = add_input(v, p, 1);
        }
        free(p);
    }
    tt_vec_free(&names);
    return rc;
}

/* Opens an input; one that cannot be read twice (stdin, a FIFO) is read once into memory:
 * pass 1 detects and hashes it, pass 2 analyses it. */
static int open_input(tt_input **in, const char *path, tt_error *err)
{
    int rc = cli_input_open(in, path, 1, err);
    if (!rc)
        cli_progress_attach(*in);
    return rc;
}

/* An input that could not be read or imported: fatal (exit 2) unless --keep-going, which
 * keeps the message for the stats table and goes on. */
static int input_failed(ainput *ai, const aopts *o, const tt_error *err)
{
    int rc = cli_err(err);
    if (!o->keep_going)
        return rc;
    char text[1024];
    cli_err_text(text, sizeof text, err);
    free(ai->error);
    ai->error = strdup(text);
    ai->status = IN_FAILED;
    return ai->error ? 0 : CLI_BAD;
}

/* Why a file found in a directory is not imported, or NULL when it is used. Of several
 * mappings of one kind the first (by name) is used. */
static const char *dir_skip(const ainput *ai, aopts *o)
{
    if (o->kind > 0)
        return NULL;
    int ig = ai->kind == TT_KIND_IGNORE;
    switch (ai->kind) {
    case TT_KIND_UNKNOWN: return "not a trace";
    case TT_KIND_DATABASE: return "a tracetool database (analyze reads raw inputs)";
    case TT_KIND_MAPPING:
    case TT_KIND_IGNORE:
        if (o->nmaps)
            return "method mapping not used (-m given)";
        if (!o->dir_map[ig]) {
            o->dir_map[ig] = ai->path;
            return NULL;
        }
        snprintf(o->skip_buf, sizeof o->skip_buf, "another %smethod mapping (using %s; -m "
                 "chooses)", ig ? "ignore " : "", o->dir_map[ig]);
        return o->skip_buf;
    case TT_KIND_PROGUARD:
        if (o->proguard_given)
            return "ProGuard mapping not used (--proguard given)";
        if (!o->proguard)
            return NULL;
        snprintf(o->skip_buf, sizeof o->skip_buf, "another ProGuard mapping (using %s; "
                 "--proguard chooses)", o->proguard);
        return o->skip_buf;
    default: return NULL;
    }
}

/* Directory entries that are not imported: ELF files with debug information name native
 * frames when no -e/--symbols was given; everything else gets one notice. */
static void skip_dir_entry(ainput *ai, const char *why, const tt_detection *d, cli_an *a,
                           const aopts *o)
{
    if (d->elf && !o->sym_given && a->sym.n_exes < CLI_SYM_MAX &&
        tsym_elf_has_debug_info(ai->path, NULL) == 1) {
        a->sym.exes[a->sym.n_exes++] = ai->path;
        ai->status = IN_SYMBOLS;
        fprintf(stderr, "tracetool: %s: note: used for native symbols (ELF with debug "
                        "information)\n", ai->path);
        return;
    }
    ai->status = IN_SKIPPED;
    if (ai->bytes == 0)
        why = "empty file";
    fprintf(stderr, "tracetool: %s: skipped: %s%s%s\n", ai->path, why,
            d->what[0] && ai->bytes ? ": " : "", ai->bytes ? d->what : "");
}

/* --jobs: pass 1's reading (detection, content hash) of the regular files, on several threads
 * ahead of pass 1; an input that fails or has to be read again (a mapping) is read by pass 1. */
static void pre_detect(void *ctx, size_t i)
{
    ainput *ai = &TT_VEC_AT((tt_vec *)ctx, ainput, i);
    tt_error err = {0};
    tt_input *in;
    tt_detection d;
    if (cli_input_is_stream(ai->path) || tt_input_open(&in, ai->path, &err))
        return;
    int rc = tt_input_hash_begin(in, &err);
    if (!rc)
        rc = tt_input_detect(&d, in, &err);
    if (!rc)
        rc = tt_input_hash_end(in, ai->sha, &ai->bytes, &err);
    tt_input_close(in);
    if (!rc && (ai->pre = malloc(sizeof *ai->pre)))
        *ai->pre = d;
}

/* Pass 1: detect and hash one input; load mapping inputs into the mapping. */
static int detect_input(ainput *ai, aopts *o, cli_an *a, cli_ctx *ctx)
{
    tt_error err = {0};
    tt_input *in = NULL;
    tt_detection d;
    int rc = 0;
    if (ai->pre) {
        tt_kind k = o->kind > 0 ? (tt_kind)o->kind : ai->pre->kind;
        d = *ai->pre;
        if (k == TT_KIND_MAPPING || k == TT_KIND_IGNORE) { /* loaded while read: read again */
            free(ai->pre);
            ai->pre = NULL;
        }
    }
    if (!ai->pre) {
        if (open_input(&in, ai->path, &err))
            return input_failed(ai, o, &err);
        rc = tt_input_hash_begin(in, &err);
        if (!rc)
            rc = tt_input_detect(&d, in, &err);
        if (rc) {
            tt_input_close(in);
            return input_failed(ai, o, &err);
        }
    }
    ai->kind = o->kind > 0 ? (tt_kind)o->kind : d.kind;
    const char *skip = ai->from_dir ? dir_skip(ai, o) : NULL;
    if (!skip && (ai->kind == TT_KIND_MAPPING || ai->kind == TT_KIND_IGNORE)) {
        ai->status = IN_MAPPING;
        rc = cli_load_mapping_input(a->map, in, ctx->stats);
        if (rc) {
            tt_input_close(in);
            return rc;
        }
        if (ai->from_dir)
            fprintf(stderr, "tracetool: %s: note: used as the %s mapping\n", ai->path,
                    ai->kind == TT_KIND_IGNORE ? "ignore-method" : "method");
    }
    if (in) { /* else hashed ahead */
        rc = tt_input_hash_end(in, ai->sha, &ai->bytes, &err);
        tt_input_close(in);
    }
    if (rc)
        return input_failed(ai, o, &err);
    if (skip) {
        skip_dir_entry(ai, skip, &d, a, o);
        return 0;
    }
    if (ai->kind == TT_KIND_UNKNOWN || ai->kind == TT_KIND_DATABASE) {
        char what[sizeof d.what + 16];
        snprintf(what, sizeof what, "not a trace: %s", d.what);
        const char *why = ai->kind == TT_KIND_DATABASE
                              ? "is an SQLite database; analyze reads raw inputs (use tracetool "
                                "query, or ATTACH it in SQL)"
                          : d.what[0] ? what
                          : ai->bytes == 0
                              ? "empty input: expected a method-beat buffer, a methodMapping.txt "
                                "or Matrix reports"
                              : "unknown input kind: expected a method-beat buffer, a "
                                "methodMapping.txt, a ProGuard mapping, Matrix reports, frame, "
                                "startup or sample data (--kind overrides detection)";
        if (!o->skip_unknown) {
            cli_errorf("%s: %s", ai->path, why);
            return CLI_BAD;
        }
        cli_warnf("%s: %s; skipped", ai->path, why);
        ai->status = IN_SKIPPED;
    }
    return 0;
}

/* Binary buffers found in a directory must mostly use ids of the mapping (tt_beat_plausible). */
static void check_dir_beat(ainput *ai, const tt_mapping *map)
{
    tt_error err = {0};
    tt_input *in;
    if (open_input(&in, ai->path, &err))
        return; /* the import reports it */
    const unsigned char *p;
    size_t n;
    char why[200];
    if (!tt_input_peek(in, &p, &n, TT_DETECT_PEEK, &err) && memchr(p, 0, n < 4096 ? n : 4096) &&
        !tt_beat_plausible_bytes(p, n, map, why, sizeof why)) {
        ai->status = IN_SKIPPED;
        fprintf(stderr, "tracetool: %s: skipped: not a trace: %s\n", ai->path, why);
    }
    tt_input_close(in);
}

/* ---- canonical options and keys (storage.md 5.2) ---- */
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
        tt_jsonw_str(&w, buffmts[a->beat_fmt]);
        tt_jsonw_key(&w, "end_ms");
        if (a->have_end)
            tt_jsonw_int(&w, a->end_ms);
        else
            tt_jsonw_null(&w);
        tt_jsonw_key(&w, "evil_ms");
        tt_jsonw_int(&w, a->evil_ms);
        tt_jsonw_key(&w, "trim");
        tt_jsonw_int(&w, a->trim);
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

/* The rows store_mapping gives a new database (empty: the mapping is row 1, its methods rows
 * 1..n in mapping order), so that --jobs workers can start before they are written. */
static void predict_mapping(cli_an *a)
{
    a->mapping_row = 1;
    for (size_t i = 0; i < tt_mapping_count(a->map); i++)
        a->method_rows[tt_mapping_at(a->map, i)->id & TT_BEAT_ID_MAX] = (int64_t)i + 1;
}

/* predicted: predict_mapping filled the rows (workers may be reading them): the rows written
 * are checked against them instead of stored. */
static int store_mapping(cli_an *a, const char *sha, const char *path, const char *pg_sha,
                         int predicted, tt_error *err)
{
    int64_t mapping_row = a->mapping_row;
    int rc = tdb_mapping_find(a->db, sha, &a->mapping_row, err);
    if (rc < 0)
        return rc;
    if (rc == 1 && !predicted)
        return tdb_method_each(a->db, a->mapping_row, remember_row, a, err);
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
    return rc;
}

/* ---- one input ---- */
/* Reads one input and writes its rows into a->db (a recording under --jobs: then this runs
 * on a worker thread, so it touches nothing but a and t). */
static int import_parse(cli_an *a, const char *path, tt_kind kind, cli_an_trace *t,
                        tt_error *err)
{
    tt_input *in;
    int rc = open_input(&in, path, err);
    if (rc)
        return rc;
    a->cur_path = path;
    switch (kind) {
    case TT_KIND_BEAT: rc = cli_an_beat(a, in, t, err); break;
    case TT_KIND_REPORT: rc = cli_an_report(a, in, t, err); break;
    case TT_KIND_KSCRASH: rc = cli_an_kscrash(a, in, t, err); break;
    case TT_KIND_FRAMES: rc = cli_an_frames(a, in, t, err); break;
    case TT_KIND_STARTUP: rc = cli_an_startup(a, in, t, 0, err); break;
    case TT_KIND_LAUNCHES: rc = cli_an_startup(a, in, t, 1, err); break;
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
    tt_sha256_buf(content, ai->sha, 64);
    tt_buf_printf(&cat, "%s\n%s", content, opts->data);
    tt_sha256_buf(ai->key, cat.data, cat.len);
    tt_buf_free(&cat);
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
    for (int j = 0; j < ordinal_seen; j++) {
        ainput *prev = &TT_VEC_AT(inputs, ainput, j);
        if (prev->status == IN_IMPORTED && !strcmp(prev->key, ai->key)) {
            ai->status = IN_DUPLICATE;
            ai->trace_id = prev->trace_id;
            fprintf(stderr, "tracetool: %s: note: same content as %s; imported once\n",
                    ai->path, prev->path);
            goto out;
        }
    }
    int64_t existing;
    rc = tdb_trace_find(a->db, ai->key, &existing, err);
    if (rc < 0)
        goto out;
    if (rc == 1) {
        if (!o->replace) {
            ai->status = IN_DUPLICATE;
            ai->trace_id = existing;
            fprintf(stderr, "tracetool: %s: note: already imported as trace %lld\n", ai->path,
                    (long long)existing);
            rc = 0;
            goto out;
        }
        if ((rc = tdb_trace_delete(a->db, existing, err)))
            goto out;
    }
    cli_an_trace t = {.path = ai->path, .kind = tt_kind_name(ai->kind), .sha256 = ai->sha,
                      .content_sha256 = content, .import_key = ai->key, .options = opts.data,
                      .bytes = ai->bytes};
    if (job)
        rc = cli_an_pool_replay(pool, job, a, &t, err);
    else
        rc = import_parse(a, ai->path, ai->kind, &t, err);
    if (!rc) {
        ai->status = IN_IMPORTED;
        ai->trace_id = t.trace_id;
    }
out:
    tt_buf_free(&opts);
    return rc;
}

/* --jobs: queues the pending inputs from next on while fewer than 2 x jobs are in flight and
 * returns the first one not queued. An input already in the database is not parsed (unless
 * --replace): import_one skips it. Out of memory leaves an input to import_one too. */
static size_t dispatch(cli_an *a, tt_vec *inputs, size_t next, cli_an_pool *pool,
                       cli_an_job **jobs, const aopts *o, const char *map_sha,
                       const char *pg_sha)
{
    for (; next < inputs->len && !cli_an_pool_full(pool); next++) {
        ainput *ai = &TT_VEC_AT(inputs, ainput, next);
        if (ai->status != IN_PENDING)
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
                              .import_key = ai->key, .options = opts.data, .bytes = ai->bytes};
            jobs[next] = cli_an_pool_submit(pool, ai->path, ai->kind, &t);
        }
        tt_buf_free(&opts);
    }
    return next;
}

static int online_cores(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : n > MAX_JOBS ? MAX_JOBS : (int)n;
}

/* import_one; with --keep-going inside a savepoint, so that a failing input leaves nothing
 * behind and the run goes on (errors of the database itself stay fatal). */
static int import_kept(cli_an *a, ainput *ai, int ordinal_seen, const char *map_sha,
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
    rc = input_failed(ai, o, err) ? TT_ENOMEM : 0;
    memset(err, 0, sizeof *err);
    return rc;
}

/* A failed input (--keep-going) is a trace row without data: its input, an import_failed
 * stats row and the message as import_error metadata. */
static int record_failure(cli_an *a, ainput *ai, tt_error *err)
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
    if (!rc)
        rc = cli_an_stat(a, ai->trace_id, "import_failed", "error", "trace", 1,
                         "the input could not be imported (analyze --keep-going); the error is "
                         "the trace's import_error metadata", err);
    if (!rc)
        rc = tdb_metadata_add(a->db, ai->trace_id, "import_error", NULL, ai->error, err);
    return rc;
}

/* ---- summary ---- */
typedef struct summ {
    tt_buf text;
    tt_jsonw json;
    const char *section; /* JSON key of the current array */
    int rows;
} summ;

static int summ_row(void *ctx, int event, int ncol, const char *const *names,
                    const tdb_value *v)
{
    summ *s = ctx;
    if (event != TDB_EV_ROW)
        return 0;
    s->rows++;
    if (!strcmp(s->section, "counts")) {
        if (strcmp(v[0].s, "warnings")) /* text: "notices", the stats table's severity word */
            tt_buf_printf(&s->text, "%s%s %lld", s->rows > 1 ? ", " : "", v[0].s,
                          (long long)v[1].i);
        tt_jsonw_key(&s->json, v[0].s);
        tt_jsonw_int(&s->json, v[1].i);
        return 0;
    }
    tt_jsonw_obj_begin(&s->json);
    for (int c = 0; c < ncol; c++) {
        tt_jsonw_key(&s->json, names[c]);
        switch (v[c].type) {
        case TDB_INT: tt_jsonw_int(&s->json, v[c].i); break;
        case TDB_REAL: tt_jsonw_double(&s->json, v[c].r); break;
        case TDB_TEXT: tt_jsonw_str(&s->json, v[c].s); break;
        default: tt_jsonw_null(&s->json);
        }
    }
    tt_jsonw_obj_end(&s->json);
#define S(k) (v[k].type == TDB_TEXT ? v[k].s : "")
#define I(k) (long long)(v[k].type == TDB_INT ? v[k].i : 0)
    if (!strcmp(s->section, "top_issues"))
        tt_buf_printf(&s->text, "  %8lld ms  %-12s %s%s%s\n", I(1), S(0), S(2),
                      v[3].type == TDB_TEXT ? "  scene " : "", S(3));
    else if (!strcmp(s->section, "startups")) {
        tt_buf_printf(&s->text, "  %-8s %-14s %6lld ms", S(0), S(1),
                      v[2].type == TDB_INT ? I(2) : I(5));
        if (v[3].type == TDB_INT)
            tt_buf_printf(&s->text, "  ttid %lld ms", I(3));
        if (v[4].type == TDB_INT)
            tt_buf_printf(&s->text, "  ttfd %lld ms", I(4));
        tt_buf_puts(&s->text, "\n");
    }
    else if (!strcmp(s->section, "issues_by_stack_key"))
        tt_buf_printf(&s->text, "  %5lld x  %-12s max %lld ms, avg %lld ms  %s\n", I(2), S(0),
                      I(3), I(4), S(1));
    else
        tt_buf_printf(&s->text, "  %6lld frames  %6.2f fps  %5lld jank  %5lld bad  %-8s %s\n", I(2),
                      v[3].type == TDB_REAL ? v[3].r : (double)I(3), I(4), I(5), S(1), S(0));
#undef S
#undef I
    return 0;
}

static const cli_an_acc *acc_base;
static int cmp_acc(const void *x, const void *y)
{
    const cli_an_acc *p = &acc_base[*(const uint32_t *)x], *q = &acc_base[*(const uint32_t *)y];
    if (p->self_ms != q->self_ms)
        return p->self_ms < q->self_ms ? 1 : -1;
    return *(const uint32_t *)x < *(const uint32_t *)y ? -1 : 1;
}

/* The ten methods with the most self time in this run's slices, aggregated while they were
 * written (a GROUP BY over every slice would cost more than writing them). */
static void top_self(summ *s, cli_an *a)
{
    tt_vec ids;
    tt_vec_init(&ids, sizeof(uint32_t));
    /* the ids with calls (a->acc_ids: not a scan of the million entries) */
    for (size_t i = 0; i < a->acc_ids->len; i++)
        if (!tt_vec_push(&ids, &TT_VEC_AT(a->acc_ids, uint32_t, i)))
            break;
    acc_base = a->acc;
    if (ids.len)
        qsort(ids.data, ids.len, sizeof(uint32_t), cmp_acc);
    tt_jsonw_key(&s->json, "top_self_methods");
    tt_jsonw_arr_begin(&s->json);
    if (ids.len)
        tt_buf_puts(&s->text, "top methods by self time:\n");
    for (size_t i = 0; i < ids.len && i < 10; i++) {
        uint32_t id = TT_VEC_AT(&ids, uint32_t, i);
        const cli_an_acc *c = &a->acc[id];
        const char *name = cli_an_name(a, id);
        tt_jsonw_obj_begin(&s->json);
        tt_jsonw_key(&s->json, "name");
        tt_jsonw_str(&s->json, name ? name : "");
        tt_jsonw_key(&s->json, "calls");
        tt_jsonw_uint(&s->json, c->calls);
        tt_jsonw_key(&s->json, "self_ms");
        tt_jsonw_int(&s->json, c->self_ms);
        tt_jsonw_key(&s->json, "total_ms");
        tt_jsonw_int(&s->json, c->total_ms);
        tt_jsonw_obj_end(&s->json);
        tt_buf_printf(&s->text, "  %8lld ms self %8lld ms total %7llu calls  %s\n",
                      (long long)c->self_ms, (long long)c->total_ms,
                      (unsigned long long)c->calls, name ? name : "");
    }
    tt_jsonw_arr_end(&s->json);
    tt_vec_free(&ids);
}

static int summarize(summ *s, cli_an *a, int64_t first, const char *dbpath, tt_vec *inputs,
                     tt_error *err)
{
    tt_jsonw_init(&s->json, 0);
    tt_jsonw_obj_begin(&s->json);
    tt_jsonw_key(&s->json, "database");
    tt_jsonw_str(&s->json, dbpath);
    tt_jsonw_key(&s->json, "inputs");
    tt_jsonw_arr_begin(&s->json);
    tt_buf_puts(&s->text, "inputs:\n");
    size_t nskip = 0, nfail = 0;
    for (size_t i = 0; i < inputs->len; i++) {
        ainput *ai = &TT_VEC_AT(inputs, ainput, i);
        tt_jsonw_obj_begin(&s->json);
        tt_jsonw_key(&s->json, "path");
        tt_jsonw_str(&s->json, ai->path);
        tt_jsonw_key(&s->json, "kind");
        tt_jsonw_str(&s->json, tt_kind_name(ai->kind));
        tt_jsonw_key(&s->json, "status");
        tt_jsonw_str(&s->json, status_names[ai->status]);
        tt_jsonw_key(&s->json, "trace_id");
        if (ai->trace_id)
            tt_jsonw_int(&s->json, ai->trace_id);
        else
            tt_jsonw_null(&s->json);
        tt_jsonw_key(&s->json, "sha256");
        tt_jsonw_str(&s->json, ai->sha);
        tt_jsonw_key(&s->json, "bytes");
        tt_jsonw_uint(&s->json, ai->bytes);
        tt_jsonw_obj_end(&s->json);
        tt_buf_printf(&s->text, "  %-40s %-15s %s", ai->path, tt_kind_name(ai->kind),
                      status_names[ai->status]);
        if (ai->trace_id)
            tt_buf_printf(&s->text, " (trace %lld)", (long long)ai->trace_id);
        tt_buf_puts(&s->text, "\n");
        nskip += ai->status == IN_SKIPPED;
        nfail += ai->status == IN_FAILED;
    }
    tt_jsonw_arr_end(&s->json);
    tt_jsonw_key(&s->json, "skipped");
    tt_jsonw_uint(&s->json, nskip);
    tt_jsonw_key(&s->json, "failed");
    tt_jsonw_uint(&s->json, nfail);
    if (nskip || nfail)
        tt_buf_printf(&s->text, "  %zu skipped, %zu failed\n", nskip, nfail);
    static const struct {
        const char *key, *title;
        int (*fn)(tdb_db *, int64_t, int, tdb_row_fn, void *, tt_error *);
    } parts[] = {
        {"top_issues", "top evil methods by cost:\n", tdb_summary_top_issues},
        {"issues_by_stack_key", "issues by stack key:\n", tdb_summary_by_key},
        {"worst_scenes", "worst scenes (frozen and high drop-level frames):\n", tdb_summary_scenes},
        {"startups", "startups, slowest first:\n", tdb_summary_startups},
    };
    tt_jsonw_key(&s->json, "counts");
    tt_jsonw_obj_begin(&s->json);
    s->section = "counts";
    s->rows = 0;
    tt_buf_puts(&s->text, "rows: ");
    int rc = tdb_summary_counts(a->db, first, summ_row, s, err);
    tt_buf_puts(&s->text, "\n");
    tt_jsonw_obj_end(&s->json);
    for (size_t i = 0; i < sizeof parts / sizeof parts[0] && !rc; i++) {
        s->section = parts[i].key;
        s->rows = 0;
        size_t mark = s->text.len;
        tt_buf_puts(&s->text, parts[i].title);
        tt_jsonw_key(&s->json, parts[i].key);
        tt_jsonw_arr_begin(&s->json);
        rc = parts[i].fn(a->db, first, 10, summ_row, s, err);
        tt_jsonw_arr_end(&s->json);
        if (!s->rows) {
            s->text.len = mark;
            s->text.data[mark] = 0;
        }
    }
    if (!rc)
        top_self(s, a);
    tt_jsonw_key(&s->json, "unknown_method_ids");
    tt_jsonw_uint(&s->json, a->unknown_ids);
    tt_jsonw_obj_end(&s->json);
    tt_buf_puts(&s->json.buf, "\n");
    tt_buf_printf(&s->text, "database: %s\n", dbpath);
    return rc;
}

static int parse_opts(int argc, char **argv, aopts *o, cli_an *a)
{
    int c;
    while ((c = getopt_long(argc, argv, "o:m:e:j:h", longopts, NULL)) != -1) {
        int sr = cli_sym_opt(&a->sym, c, optarg);
        if (sr < 0)
            return CLI_BAD;
        if (sr > 0)
            continue;
        switch (c) {
        case 'o': o->out = optarg; break;
        case 'm': o->maps[o->nmaps++] = optarg; break;
        case O_PROGUARD:
            o->proguard = optarg;
            o->proguard_given = 1;
            break;
        case O_APPEND: o->append = 1; break;
        case O_REPLACE: o->replace = 1; break;
        case O_SKIP: o->skip_unknown = 1; break;
        case O_KEEP: o->keep_going = 1; break;
        case 'j':
            if (cli_opt_int("--jobs", optarg, 1, MAX_JOBS, &o->jobs))
                return CLI_BAD;
            break;
        case O_ALL_IMAGES: a->all_images = 1; break;
        case O_KIND:
            if ((o->kind = tt_kind_parse(optarg)) < 0 || o->kind == TT_KIND_DATABASE) {
                cli_errorf("option --kind: expected one of beat, report, frames, startup, launches, "
                           "samples, mapping, ignore_mapping, proguard, got \"%s\"", optarg);
                return CLI_BAD;
            }
            break;
        case O_FORMAT:
            if ((o->format = cli_opt_enum("--format", optarg, formats)) < 0)
                return CLI_BAD;
            break;
        case O_BASE:
            if (cli_opt_ms("--base-ms", optarg, &a->base_ms))
                return CLI_BAD;
            a->have_base = 1;
            break;
        case O_END:
            if (cli_opt_ms("--end-ms", optarg, &a->end_ms))
                return CLI_BAD;
            a->have_end = 1;
            break;
        case O_EVIL:
            if (cli_opt_i64("--evil-ms", optarg, &a->evil_ms))
                return CLI_BAD;
            break;
        case O_TRIM:
            if (cli_opt_int("--trim", optarg, 0, 1000000000, &a->trim))
                return CLI_BAD;
            break;
        case O_BUFFMT:
            if ((a->beat_fmt = cli_opt_enum("--buffer-format", optarg, buffmts)) < 0)
                return CLI_BAD;
            break;
        case 'h': cli_usage(usage, 0); return HELP_SHOWN;
        default: return cli_usage(usage, 1);
        }
    }
    o->sym_given = a->sym.n_exes || a->sym.n_dirs;
    a->beat_forced = o->kind == TT_KIND_BEAT;
    return 0;
}

static void an_free(cli_an *a)
{
    tdb_close(a->db);
    tt_mapping_free(a->map);
    tt_proguard_free(a->pg);
    free(a->method_rows);
    free(a->acc);
    free(a->names);
    tt_arena_free(a->arena);
    tt_buf_free(&a->tmp);
}

/* --format jsonl: one JSON object per row written, its table under "table". */
static int dump_row(void *ctx, const char *table, int ncol, const char *const *names,
                    const tdb_value *v)
{
    tt_jsonw *w = ctx;
    tt_jsonw_obj_begin(w);
    tt_jsonw_key(w, "table");
    tt_jsonw_str(w, table);
    for (int i = 0; i < ncol; i++) {
        tt_jsonw_key(w, names[i]);
        switch (v[i].type) {
        case TDB_INT: tt_jsonw_int(w, v[i].i); break;
        case TDB_REAL: tt_jsonw_double(w, v[i].r); break;
        case TDB_TEXT: tt_jsonw_strn(w, v[i].s, v[i].n); break;
        default: tt_jsonw_null(w);
        }
    }
    tt_jsonw_obj_end(w);
    tt_buf_puts(&w->buf, "\n");
    if (w->buf.len >= 1 << 16) {
        cli_out_write(w->buf.data, w->buf.len);
        w->buf.len = 0;
    }
    return 0;
}

/* The rows of traces >= first and the shared rows of the committed database at path. */
static int dump_jsonl(const char *path, int64_t first)
{
    tdb_db *db;
    int newer;
    tt_error err = {0};
    int rc = tdb_open_read(&db, path, 0, &newer, &err);
    if (rc)
        return cli_err(&err);
    tt_jsonw w;
    tt_jsonw_init(&w, 0);
    rc = tdb_dump_rows(db, first, dump_row, &w, &err);
    if (!rc && w.buf.len)
        cli_out_write(w.buf.data, w.buf.len);
    tt_jsonw_free(&w);
    tdb_close(db);
    return rc ? cli_err(&err) : 0;
}

/* Everything after option parsing: the inputs args[0..nargs) into o.out; the summary is
 * printed when print is set. Signal handlers are the caller's. */
static int analyze_run(aopts o, cli_an a, char *const *args, int nargs, cli_ctx *ctx, int print)
{
    int rc = 0;
    a.map = tt_mapping_new();
    a.arena = tt_arena_new();
    a.names = calloc((size_t)TT_BEAT_ID_MAX + 1, sizeof *a.names);
    a.method_rows = calloc((size_t)TT_BEAT_ID_MAX + 1, sizeof *a.method_rows);
    a.acc = calloc((size_t)TT_BEAT_ID_MAX + 1, sizeof *a.acc);
    tt_vec acc_ids;
    tt_vec_init(&acc_ids, sizeof(uint32_t));
    a.acc_ids = &acc_ids;
    tt_vec inputs;
    tt_vec_init(&inputs, sizeof(ainput));
    tt_error err = {0};
    summ s = {0};
    char *target = NULL, tmpname[4096] = "";
    cli_out_lock *lock = NULL;
    cli_an_pool *pool = NULL;
    cli_an_job **jobs = NULL; /* --jobs: the job of each input, while in flight */
    if (!a.map || !a.arena || !a.names || !a.method_rows || !a.acc) {
        cli_errorf("out of memory");
        rc = CLI_BAD;
        goto done;
    }
    /* -m mappings first, then the arguments (directories expanded) */
    for (size_t i = 0; i < o.nmaps && !rc; i++)
        rc = cli_input_path(o.maps[i]) ? CLI_BAD : add_input(&inputs, o.maps[i], 0);
    int nstdin = 0;
    for (int i = 0; i < nargs && !rc; i++) {
        struct stat sb;
        nstdin += !strcmp(args[i], "-");
        if (strcmp(args[i], "-") && !stat(args[i], &sb) && S_ISDIR(sb.st_mode))
            rc = expand_dir(&inputs, args[i], 0);
        else
            rc = add_input(&inputs, args[i], 0);
    }
    if (!rc && nstdin > 1) {
        cli_errorf("analyze: standard input ('-') given more than once");
        rc = CLI_BAD;
    }
    int njobs = o.jobs ? o.jobs : online_cores();
    if (!rc && njobs > 1 && inputs.len > 1)
        cli_an_parallel(inputs.len, njobs, pre_detect, &inputs);
    /* pass 1: detect and hash every input; load mappings */
    tt_buf map_cat = {0};
    int have_map = 0;
    for (size_t i = 0; i < inputs.len && !rc; i++) {
        ainput *ai = &TT_VEC_AT(&inputs, ainput, i);
        int saved = o.kind; /* -m files are mappings whatever --kind says */
        if (i < o.nmaps)
            o.kind = -1;
        rc = detect_input(ai, &o, &a, ctx);
        o.kind = saved;
        if (rc)
            break;
        if (ai->status == IN_FAILED || ai->status == IN_SKIPPED || ai->status == IN_SYMBOLS)
            continue;
        if (i < o.nmaps && ai->status != IN_MAPPING) {
            cli_errorf("%s: expected a methodMapping.txt or ignoreMethodMapping.txt (-m), found "
                       "%s", ai->path, tt_kind_name(ai->kind));
            rc = CLI_BAD;
        } else if (ai->status == IN_MAPPING) {
            have_map = 1;
            tt_buf_puts(&map_cat, ai->sha);
        } else if (ai->kind == TT_KIND_BTRACE_MAPPING) {
            ai->status = IN_MAPPING; /* read with its sampling file (samples.md 2.1) */
        } else if (ai->kind == TT_KIND_PROGUARD) {
            if (o.proguard) {
                cli_errorf("%s: a second ProGuard mapping (already have %s)", ai->path,
                           o.proguard);
                rc = CLI_BAD;
            }
            o.proguard = ai->path;
            ai->status = IN_MAPPING;
            if (ai->from_dir)
                fprintf(stderr, "tracetool: %s: note: used as the ProGuard mapping\n",
                        ai->path);
        }
    }
    size_t npending = 0, nskipped = 0;
    for (size_t i = 0; i < inputs.len && !rc; i++) {
        ainput *ai = &TT_VEC_AT(&inputs, ainput, i);
        if (ai->status == IN_PENDING && ai->from_dir && ai->kind == TT_KIND_BEAT && o.kind <= 0 &&
            a.beat_fmt == TT_BEAT_FMT_AUTO && have_map)
            check_dir_beat(ai, a.map);
        npending += ai->status == IN_PENDING || ai->status == IN_FAILED;
        nskipped += ai->status == IN_SKIPPED;
    }
    if (!rc && !npending) {
        /* nothing to import: the database stays as it is (no empty replacement) */
        struct stat sb;
        int one_dir = nargs == 1 && !stat(args[0], &sb) && S_ISDIR(sb.st_mode);
        char sk[64] = "";
        if (nskipped)
            snprintf(sk, sizeof sk, " (%zu file%s skipped)", nskipped, nskipped == 1 ? "" : "s");
        if (one_dir)
            cli_errorf("%s: no trace found in the directory%s", args[0], sk);
        else
            cli_errorf("analyze: no trace among the inputs%s", sk);
        rc = CLI_BAD;
    }
    char map_sha[65] = "", pg_sha[65] = "";
    if (!rc && have_map)
        tt_sha256_buf(map_sha, map_cat.data, map_cat.len);
    tt_buf_free(&map_cat);
    if (!rc && o.proguard) {
        rc = cli_load_proguard(&a.pg, o.proguard, pg_sha);
        if (!rc)
            rc = cli_retrace_mapping(a.map, a.pg, o.proguard, ctx->stats);
    }
    if (rc)
        goto done;
    /* pass 2: the database. Writers of one database take turns (the lock beside it), so
     * --append reads what the previous writer committed and no rename drops a run. A
     * symbolic link is followed: its target is replaced, as export's -o does. */
    if (!(target = cli_out_resolve(o.out))) {
        cli_errorf("out of memory");
        rc = CLI_BAD;
        goto done;
    }
    struct stat tsb;
    if (stat(target, &tsb) == 0 && !S_ISREG(tsb.st_mode)) {
        /* never rename a database over /dev/null or a directory */
        cli_errorf("%s: not a regular file: the database is written to a file", o.out);
        rc = CLI_BAD;
        goto done;
    }
    if (!(lock = cli_out_lock_take(target))) {
        rc = CLI_BAD;
        goto done;
    }
    /* no signal between creating the temporary file and registering it for removal */
    cli_out_block_signals(1);
    rc = tdb_open_write(&a.db, target, o.append, &err);
    if (!rc && tdb_tmp_path(a.db)) {
        snprintf(tmpname, sizeof tmpname, "%s", tdb_tmp_path(a.db));
        cli_out_guard(tmpname);
    }
    cli_out_block_signals(0);
    if (rc) {
        rc = cli_err(&err);
        goto done;
    }
    const char *mapping_path = o.nmaps ? o.maps[0] : NULL;
    for (size_t i = o.nmaps; i < inputs.len && !mapping_path; i++)
        if (TT_VEC_AT(&inputs, ainput, i).status == IN_MAPPING &&
            TT_VEC_AT(&inputs, ainput, i).kind == TT_KIND_MAPPING)
            mapping_path = TT_VEC_AT(&inputs, ainput, i).path;
    if ((size_t)njobs > npending)
        njobs = (int)npending;
    /* --jobs into a new database: the workers start on the first inputs while the mapping is
     * written, with its rows predicted */
    int predicted = have_map && njobs > 1 && tdb_tmp_path(a.db);
    if (predicted)
        predict_mapping(&a);
    else if (have_map && (rc = store_mapping(&a, map_sha, mapping_path ? mapping_path : "",
                                             o.proguard ? pg_sha : NULL, 0, &err)))
        goto fail;
    int64_t first = 0;
    size_t nfailed = 0, next = 0;
    if (njobs > 1) {
        tsym_init(); /* libdwarf's process-wide switch: set before threads read DWARF */
        if (!(jobs = calloc(inputs.len, sizeof *jobs))) {
            cli_errorf("out of memory");
            rc = CLI_BAD;
            goto done;
        }
        if ((rc = cli_an_pool_start(&pool, &a, njobs, import_parse)))
            goto done;
    }
    if (predicted) {
        next = dispatch(&a, &inputs, next, pool, jobs, &o, map_sha, o.proguard ? pg_sha : NULL);
        if ((rc = store_mapping(&a, map_sha, mapping_path ? mapping_path : "",
                                o.proguard ? pg_sha : NULL, 1, &err)))
            goto fail;
    }
    for (size_t i = 0; i < inputs.len && !rc; i++) {
        ainput *ai = &TT_VEC_AT(&inputs, ainput, i);
        if (ai->status != IN_PENDING && ai->status != IN_FAILED)
            continue;
        if (pool)
            next = dispatch(&a, &inputs, next, pool, jobs, &o, have_map ? map_sha : NULL,
                            o.proguard ? pg_sha : NULL);
        if (ai->status == IN_PENDING)
            rc = import_kept(&a, ai, (int)i, have_map ? map_sha : NULL,
                             o.proguard ? pg_sha : NULL, &inputs, &o, pool,
                             jobs ? jobs[i] : NULL, &err);
        if (jobs) {
            cli_an_pool_release(pool, jobs[i]);
            jobs[i] = NULL;
        }
        if (!rc && ai->status == IN_FAILED) {
            nfailed++;
            rc = record_failure(&a, ai, &err);
        }
        if (!rc && ai->status == IN_IMPORTED && !first)
            first = ai->trace_id;
    }
    cli_an_pool_stop(pool); /* an error stopped the loop: inputs parsed ahead are dropped */
    pool = NULL;
    if (!rc)
        rc = summarize(&s, &a, first ? first : INT64_MAX, o.out, &inputs, &err);
    if (!rc)
        rc = tdb_commit(a.db, &err);
fail:
    if (rc) {
        rc = cli_err(&err);
        goto done;
    }
    cli_out_unguard(tmpname);
    cli_stats_report(ctx->stats);
    if (nfailed) {
        cli_warnf("%zu input%s failed and %s recorded in the stats table (--keep-going)",
                  nfailed, nfailed == 1 ? "" : "s", nfailed == 1 ? "is" : "are");
        rc = CLI_CHECK_FAILED;
    }
    if (a.unknown_ids)
        cli_warnf("%llu stack lines or calls have method ids missing from the mapping: the "
                  "mapping probably belongs to another build",
                  (unsigned long long)a.unknown_ids);
    if (print && o.format == 2) {
        int drc = dump_jsonl(target, first ? first : INT64_MAX);
        if (drc)
            rc = drc;
    } else if (print && o.format == 1)
        cli_out_buf(&s.json.buf);
    else if (print)
        cli_out_buf(&s.text);
done:
    cli_an_pool_stop(pool);
    free(jobs);
    tt_buf_free(&s.text);
    if (s.json.buf.data)
        tt_jsonw_free(&s.json);
    an_free(&a); /* closes the database (and removes an uncommitted temporary file) */
    tt_vec_free(&acc_ids);
    cli_out_unguard(tmpname);
    cli_out_lock_release(lock);
    free(target);
    for (size_t i = 0; i < inputs.len; i++) {
        free(TT_VEC_AT(&inputs, ainput, i).path);
        free(TT_VEC_AT(&inputs, ainput, i).error);
        free(TT_VEC_AT(&inputs, ainput, i).pre);
    }
    tt_vec_free(&inputs);
    return rc;
}

int cli_analyze_paths(const char *out, char *const *maps, size_t nmaps, const char *proguard,
                      char *const *inputs, int ninputs, cli_ctx *ctx)
{
    aopts o = {.out = out, .proguard = proguard, .proguard_given = proguard != NULL, .kind = -1,
               .maps = (char **)maps, .nmaps = nmaps};
    cli_an a = {.cli = ctx, .evil_ms = 700, .trim = 30};
    return analyze_run(o, a, inputs, ninputs, ctx, 0);
}

int cmd_analyze(int argc, char **argv, cli_ctx *ctx)
{
    char *maps[argc > 0 ? argc : 1];
    aopts o = {.out = "trace.db", .kind = -1, .maps = maps};
    cli_an a = {.cli = ctx, .evil_ms = 700, .trim = 30};
    int rc = parse_opts(argc, argv, &o, &a);
    if (rc)
        return rc == HELP_SHOWN ? CLI_OK : rc;
    if (optind >= argc) {
        cli_errorf("analyze: missing INPUT");
        return cli_usage(usage, 1);
    }
    return analyze_run(o, a, argv + optind, argc - optind, ctx, 1);
}
