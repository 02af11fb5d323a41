/* tracetool art (spec/art-trace.md 6.5): the run state shared by the option parser
 * (cmd_art.c) and the output modes (cli_art_dump.c, cli_art_prof.c, cli_art_tree.c,
 * cli_art_summary.c); cli_art_out.c holds their common formatting helpers. */
#ifndef CLI_ART_H
#define CLI_ART_H

#include "cli.h"

#include "../libtrace/tt_art.h"

enum { F_TEXT, F_JSON, F_JSONL, F_CSV };
enum { C_WALL, C_CPU, C_FIRST };
#define MAX_SEL 16
#define MAX_WIN 16

typedef struct art_run {
    int dump, profile, tree, max_nodes, format, clock, clock_given, us, mode, aclock, close_at;
    const char *sel[MAX_SEL];
    int nsel;
    const char *win[MAX_WIN];
    int nwin;
    int64_t threshold_ms;
    const char *retrace;
    int normalize;
    const char *keys;      /* --art-keys */
    int subtract_overhead; /* --art-subtract-overhead */
    /* after parsing */
    tt_art *a;
    const char *file;
    unsigned char *use;  /* per thread: selected */
    int use_cpu;         /* the chosen clock is the CPU clock */
    int sampled;
    int64_t interval_us;
    uint32_t cur_tid;
    tt_art_rebuild_opts ro;
    cli_ctx *ctx;
    /* --profile streamed while reading (6.6): the profile and thread spans it gave */
    tt_art_pstream *ps;
    tt_art_prof *sprof;
    int64_t sspan, scspan;
} art_run;

/* Output modes: each returns 0 or an exit code after printing. */
int cli_art_dump(art_run *r);
int cli_art_profile(art_run *r);
int cli_art_tree(art_run *r);
int cli_art_summary(art_run *r);

/* Per-method rows shared by --profile and the summary. */
/* Indices of the methods with calls, sorted by self time of the chosen clock (malloc'd). */
uint32_t *cli_art_prof_order(const art_run *r, const tt_art_prof *prof, size_t *n);
void cli_art_prof_row(const art_run *r, tt_jsonw *w, const tt_art_method *m,
                      const tt_art_prof *p);
void cli_art_prof_header(void);

/* A time in us as ms with three decimals, or as us (in_us); "-" when !have. */
void cli_art_put_time(int64_t us, int have, int in_us);
/* Writes and empties w's buffer. */
void cli_art_json_flush(tt_jsonw *w);
/* Closes the JSON document (--format json) of an art mode, writes what is left, frees w */
void cli_art_json_end(const art_run *r, tt_jsonw *w);
/* "k": v, or null when !have. */
void cli_art_json_time(tt_jsonw *w, const char *k, int64_t v, int have);

#endif
