/* tracetool: main and the command table (git's builtin pattern, STYLE.md section 7). */
#include "cli.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const cli_cmd commands[] = {
    {"analyze", cmd_analyze, "the main job: analyse any inputs into one SQLite database", CLI_WRITES_DB},
    {"merge", cmd_merge, "combine databases written by analyze (shards) into one", CLI_WRITES_DB},
    {"query", cmd_query, "run SQL against a database written by analyze", 0},

    {"beat", cmd_beat, "decode a method-beat buffer: stack, call tree, stack key", 0},

    {"report", cmd_report, "decode Matrix issue reports: stacks with names, grouping", 0},

    {"frames", cmd_frames, "frame drops, FPS and jank per scene; Matrix FPS replays", 0},

    {"startup", cmd_startup, "startup segments, TTID/TTFD, Matrix startup replay, verdicts", 0},

    {"art", cmd_art, "ART method traces (.trace): summary, dump, profile, call tree", 0},
    {"samples", cmd_samples, "sampled stacks: top functions, call tree, rebuilt slices", 0},
    {"export", cmd_export, "write Chrome/Perfetto JSON, folded stacks or speedscope JSON", 0},
    {"flamegraph", cmd_flamegraph, "flame graph SVG (zoom, search) or its layout as TSV", 0},
    {"html", cmd_html, "one self-contained HTML report of a database, with flame graphs", 0},

    {"symbolicate", cmd_symbolicate, "native addresses to functions, source lines, inline chains", 0},

    {"diff", cmd_diff, "compare two builds by method, issue, startup, scene; a CI gate", 0},

    {"help", cmd_help, "show help for a command", 0},
};

const cli_cmd *cli_cmd_list(size_t *n)
{
    *n = sizeof commands / sizeof commands[0];
    return commands;
}

const cli_cmd *cli_cmd_find(const char *name)
{
    for (size_t i = 0; i < sizeof commands / sizeof commands[0]; i++)
        if (!strcmp(commands[i].name, name))
            return &commands[i];
    return NULL;
}

static void usage_main(FILE *f)
{
    fputs("usage: tracetool [-h | --help] [--version] [--quiet | --progress] <command> [<args>]\n\n"
          "Commands:\n",
          f);
    size_t n;
    const cli_cmd *c = cli_cmd_list(&n);
    for (size_t i = 0; i < n; i++)
        fprintf(f, "  %-12s %s\n", c[i].name, c[i].summary);
    fputs("\n--quiet and --progress (also after the command) hide or force the progress line\n"
          "shown on a terminal while large inputs are read.\n"
          "Run 'tracetool <command> -h' for a command's options; see tracetool(1).\n", f);
}

int cmd_help(int argc, char **argv, cli_ctx *ctx)
{
    if (argc < 2) {
        usage_main(stdout);
        return CLI_OK;
    }
    if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help")) {
        fputs("usage: tracetool help [COMMAND]\n", stdout);
        return CLI_OK;
    }
    const cli_cmd *c = cli_cmd_find(argv[1]);
    if (!c) {
        cli_errorf("'%s' is not a tracetool command; see 'tracetool -h'", argv[1]);
        return CLI_BAD;
    }
    char *av[] = {(char *)c->name, "--help", NULL};
    ctx->cmd = c->name;
    return c->fn(2, av, ctx);
}

/* The global --quiet and --progress may come before or after the command (not after "--");
 * they are taken out of argv. Returns the progress mode for cli_progress_init. */
static int global_opts(int *argc, char **argv)
{
    int mode = -1, n = 1;
    for (int i = 1; i < *argc; i++) {
        const char *a = argv[i];
        if (!strcmp(a, "--"))
            for (; i < *argc; i++)
                argv[n++] = argv[i];
        else if (!strcmp(a, "--quiet"))
            mode = 0;
        else if (!strcmp(a, "--progress"))
            mode = 1;
        else
            argv[n++] = argv[i];
        if (i >= *argc)
            break;
    }
    argv[n] = NULL;
    *argc = n;
    return mode;
}

/* A closed standard descriptor (`>&-`) is held by a read-only /dev/null, so that no file the
 * run opens (an input, a lock, a database) takes its number: a write to standard output then
 * fails (EBADF, exit 2) instead of landing in that file, and `-` reads nothing. */
static void hold_std_fds(void)
{
    for (int fd = 0; fd < 3; fd++) {
        if (fcntl(fd, F_GETFD) != -1 || errno != EBADF)
            continue;
        int n = open("/dev/null", O_RDONLY);
        if (n >= 0 && n != fd) { /* a lower one was closed too: held already, or not */
            dup2(n, fd);
            close(n);
        }
    }
}

int main(int argc, char **argv)
{
    hold_std_fds();
    signal(SIGPIPE, SIG_IGN);
    int progress = global_opts(&argc, argv);
    if (argc < 2) {
        usage_main(stderr);
        return CLI_BAD;
    }
    const char *a = argv[1];
    if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
        usage_main(stdout);
        return cli_out_finish();
    }
    if (!strcmp(a, "--version") || !strcmp(a, "-V")) {
        printf("tracetool %s\n", TRACETOOL_VERSION);
        return cli_out_finish();
    }
    if (a[0] == '-') {
        cli_errorf("unknown option '%s'", a);
        usage_main(stderr);
        return CLI_BAD;
    }
    const cli_cmd *c = cli_cmd_find(a);
    if (!c) {
        cli_errorf("'%s' is not a tracetool command", a);
        usage_main(stderr);
        return CLI_BAD;
    }
    cli_ctx ctx = {0};
    ctx.cmd = c->name;
    ctx.stats = tt_stats_new();
    if (!ctx.stats) {
        cli_errorf("out of memory");
        return CLI_BAD;
    }
    cli_progress_init(progress, c->name);
    cli_opt_command(c->name);
    cli_opt_reset();
    /* getopt's own messages then read "tracetool beat: unrecognized option ..." */
    char prog[64];
    snprintf(prog, sizeof prog, "tracetool %s", c->name);
    argv[1] = prog;
    int rc = c->fn(argc - 1, argv + 1, &ctx);
    cli_progress_clear();
    tt_stats_free(ctx.stats);
    cli_input_release();
    int orc = cli_out_finish();
    return orc ? orc : rc; /* a write error (2) outranks a failed check (1) */
}
