/* tracetool command-line internals: command table, options, checked output. */
#ifndef CLI_H
#define CLI_H

#include <getopt.h>
#include <stdint.h>
#include <stdio.h>

#include "../libtrace/tt.h"

#define TRACETOOL_VERSION TT_VERSION_STRING

#if defined(__GNUC__)
#define CLI_PRINTF(a, b) __attribute__((format(printf, a, b)))
#else
#define CLI_PRINTF(a, b)
#endif

enum { CLI_OK = 0, CLI_CHECK_FAILED = 1, CLI_BAD = 2 };

/* ---- progress line (cli_progress.c) ---- */
/* mode: -1 automatic (stderr is a terminal and CI is not set), 0 off, 1 forced. */
void cli_progress_init(int mode, const char *cmd);
/* Reports the reads of in on the progress line when it is on. */
void cli_progress_attach(tt_input *in);
/* Progress of a long loop over total items (e.g. rows written); the line is erased when
 * done reaches total. Cheap when the line is off; call it every few thousand items. */
void cli_progress_items(const char *what, uint64_t done, uint64_t total);
/* Erases the progress line (before any other output to the terminal). */
void cli_progress_clear(void);

typedef struct cli_ctx {
    const char *cmd;      /* subcommand name */
    tt_stats *stats;
    int quiet;
} cli_ctx;

typedef struct cli_cmd {
    const char *name;
    int (*fn)(int argc, char **argv, cli_ctx *ctx);
    const char *summary;
    unsigned flags;
} cli_cmd;
#define CLI_WRITES_DB 1u

int cmd_beat(int argc, char **argv, cli_ctx *ctx);
int cmd_help(int argc, char **argv, cli_ctx *ctx);
int cmd_report(int argc, char **argv, cli_ctx *ctx);
int cmd_analyze(int argc, char **argv, cli_ctx *ctx);
int cmd_query(int argc, char **argv, cli_ctx *ctx);
int cmd_frames(int argc, char **argv, cli_ctx *ctx);
int cmd_startup(int argc, char **argv, cli_ctx *ctx);
int cmd_samples(int argc, char **argv, cli_ctx *ctx);
int cmd_export(int argc, char **argv, cli_ctx *ctx);
int cmd_symbolicate(int argc, char **argv, cli_ctx *ctx);
int cmd_diff(int argc, char **argv, cli_ctx *ctx);
int cmd_flamegraph(int argc, char **argv, cli_ctx *ctx);
int cmd_html(int argc, char **argv, cli_ctx *ctx);

const cli_cmd *cli_cmd_find(const char *name);
const cli_cmd *cli_cmd_list(size_t *n);

/* ---- output (cli_out.c): every write checked; EPIPE exits quietly ---- */
void cli_out_write(const char *p, size_t n);
void cli_out_puts(const char *s);
void cli_out_printf(const char *fmt, ...) CLI_PRINTF(1, 2);
void cli_out_buf(tt_buf *b); /* writes and empties b */
/* Flush and close stdout; returns 0 or CLI_BAD after printing the error. */
int cli_out_finish(void);

/* ---- diagnostics ---- */
/* "tracetool: FILE:LOC: message" for a library error; returns CLI_BAD. */
int cli_err(const tt_error *err);
void cli_errorf(const char *fmt, ...) CLI_PRINTF(1, 2);
void cli_warnf(const char *fmt, ...) CLI_PRINTF(1, 2);
/* Prints the counted warnings of stats as "tracetool: warning: ..." lines. */
void cli_stats_report(const tt_stats *s);

/* ---- options (cli_opt.c) ---- */
/* Usage: prints text to stdout (help) or stderr (error) and returns the exit code. */
int cli_usage(const char *usage, int error);
int cli_opt_i64(const char *opt, const char *val, int64_t *out);
int cli_opt_int(const char *opt, const char *val, int min, int max, int *out);
/* Returns the index of val in the NULL-terminated list, or -1 after printing an error. */
int cli_opt_enum(const char *opt, const char *val, const char *const *choices);
/* Resets getopt_long for a subcommand. Options are permuted (GNU style): they may follow
 * operands, and "--" ends them. */
void cli_opt_reset(void);

#endif
