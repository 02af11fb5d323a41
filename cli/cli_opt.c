/* Option helpers shared by every subcommand (STYLE.md section 7). */
#include "cli.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

int cli_usage(const char *usage, int error)
{
    fputs(usage, error ? stderr : stdout);
    return error ? CLI_BAD : CLI_OK;
}

static size_t digits(const char *s)
{
    size_t n = 0;
    while (s[n] >= '0' && s[n] <= '9')
        n++;
    return n;
}

size_t cli_num_span(const char *s, int real)
{
    size_t i = s[0] == '-', d = digits(s + i), f = 0;
    i += d;
    if (real && s[i] == '.' && (f = digits(s + i + 1)))
        i += 1 + f;
    if (!d && !f)
        return 0;
    if (real && (s[i] == 'e' || s[i] == 'E')) {
        size_t j = i + 1 + (s[i + 1] == '-' || s[i + 1] == '+'), e = digits(s + j);
        if (e)
            i = j + e;
    }
    return i;
}

int cli_opt_real(const char *val, double *out, const char **end)
{
    size_t n = cli_num_span(val, 1);
    if (!n || (!end && val[n]))
        return -1;
    /* past the range: +-HUGE_VAL, which the caller's range refuses; below the smallest
     * normal (4e-324): the nearest double (a subnormal or 0), not an error */
    *out = strtod(val, NULL);
    if (end)
        *end = val + n;
    return 0;
}

int cli_opt_i64(const char *opt, const char *val, int64_t *out)
{
    char *end;
    errno = 0;
    long long v = strtoll(val, &end, 10);
    if (end == val || *end || val[cli_num_span(val, 0)] || (errno && errno != ERANGE)) {
        cli_errorf("option %s: expected an integer, got \"%s\"", opt, val);
        return CLI_BAD;
    }
    if (errno == ERANGE) {
        cli_errorf("option %s: %s out of range (%lld..%lld)", opt, val, (long long)INT64_MIN,
                   (long long)INT64_MAX);
        return CLI_BAD;
    }
    *out = (int64_t)v;
    return 0;
}

int cli_opt_ms(const char *opt, const char *val, int64_t *out)
{
    int64_t v;
    if (cli_opt_i64(opt, val, &v))
        return CLI_BAD;
    if (v < -TT_MS_MAX || v > TT_MS_MAX) {
        cli_errorf("option %s: %s out of range (%lld..%lld ms)", opt, val, -TT_MS_MAX, TT_MS_MAX);
        return CLI_BAD;
    }
    *out = v;
    return 0;
}

int cli_opt_ms_nonneg(const char *opt, const char *val, int64_t *out)
{
    if (cli_opt_ms(opt, val, out))
        return CLI_BAD;
    if (*out < 0) {
        cli_errorf("option %s: expected milliseconds >= 0, got %s", opt, val);
        return CLI_BAD;
    }
    return 0;
}

int cli_opt_int(const char *opt, const char *val, int min, int max, int *out)
{
    char *end;
    errno = 0;
    long long v = strtoll(val, &end, 10);
    if (end == val || *end || val[cli_num_span(val, 0)] || (errno && errno != ERANGE)) {
        cli_errorf("option %s: expected an integer, got \"%s\"", opt, val);
        return CLI_BAD;
    }
    /* beyond int64 too: the option's own range, not int64's */
    if (errno == ERANGE || v < min || v > max) {
        cli_errorf("option %s: expected an integer in %d..%d, got %s", opt, min, max, val);
        return CLI_BAD;
    }
    *out = (int)v;
    return 0;
}

int cli_opt_enum(const char *opt, const char *val, const char *const *choices)
{
    for (int i = 0; choices[i]; i++)
        if (!strcmp(val, choices[i]))
            return i;
    char list[256] = "";
    for (int i = 0; choices[i]; i++) {
        strncat(list, i ? ", " : "", sizeof list - strlen(list) - 1);
        strncat(list, choices[i], sizeof list - strlen(list) - 1);
    }
    cli_errorf("option %s: expected one of %s, got \"%s\"", opt, list, val);
    return -1;
}

/* How many options that read a file were given '-' since cli_opt_reset (cli_opt_input). */
static int opt_stdin;

void cli_opt_reset(void)
{
    optind = 0; /* glibc: full reinitialisation */
    opterr = 1;
    opt_stdin = 0;
}

char *cli_opt_input(char *val)
{
    opt_stdin += !strcmp(val, "-");
    return val;
}

int cli_input_paths(char *const *paths, int n)
{
    for (int i = 0; i < n; i++)
        if (cli_input_path(paths[i]))
            return CLI_BAD;
    return 0;
}

typedef struct trace_check {
    unsigned flags;
    cli_input_check more;
} trace_check;

/* cli_trace_paths's rule, then the command's check. */
static int check_trace(tt_input *head, const char *path, void *ud, tt_error *err)
{
    const trace_check *c = ud;
    int rc = cli_input_check_trace(head, path, (c->flags & CLI_TRACE_DB) ? (void *)path : NULL,
                                   err);
    return rc || !c->more ? rc : c->more(head, path, NULL, err);
}

static const char *command = "this command";

void cli_opt_command(const char *name)
{
    command = name;
}

int cli_opt_db_output(const char *path)
{
    if (strcmp(path, "-"))
        return 0;
    cli_errorf("%s: -o -: a database cannot be written to standard output (SQLite seeks in "
               "it): give a file name", command);
    return CLI_BAD;
}

/* A KSCrash / Matrix iOS report given to a command that reads no such report: said so (its
 * JSON is valid; a reader of other JSON would call it invalid), with the command that does. */
static int not_kscrash(const char *path)
{
    cli_errorf("%s: a KSCrash or Matrix iOS report: not read by %s (tracetool report %s, "
               "export --format folded, or analyze)", path, command, path);
    return CLI_BAD;
}

int cli_input_not_kscrash(const char *path)
{
    tt_input *in;
    tt_detection d;
    if (cli_input_is_stream(path) || tt_input_open(&in, path, NULL))
        return 0; /* the command reads it once and reports what is wrong */
    int rc = tt_input_detect(&d, in, NULL);
    tt_input_close(in);
    return !rc && d.kind == TT_KIND_KSCRASH ? not_kscrash(path) : 0;
}

int cli_trace_paths(char *const *paths, int n, unsigned flags)
{
    return cli_trace_paths_check(paths, n, flags, NULL);
}

int cli_stdin_once(char *const *paths, int n)
{
    int nstdin = opt_stdin;
    for (int i = 0; i < n; i++)
        nstdin += !strcmp(paths[i], "-");
    if (nstdin < 2)
        return 0;
    cli_errorf("%s: standard input ('-') given more than once", command ? command : "tracetool");
    return CLI_BAD;
}

int cli_trace_paths_check(char *const *paths, int n, unsigned flags, cli_input_check more)
{
    trace_check c = {flags, more};
    if (cli_stdin_once(paths, n))
        return CLI_BAD;
    for (int i = 0; i < n; i++) {
        if (cli_input_path(paths[i]))
            return CLI_BAD;
        tt_input *in;
        tt_detection d;
        tt_error err = {0};
        if ((flags & CLI_TRACE_FORCED) || !strcmp(paths[i], "-"))
            continue;
        /* a FIFO or device is kept for the command, unless its head is no trace */
        if (cli_input_open_checked(&in, paths[i], check_trace, &c, &err)) {
            /* refused, or its read failed after bytes were consumed (an unwritable $TMPDIR):
             * the command must not open it again and read what is left */
            if (cli_input_refused(paths[i]) || cli_input_lost(paths[i]))
                return cli_err(&err);
            continue; /* the command reports what cannot be opened */
        }
        int rc = tt_input_detect(&d, in, NULL);
        tt_input_close(in);
        if (!rc && cli_input_foreign(&d, (flags & CLI_TRACE_DB) != 0)) {
            cli_errorf("%s: not a trace: %s", paths[i], d.what);
            return CLI_BAD;
        }
        if (!rc && d.kind == TT_KIND_KSCRASH && !(flags & CLI_TRACE_IOS))
            return not_kscrash(paths[i]);
    }
    return 0;
}

int cli_is_dsym(const char *path)
{
    size_t n = strlen(path);
    while (n > 1 && path[n - 1] == '/')
        n--;
    return n >= 5 && !memcmp(path + n - 5, ".dSYM", 5);
}

int cli_input_path(const char *path)
{
    struct stat sb;
    if (strcmp(path, "-") && !stat(path, &sb) && S_ISDIR(sb.st_mode)) {
        cli_errorf("%s: is a directory", path);
        return CLI_BAD;
    }
    cli_out_note_input(path);
    return 0;
}
