/* Internal to perf_sample.c and its driver import_perf.c: the state that turns the lines of
 * `perf script` / simpleperf text, in input order, into samples (spec/samples.md 2.2). */
#ifndef PERF_SAMPLE_INT_H
#define PERF_SAMPLE_INT_H

#include "perf_text_int.h"

/* An inlined frame line kept until its out-of-line frame: its text and its srcline; or
 * (fid not TT_NONE) a frame already read that its srcline said was inlined (-F +srcline
 * prints "(inlined)" there). */
typedef struct tt__perf_inl {
    size_t off, n, file_off, file_n;
    int32_t line;
    int has_file, has_addr;
    uint64_t addr;
    uint32_t fid;
} tt__perf_inl;

typedef struct tt__perf_asm {
    tt_profile *p;
    const tt_import_opts *o;
    tt_stats *stats;
    const char *file;
    tt_vec frames;  /* uint32_t, leaf first */
    /* frame lines perf marked "(inlined)" (2.2), waiting for the out-of-line frame after
     * them whose module they are in: tt__perf_inl per line, their text in pend_text */
    tt_vec pend;
    tt_buf pend_text;
    size_t last_inl; /* the frames before the last one that were inlined into it */
    /* unsigned char per frame id: 1 for a frame that may end up unused: read out of line
     * and then said by its srcline to be inlined (its inlined copy is used instead), or of
     * the partial sample a cut input ends with; dropped at the end if no callsite uses it */
    tt_vec unused;
    /* the last frame line read (its pc for a srcline that says "(inlined)"): in the
     * driver's chunk or in pf_buf; NULL when not known */
    const char *pf;
    size_t pfn;
    tt_buf pf_buf;
    tt_vec last_ts; /* int64_t per utid */
    tt_buf line, name, comm; /* comm: the block's thread name, copied from its header */
    tt_buf key;              /* thread key: pid and tid, or comm without a tid */
    tt_buf last_comm;        /* the last sample's thread: pid, tid, comm and utid */
    int64_t last_pid, last_tid, last_cpu;
    uint32_t last_utid;
    tt_intern *tkeys;        /* thread keys; id -> utid in tutid (TT_NONE: forked anew) */
    tt_vec tutid;            /* uint32_t per thread key */
    tt_vec claimed;          /* unsigned char per utid: a thread key uses it */
    tt_buf want;             /* event kept, its key (tt__perf_event_key) */
    tt_buf evkey;            /* the key of the current header's event */
    tt_buf variants;         /* its spellings seen, ", "-separated */
    tt_buf events;           /* every event seen, by key, ", "-separated */
    int kept_any;            /* a header of the event kept was seen */
    tt_perf_maps *maps;      /* PERF_RECORD_MMAP lines (--show-mmap-events) */
    char path[1024];         /* the current frame's module path */
    char dso_path[1024];     /* the current frame's dso as perf prints it (module_file) */
    int in_block, keep, have_frame, first_frac, after_blank, weak_inline, inline_only;
    int oneline;             /* a one-line sample was read (weak_inline): headers have frames */
    int comm_only, addr_frames; /* addr_frames: -1 unknown, 1 frames carry addresses, 0 not */
    int skipping;            /* after a line that is no header: up to the next blank line or
                              * sample header */
    int tracing_data;        /* after simpleperf's "tracing data:" line: event fields, no
                              * frames, up to the next blank line */
    /* perf's own warning (its stderr, in the text by 2>&1; tt__perf_warn_step): the line
     * ending in "Warning:" held in warn_hold until the next says whether it starts one; the
     * bytes of it before "Warning:" (warn.pre: a warning written inside a line, at perf's
     * stdout buffer boundary) joined with the line after the warning (warn_join), read as line
     * warn_pre_line */
    tt__perf_warn warn;
    uint64_t warn_line, warn_pre_line;
    tt_buf warn_hold, warn_join;
    tt__perf_layout lay;     /* the file's header layout (tt__perf_layout_scan) */
    int tid_or_time;         /* its headers have a tid or a time: "word:" is none */
    uint64_t timed, untimed, with_period; /* with_period: samples whose header had one */
    size_t base;             /* the profile's samples before this input's */
    tt__perf_hdr h;
    uint64_t samples, bad_lines, bad_first;
    int report_sample;       /* a "sample:" line: simpleperf report-sample text? */
    char bad_example[160];
    char hdr_snip[64]; /* a comm-only header, reported when no frame follows */
    uint64_t hdr_line;
    uint64_t block_line; /* the line of the sample's header */
    uint64_t cut_line;   /* the input's last line when it has no newline (cut), else 0 */
    int have_maps;           /* a memory map was read: unnamed file frames depend on the pid */
    int deleted_dso;         /* a frame's dso had perf's " (deleted)" (reported once) */
    tt__cscache *cs;         /* the previous stack: most of its root side is shared */
    /* the last header with a time and nothing after its event, as it was in the input: a
     * header equal to it but for the time's digits is the same header at another time */
    tt_buf hline, hcomm, hevent;
    size_t htime_off, htime_n;
    tt__perf_hdr hlast;
    int hvalid;
    /* the driver's runs of frame lines (import_perf.c), per chunk: per run the leaf callsite
     * of a stack made of it alone (TT_NONE until one was); cur_run: the run the block's
     * frames are, else TT_NONE (any other frame resets it) */
    tt_vec run_leaf;
    uint32_t cur_run;
} tt__perf_asm;

/* file: the input's name for messages (borrowed). tt__perf_asm_free also after a failure. */
int tt__perf_asm_init(tt__perf_asm *st, tt_profile *p, const tt_import_opts *o, tt_stats *stats,
                      const char *file);
void tt__perf_asm_free(tt__perf_asm *st);
/* The next input line (lineno its 1-based number). */
int tt__perf_asm_line(tt__perf_asm *st, const char *line, size_t n, uint64_t lineno,
                      tt_error *err);
/* Lines are frames of the current block without looking at them further: what
 * tt__perf_asm_frame may be given. */
static inline int tt__perf_asm_takes_frames(const tt__perf_asm *st)
{
    return st->in_block && !st->skipping && !st->tracing_data && !st->weak_inline &&
           !st->warn.state &&
           !(st->oneline && !st->have_frame); /* block_line: a one-line sample may follow */
}
/* Frame lines known by their text can be pushed as they are: no inlined frame waits for
 * the frame after it. */
static inline int tt__perf_asm_plain(const tt__perf_asm *st)
{
    return st->keep && !st->inline_only && st->addr_frames >= 0 && !st->pend.len;
}
/* The next input line when tt__perf_asm_takes_frames and tt__perf_frame_text says it is a
 * frame line: what tt__perf_asm_line does with it. *fid caches the line's frame (TT_NONE: not
 * known yet; left so when it depends on the memory maps, *mapdep). */
int tt__perf_asm_frame(tt__perf_asm *st, const char *line, size_t n, uint32_t *fid, int *mapdep,
                       uint64_t lineno, tt_error *err);
/* The end of the input after line lineno: the last block, the file's warnings, and an error
 * when no sample was read. */
int tt__perf_asm_end(tt__perf_asm *st, uint64_t lineno, tt_error *err);

#endif
