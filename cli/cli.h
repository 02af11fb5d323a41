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
int cmd_merge(int argc, char **argv, cli_ctx *ctx);
int cmd_flamegraph(int argc, char **argv, cli_ctx *ctx);
int cmd_html(int argc, char **argv, cli_ctx *ctx);
int cmd_art(int argc, char **argv, cli_ctx *ctx);

const cli_cmd *cli_cmd_find(const char *name);
const cli_cmd *cli_cmd_list(size_t *n);

/* ---- output (cli_out.c): every write checked; EPIPE exits quietly ---- */
/* The exit status of a run whose standard output a reader closed (EPIPE): CLI_OK unless a
 * verdict was set (diff: a tripped gate, CLI_CHECK_FAILED), which a closed pipe keeps. */
void cli_out_epipe_status(int rc);
/* Text: control characters and bytes of no well-formed UTF-8 sequence are written as \xNN,
 * UTF-8 encoded C1 characters as \u00NN (cli_out.c), unless cli_out_binary(1) said the
 * output carries data (an ART trace). A UTF-8 sequence or CR LF split between two writes is
 * written as one; an incomplete tail is held until the next write or cli_out_finish. */
void cli_out_write(const char *p, size_t n);
void cli_out_binary(int on);
void cli_out_puts(const char *s);
void cli_out_printf(const char *fmt, ...) CLI_PRINTF(1, 2);
void cli_out_buf(tt_buf *b); /* writes and empties b */
/* Writes a large block (a quarter MiB, say) with write(2) after what stdio holds, not
 * through stdio's buffer: no copy, and large writes cost the kernel less per byte. */
void cli_out_write_large(const char *p, size_t n);
/* Flush and close stdout; returns 0 or CLI_BAD after printing the error. */
int cli_out_finish(void);
/* p[0..n) to standard output, escaped as cli_out_write escapes, and flushed, the error
 * returned (0 or its errno; EPIPE is the caller's to judge) and stdout's stream left clean
 * (cli_out_try.c): output printed before an output file is committed. */
int cli_out_try(const char *p, size_t n);
/* Removes the "FILE.tmp-PID" files a killed run (kill -9) left beside output path (PID no
 * live process; cli_out_try.c); called before cli_out_file_open. */
void cli_out_clean_stale(const char *path);

/* Output files (-o FILE): written to "FILE.tmp-PID" beside FILE and renamed over it by
 * cli_out_file_commit, so FILE is the old file or the complete new one. A symbolic link is
 * followed (its target is replaced, the link stays); a FILE that exists and is not a regular
 * file (/dev/null, a FIFO) is written in place. On an error, cli_out_file_abort, SIGINT,
 * SIGTERM or SIGHUP the temporary file is removed. */
typedef struct cli_out_file cli_out_file;
/* NULL after printing an error (exit code CLI_BAD). */
cli_out_file *cli_out_file_open(const char *path);
FILE *cli_out_file_stream(cli_out_file *f);
/* p[0..n) to f as cli_out_write writes standard output (the escaper's state kept from one
 * write to the next; the held tail written by cli_out_file_commit); -1 on a write error
 * (errno set). */
int cli_out_file_write(cli_out_file *f, const char *p, size_t n);
/* 1 when write error err on f is the end of a pipe whose reader stopped (-o /dev/stdout into
 * `| head`): not an error, as for standard output. */
int cli_out_file_pipe_closed(const cli_out_file *f, int err);
/* Flushes, syncs and renames into place; frees f. 0, or CLI_BAD after printing the error. */
int cli_out_file_commit(cli_out_file *f);
/* Closes f and removes its temporary file; NULL is a no-op. */
void cli_out_file_abort(cli_out_file *f);
/* path with symbolic links of its last component followed (malloc'd); NULL after printing
 * an error: an empty path, a loop of links, a link in a sticky world-writable directory
 * (/tmp) owned by another user (as fs.protected_symlinks), out of memory. A descriptor path
 * (/dev/stdout, /dev/fd/N, /proc/self/fd/N) is not followed: see cli_out_fd_path. */
char *cli_out_resolve(const char *path);
/* N when path names descriptor N of this process ("-" and /dev/stdout: 1, /dev/stdin,
 * /dev/stderr, /dev/fd/N, /proc/self/fd/N, /proc/PID/fd/N with our PID), else -1. Outputs write through a
 * duplicate of it (the shell's append mode and offset kept); a database is not written there. */
int cli_out_fd_path(const char *path);
/* Remembers input path (a regular file; the first 64 of a run): cli_out_file_open refuses
 * to replace it with an output (-o IN given by mistake). cli_input_path calls it. */
void cli_out_note_input(const char *path);
/* 1 when regular file input (not "-") is the file target names (a resolved output path). */
int cli_out_same_file(const char *input, const char *target);
/* Exclusive lock of the writers of the database target: "TARGET.lock" beside it, an fcntl
 * write lock; a second writer prints a note and waits. NULL after printing an error. The
 * lock file is removed by cli_out_lock_release (and on the signals above). */
typedef struct cli_out_lock cli_out_lock;
cli_out_lock *cli_out_lock_take(const char *target);
void cli_out_lock_release(cli_out_lock *l);
/* Files unlinked when SIGINT, SIGTERM or SIGHUP arrives (then the handler installed before,
 * or the default action, runs); at most 8 at a time. A signal ignored when the first file is
 * guarded stays ignored. */
void cli_out_guard(const char *path);
void cli_out_unguard(const char *path);
/* A database written in place (analyze --append): cli_out_wal_absent, before the open, is 1
 * when neither its -wal nor its -shm file exists; cli_out_guard_wal, once the write
 * transaction is held and when they were absent and the log still holds nothing
 * (tdb_wal_empty), has them unlinked on those signals too, unless another process uses
 * them; cli_out_unguard_wal before the commit, whose log must stay. */
int cli_out_wal_absent(const char *db);
void cli_out_guard_wal(const char *db);
void cli_out_unguard_wal(void);
/* Blocks (1) or restores (0) those signals around creating and guarding a file. */
void cli_out_block_signals(int block);
/* Another cleanup's handler of those signals: cli_out_signal_install makes fn their handler
 * (prev: the three handlers it replaces) except of those ignored (SIG_IGN) now, which stay
 * ignored; fn ends with cli_out_signal_pass, which calls the one that sig replaced or, for
 * none, takes the default action. */
struct sigaction;
void cli_out_signal_install(void (*fn)(int), struct sigaction *prev);
void cli_out_signal_pass(int sig, const struct sigaction *prev);
/* Gives back the handlers cli_out_signal_install replaced (prev as it filled it). */
void cli_out_signal_restore(const struct sigaction *prev);

/* ---- inputs (cli_input.c): each input is read once ---- */
/* Opens path ("-" = standard input). again: the caller opens it a second time later; an
 * input that cannot be read twice (standard input, a FIFO, a device) is then read into
 * memory now, and this and every later open of path read that copy. */
int cli_input_open(tt_input **in, const char *path, int again, tt_error *err);
/* A command's check of a stream's head (head: its first 16 MiB, path as given): 0 when it can
 * be an input of the command, else the error the command would report for it (err set). */
typedef int (*cli_input_check)(tt_input *head, const char *path, void *ud, tt_error *err);
/* cli_input_open(in, path, 1, err), but a stream that outgrows memory is first checked: one
 * that check (NULL: none) refuses is not read further (never spooled to $TMPDIR: /dev/zero
 * or `yes` are refused after 16 MiB); this and every later open of path fail with its error. */
int cli_input_open_checked(tt_input **in, const char *path, cli_input_check check, void *ud,
                           tt_error *err);
/* 1 when path is a stream that a check refused. */
int cli_input_refused(const char *path);
/* 1 when reading stream path failed after bytes of it were consumed (a read error, or a
 * spool file that could not be made in $TMPDIR): every open fails with that error, never
 * reading what is left of the stream; a command stops on it (exit 2). */
int cli_input_lost(const char *path);
/* cli_trace_paths's check: refuses a known foreign format or binary data that is no
 * method-beat buffer ("not a trace: ..."), an SQLite file too unless ud is non-NULL. */
int cli_input_check_trace(tt_input *head, const char *path, void *ud, tt_error *err);
/* 1 when detection d refuses an input as no trace (cli_trace_paths' rule): a known foreign
 * format, or binary data that is no method-beat buffer; an SQLite file unless db_ok. */
int cli_input_foreign(const tt_detection *d, int db_ok);
/* 1 for standard input and paths that are neither regular files nor directories. */
int cli_input_is_stream(const char *path);
/* Frees the in-memory copies (at exit). */
void cli_input_release(void);

/* ---- diagnostics ---- */
/* "tracetool: FILE:LOC: message" for a library error; returns CLI_BAD. */
int cli_err(const tt_error *err);
/* The same text without "tracetool: " and newline: "FILE:LOC: message". */
void cli_err_text(char *dst, size_t cap, const tt_error *err);
void cli_errorf(const char *fmt, ...) CLI_PRINTF(1, 2);
void cli_warnf(const char *fmt, ...) CLI_PRINTF(1, 2);
/* What beat_time_backwards means (beat and analyze, method-beat.md 3.4). */
#define CLI_BEAT_BACKWARDS                                                                   \
    "record times go backwards: a raw ring dump (--ring-next K rotates it, K = the next "      \
    "slot Matrix would write) or concatenated slices"
/* Raw text to standard error ("tracetool: FILE: warning: ...\n" written by the caller). */
void cli_stderrf(const char *fmt, ...) CLI_PRINTF(1, 2);
/* Text of any length to standard error after what standard output holds (so a stream of
 * both keeps their order), escaped as the diagnostics are (tracetool(1) OUTPUT). */
void cli_stderr_text(const char *p, size_t n);
/* While b is set, this thread's diagnostics (cli_err, cli_errorf, cli_warnf, cli_stderrf)
 * are appended to b instead of written (analyze --jobs: printed later, in input order);
 * NULL writes them again. Progress is off in such a thread. */
void cli_msg_capture(tt_buf *b);
int cli_msg_capturing(void);
/* The buffer this thread's diagnostics go to, NULL when they are written (cli_capture.c). */
tt_buf *cli_msg_capture_buf(void);
/* Prints the counted warnings of stats as "tracetool: warning: ..." lines. */
void cli_stats_report(const tt_stats *s);
/* The same for the stats whose name starts with prefix. */
void cli_stats_report_prefix(const tt_stats *s, const char *prefix);

/* ---- options (cli_opt.c) ---- */
/* Usage: prints text to stdout (help) or stderr (error) and returns the exit code. */
int cli_usage(const char *usage, int error);
/* Numeric option values are plain decimal numbers (tracetool(1) OPTIONS): an integer is
 * [-]DIGITS; a real is [-]DIGITS[.DIGITS] or [-].DIGITS with an optional exponent
 * e[+-]DIGITS. No blanks, no '+' sign, no hexadecimal (0x10, 0x1p4), inf or nan.
 * cli_num_span: the length of such a number at the start of s (real: 1 for a real), 0 for
 * none. */
size_t cli_num_span(const char *s, int real);
/* The real at the start of val: 0 and *out, or -1 when there is none, or (end NULL) when
 * text follows it; end: set after the number (a unit may follow). A value below the smallest
 * normal double (4e-324) is its nearest double, a value beyond the largest is +-HUGE_VAL:
 * the caller's range says whether it is allowed. */
int cli_opt_real(const char *val, double *out, const char **end);
int cli_opt_i64(const char *opt, const char *val, int64_t *out);
/* A time in ms within -TT_MS_MAX..TT_MS_MAX (its ns value fits in int64). */
int cli_opt_ms(const char *opt, const char *val, int64_t *out);
/* cli_opt_ms that also refuses a negative value (a duration or a threshold). */
int cli_opt_ms_nonneg(const char *opt, const char *val, int64_t *out);
int cli_opt_int(const char *opt, const char *val, int min, int max, int *out);
/* Returns the index of val in the NULL-terminated list, or -1 after printing an error. */
int cli_opt_enum(const char *opt, const char *val, const char *const *choices);
/* -o of a command that writes a database (analyze, merge): "-" (standard output, which
 * other commands' -o accept) is refused: CLI_BAD after the message, else 0. */
int cli_opt_db_output(const char *path);
/* A file argument that must not be a directory: prints "tracetool: PATH: is a directory" and
 * returns CLI_BAD for one, 0 otherwise ("-" and missing files are the opener's business). */
int cli_input_path(const char *path);
int cli_input_paths(char *const *paths, int n);
/* 1 for a path naming a dSYM bundle (a directory that symbol commands take as a file). */
int cli_is_dsym(const char *path);
/* cli_input_path, then (unless CLI_TRACE_FORCED: --kind) "tracetool: PATH: not a trace: WHAT"
 * for a file in a known non-trace format or binary data that is no method-beat buffer;
 * CLI_TRACE_DB leaves SQLite files to the command's database reader. */
enum { CLI_TRACE_FORCED = 1u, CLI_TRACE_DB = 2u,
       CLI_TRACE_IOS = 4u /* KSCrash and Matrix iOS reports are the command's too */ };
/* ... and a KSCrash / Matrix iOS report is refused, saying what it is and where it goes,
 * unless CLI_TRACE_IOS (export: the command reads it). */
int cli_trace_paths(char *const *paths, int n, unsigned flags);
/* "tracetool: COMMAND: standard input ('-') given more than once" and CLI_BAD when paths and
 * the options that read a file (cli_opt_input) name '-' twice or more (it is read once), else
 * 0; cli_trace_paths checks it first. */
int cli_stdin_once(char *const *paths, int n);
/* val, the value of an option that reads a file (-m, --proguard, --beat, ...): a '-' is
 * counted by cli_stdin_once until the next cli_opt_reset. */
char *cli_opt_input(char *val);
/* cli_trace_paths, and a FIFO or device that outgrows memory must also pass the command's
 * check (more, NULL: none) before it is spooled (cli_input_open_checked). */
int cli_trace_paths_check(char *const *paths, int n, unsigned flags, cli_input_check more);
/* That refusal of a KSCrash / Matrix iOS report for one regular file (a stream is left to
 * the command's reader): CLI_BAD after the message, else 0. */
int cli_input_not_kscrash(const char *path);
/* The subcommand being run (main sets it), named by the input checks' messages. */
void cli_opt_command(const char *name);
/* Resets getopt_long for a subcommand. Options are permuted (GNU style): they may follow
 * operands, and "--" ends them. */
void cli_opt_reset(void);

#endif
