/* tracetool export: Chrome trace-event JSON, folded stacks or speedscope JSON from sampled
 * stacks or a method-beat call tree (spec/samples.md section 7). */
#include "cli.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "cli_samples.h"

static const char usage[] =
    "usage: tracetool export --format chrome|folded|speedscope [-o FILE]\n"
    "                        [--chrome-events x|be] [--chrome-samples] [--relative-time]\n"
    "                        [--weight samples|wall|cpu|period] [--folded-root thread|process|none]\n"
    "                        [-m MAPPING]... [--thread NAME|TID]... [--max-gap DUR|auto|none]\n"
    "                        [--slice-end last|mid|next] [--end-pad DUR] [--no-msg-split]\n"
    "                        [--loop-frame NAME]... [--mark-gaps] [--event NAME]\n"
    "                        [--frame-identity name|address] [--keep-runtime-frames]\n"
    "                        [-e FILE]... [--symbols DIR]... [--kind KIND] INPUT...\n"
    "\n"
    "      --format FMT        chrome (trace-event JSON), folded, speedscope\n"
    "  -o, --output FILE       write to FILE instead of standard output\n"
    "      --chrome-events E   x (complete events, default) or be (begin/end pairs)\n"
    "      --chrome-samples    chrome: also an instant event per sample\n"
    "      --relative-time     subtract the trace start from timestamps\n"
    "      --weight W          folded/speedscope weight: samples (default), wall, cpu, period\n"
    "      --folded-root R     folded root frame: thread (default), process, none\n"
    "  -m, --mapping FILE      methodMapping.txt for a method-beat buffer (repeatable)\n"
    "      --thread NAME|TID   only these threads (repeatable)\n"
    "      --max-gap DUR       close every slice across a gap longer than DUR (default auto)\n"
    "      --slice-end P       slice end policy: last (default), mid, next\n"
    "      --end-pad DUR       pad after the last sample of a slice (default 10ns)\n"
    "      --no-msg-split      do not split slices when the message id changes\n"
    "      --loop-frame NAME   loop frame for message splits (default android.os.Looper.loop())\n"
    "      --mark-gaps         add [no samples] slices over gaps\n"
    "      --event NAME        perf event to keep (default: the first one seen)\n"
    "      --frame-identity I  name (default) or address\n"
    "      --keep-runtime-frames  keep btrace <runtime ...> frames\n"
    "  -e, --exe FILE          name unnamed native frames from this ELF file (repeatable)\n"
    "      --symbols DIR       symbol store directory for native frames (repeatable)\n"
    "      --kind KIND         force the input kind (btrace, perf, folded, samples-jsonl, beat)\n"
    "  -h, --help              show this help\n";

enum { O_FORMAT = 256, O_CEV, O_CSAMPLES, O_REL, O_WEIGHT, O_ROOT };

static const struct option longopts[] = {
    {"format", required_argument, NULL, O_FORMAT},
    {"output", required_argument, NULL, 'o'},
    {"chrome-events", required_argument, NULL, O_CEV},
    {"chrome-samples", no_argument, NULL, O_CSAMPLES},
    {"relative-time", no_argument, NULL, O_REL},
    {"weight", required_argument, NULL, O_WEIGHT},
    {"folded-root", required_argument, NULL, O_ROOT},
    {"mapping", required_argument, NULL, 'm'},
    CLI_SAMPLES_LONGOPTS,
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0},
};

typedef struct sink {
    FILE *f;
} sink;

static int write_out(void *ctx, const char *p, size_t n)
{
    sink *s = ctx;
    if (!s->f) {
        cli_out_write(p, n);
        return 0;
    }
    return fwrite(p, 1, n, s->f) == n ? 0 : -1;
}

int cmd_export(int argc, char **argv, cli_ctx *ctx)
{
    static const char *const formats[] = {"chrome", "folded", "speedscope", NULL};
    static const char *const cevs[] = {"x", "be", NULL};
    static const char *const weights[] = {"samples", "wall", "cpu", "period", NULL};
    static const char *const roots[] = {"thread", "process", "none", NULL};
    cli_samples_opts so;
    cli_samples_opts_init(&so);
    so.allow_beat = 1;
    tt_export_opts eo;
    tt_export_opts_init(&eo);
    eo.version = TRACETOOL_VERSION;
    int format = -1, v;
    const char *outpath = NULL;
    int ch;
    while ((ch = getopt_long(argc, argv, "+o:m:e:h", longopts, NULL)) != -1) {
        int r = cli_samples_opt(&so, ch, optarg);
        if (r < 0)
            return CLI_BAD;
        if (r)
            continue;
        switch (ch) {
        case O_FORMAT:
            if ((format = cli_opt_enum("--format", optarg, formats)) < 0)
                return CLI_BAD;
            break;
        case 'o': outpath = optarg; break;
        case O_CEV:
            if ((v = cli_opt_enum("--chrome-events", optarg, cevs)) < 0)
                return CLI_BAD;
            eo.be_events = v;
            break;
        case O_CSAMPLES: eo.chrome_samples = 1; break;
        case O_REL: eo.relative_time = 1; break;
        case O_WEIGHT:
            if ((v = cli_opt_enum("--weight", optarg, weights)) < 0)
                return CLI_BAD;
            eo.weight = v;
            break;
        case O_ROOT:
            if ((v = cli_opt_enum("--folded-root", optarg, roots)) < 0)
                return CLI_BAD;
            eo.folded_root = v;
            break;
        case 'm':
            if (so.nmaps == 64) {
                cli_errorf("too many -m options (at most 64)");
                return CLI_BAD;
            }
            so.maps[so.nmaps++] = optarg;
            break;
        case 'h': return cli_usage(usage, 0);
        default: return cli_usage(usage, 1);
        }
    }
    if (format < 0) {
        cli_errorf("export: --format is required (chrome, folded or speedscope)");
        return cli_usage(usage, 1);
    }
    if (argc - optind < 1) {
        cli_errorf("export: missing INPUT");
        return cli_usage(usage, 1);
    }
    tt_profile *p = NULL;
    int rc = cli_samples_load(&p, argv + optind, (size_t)(argc - optind), &so, ctx);
    if (rc)
        return rc;
    uint32_t *sel = NULL;
    size_t nsel = 0;
    if ((rc = cli_samples_threads(&sel, &nsel, p, &so))) {
        tt_profile_free(p);
        return rc;
    }
    eo.slice = so.slice;
    eo.threads = sel;
    eo.n_threads = nsel;
    sink s = {NULL};
    if (outpath && !(s.f = fopen(outpath, "w"))) {
        cli_errorf("%s: cannot create: %s", outpath, strerror(errno));
        rc = CLI_BAD;
    }
    tt_error err = {0};
    if (!rc) {
        int x = format == 0   ? tt_export_chrome(p, &eo, write_out, &s, &err)
                : format == 1 ? tt_export_folded(p, &eo, write_out, &s, &err)
                              : tt_export_speedscope(p, &eo, write_out, &s, &err);
        if (x == TT_EIO)
            cli_errorf("%s: write error: %s", outpath ? outpath : "standard output",
                       strerror(errno));
        if (x)
            rc = x == TT_EIO ? CLI_BAD : cli_err(&err);
    }
    if (s.f && fclose(s.f) && !rc) {
        cli_errorf("%s: write error: %s", outpath, strerror(errno));
        rc = CLI_BAD;
    }
    if (!rc)
        cli_stats_report(ctx->stats);
    free(sel);
    tt_profile_free(p);
    return rc;
}
