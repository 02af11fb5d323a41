/* analyze pass 1: the inputs (arguments, directories expanded, stdin), each detected by content
 * and hashed, mappings loaded as they are read; directory entries that are not used skipped
 * with a notice (cli.md, storage.md 5.1). */
#include "cli_an_int.h"

#include <dirent.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli_load.h"

/* Zero bytes only: possibly a ring dump that recorded nothing (method-beat.md 2.1), but
 * also a preallocated or sparse file; read as a buffer only when told. */
#define ZEROS_HINT " (--kind beat reads it as a method-beat buffer)"
#define ZEROS_DIR_HINT " (given with --kind beat it is read as a method-beat buffer)"

/* ---- inputs: arguments, directories (regular files sorted by name), stdin ---- */
typedef struct dentry {
    char *path;
    unsigned char type; /* readdir's d_type: DT_UNKNOWN asks lstat */
} dentry;

static int cmp_dentry(const void *a, const void *b)
{
    return strcmp(((const dentry *)a)->path, ((const dentry *)b)->path);
}

int cli_an__add_input(tt_vec *v, const char *path, int from_dir)
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
int cli_an__expand_dir(tt_vec *v, const char *dir, int depth)
{
    DIR *d = opendir(dir);
    if (!d) {
        cli_errorf("%s: cannot read directory: %s", dir, strerror(errno));
        return CLI_BAD;
    }
    tt_vec names;
    tt_vec_init(&names, sizeof(dentry));
    struct dirent *e;
    int rc = 0;
    size_t dl = strlen(dir);
    while ((e = readdir(d)) && !rc) {
        if (e->d_name[0] == '.')
            continue;
        size_t n = dl + strlen(e->d_name) + 2;
        dentry de = {malloc(n), e->d_type};
        char *p = de.path;
        if (!p || !tt_vec_push(&names, &de)) {
            free(p);
            cli_errorf("out of memory");
            rc = CLI_BAD;
            break;
        }
        snprintf(p, n, "%s%s%s", dir, dl && dir[dl - 1] == '/' ? "" : "/", e->d_name);
    }
    closedir(d);
    if (names.len)
        qsort(names.data, names.len, sizeof(dentry), cmp_dentry);
    for (size_t i = 0; i < names.len; i++) {
        dentry *de = &TT_VEC_AT(&names, dentry, i);
        char *p = de->path;
        struct stat sb;
        /* a regular file or a directory as readdir says: no lstat (a run over many files
         * spends its start here) */
        sb.st_mode = de->type == DT_REG ? S_IFREG : de->type == DT_DIR ? S_IFDIR : 0;
        if (!rc && (sb.st_mode || !lstat(p, &sb))) {
            if (S_ISDIR(sb.st_mode) && depth < 64)
                rc = cli_an__expand_dir(v, p, depth + 1);
            else if (S_ISREG(sb.st_mode) || (!S_ISDIR(sb.st_mode) && !stat(p, &sb) &&
                                             S_ISREG(sb.st_mode)))
                rc = cli_an__add_input(v, p, 1);
        }
        free(p);
    }
    tt_vec_free(&names);
    return rc;
}

/* Opens an input; one that cannot be read twice (stdin, a FIFO) is read once into memory:
 * pass 1 detects and hashes it, pass 2 analyses it. */
int cli_an__open_input(tt_input **in, const char *path, tt_error *err)
{
    int rc = cli_input_open(in, path, 1, err);
    if (!rc)
        cli_progress_attach(*in);
    return rc;
}

/* An input that could not be read or imported: fatal (exit 2) unless --keep-going, which
 * keeps the message for the stats table and goes on. */
int cli_an__input_failed(ainput *ai, const aopts *o, const tt_error *err)
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
    case TT_KIND_DATABASE: return "an SQLite database (analyze reads raw inputs; tracetool merge combines databases)";
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
        cli_stderrf("tracetool: %s: note: used for native symbols (ELF with debug "
                        "information)\n", ai->path);
        return;
    }
    ai->status = IN_SKIPPED;
    if (ai->bytes == 0)
        why = "empty file";
    cli_stderrf("tracetool: %s: skipped: %s%s%s%s\n", ai->path, why,
            d->what[0] && ai->bytes ? ": " : "", ai->bytes ? d->what : "",
            ai->bytes && d->zeros ? ZEROS_DIR_HINT : "");
}

/* The method mapping of ai (map_ahead) loaded from in while it is hashed; a failure leaves it
 * to pass 1, which reads it again and reports it. */
static void load_ahead(ainput *ai, tt_input *in)
{
    tt_error err = {0};
    const unsigned char *p;
    size_t n;
    tt_mapping *m = tt_mapping_new();
    tt_stats *st = tt_stats_new();
    if (m && st && !tt_input_peek(in, &p, &n, 4096, &err) &&
        !tt_mapping_looks_ignore((const char *)p, n) && !tt_mapping_load(m, in, st, &err)) {
        ai->pre_map = m;
        ai->pre_stats = st;
        return;
    }
    tt_mapping_free(m);
    tt_stats_free(st);
}

/* --jobs: pass 1's reading (detection, content hash) of the regular files, on several threads
 * ahead of pass 1; an input that fails or has to be read again (a mapping, but the first -m
 * one: loaded here) is read by pass 1. */
void cli_an__pre_detect(void *ctx, size_t i)
{
    ainput *ai = &TT_VEC_AT((tt_vec *)ctx, ainput, i);
    tt_error err = {0};
    tt_input *in;
    tt_detection d;
    if (cli_input_is_stream(ai->path) || tt_input_open(&in, ai->path, &err))
        return;
    if (ai->map_ahead) /* the one input of this pass that shows progress, as pass 1 would */
        cli_progress_attach(in);
    int rc = tt_input_hash_begin(in, &err);
    if (!rc)
        rc = tt_input_detect(&d, in, &err);
    if (!rc && ai->map_ahead && d.kind == TT_KIND_MAPPING)
        load_ahead(ai, in);
    if (!rc)
        rc = tt_input_detect_deep(&d, in, &err);
    if (!rc)
        rc = tt_input_hash_end(in, ai->sha, &ai->bytes, &err);
    tt_input_close(in);
    if (!rc && (ai->pre = malloc(sizeof *ai->pre)))
        *ai->pre = d;
    else
        cli_an__free_ahead(ai); /* pass 1 reads it again */
}

void cli_an__free_ahead(ainput *ai)
{
    tt_mapping_free(ai->pre_map);
    tt_stats_free(ai->pre_stats);
    ai->pre_map = NULL;
    ai->pre_stats = NULL;
}

/* The mapping loaded ahead becomes a's (still empty: it is the first input), its warnings the
 * run's, as if pass 1 had loaded it. */
static void adopt_ahead(ainput *ai, cli_an *a, cli_ctx *ctx)
{
    tt_mapping_free(a->map);
    a->map = ai->pre_map;
    ai->pre_map = NULL;
    for (size_t i = 0; i < tt_stats_count(ai->pre_stats); i++) {
        const tt_stat *x = tt_stats_get(ai->pre_stats, i);
        tt_stats_add_stat(ctx->stats, x);
    }
    cli_an__free_ahead(ai);
}

/* Why pass 1 refuses an input of kind (TT_KIND_UNKNOWN or TT_KIND_DATABASE), in buf or
 * static text. */
static const char *refusal(char *buf, size_t size, tt_kind kind, const tt_detection *d,
                           uint64_t bytes)
{
    if (kind == TT_KIND_DATABASE)
        return "is an SQLite database; analyze reads raw inputs (combine tracetool databases "
               "with tracetool merge -o OUT DB...; read one with tracetool query)";
    if (d->what[0]) {
        snprintf(buf, size, "not a trace: %s%s", d->what, d->zeros ? ZEROS_HINT : "");
        return buf;
    }
    /* the kinds of --kind (tracetool-analyze(1)), in words */
#define AN_KINDS                                                                              \
    "a method-beat buffer, Matrix or KSCrash reports, frame, startup, launch or sample data, " \
    "an ART method trace, a methodMapping.txt or a ProGuard mapping"
    return bytes == 0 ? "empty input: no trace found; expected " AN_KINDS
                      : "unknown input kind: expected " AN_KINDS " (--kind overrides detection)";
#undef AN_KINDS
}

int cli_an_check_stream(tt_input *head, const char *path, void *ud, tt_error *err)
{
    tt_detection d;
    int rc = tt_input_detect(&d, head, err);
    if (rc)
        return rc;
    if (ud)
        *(tt_kind *)ud = d.kind;
    if ((d.kind != TT_KIND_UNKNOWN && d.kind != TT_KIND_DATABASE) || d.logcat)
        return 0; /* a logcat: its evidence may lie further on (tt_input_detect_deep) */
    char buf[sizeof d.what + sizeof ZEROS_HINT + 16];
    return tt_error_set(err, TT_EFORMAT, path, 0, 0, "%s",
                        refusal(buf, sizeof buf, d.kind, &d, 1));
}

/* Opens an input in pass 1: a stream is refused from its head, as below, before it is
 * spooled (no --kind); 1 after handling a refused one (printed, or skipped with
 * --skip-unknown). */
static int open_first(tt_input **in, ainput *ai, const aopts *o, int *rc)
{
    tt_error err = {0};
    *rc = cli_input_open_checked(in, ai->path, o->kind > 0 ? NULL : cli_an_check_stream,
                                 &ai->kind, &err);
    if (!*rc) {
        cli_progress_attach(*in);
        return 0;
    }
    if (!cli_input_refused(ai->path))
        *rc = cli_an__input_failed(ai, o, &err);
    else if (!o->skip_unknown)
        *rc = cli_err(&err);
    else { /* like a file of that kind, but its bytes were not all read: none counted */
        cli_warnf("%s: %s; skipped", ai->path, err.msg);
        ai->status = IN_SKIPPED;
        *rc = 0;
    }
    return 1;
}

/* Pass 1: detect and hash one input; load mapping inputs into the mapping. */
int cli_an__detect_input(ainput *ai, aopts *o, cli_an *a, cli_ctx *ctx)
{
    tt_error err = {0};
    tt_input *in = NULL;
    tt_detection d;
    int rc = 0;
    if (ai->pre) {
        tt_kind k = o->kind > 0 ? (tt_kind)o->kind : ai->pre->kind;
        d = *ai->pre;
        int ahead = ai->pre_map && k == TT_KIND_MAPPING && !tt_mapping_count(a->map);
        if ((k == TT_KIND_MAPPING || k == TT_KIND_IGNORE) && !ahead) {
            free(ai->pre); /* loaded while read: read again */
            ai->pre = NULL;
            cli_an__free_ahead(ai);
        }
    }
    if (!ai->pre) {
        if (open_first(&in, ai, o, &rc))
            return rc;
        rc = tt_input_hash_begin(in, &err);
        if (!rc)
            rc = tt_input_detect(&d, in, &err);
        if (!rc && o->kind <= 0)
            rc = tt_input_detect_deep(&d, in, &err);
        if (rc) {
            tt_input_close(in);
            return cli_an__input_failed(ai, o, &err);
        }
    }
    ai->kind = o->kind > 0 ? (tt_kind)o->kind : d.kind;
    ai->btrace = d.btrace;
    const char *skip = ai->from_dir ? dir_skip(ai, o) : NULL;
    if (!skip && (ai->kind == TT_KIND_MAPPING || ai->kind == TT_KIND_IGNORE)) {
        ai->status = IN_MAPPING;
        if (ai->pre_map)
            adopt_ahead(ai, a, ctx);
        else
            rc = cli_load_mapping_input(a->map, in, ctx->stats);
        if (rc) {
            tt_input_close(in);
            return rc;
        }
        if (ai->from_dir)
            cli_stderrf("tracetool: %s: note: used as the %s mapping\n", ai->path,
                    ai->kind == TT_KIND_IGNORE ? "ignore-method" : "method");
    }
    if (in) { /* else hashed ahead */
        rc = tt_input_hash_end(in, ai->sha, &ai->bytes, &err);
        tt_input_close(in);
    }
    if (rc)
        return cli_an__input_failed(ai, o, &err);
    if (skip) {
        skip_dir_entry(ai, skip, &d, a, o);
        return 0;
    }
    if (ai->kind == TT_KIND_UNKNOWN || ai->kind == TT_KIND_DATABASE) {
        char buf[sizeof d.what + sizeof ZEROS_HINT + 16];
        const char *why = refusal(buf, sizeof buf, ai->kind, &d, ai->bytes);
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
void cli_an__check_dir_beat(ainput *ai, const tt_mapping *map)
{
    tt_error err = {0};
    tt_input *in;
    if (cli_an__open_input(&in, ai->path, &err))
        return; /* the import reports it */
    const unsigned char *p;
    size_t n;
    char why[200];
    if (!tt_input_peek(in, &p, &n, TT_DETECT_PEEK, &err) && memchr(p, 0, n < 4096 ? n : 4096) &&
        !tt_beat_plausible_bytes(p, n, map, why, sizeof why)) {
        ai->status = IN_SKIPPED;
        cli_stderrf("tracetool: %s: skipped: not a trace: %s\n", ai->path, why);
    }
    tt_input_close(in);
}

/* The sampling-mapping beside the btrace sampling file of ai, which the import reads (no
 * mapping among the inputs): hashed into ai->map_*, as part of its trace's content. Only a
 * regular file: the import reads a FIFO once, itself. TT_ENOMEM, or 0 (also when there is
 * none or it cannot be read: the import says so). */
static int sibling_input(ainput *ai)
{
    char sib[4096];
    tt_input *in;
    tt_error err = {0};
    struct stat sb;
    if (cli_input_is_stream(ai->path) || tt_btrace_mapping_name(sib, sizeof sib, ai->path) ||
        stat(sib, &sb) || !S_ISREG(sb.st_mode) || access(sib, R_OK) ||
        tt_input_open(&in, sib, &err))
        return 0;
    int rc = tt_input_hash_begin(in, &err);
    if (!rc)
        rc = tt_input_hash_end(in, ai->map_sha, &ai->map_bytes, &err);
    tt_input_close(in);
    if (!rc && !(ai->map_path = strdup(sib)))
        return TT_ENOMEM;
    return 0;
}

int cli_an__pair_btrace(tt_vec *inputs)
{
    size_t n = inputs->len;
    int *role = calloc(n ? n : 1, sizeof *role);
    long *pair = calloc(n ? n : 1, sizeof *pair);
    const char **paths = calloc(n ? n : 1, sizeof *paths);
    int rc = !role || !pair || !paths;
    for (size_t i = 0; i < n && !rc; i++) {
        ainput *ai = &TT_VEC_AT(inputs, ainput, i);
        paths[i] = ai->path;
        if (ai->kind == TT_KIND_BTRACE_MAPPING && ai->status == IN_MAPPING)
            role[i] = TT_BTRACE_MAPPING;
        else if (ai->kind == TT_KIND_SAMPLES && ai->btrace && ai->status == IN_PENDING)
            role[i] = TT_BTRACE_SAMPLING;
    }
    if (!rc)
        rc = tt_btrace_pair(pair, role, paths, n) != 0;
    for (size_t i = 0; i < n && !rc; i++) {
        ainput *ai = &TT_VEC_AT(inputs, ainput, i);
        if (pair[i] >= 0) {
            const ainput *m = &TT_VEC_AT(inputs, ainput, (size_t)pair[i]);
            ai->btrace_map = m->path;
            if ((rc = !(ai->map_path = strdup(m->path))))
                break;
            memcpy(ai->map_sha, m->sha, sizeof ai->map_sha);
            ai->map_bytes = m->bytes;
        } else if (role[i] == TT_BTRACE_SAMPLING) {
            rc = sibling_input(ai) == TT_ENOMEM;
        }
    }
    for (size_t j = 0; j < n && !rc; j++) { /* a mapping that matches nothing is said */
        if (role[j] == TT_BTRACE_MAPPING && pair[j] == TT_BTRACE_UNUSED) {
            ainput *ai = &TT_VEC_AT(inputs, ainput, j);
            ai->status = IN_SKIPPED;
            cli_warnf("%s: btrace sampling-mapping that matches no btrace sampling file among "
                      "the inputs; skipped", ai->path);
        }
    }
    free(role);
    free(pair);
    free(paths);
    if (rc)
        cli_errorf("out of memory");
    return rc ? CLI_BAD : 0;
}
