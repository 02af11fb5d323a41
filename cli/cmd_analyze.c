/* tracetool analyze: the main job (cli.md, storage.md). Detects each input by content, runs
 * every analysis that applies, writes one SQLite database atomically, prints a summary. Options
 * and the run are here; its parts: cli_an_input.c, cli_an_import.c, cli_an_summary.c. */
#include "cli_an_int.h"

#include <errno.h>
#include <malloc.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli_load.h"

#define HELP_SHOWN (-1) /* parse_opts: -h printed the usage */

static const char usage[] =
    "usage: tracetool analyze [-o DB] [-m MAPPING]... [--proguard FILE] [--append] [--replace]\n"
    "                         [--skip-unknown] [--allow-empty] [--keep-going] [--kind KIND]\n"
    "                         [--dry-run] [-j N] [--format text|json|jsonl]\n"
    "                         [--base-ms MS] [--end-ms MS] [--evil-ms MS] [--trim N]\n"
    "                         [--buffer-format auto|bin|text] [--ring-next K]\n"
    "                         [-e BINARY]... [--symbols DIR]... [--dsym [NAME=]PATH]...\n"
    "                         [--swift-demangler CMD] [--all-images] [--fail-on COND]...\n"
    "                         [--splash LIST] [--cold-ms MS] [--warm-ms MS] [--no-ui-process]\n"
    "                         [--event NAME] INPUT...\n"
    "\n"
    "  -o, --output DB         database to write (default trace.db)\n"
    "  -m, --mapping FILE      methodMapping.txt or ignoreMethodMapping.txt (repeatable)\n"
    "      --proguard FILE     retrace obfuscated mapping names with a ProGuard/R8 mapping.txt\n"
    "      --append            add to an existing database instead of replacing it\n"
    "      --replace           re-import inputs already in the database\n"
    "      --skip-unknown      skip inputs of unknown kind with a warning instead of failing\n"
    "      --allow-empty       no trace among the inputs: a notice and exit 0, no database\n"
    "      --keep-going        an input that fails to import is recorded and skipped (exit 1)\n"
    "      --fail-on COND      exit 1 when the inputs imported hold COND: issue, an issue\n"
    "                          kind or data-loss, then @MS (cost) and :N (count) (repeatable)\n"
    "      --kind KIND         override detection: beat, report, kscrash, frames, startup,\n"
    "                          launches, samples, art, mapping, ignore_mapping, proguard,\n"
    "                          btrace_mapping\n"
    "      --dry-run           detect every input and print its kind and status (the\n"
    "                          summary's inputs); nothing is analysed or written\n"
    "      --format FMT        summary as text (default) or json; jsonl: every row written\n"
    "  -j, --jobs N            parse N inputs at a time (default: the online cores); the\n"
    "                          database and output are those of --jobs 1\n"
    "      --base-ms MS        method-beat time base (uptime ms of the buffer's zero)\n"
    "      --end-ms MS         absolute end time for method-beat frames still open\n"
    "      --evil-ms MS        dispatches at least this long become evil-method issues (700)\n"
    "      --trim N            Matrix trim target for evil-method stacks (default 30; 0 = off)\n"
    "      --buffer-format F   method-beat buffers: auto (default), bin, text\n"
    "      --ring-next K       the method-beat buffer is a raw ring dump whose next write\n"
    "                          slot is K: read slots K..end, then 0..K-1\n"
    "  -e, --exe BINARY        ELF file naming native frames of sampled stacks (repeatable)\n"
    "      --symbols DIR       symbol store searched by build id and name (repeatable)\n"
    "      --dsym [NAME=]PATH  iOS reports, btrace iOS: dSYM bundle, DWARF file or directory,\n"
    "                          searched first (repeatable; NAME= binds it to the image NAME)\n"
    "      --swift-demangler CMD  demangle Swift names with CMD, one name a line on its\n"
    "                          standard input (also TRACETOOL_SWIFT_DEMANGLE)\n"
    "      --all-images        iOS reports: a binary_image row for every image, not only\n"
    "                          those frames refer to\n"
    "      --splash LIST       startup events: Matrix splash activities, ';'-separated\n"
    "      --cold-ms MS        startup events: Matrix cold threshold (default 10000)\n"
    "      --warm-ms MS        startup events: Matrix warm threshold (default 4000)\n"
    "      --no-ui-process     startup events: the process has no activities\n"
    "      --event NAME        perf/simpleperf samples: the event to keep (default: the first\n"
    "                          one seen)\n"
    "  -h, --help              show this help\n";

enum { O_PROGUARD = 256, O_APPEND, O_REPLACE, O_SKIP, O_EMPTY, O_KIND, O_FORMAT, O_BASE, O_END,
       O_EVIL, O_TRIM, O_BUFFMT, O_KEEP, O_ALL_IMAGES, O_FAIL_ON, O_RING, O_SPLASH, O_COLD,
       O_WARM, O_NOUI, O_EVENT, O_DRY };
#define MAX_JOBS 256
static const struct option longopts[] = {
    {"output", required_argument, NULL, 'o'},
    {"mapping", required_argument, NULL, 'm'},
    {"proguard", required_argument, NULL, O_PROGUARD},
    {"append", no_argument, NULL, O_APPEND},
    {"replace", no_argument, NULL, O_REPLACE},
    {"skip-unknown", no_argument, NULL, O_SKIP},
    {"allow-empty", no_argument, NULL, O_EMPTY},
    {"keep-going", no_argument, NULL, O_KEEP},
    {"fail-on", required_argument, NULL, O_FAIL_ON},
    {"jobs", required_argument, NULL, 'j'},
    {"kind", required_argument, NULL, O_KIND},
    {"dry-run", no_argument, NULL, O_DRY},
    {"format", required_argument, NULL, O_FORMAT},
    {"base-ms", required_argument, NULL, O_BASE},
    {"end-ms", required_argument, NULL, O_END},
    {"evil-ms", required_argument, NULL, O_EVIL},
    {"trim", required_argument, NULL, O_TRIM},
    {"buffer-format", required_argument, NULL, O_BUFFMT},
    {"ring-next", required_argument, NULL, O_RING},
    {"exe", required_argument, NULL, 'e'},
    {"symbols", required_argument, NULL, CLI_SYM_O_SYMBOLS},
    {"dsym", required_argument, NULL, CLI_SYM_O_DSYM},
    {"swift-demangler", required_argument, NULL, CLI_SYM_O_SWIFT},
    {"all-images", no_argument, NULL, O_ALL_IMAGES},
    {"splash", required_argument, NULL, O_SPLASH},
    {"cold-ms", required_argument, NULL, O_COLD},
    {"warm-ms", required_argument, NULL, O_WARM},
    {"no-ui-process", no_argument, NULL, O_NOUI},
    {"event", required_argument, NULL, O_EVENT},
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0},
};
static const char *const formats[] = {"text", "json", "jsonl", NULL};

static int online_cores(void)
{
    long n = sysconf(_SC_NPROCESSORS_ONLN);
    return n < 1 ? 1 : n > MAX_JOBS ? MAX_JOBS : (int)n;
}

/* The plain --dsym files none of whose UUIDs an image of this run's iOS reports has: warned
 * about as report does (cli_an_dsym_unmatched), counted into the first imported one. */
static int dsym_check(cli_an *a, const tt_vec *inputs, tt_error *err)
{
    int64_t *traces = a->sym.n_dsyms ? malloc((inputs->len + 1) * sizeof *traces) : NULL;
    if (a->sym.n_dsyms && !traces)
        return tt_error_set(err, TT_ENOMEM, NULL, 0, 0, "out of memory");
    size_t n = 0;
    int64_t stat_trace = 0;
    for (size_t i = 0; traces && i < inputs->len; i++) {
        const ainput *ai = &TT_VEC_AT(inputs, ainput, i);
        if (ai->kind != TT_KIND_KSCRASH || ai->trace_id <= 0 ||
            (ai->status != IN_IMPORTED && ai->status != IN_DUPLICATE))
            continue;
        traces[n++] = ai->trace_id;
        if (!stat_trace && ai->status == IN_IMPORTED)
            stat_trace = ai->trace_id;
    }
    int rc = cli_an_dsym_unmatched(a, traces, n, stat_trace, err);
    free(traces);
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
        case 'm': o->maps[o->nmaps++] = cli_opt_input(optarg); break;
        case O_PROGUARD:
            o->proguard = cli_opt_input(optarg);
            o->proguard_given = 1;
            break;
        case O_APPEND: o->append = 1; break;
        case O_REPLACE: o->replace = 1; break;
        case O_SKIP: o->skip_unknown = 1; break;
        case O_EMPTY: o->allow_empty = 1; break;
        case O_KEEP: o->keep_going = 1; break;
        case O_DRY: o->dry_run = 1; break;
        case O_FAIL_ON:
            if (cli_an__check_parse(&o->checks, optarg))
                return CLI_BAD;
            break;
        case 'j':
            if (cli_opt_int("--jobs", optarg, 1, MAX_JOBS, &o->jobs))
                return CLI_BAD;
            break;
        case O_ALL_IMAGES: a->all_images = 1; break;
        case O_KIND:
            if ((o->kind = tt_kind_parse(optarg)) < 0 || o->kind == TT_KIND_DATABASE) {
                /* the list is the kinds tt_kind_parse takes, so that none is left out */
                char list[256] = "";
                for (int k = 1; k < TT_KIND__COUNT; k++)
                    if (k != TT_KIND_DATABASE)
                        snprintf(list + strlen(list), sizeof list - strlen(list), "%s%s",
                                 list[0] ? ", " : "", tt_kind_name((tt_kind)k));
                cli_errorf("option --kind: expected one of %s, got \"%s\"", list, optarg);
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
            if ((a->beat_fmt = cli_opt_enum("--buffer-format", optarg, cli_an__buffmts)) < 0)
                return CLI_BAD;
            break;
        case O_RING:
            if (cli_opt_i64("--ring-next", optarg, &a->ring_next))
                return CLI_BAD;
            if (a->ring_next < 0) {
                cli_errorf("option --ring-next: expected a slot number >= 0");
                return CLI_BAD;
            }
            break;
        case O_SPLASH: a->splash = optarg; break;
        case O_COLD:
            if (cli_opt_ms_nonneg("--cold-ms", optarg, &a->cold_ms))
                return CLI_BAD;
            a->has_cold_ms = 1;
            break;
        case O_WARM:
            if (cli_opt_ms_nonneg("--warm-ms", optarg, &a->warm_ms))
                return CLI_BAD;
            a->has_warm_ms = 1;
            break;
        case O_NOUI: a->no_ui = 1; break;
        case O_EVENT: a->event = optarg; break;
        case 'h': cli_usage(usage, 0); return HELP_SHOWN;
        default: return cli_usage(usage, 1);
        }
    }
    if (o->dry_run && o->format == 2) {
        cli_errorf("option --dry-run: no row is written: use --format text or json");
        return CLI_BAD;
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
    cli_an_names_ahead_free(a);
    free(a->method_rows);
    free(a->acc);
    free(a->names);
    tt_arena_free(a->arena);
    tt_buf_free(&a->tmp);
    tt_frames_seen_free(a->frames_seen);
    cli_sym_dsyms_close(&a->sym);
}

/* The summary, read from reader (a new file's committed rows) while a's database builds its
 * indexes (on a helper thread when threaded), or from a's database when reader is NULL. The
 * summary's error comes first, as when run one after the other. */
typedef struct summ_job {
    summ *s;
    cli_an *a;
    tdb_db *db;
    int64_t first;
    const char *out;
    tt_vec *inputs;
    tt_error err;
    int rc;
} summ_job;

static void *summ_run(void *arg)
{
    summ_job *j = arg;
    j->rc = cli_an__summarize(j->s, j->a, j->db, j->first, j->out, j->inputs, &j->err);
    return NULL;
}

static int summarize_beside(summ *s, cli_an *a, tdb_db *reader, int64_t first, const char *out,
                            tt_vec *inputs, int threaded, tt_error *err)
{
    summ_job j = {s, a, reader ? reader : a->db, first, out, inputs, {0}, 0};
    pthread_t th;
    int started = reader && threaded && !pthread_create(&th, NULL, summ_run, &j);
    if (!started)
        summ_run(&j);
    tt_error ierr = {0};
    int irc = j.rc && !started ? 0 : tdb_build_indexes(a->db, &ierr);
    if (started)
        pthread_join(th, NULL);
    if (j.rc) {
        *err = j.err;
        return j.rc;
    }
    if (irc)
        *err = ierr;
    return irc;
}

/* The summary (or with --format jsonl the run's rows, read from db) to standard output,
 * flushed; 0 or an error in err; a write error's errno in *werr. */
static int print_summary(const aopts *o, summ *s, tdb_db *db, int64_t first, int *werr,
                         tt_error *err)
{
    if (o->format == 2)
        return cli_an__dump_jsonl(db, first, werr, err);
    tt_buf *b = o->format == 1 ? &s->json.buf : &s->text;
    *werr = cli_out_try(b->data ? b->data : "", b->len);
    return 0;
}

/* Two file hashes (64 hex digits, not terminated) of the mapping's files. */
static int cmp_sha(const void *x, const void *y) { return memcmp(x, y, 64); }

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
    summ s = {.checks = &o.checks};
    char *target = NULL, tmpname[4096] = "";
    cli_out_lock *lock = NULL;
    cli_an_pool *pool = NULL;
    cli_an_job **jobs = NULL; /* --jobs: the job of each input, while in flight */
    aseen seen = {0};
    o.seen = &seen;
    if (!a.map || !a.arena || !a.names || !a.method_rows || !a.acc) {
        cli_errorf("out of memory");
        rc = CLI_BAD;
        goto done;
    }
    /* an -o file that is not a database is refused before any input (standard input, a
     * FIFO) is read; pass 2 checks again when it creates the database */
    if (!o.append && !o.dry_run) {
        char *t = cli_out_resolve(o.out); /* says what is wrong when NULL */
        /* /dev/stdout, and an input given as -o, get pass 2's own messages */
        int later = !t || cli_out_fd_path(t) >= 0;
        for (int i = 0; i < nargs && !later; i++)
            later = cli_out_same_file(args[i], t);
        for (size_t i = 0; i < o.nmaps && !later; i++)
            later = cli_out_same_file(o.maps[i], t);
        if (!t)
            rc = CLI_BAD;
        else if (!later && tdb_check_replace(t, &err))
            rc = cli_err(&err);
        free(t);
        if (rc)
            goto done;
    }
    /* -m mappings first, then the arguments (directories expanded) */
    for (size_t i = 0; i < o.nmaps && !rc; i++)
        rc = cli_input_path(o.maps[i]) ? CLI_BAD : cli_an__add_input(&inputs, o.maps[i], 0);
    if (!rc)
        rc = cli_stdin_once(args, nargs); /* with -m - and --proguard - */
    for (int i = 0; i < nargs && !rc; i++) {
        struct stat sb;
        if (strcmp(args[i], "-") && !stat(args[i], &sb) && S_ISDIR(sb.st_mode))
            rc = cli_an__expand_dir(&inputs, args[i], 0);
        else
            rc = cli_an__add_input(&inputs, args[i], 0);
    }
    int njobs = o.jobs ? o.jobs : online_cores();
    if (!rc && njobs > 1 && inputs.len > 1) {
#if defined(M_TOP_PAD) && defined(M_MMAP_THRESHOLD)
        /* with threads, each shrink of a heap (brk, munmap, a thread heap's madvise) makes
         * the kernel interrupt the other cores to flush their TLBs, and the heap soon grows
         * back: keep 4 MiB at its top, and serve blocks up to 1 MiB (an input's buffers)
         * from the heap (setting one turns off glibc's own moving threshold); the peak
         * memory moves by a few hundred KiB */
        mallopt(M_MMAP_THRESHOLD, 1 << 20);
        mallopt(M_TOP_PAD, 4 << 20);
#endif
        if (o.nmaps) /* pass 1 loads it first, into the empty mapping */
            TT_VEC_AT(&inputs, ainput, 0).map_ahead = 1;
        cli_an_parallel(inputs.len, njobs, cli_an__pre_detect, &inputs);
    }
    /* pass 1: detect and hash every input; load mappings */
    tt_buf map_cat = {0};
    int have_map = 0;
    for (size_t i = 0; i < inputs.len && !rc; i++) {
        ainput *ai = &TT_VEC_AT(&inputs, ainput, i);
        int saved = o.kind; /* -m files are mappings whatever --kind says */
        if (i < o.nmaps)
            o.kind = -1;
        rc = cli_an__detect_input(ai, &o, &a, ctx);
        o.kind = saved;
        if (rc)
            break;
        if (ai->status == IN_FAILED || ai->status == IN_SKIPPED || ai->status == IN_SYMBOLS)
            continue;
        if (i < o.nmaps && ai->status != IN_MAPPING) {
            cli_errorf("%s: expected a methodMapping.txt or ignoreMethodMapping.txt (-m), found "
                       "%s%s", ai->path, tt_kind_name(ai->kind), ai->kind == TT_KIND_PROGUARD ?
                       " (a ProGuard/R8 mapping.txt: pass it with --proguard)" : "");
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
                cli_stderrf("tracetool: %s: note: used as the ProGuard mapping\n",
                        ai->path);
        }
    }
    /* the mapping's identity (and part of each import key) is the hash of its files' hashes:
     * in sorted order, so that the order of the -m files does not show, unless it decides
     * which line of a method id is used (tracetool-analyze(1), the import key) */
    if (!rc && have_map && !tt_mapping_order_matters(a.map) && map_cat.len % 64 == 0)
        qsort(map_cat.data, map_cat.len / 64, 64, cmp_sha);
    if (!rc)
        rc = cli_an__pair_btrace(&inputs);
    size_t npending = 0, nskipped = 0, nbeat = 0;
    for (size_t i = 0; i < inputs.len && !rc; i++) {
        ainput *ai = &TT_VEC_AT(&inputs, ainput, i);
        if (ai->status == IN_PENDING && ai->from_dir && ai->kind == TT_KIND_BEAT && o.kind <= 0 &&
            a.beat_fmt == TT_BEAT_FMT_AUTO && have_map)
            cli_an__check_dir_beat(ai, a.map);
        npending += ai->status == IN_PENDING || ai->status == IN_FAILED;
        nskipped += ai->status == IN_SKIPPED;
        nbeat += ai->status == IN_PENDING && ai->kind == TT_KIND_BEAT;
    }
    if (!rc && a.ring_next > 0 && nbeat > 1) {
        /* one slot number cannot be right for several dumps */
        cli_errorf("analyze: --ring-next applies to one method-beat buffer, but the inputs hold "
                   "%zu (analyze each ring dump on its own; --append adds it to a database)",
                   nbeat);
        rc = CLI_BAD;
    } else if (!rc && a.ring_next > 0 && !nbeat) {
        cli_warnf("analyze: --ring-next: no method-beat buffer among the inputs");
    }
    if (!rc && o.dry_run) { /* what the run would do with each input (dask-analyze.py) */
        /* the import keys the run would compute: an input already in an appended database,
         * or given twice, is not imported again */
        char dry_map[65] = "", dry_pg[65] = "";
        if (have_map)
            tt_sha256_buf(dry_map, map_cat.data, map_cat.len);
        if (o.proguard && npending)
            rc = cli_load_proguard(&a.pg, o.proguard, dry_pg);
        if (!rc && npending &&
            cli_an__dry_run_status(&a, &inputs, &o, have_map ? dry_map : NULL,
                                   o.proguard ? dry_pg : NULL, &err))
            rc = cli_err(&err);
        if (rc) {
            tt_buf_free(&map_cat);
            goto done;
        }
        cli_an__summarize_inputs(&s, &inputs);
        tt_jsonw_obj_end(&s.json);
        tt_buf_puts(&s.json.buf, "\n");
        int werr = print ? cli_out_try(o.format == 1 ? s.json.buf.data : s.text.data,
                                       o.format == 1 ? s.json.buf.len : s.text.len) : 0;
        if (werr && werr != EPIPE) {
            cli_errorf("write error on standard output: %s", strerror(werr));
            rc = CLI_BAD;
        }
        tt_buf_free(&map_cat);
        goto done;
    }
    if (!rc && !npending) {
        /* nothing to import: the database stays as it is (no empty replacement) */
        struct stat sb;
        int one_dir = nargs == 1 && !stat(args[0], &sb) && S_ISDIR(sb.st_mode);
        char sk[64] = "";
        if (nskipped)
            snprintf(sk, sizeof sk, " (%zu file%s skipped)", nskipped, nskipped == 1 ? "" : "s");
        if (o.allow_empty) { /* a shard of a fleet run that got no trace (merge(1)) */
            cli_stderrf("tracetool: analyze: note: no trace among the inputs%s: %s is not "
                    "written\n", sk, o.out);
            tt_buf_free(&map_cat);
            goto done;
        } else if (one_dir) {
            cli_errorf("%s: no trace found in the directory%s", args[0], sk);
        } else {
            cli_errorf("analyze: no trace among the inputs%s", sk);
        }
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
        rc = CLI_BAD;
        goto done;
    }
    struct stat tsb;
    if (cli_out_fd_path(target) >= 0 || (stat(target, &tsb) == 0 && !S_ISREG(tsb.st_mode))) {
        /* never rename a database over /dev/null, a directory or the file behind a
         * descriptor such as /dev/stdout */
        cli_errorf("%s: not a regular file: the database is written to a file", o.out);
        rc = CLI_BAD;
        goto done;
    }
    for (size_t i = 0; i < inputs.len; i++) {
        const char *in = TT_VEC_AT(&inputs, ainput, i).path;
        if (cli_out_same_file(in, target)) { /* it would be replaced by the database */
            cli_errorf("%s: is the output file (-o %s)", in, o.out);
            rc = CLI_BAD;
            goto done;
        }
    }
    if (!(lock = cli_out_lock_take(target))) {
        rc = CLI_BAD;
        goto done;
    }
    /* no signal between creating the temporary file and registering it for removal */
    cli_out_block_signals(1);
    /* -wal and -shm are this run's only when neither was there before the open (the open
     * creates -shm) and the log was still empty once the write transaction was held: a
     * writer committing in between leaves its frames there, which must stay */
    int wal_fresh = o.append && cli_out_wal_absent(target);
    rc = tdb_open_write(&a.db, target, o.append, &err);
    if (!rc && wal_fresh && tdb_wal_empty(a.db))
        cli_out_guard_wal(target);
    if (!rc && tdb_tmp_path(a.db)) {
        snprintf(tmpname, sizeof tmpname, "%s", tdb_tmp_path(a.db));
        cli_out_guard(tmpname);
        tdb_set_threads(a.db, njobs > 1 ? njobs : 0); /* the indexes' sort */
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
    if (njobs > 1)
        cli_an_names_ahead(&a, njobs); /* shared by the workers and the mapping's rows */
    /* --jobs into a new database: the workers start on the first inputs while the mapping is
     * written, with its rows predicted */
    int predicted = have_map && njobs > 1 && tdb_tmp_path(a.db);
    if (predicted)
        cli_an__predict_mapping(&a);
    else if (have_map &&
             (rc = cli_an__store_mapping(&a, map_sha, mapping_path ? mapping_path : "",
                                         o.proguard ? pg_sha : NULL, 0, &err)))
        goto fail;
    int64_t first = 0;
    size_t nfailed = 0, next = 0;
    /* each --dsym read once for the run, not once per input's symbol store and once more
     * for the unmatched check: the records are only read from here on, by every job */
    cli_sym_dsyms_open(&a.sym);
    if (njobs > 1) {
        tsym_init(); /* libdwarf's process-wide switch: set before threads read DWARF */
        if (!(jobs = calloc(inputs.len, sizeof *jobs))) {
            cli_errorf("out of memory");
            rc = CLI_BAD;
            goto done;
        }
        if ((rc = cli_an_pool_start(&pool, &a, njobs, cli_an__import_parse)))
            goto done;
    }
    if (predicted) {
        next = cli_an__dispatch(&a, &inputs, next, pool, jobs, &o, map_sha,
                                o.proguard ? pg_sha : NULL);
        if ((rc = cli_an__store_mapping(&a, map_sha, mapping_path ? mapping_path : "",
                                        o.proguard ? pg_sha : NULL, 1, &err)))
            goto fail;
    }
    for (size_t i = 0; i < inputs.len && !rc; i++) {
        ainput *ai = &TT_VEC_AT(&inputs, ainput, i);
        if (ai->status != IN_PENDING && ai->status != IN_FAILED)
            continue;
        if (pool)
            next = cli_an__dispatch(&a, &inputs, next, pool, jobs, &o,
                                    have_map ? map_sha : NULL, o.proguard ? pg_sha : NULL);
        if (ai->status == IN_PENDING)
            rc = cli_an__import_kept(&a, ai, (int)i, have_map ? map_sha : NULL,
                                     o.proguard ? pg_sha : NULL, &inputs, &o, pool,
                                     jobs ? jobs[i] : NULL, &err);
        if (jobs) {
            cli_an_pool_release(pool, jobs[i]);
            jobs[i] = NULL;
        }
        if (!rc && ai->status == IN_FAILED) {
            nfailed++;
            rc = cli_an__record_failure(&a, ai, &err);
        }
        if (!rc && ai->status == IN_IMPORTED && !first)
            first = ai->trace_id;
    }
    cli_an_pool_stop(pool); /* an error stopped the loop: inputs parsed ahead are dropped */
    pool = NULL;
    if (!rc)
        rc = dsym_check(&a, &inputs, &err);
    /* a new file: its rows committed (still under its temporary name) and read for the
     * summary by a second connection, on a helper thread with --jobs, while the indexes are
     * built; writing in place, the summary is read before the commit */
    tdb_db *reader = NULL;
    if (!rc)
        rc = tdb_commit_rows(a.db, &reader, &err);
    if (!rc)
        rc = summarize_beside(&s, &a, reader, first ? first : INT64_MAX, o.out, &inputs,
                              njobs > 1, &err);
    /* the warnings, then the summary, written and flushed before the rename: a write error
     * on standard output (exit 2) leaves the old database as it was (tracetool(1)); a
     * reader that went away (EPIPE) is no error, and the run stands */
    int verdict = 0, werr = 0;
    if (!rc) {
        cli_stats_report(ctx->stats);
        if (nfailed) {
            cli_warnf("%zu input%s failed and %s recorded in the stats table (--keep-going)",
                      nfailed, nfailed == 1 ? "" : "s", nfailed == 1 ? "is" : "are");
            verdict = CLI_CHECK_FAILED;
        }
        if (cli_an__check_report(s.checks))
            verdict = CLI_CHECK_FAILED;
        if (a.unknown_ids)
            cli_warnf("%llu stack lines or calls have method ids missing from the mapping: the "
                      "mapping probably belongs to another build",
                      (unsigned long long)a.unknown_ids);
    }
    if (!rc && print)
        rc = print_summary(&o, &s, reader ? reader : a.db, first ? first : INT64_MAX, &werr,
                           &err);
    tdb_close(reader);
    if (werr && werr != EPIPE) {
        cli_errorf("write error on standard output: %s", strerror(werr));
        rc = CLI_BAD;
        goto done;
    }
    cli_out_unguard_wal(); /* from here the log may hold the commit */
    if (!rc)
        rc = tdb_commit(a.db, &err);
fail:
    if (rc) {
        rc = cli_err(&err);
        goto done;
    }
    cli_out_unguard(tmpname);
    rc = verdict;
done:
    cli_an_pool_stop(pool);
    free(jobs);
    tt_intern_free(seen.keys);
    if (seen.keys)
        tt_vec_free(&seen.ordinal);
    tt_buf_free(&s.text);
    if (s.json.buf.data)
        tt_jsonw_free(&s.json);
    cli_out_unguard_wal();
    an_free(&a); /* closes the database (and removes an uncommitted temporary file) */
    tt_vec_free(&acc_ids);
    cli_out_unguard(tmpname);
    cli_out_lock_release(lock);
    free(target);
    for (size_t i = 0; i < inputs.len; i++) {
        free(TT_VEC_AT(&inputs, ainput, i).path);
        free(TT_VEC_AT(&inputs, ainput, i).map_path);
        free(TT_VEC_AT(&inputs, ainput, i).error);
        free(TT_VEC_AT(&inputs, ainput, i).pre);
        cli_an__free_ahead(&TT_VEC_AT(&inputs, ainput, i));
    }
    tt_vec_free(&inputs);
    return rc;
}

int cli_analyze_paths(const char *out, char *const *maps, size_t nmaps, const char *proguard,
                      const char *event, char *const *inputs, int ninputs, cli_ctx *ctx)
{
    aopts o = {.out = out, .proguard = proguard, .proguard_given = proguard != NULL, .kind = -1,
               .maps = (char **)maps, .nmaps = nmaps};
    cli_an a = {.cli = ctx, .evil_ms = 700, .trim = 30, .event = event};
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
    if (cli_opt_db_output(o.out))
        return CLI_BAD;
    if (optind >= argc) {
        cli_errorf("analyze: missing INPUT");
        return cli_usage(usage, 1);
    }
    return analyze_run(o, a, argv + optind, argc - optind, ctx, 1);
}
