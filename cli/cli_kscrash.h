/* KSCrash / Matrix iOS reports in the CLI (spec/ios.md 9, 11): report and symbolicate
 * --kind kscrash outputs, grouping by top app frame, and the names analyze stores. */
#ifndef CLI_KSCRASH_H
#define CLI_KSCRASH_H

#include <regex.h>
#include <stdio.h>

#include "cli_sym.h"
#include "../libtrace/tt_kscrash.h"

enum { CLI_KS_TEXT = 0, CLI_KS_JSON, CLI_KS_JSONL, CLI_KS_FOLDED, CLI_KS_CSV };
enum { CLI_KS_THREADS_DEFAULT = 0, CLI_KS_THREADS_POINT, CLI_KS_THREADS_MAIN, CLI_KS_THREADS_ALL };
#define CLI_KS_MAX_RE 32

typedef struct cli_ks_opts {
    int format, threads, group, no_adjust, show_device_names, full_path;
    int64_t interval_ms;
    const char *app_image;             /* --app-image RE, or NULL */
    const char *skip[CLI_KS_MAX_RE];   /* --skip-frame RE */
    size_t n_skip;
    cli_sym_opts sym;                  /* --symbols, --dsym (as stores searched first), -e */
    int weight_repeat;                 /* folded: the key stack weighs its top frame's
                                        * repeat_count (export --weight repeat, ios.md 9.3) */
    int aggregate;                     /* folded: one line per distinct path, sorted by its
                                        * bytes (export, samples.md 7.2), not per report */
    cli_out_file *out;                 /* NULL: standard output; else written unchecked
                                        * (the caller checks ferror) */
} cli_ks_opts;

/* Long options shared by report and symbolicate. */
enum { CLI_KS_O_DSYM = 0x4b00, CLI_KS_O_THREADS, CLI_KS_O_SKIP, CLI_KS_O_APP, CLI_KS_O_INTERVAL,
       CLI_KS_O_NOADJ, CLI_KS_O_DEVNAMES, CLI_KS_O_FULLPATH };
/* Handles the options above and --symbols: 1 consumed, 0 not ours, -1 after an error. */
int cli_ks_opt(cli_ks_opts *o, int c, const char *arg);

/* tt_input_open, except that "-" (standard input) is read once and can be opened again. */
int cli_ks_open(tt_input **in, const char *path, tt_error *err);
/* 1 when the file's first bytes look like a KSCrash / Matrix iOS report. */
int cli_ks_file_is_ios(const char *path);
/* What a report input holds: 1 KSCrash / Matrix iOS reports, 0 anything else; -1 after
 * saying why neither reader takes it: an Apple crash report (.ips, .crash: ios.md 2.1), or,
 * with must_open, a file that does not open (else 0: its reader says so). */
int cli_ks_file_kind(const char *path, int must_open);
/* Reads and prints every file; returns the exit code. */
int cli_ks_run(const cli_ks_opts *o, char **files, int nfiles, cli_ctx *ctx);

/* Compiled regexes and the per-report naming used by outputs and analyze. */
typedef struct cli_ks_names {
    regex_t app, skip[CLI_KS_MAX_RE];
    int have_app;
    size_t n_skip;
    int show_device_names, full_path;
    cli_sym *sym; /* borrowed, NULL without symbol options: debug files of images */
    tt_buf tmp;
} cli_ks_names;
int cli_ks_names_init(cli_ks_names *n, const cli_ks_opts *o);
void cli_ks_names_free(cli_ks_names *n);
/* App images of a report per --app-image (or the 9.4 default). */
void cli_ks_mark_app(cli_ks_names *n, tt_ks_report *rep);
/* The canonical function of a frame (outermost of its chain) or NULL. */
const char *cli_ks_function(const tt_ks_report *rep, const tt_ks_frame *f);
/* The report's own symbol_name of f when it can be trusted (not empty, not "<redacted>",
 * not in an app image: I2, Matrix #423), else NULL. */
const char *cli_ks_device_name(const tt_ks_report *rep, const tt_ks_frame *f);
/* The function start (a vmaddr) of a frame without a name whose image knows it from
 * LC_FUNCTION_STARTS (6.5); 1 when known. Frame lines, short names and keys use it. */
int cli_ks_fstart(const tt_ks_report *rep, const tt_ks_frame *f, uint64_t *vmaddr);
/* A frame's short name for paths, call nodes, thread_stack and folded stacks: the
 * function (or a usable on-device name), else "image!+0x<function start vmaddr>" (6.5,
 * the group key's form: samples in one stripped function share it), "image+0x<offset>",
 * or "0x<pc>"; appended to out. */
void cli_ks_short_name(tt_buf *out, const tt_ks_report *rep, const tt_ks_frame *f);

/* 9.4: the key thread (point, main, busiest CPU, crashed; -1 none) and its top app frame. */
typedef struct cli_ks_key {
    int thread;          /* index into rep->threads, -1 none */
    int frame;           /* index into rep->frames of the top app frame, -1 none */
    char key[512];       /* group key */
    char raw[256];       /* image+0x<offset> of the top app frame, "" without one */
    char top[512];       /* display of the top app frame */
    tt_buf path;         /* root -> top app frame, ';'-joined */
} cli_ks_key;
void cli_ks_key_compute(cli_ks_key *k, cli_ks_names *n, const tt_ks_report *rep);
void cli_ks_key_free(cli_ks_key *k);
/* "lag" for lag dump types, else the dump type name or crash.error.type. */
const char *cli_ks_class(const tt_ks_report *rep);

#endif
