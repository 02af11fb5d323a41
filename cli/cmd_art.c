/* tracetool art: ART method traces (.trace), spec/art-trace.md 6.5: summary, --dump,
 * --profile and --tree in text, JSON, JSON lines or CSV. */
#include "cli_art.h"

#include <stdlib.h>
#include <string.h>

#include "cli_load.h"

static const char usage[] =
    "usage: tracetool art [--dump] [--profile] [--tree [--max-nodes N]] [--threads main|all|NAME]\n"
    "                     [--clock wall|cpu|first] [--units us|ms]\n"
    "                     [--art-mode auto|instrumented|sampled|samples]\n"
    "                     [--art-clock wall|thread-cpu] [--art-close-at thread-last|trace-end]\n"
    "                     [--art-keys KEYFILE] [--art-subtract-overhead] [--retrace MAPPING]\n"
    "                     [--normalize-synthetic]\n"
    "                     [--window NAME] [--threshold-ms N] [--format text|json|jsonl|csv]\n"
    "                     FILE\n"
    "\n"
    "      --dump              one line per record in file order (dmtracedump -o)\n"
    "      --profile           per-method calls, self and total time on both clocks\n"
    "      --tree              top-down call tree per thread\n"
    "      --max-nodes N       keep the N heaviest nodes of each tree (default 200)\n"
    "      --threads SEL       main, all (default) or a thread name; repeatable\n"
    "      --clock CLOCK       wall (default), cpu, or first (the records' first clock)\n"
    "      --units UNITS       ms (default, three decimals) or us\n"
    "      --art-mode MODE     auto (default), instrumented, sampled, or samples (calls\n"
    "                          rebuilt from one stack sample per timestamp)\n"
    "      --art-clock CLOCK   clock of a streaming file without summary (default wall)\n"
    "      --art-close-at AT   close open frames at the thread's last event (default) or\n"
    "                          at the trace end\n"
    "      --art-keys KEYFILE  text header (*version .. *end) of a bare data section\n"
    "      --art-subtract-overhead  remove 2 x clock-call-overhead-nsec per call\n"
    "      --retrace MAPPING   de-obfuscate method names with a ProGuard/R8 mapping.txt\n"
    "      --normalize-synthetic  '#' for the digits of synthetic names (Foo$1, Lambda3)\n"
    "      --window NAME       slow-message window method (repeatable; default\n"
    "                          android.os.Handler.dispatchMessage(android.os.Message))\n"
    "      --threshold-ms N    slow-message threshold (default 700)\n"
    "      --format FMT        text (default), json, jsonl, csv\n"
    "  -h, --help              show this help\n";

enum { O_DUMP = 256, O_PROFILE, O_TREE, O_MAXN, O_THREADS, O_CLOCK, O_UNITS, O_MODE, O_ACLOCK,
       O_CLOSE, O_WINDOW, O_THRESH, O_FORMAT, O_RETRACE, O_NORM, O_KEYS, O_OVERHEAD };

static const struct option longopts[] = {
    {"dump", no_argument, NULL, O_DUMP},
    {"profile", no_argument, NULL, O_PROFILE},
    {"tree", no_argument, NULL, O_TREE},
    {"max-nodes", required_argument, NULL, O_MAXN},
    {"threads", required_argument, NULL, O_THREADS},
    {"clock", required_argument, NULL, O_CLOCK},
    {"units", required_argument, NULL, O_UNITS},
    {"art-mode", required_argument, NULL, O_MODE},
    {"art-clock", required_argument, NULL, O_ACLOCK},
    {"art-close-at", required_argument, NULL, O_CLOSE},
    {"art-keys", required_argument, NULL, O_KEYS},
    {"art-subtract-overhead", no_argument, NULL, O_OVERHEAD},
    {"window", required_argument, NULL, O_WINDOW},
    {"retrace", required_argument, NULL, O_RETRACE},
    {"normalize-synthetic", no_argument, NULL, O_NORM},
    {"threshold-ms", required_argument, NULL, O_THRESH},
    {"format", required_argument, NULL, O_FORMAT},
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0},
};

static const char *const formats[] = {"text", "json", "jsonl", "csv", NULL};
static const char *const clocks[] = {"wall", "cpu", "first", NULL};
static const char *const units_names[] = {"ms", "us", NULL};
static const char *const modes[] = {"auto", "instrumented", "sampled", "samples", NULL};
static const char *const aclocks[] = {"wall", "thread-cpu", NULL};
static const char *const closes[] = {"thread-last", "trace-end", NULL};
static int parse_args(int argc, char **argv, art_run *r)
{
    int c, v;
    while ((c = getopt_long(argc, argv, "h", longopts, NULL)) != -1) {
        switch (c) {
        case O_DUMP: r->dump = 1; break;
        case O_PROFILE: r->profile = 1; break;
        case O_TREE: r->tree = 1; break;
        case O_MAXN:
            if (cli_opt_int("--max-nodes", optarg, 1, 100000000, &r->max_nodes))
                return CLI_BAD;
            break;
        case O_THREADS:
            if (r->nsel == MAX_SEL) {
                cli_errorf("option --threads: at most %d selections", MAX_SEL);
                return CLI_BAD;
            }
            r->sel[r->nsel++] = optarg;
            break;
        case O_CLOCK:
            if ((r->clock = cli_opt_enum("--clock", optarg, clocks)) < 0)
                return CLI_BAD;
            r->clock_given = 1;
            break;
        case O_UNITS:
            if ((v = cli_opt_enum("--units", optarg, units_names)) < 0)
                return CLI_BAD;
            r->us = v;
            break;
        case O_MODE:
            if ((r->mode = cli_opt_enum("--art-mode", optarg, modes)) < 0)
                return CLI_BAD;
            break;
        case O_ACLOCK:
            if ((r->aclock = cli_opt_enum("--art-clock", optarg, aclocks)) < 0)
                return CLI_BAD;
            break;
        case O_CLOSE:
            if ((r->close_at = cli_opt_enum("--art-close-at", optarg, closes)) < 0)
                return CLI_BAD;
            break;
        case O_WINDOW:
            if (r->nwin == MAX_WIN) {
                cli_errorf("option --window: at most %d names", MAX_WIN);
                return CLI_BAD;
            }
            r->win[r->nwin++] = optarg;
            break;
        case O_THRESH:
            if (cli_opt_i64("--threshold-ms", optarg, &r->threshold_ms))
                return CLI_BAD;
            if (r->threshold_ms < 0 || r->threshold_ms > TT_MS_MAX / 1000) {
                cli_errorf("option --threshold-ms: expected a non-negative number of ms");
                return CLI_BAD;
            }
            break;
        case O_FORMAT:
            if ((r->format = cli_opt_enum("--format", optarg, formats)) < 0)
                return CLI_BAD;
            break;
        case O_RETRACE: r->retrace = cli_opt_input(optarg); break;
        case O_NORM: r->normalize = 1; break;
        case O_KEYS: r->keys = cli_opt_input(optarg); break;
        case O_OVERHEAD: r->subtract_overhead = 1; break;
        case 'h': return -1;
        default: return cli_usage(usage, 1);
        }
    }
    return 0;
}

static int is_main(const tt_art *a, const tt_art_thread *t)
{
    return !strcmp(t->name, "main") || (a->pid >= 0 && (uint32_t)(a->pid & 0xFFFF) == t->id);
}

/* 1 when --threads selection k names thread t. */
static int sel_matches(const art_run *r, int k, const tt_art *a, const tt_art_thread *t)
{
    return !strcmp(r->sel[k], "all") ||
           (!strcmp(r->sel[k], "main") ? is_main(a, t) : !strcmp(r->sel[k], t->name));
}

/* The streaming profile's thread filter: --threads, default all. */
static int want_thread(void *ud, const tt_art *a, size_t t)
{
    art_run *r = ud;
    if (r->subtract_overhead && !r->ro.overhead_ns) { /* the header is read by now */
        const char *v = tt_art_meta(a, "clock-call-overhead-nsec");
        long long ns = v ? strtoll(v, NULL, 10) : 0;
        r->ro.overhead_ns = ns > 0 && ns <= 1000000000 ? ns : 0; /* checked after the parse */
    }
    int hit = !r->nsel;
    for (int k = 0; k < r->nsel && !hit; k++)
        hit = sel_matches(r, k, a, &a->threads[t]);
    return hit;
}

/* Thread selection of --threads (default all, or main for the summary's table). */
static int select_threads(art_run *r, int default_main)
{
    tt_art *a = r->a;
    r->use = calloc(a->nthreads + 1, 1);
    if (!r->use) {
        cli_errorf("out of memory");
        return CLI_BAD;
    }
    if (!r->nsel) {
        for (size_t i = 0; i < a->nthreads; i++)
            r->use[i] = default_main ? (unsigned char)is_main(a, &a->threads[i]) : 1;
        return 0;
    }
    for (int k = 0; k < r->nsel; k++) {
        int hit = 0;
        for (size_t i = 0; i < a->nthreads; i++) {
            int m = sel_matches(r, k, a, &a->threads[i]);
            if (m)
                r->use[i] = 1;
            hit |= m;
        }
        if (!hit) {
            cli_errorf("%s: no thread matches --threads %s", r->file, r->sel[k]);
            return CLI_BAD;
        }
    }
    return 0;
}

/* The bytes of path (gzip-transparent); 0 or an exit code after printing. */
static int slurp(const char *path, char **data, size_t *n)
{
    tt_error err = {0};
    tt_input *in;
    if (cli_input_path(path))
        return CLI_BAD;
    if (cli_input_open(&in, path, 0, &err))
        return cli_err(&err);
    int rc = tt_input_slurp(in, data, n, &err);
    tt_input_close(in);
    return rc ? cli_err(&err) : 0;
}

/* A stream that outgrows memory and is no ART method trace is refused from its head, with
 * the reader's message, before the rest is spooled. */
static int check_art(tt_input *head, const char *path, void *ud, tt_error *err)
{
    const unsigned char *p;
    size_t n;
    char what[200];
    (void)ud;
    int rc = tt_input_peek(head, &p, &n, 4096, err);
    if (rc || tt_art_detect(p, n, what, sizeof what) != TT_ART_NOT)
        return rc;
    return tt_error_set(err, TT_EFORMAT, path, TT_LOC_OFFSET, 0, "not an ART method trace%s%s",
                        what[0] ? ": " : "", what);
}

/* FILE for each pass of the chunked reader (standard input and pipes are kept in memory). */
static int reopen(void *ud, tt_input **in, tt_error *err)
{
    return cli_input_open_checked(in, ud, check_art, NULL, err);
}

/* A regular file that the ART reader knows nothing of (no hint of its own) but detection
 * knows as another format (an ELF file, an image): "PATH: not a trace: WHAT", as every
 * command says it (README); CLI_BAD after the message, else 0. */
static int not_art_foreign(const char *path)
{
    tt_input *in;
    tt_detection d;
    const unsigned char *p;
    size_t n;
    char what[200] = "";
    if (cli_input_is_stream(path) || tt_input_open(&in, path, NULL))
        return 0; /* the reader reports it */
    int rc = tt_input_peek(in, &p, &n, 4096, NULL);
    int foreign = !rc && tt_art_detect(p, n, what, sizeof what) == TT_ART_NOT && !what[0] &&
                  !tt_input_detect(&d, in, NULL) && d.foreign && cli_input_foreign(&d, 0);
    tt_input_close(in);
    if (!foreign)
        return 0;
    cli_errorf("%s: not a trace: %s", path, d.what);
    return CLI_BAD;
}

/* Reads (in chunks, art-trace.md 4) and parses FILE and --art-keys; the "not an ART method
 * trace" errors name what it is instead. */
static int load(art_run *r, const char *path)
{
    tt_error err = {0};
    char *keys = NULL;
    size_t nkeys = 0;
    if (cli_input_path(path) || cli_input_not_kscrash(path) || not_art_foreign(path))
        return CLI_BAD;
    int rc = r->keys ? slurp(r->keys, &keys, &nkeys) : 0;
    if (rc)
        return rc;
    tt_art_opts o = {.clock_guess = r->aclock == 1 ? TT_ART_CLOCK_CPU : TT_ART_CLOCK_WALL,
                     .keys = (const unsigned char *)keys, .nkeys = nkeys, .keys_name = r->keys};
    /* --profile needs no stored events: records go straight to per-thread stacks (6.6) */
    if (r->profile && r->mode != TT_ART_MODE_SAMPLES) {
        r->ro.close_at = r->close_at;
        if (tt_art_pstream_new(&r->ps, &r->ro, want_thread, r)) {
            free(keys);
            cli_errorf("out of memory");
            return CLI_BAD;
        }
        o.event = tt_art_pstream_event;
        o.event_ud = r->ps;
    }
    tt_art_src src = {reopen, (void *)path, NULL};
    rc = tt_art_parse_src(&r->a, &src, path, &o, r->ctx->stats, &err);
    free(keys);
    if (!rc && r->ps)
        rc = tt_art_pstream_finish(&r->sprof, &r->sspan, &r->scspan, r->ps, r->a,
                                   r->ctx->stats, path, &err);
    if (rc)
        return cli_err(&err);
    if (r->retrace) { /* art-trace.md 3.2: before canonical keys are used */
        tt_proguard *pg = NULL;
        size_t amb = 0;
        if ((rc = cli_load_proguard(&pg, r->retrace, NULL)))
            return rc;
        rc = tt_art_retrace(r->a, pg, &amb);
        tt_proguard_free(pg);
        if (rc) {
            cli_errorf("out of memory");
            return CLI_BAD;
        }
        if (amb)
            tt_stats_add(r->ctx->stats, "art_retrace_ambiguous", path, TT_SEV_WARN, (int64_t)amb,
                         "obfuscated methods with several original names: the first was used");
    }
    size_t coll = 0;
    if (r->normalize && tt_art_normalize_synthetic(r->a, &coll)) {
        cli_errorf("out of memory");
        return CLI_BAD;
    }
    if (coll)
        tt_stats_add(r->ctx->stats, "art_synthetic_collision", path, TT_SEV_WARN, (int64_t)coll,
                     "--normalize-synthetic gave distinct methods the same name");
    return 0;
}

/* How the clock named in a message was found: the header's clock= line, or inferred or
 * guessed without one (spec 2.2, 2.4). */
static const char *clock_how(const tt_art *a)
{
    if (tt_art_meta(a, "clock"))
        return "";
    return a->clock_guessed ? ", guessed: no clock= line" : ", inferred: no clock= line";
}

static int check_clock(art_run *r)
{
    tt_art *a = r->a;
    if (r->clock == C_CPU && !tt_art_has_cpu(a)) {
        cli_errorf("%s: --clock cpu: the trace has no thread-CPU clock (clock=%s%s)", r->file,
                   tt_art_clock_name(a->clock), clock_how(a));
        return CLI_BAD;
    }
    if (r->clock == C_WALL && !tt_art_has_wall(a) && r->clock_given) {
        cli_errorf("%s: --clock wall: the trace has no wall clock (clock=%s%s)", r->file,
                   tt_art_clock_name(a->clock), clock_how(a));
        return CLI_BAD;
    }
    r->use_cpu = r->clock == C_CPU || !tt_art_has_wall(a) ||
                 (r->clock == C_FIRST && a->clock != TT_ART_CLOCK_WALL);
    return 0;
}

static int64_t last_time(const art_run *r)
{
    int64_t m = 0;
    for (size_t i = 0; i < r->a->nthreads; i++) {
        const tt_art_thread *t = &r->a->threads[i];
        /* the reader's wrap-repair state is the last time of each clock */
        int64_t v = tt_art_has_wall(r->a) ? t->last_wall : t->last_cpu;
        if (t->nev && v > m)
            m = v;
    }
    return m;
}

static void overflow_warning(const art_run *r)
{
    if (!r->a->overflow)
        return;
    int64_t last = last_time(r);
    cli_warnf("%s: data-file-overflow=true: buffer full after %lld.%03lld ms: pass a larger "
              "bufferSize to Debug.startMethodTracing or record in streaming mode",
              r->file, (long long)(last / 1000), (long long)(last % 1000));
}

/* --art-subtract-overhead: the header's clock-call-overhead-nsec (3.1). */
static int overhead(art_run *r)
{
    const char *v = tt_art_meta(r->a, "clock-call-overhead-nsec");
    char *end = NULL;
    long long ns = v ? strtoll(v, &end, 10) : -1;
    if (!v || end == v || *end || ns < 0 || ns > 1000000000) {
        cli_errorf("%s: --art-subtract-overhead: %s", r->file,
                   v ? "clock-call-overhead-nsec is not a number of ns (0 to 10^9)"
                     : "the header has no clock-call-overhead-nsec");
        return CLI_BAD;
    }
    r->ro.overhead_ns = ns;
    return 0;
}

static void run_free(art_run *r)
{
    tt_art_free(r->a);
    tt_art_pstream_free(r->ps);
    free(r->sprof);
    free(r->use);
}

int cmd_art(int argc, char **argv, cli_ctx *ctx)
{
    art_run r = {0};
    r.threshold_ms = 700;
    r.ctx = ctx;
    int rc = parse_args(argc, argv, &r);
    if (rc < 0)
        return cli_usage(usage, 0);
    if (rc)
        return rc;
    if (optind >= argc) {
        cli_errorf("art: missing FILE");
        return cli_usage(usage, 1);
    }
    if (optind + 1 < argc) {
        cli_errorf("art: expected one FILE, got %d", argc - optind);
        return cli_usage(usage, 1);
    }
    if (r.dump + r.profile + r.tree > 1) {
        cli_errorf("art: --dump, --profile and --tree are exclusive");
        return CLI_BAD;
    }
    if (r.max_nodes && !r.tree) {
        cli_errorf("art: --max-nodes applies to --tree");
        return CLI_BAD;
    }
    if (r.format == F_JSONL && !r.dump && !r.profile && !r.tree) {
        cli_errorf("art: --format jsonl needs --dump, --profile or --tree");
        return CLI_BAD;
    }
    if (r.format == F_CSV && !r.dump && !r.profile && !r.tree) {
        cli_errorf("art: --format csv needs --dump, --profile or --tree");
        return CLI_BAD;
    }
    r.file = argv[optind];
    if (cli_stdin_once(argv + optind, 1))
        return CLI_BAD;
    if ((rc = load(&r, r.file)) || (rc = check_clock(&r)) ||
        (rc = select_threads(&r, !r.dump && !r.profile && !r.tree))) {
        run_free(&r);
        return rc;
    }
    r.ro.close_at = r.close_at;
    if (r.subtract_overhead && (rc = overhead(&r))) {
        run_free(&r);
        return rc;
    }
    /* a streamed profile has no events to detect a sampled trace from (its numbers agree) */
    if (!r.ps && r.mode == TT_ART_MODE_AUTO)
        r.sampled = tt_art_detect_sampled(r.a, &r.interval_us);
    else if (!r.ps && (r.mode == TT_ART_MODE_SAMPLED || r.mode == TT_ART_MODE_SAMPLES))
        r.sampled = 1 + 0 * tt_art_detect_sampled(r.a, &r.interval_us);
    r.ro.sampled = r.sampled;
    r.ro.samples = r.mode == TT_ART_MODE_SAMPLES;
    overflow_warning(&r);
    rc = r.dump      ? cli_art_dump(&r)
         : r.profile ? cli_art_profile(&r)
         : r.tree    ? cli_art_tree(&r)
                     : cli_art_summary(&r);
    cli_stats_report(ctx->stats);
    run_free(&r);
    return rc;
}
