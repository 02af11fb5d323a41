/* tracetool beat: decode one method-beat buffer (method-beat.md sections 3 and 5). */
#include "cli.h"

#include <stdlib.h>
#include <string.h>

#include "cli_load.h"
#include "cli_tree.h"

static const char usage[] =
    "usage: tracetool beat [-m MAPPING]... [--proguard FILE] [--strict | --lenient]\n"
    "                      [--end-ms MS] [--base-ms MS] [--cost MS] [--trim N]\n"
    "                      [--format text|json|matrix] [--names java|full|raw]\n"
    "                      [--buffer-format auto|bin|text] [--ring-next K] BUFFER\n"
    "\n"
    "  -m, --mapping FILE      methodMapping.txt or ignoreMethodMapping.txt (repeatable)\n"
    "      --proguard FILE     retrace obfuscated mapping names with a ProGuard/R8 mapping.txt\n"
    "      --strict            pair from the first dispatch entry, drain open frames (default)\n"
    "      --lenient           pair from the first record, drop open frames\n"
    "      --end-ms MS         end time used to drain open frames (verbatim, absolute)\n"
    "      --base-ms MS        time base added to entry times when draining (default 0)\n"
    "      --cost MS           analysis cost; stackCost = max(cost, longest line)\n"
    "      --trim N            trim the stack to N lines as Matrix does (default 30; 0 = off)\n"
    "      --format FMT        text (call tree, default), json (flat node list), matrix\n"
    "      --names STYLE       method names: java (default), full, raw\n"
    "      --buffer-format F   auto (by content, default), bin, text\n"
    "      --ring-next K       rotate a raw ring dump: slots K..end, then 0..K-1\n"
    "  -h, --help              show this help\n";

enum { O_PROGUARD = 256, O_STRICT, O_LENIENT, O_END, O_BASE, O_COST, O_TRIM, O_FORMAT,
       O_NAMES, O_BUFFMT, O_RING };

static const struct option longopts[] = {
    {"mapping", required_argument, NULL, 'm'},
    {"proguard", required_argument, NULL, O_PROGUARD},
    {"strict", no_argument, NULL, O_STRICT},
    {"lenient", no_argument, NULL, O_LENIENT},
    {"end-ms", required_argument, NULL, O_END},
    {"base-ms", required_argument, NULL, O_BASE},
    {"cost", required_argument, NULL, O_COST},
    {"trim", required_argument, NULL, O_TRIM},
    {"format", required_argument, NULL, O_FORMAT},
    {"names", required_argument, NULL, O_NAMES},
    {"buffer-format", required_argument, NULL, O_BUFFMT},
    {"ring-next", required_argument, NULL, O_RING},
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0},
};

static const char *const formats[] = {"text", "json", "matrix", NULL};
static const char *const names[] = {"java", "full", "raw", NULL};
static const char *const buffmts[] = {"auto", "bin", "text", NULL};

/* Reads the whole buffer into the pairing state, rotating when asked. */
static int feed_buffer(tt_mstack *ms, const char *path, int fmt, int64_t ring_next,
                       uint64_t *nrec, int *bin, tt_stats *stats)
{
    tt_error err = {0};
    tt_input *in;
    if (cli_input_open(&in, path, 0, &err))
        return cli_err(&err);
    cli_progress_attach(in);
    tt_beat_reader *r;
    if (tt_beat_reader_new(&r, in, fmt, &err)) {
        tt_input_close(in);
        return cli_err(&err);
    }
    tt_beat_reader_set_ring_next(r, (uint64_t)ring_next);
    uint64_t blk[4096];
    int rc = 0;
    for (;;) {
        size_t n;
        rc = tt_beat_reader_next(r, blk, 4096, &n, &err);
        if (rc == TT_DONE) {
            rc = 0;
            break;
        }
        if (rc) {
            rc = cli_err(&err);
            break;
        }
        tt_mstack_feed(ms, blk, n);
    }
    if (!rc) {
        uint64_t seen = tt_beat_reader_count(r);
        if (ring_next > 0 && (uint64_t)ring_next > seen)
            cli_warnf("%s: --ring-next %lld is beyond the %llu records of the buffer", path,
                      (long long)ring_next, (unsigned long long)seen);
        *nrec = seen;
        *bin = tt_beat_reader_format(r) == TT_BEAT_FMT_BIN;
        if (seen == 0)
            cli_stderrf("tracetool: %s: note: empty buffer\n", tt_input_name(in));
        if (tt_beat_reader_backwards(r))
            tt_stats_add(stats, "beat_time_backwards", tt_input_name(in), TT_SEV_WARN,
                         (int64_t)tt_beat_reader_backwards(r), CLI_BEAT_BACKWARDS);
    }
    tt_beat_reader_free(r);
    tt_input_close(in);
    return rc;
}

static void print_matrix(const tt_mstack_result *r)
{
    tt_buf s = {0};
    tt_mstack_to_string(&s, r->items, r->n_items);
    tt_jsonw w;
    tt_jsonw_init(&w, 1);
    tt_jsonw_obj_begin(&w);
    tt_jsonw_key(&w, "cost");
    tt_jsonw_int(&w, r->stack_cost);
    tt_jsonw_key(&w, "stack");
    tt_jsonw_strn(&w, s.data, s.len);
    tt_jsonw_key(&w, "stackKey");
    if (r->key_id >= 0) {
        char k[16];
        snprintf(k, sizeof k, "%d|", (int)r->key_id);
        tt_jsonw_str(&w, k);
    } else {
        tt_jsonw_str(&w, "");
    }
    tt_jsonw_obj_end(&w);
    tt_buf_puts(&w.buf, "\n");
    cli_out_buf(&w.buf);
    tt_jsonw_free(&w);
    tt_buf_free(&s);
}

static void print_text(const tt_mstack_result *r, const tt_mapping *m, const char *path,
                       const tt_mstack_opts *o, uint64_t nrec, int bin, int style)
{
    tt_buf b = {0};
    tt_buf_printf(&b, "buffer: %s (%s, %llu records)\n", path, bin ? "binary" : "text",
                  (unsigned long long)nrec);
    tt_buf_printf(&b, "mode: %s", o->strict ? "strict" : "lenient");
    if (o->strict && !o->have_end && !r->end_defaulted) /* nothing was drained */
        tt_buf_printf(&b, ", end unused (no frame open), base %lld ms", (long long)o->base_ms);
    else if (o->strict)
        tt_buf_printf(&b, ", end %lld ms%s, base %lld ms", (long long)r->end_ms_used,
                      r->end_defaulted ? " (last record)" : "", (long long)o->base_ms);
    if (o->trim > 0)
        tt_buf_printf(&b, ", trim %d (%zu lines before trimming)\n", o->trim, r->n_untrimmed);
    else
        tt_buf_puts(&b, ", no trimming\n");
    tt_buf_printf(&b, "cost: %lld ms\n", (long long)r->stack_cost);
    if (r->key_id >= 0) {
        tt_buf_printf(&b, "stackKey: %d| ", (int)r->key_id);
        tt_mapping_format_id(&b, m, (uint32_t)r->key_id, style);
        tt_buf_puts(&b, "\n");
    } else {
        tt_buf_puts(&b, "stackKey: (empty)\n");
    }
    if (r->n_items == 0)
        tt_buf_printf(&b, "stack: empty: %s\n", cli_beat_empty_reason(r->empty_reason));
    else {
        tt_buf_puts(&b, "\n");
        cli_tree_text(&b, r->items, r->n_items, m, r->key_index, style, "");
    }
    cli_out_buf(&b);
    tt_buf_free(&b);
}

static void print_json(const tt_mstack_result *r, const tt_mapping *m, const char *path,
                       const tt_mstack_opts *o, uint64_t nrec, int style)
{
    tt_jsonw w;
    tt_jsonw_init(&w, 0);
    tt_buf s = {0};
    tt_jsonw_obj_begin(&w);
    tt_jsonw_key(&w, "file");
    tt_jsonw_str(&w, path);
    tt_jsonw_key(&w, "records");
    tt_jsonw_uint(&w, nrec);
    tt_jsonw_key(&w, "mode");
    tt_jsonw_str(&w, o->strict ? "strict" : "lenient");
    tt_jsonw_key(&w, "cost");
    tt_jsonw_int(&w, r->stack_cost);
    tt_jsonw_key(&w, "stackKey");
    if (r->key_id >= 0) {
        char k[16];
        snprintf(k, sizeof k, "%d|", (int)r->key_id);
        tt_jsonw_str(&w, k);
        tt_jsonw_key(&w, "key_method");
        tt_mapping_format_id(&s, m, (uint32_t)r->key_id, style);
        tt_jsonw_str(&w, s.data);
    } else {
        tt_jsonw_str(&w, "");
        tt_jsonw_key(&w, "key_method");
        tt_jsonw_null(&w);
    }
    tt_jsonw_key(&w, "lines");
    tt_jsonw_uint(&w, r->n_items);
    tt_jsonw_key(&w, "lines_untrimmed");
    tt_jsonw_uint(&w, r->n_untrimmed);
    tt_jsonw_key(&w, "empty_reason");
    if (r->n_items == 0)
        tt_jsonw_str(&w, cli_beat_empty_reason(r->empty_reason));
    else
        tt_jsonw_null(&w);
    tt_jsonw_key(&w, "repairs");
    tt_jsonw_obj_begin(&w);
    tt_jsonw_key(&w, "zero_records");
    tt_jsonw_uint(&w, r->zero_records);
    tt_jsonw_key(&w, "skipped_before_dispatch");
    tt_jsonw_uint(&w, r->skipped_before_dispatch);
    tt_jsonw_key(&w, "stray_exits");
    tt_jsonw_uint(&w, r->stray_exits);
    tt_jsonw_key(&w, "discarded_entries");
    tt_jsonw_uint(&w, r->discarded_entries);
    tt_jsonw_key(&w, "drained");
    tt_jsonw_uint(&w, r->drained);
    tt_jsonw_key(&w, "merged");
    tt_jsonw_uint(&w, r->merged);
    tt_jsonw_obj_end(&w);
    tt_jsonw_key(&w, "nodes");
    cli_tree_json(&w, r->items, r->n_items, m, r->key_index, style);
    tt_jsonw_obj_end(&w);
    tt_buf_puts(&w.buf, "\n");
    cli_out_buf(&w.buf);
    tt_jsonw_free(&w);
    tt_buf_free(&s);
}

int cmd_beat(int argc, char **argv, cli_ctx *ctx)
{
    tt_mstack_opts o = {.strict = 1, .trim = 30};
    char *maps[64];
    size_t nmaps = 0;
    const char *proguard = NULL;
    int format = 0, style = TT_NAME_JAVA, buffmt = TT_BEAT_FMT_AUTO;
    int64_t ring = 0;
    int c;
    while ((c = getopt_long(argc, argv, "m:h", longopts, NULL)) != -1) {
        switch (c) {
        case 'm':
            if (nmaps == 64) {
                cli_errorf("too many -m options (at most 64)");
                return CLI_BAD;
            }
            maps[nmaps++] = cli_opt_input(optarg);
            break;
        case O_PROGUARD: proguard = cli_opt_input(optarg); break;
        case O_STRICT: o.strict = 1; break;
        case O_LENIENT: o.strict = 0; break;
        case O_END:
            if (cli_opt_i64("--end-ms", optarg, &o.end_ms))
                return CLI_BAD;
            o.have_end = 1;
            break;
        case O_BASE:
            if (cli_opt_ms("--base-ms", optarg, &o.base_ms))
                return CLI_BAD;
            break;
        case O_COST:
            if (cli_opt_i64("--cost", optarg, &o.cost_ms))
                return CLI_BAD;
            o.have_cost = 1;
            break;
        case O_TRIM:
            if (cli_opt_int("--trim", optarg, 0, 1000000000, &o.trim))
                return CLI_BAD;
            break;
        case O_FORMAT:
            if ((format = cli_opt_enum("--format", optarg, formats)) < 0)
                return CLI_BAD;
            break;
        case O_NAMES:
            if ((style = cli_opt_enum("--names", optarg, names)) < 0)
                return CLI_BAD;
            break;
        case O_BUFFMT:
            if ((buffmt = cli_opt_enum("--buffer-format", optarg, buffmts)) < 0)
                return CLI_BAD;
            break;
        case O_RING:
            if (cli_opt_i64("--ring-next", optarg, &ring) || ring < 0) {
                if (ring < 0)
                    cli_errorf("option --ring-next: expected a slot number >= 0");
                return CLI_BAD;
            }
            break;
        case 'h': return cli_usage(usage, 0);
        default: return cli_usage(usage, 1);
        }
    }
    if (argc - optind != 1) {
        cli_errorf(argc - optind ? "beat takes exactly one BUFFER" : "beat: missing BUFFER");
        return cli_usage(usage, 1);
    }
    const char *path = argv[optind];
    if (cli_stdin_once(argv + optind, 1) || cli_input_path(path) || cli_input_not_kscrash(path))
        return CLI_BAD;
    tt_mapping *m = NULL;
    int rc = cli_load_mappings(&m, maps, nmaps, proguard, ctx->stats);
    if (rc)
        return rc;
    tt_mstack *ms;
    if (tt_mstack_new(&ms, &o)) {
        tt_mapping_free(m);
        cli_errorf("out of memory");
        return CLI_BAD;
    }
    uint64_t nrec = 0;
    int bin = 0;
    rc = feed_buffer(ms, path, buffmt, ring, &nrec, &bin, ctx->stats);
    tt_error err = {0};
    if (!rc && tt_mstack_finish(ms, &err))
        rc = cli_err(&err);
    if (!rc) {
        const tt_mstack_result *r = tt_mstack_result_get(ms);
        if (nrec > 0 && r->zero_records == nrec)
            cli_stderrf("tracetool: %s: note: no records: all %llu words are zero slots (a "
                    "ring dump that recorded nothing)\n", path, (unsigned long long)nrec);
        if (r->end_defaulted && format != 2)
            cli_stderrf(
                    "tracetool: %s: note: %llu frame%s still open; drained at the last record "
                    "time %lld ms (give --end-ms)\n",
                    path, (unsigned long long)r->drained, r->drained == 1 ? "" : "s",
                    (long long)r->end_ms_used);
        cli_check_ids(m, r->items, r->n_items, path, ctx->stats);
        if (format == 2)
            print_matrix(r);
        else if (format == 1)
            print_json(r, m, path, &o, nrec, style);
        else
            print_text(r, m, path, &o, nrec, bin, style);
        cli_stats_report(ctx->stats);
    }
    tt_mstack_free(ms);
    tt_mapping_free(m);
    return rc;
}
