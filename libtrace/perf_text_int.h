/* Internal to perf_text.c and its users perf_sample.c and import_perf.c: one line of
 * `perf script` / simpleperf text read on its own (spec/samples.md section 2.2). */
#ifndef PERF_TEXT_INT_H
#define PERF_TEXT_INT_H

#include "tt.h"
#include "tt_int.h"

typedef struct tt__perf_tok {
    const char *p;
    size_t n;
} tt__perf_tok;

/* The fields of a sample header; pointers into the line given to tt__perf_hdr_parse. */
typedef struct tt__perf_hdr {
    int64_t ts, pid, tid, period; /* period: period_u, at most INT64_MAX */
    uint64_t period_u;            /* the period as perf printed it (a u64) */
    int period_over;              /* it was above 2^64-1 (period_u is that then) */
    int64_t cpu; /* the "[cpu]" field, -1 when none */
    int frac_digits, has_period, has_ts, has_pid, comm_first_hex, comm_only, inline_frame;
    int layout_miss; /* a time or event header that does not fit the file's layout (tail) */
    tt__perf_tok comm, event, rest;
    tt__perf_tok time; /* the "<sec>.<frac>" token when has_ts */
} tt__perf_hdr;

/* The file's header layout (2.2), read from its first headers (tt__perf_layout_scan). */
typedef struct tt__perf_layout {
    /* the count of numbers (pid/tid, tid, period) the file's headers have left of their time
     * or event, or ending a header line above a call chain, -1 when not known: the tokens
     * before them are the comm even when it ends in a number */
    int tail;
    /* the file's one number left of the event (or before the frame) is the period, not a tid
     * (-F comm,period,ip,sym: perf prints the period right-aligned in 10 columns after a
     * blank, the tid in 7); only with tail 1 */
    int notid;
} tt__perf_layout;

/* A sample header in any layout `perf script -F` writes (2.2): comm, pid/tid or tid, [cpu],
 * time, period and event are each optional; perf without call graphs puts the frame (or a
 * tracepoint's payload) after them on the same line. s: tabs already blanks, trimmed; lay:
 * the file's layout, NULL when not known. Returns TT_PERF_HDR_STRONG when a time or an event
 * was found, TT_PERF_HDR_WEAK when only comm/pid/cpu/period or a bare frame, TT_PERF_HDR_BAD
 * when nothing fits. */
enum { TT_PERF_HDR_BAD = 0, TT_PERF_HDR_WEAK, TT_PERF_HDR_STRONG };
int tt__perf_hdr_parse(tt__perf_hdr *h, const char *s, size_t n, const tt__perf_layout *lay);
/* The file's header layout from its first bytes p[0..n) (2.2): lay->tail, the count of
 * numbers among the fields of its sample headers: the one a pid/tid token shows, else the
 * smallest count among headers, each at most what perf prints there; -1 when none shows it.
 * *tid_or_time: a header has a time or a tid; *headers: the count of lines looked at,
 * side-band records and call chains not counted (at most TT__PERF_LAYOUT_HEADERS; fewer: look
 * at more bytes if there are). */
#define TT__PERF_LAYOUT_HEADERS 1024
/* A line of perf's standard output (not of its stderr's warnings) by its text: a frame line
 * of a call chain (indented), a side-band record, or a sample header with a time or a tid
 * (indented by blanks too: perf right-aligns the comm of one-line samples in 16 columns).
 * line: as read (its indentation); s[0..sn): it with blanks for tabs, trimmed. */
int tt__perf_stdout_line(const char *line, const char *s, size_t sn, const tt__perf_layout *lay);
void tt__perf_layout_scan(tt__perf_layout *lay, int *tid_or_time, size_t *headers, const char *p,
                          size_t n);

/* perf's own warning (its stderr spliced into its stdout by 2>&1), read one line at a time by
 * the layout scan and the sample reader alike: a line ending in "Warning:" (at a line start,
 * or inside a line at perf's stdout buffer boundary: pre bytes before it), then its message:
 * known message lines (tt__perf_warning_msg) and their blank lines, or, in a file whose
 * headers have a tid or a time, other lines up to a sample line or a blank line; "Warning:"
 * followed by a sample line or a blank line in such a file is a warning without a message. */
typedef struct tt__perf_warn {
    int state;  /* 0 none; 1 a line ending in "Warning:" held; 2 after a later "Warning:"; 3 in
                 * its message */
    int known;  /* the message's last line is a known one: its blanks blank lines follow */
    int blanks;
    int done;   /* a message not known ended with a blank line */
    size_t pre; /* the held line's bytes before "Warning:" (0 at a line start): joined with the
                 * line after the warning; kept until the caller clears it */
} tt__perf_warn;
/* A line is one of perf's stdout (tt__perf_stdout_line in the caller's layout): line[0..n)
 * itself, or when joined, the held line's pre bytes then line[0..n). */
typedef int (*tt__perf_warn_sample)(void *ctx, const char *line, size_t n, int joined);
/* What tt__perf_warn_step says of a line. */
enum {
    TT__PERF_WARN_NOT = 0, /* the held line starts no warning: read it, then this line */
    TT__PERF_WARN_END,     /* the warning ended before this line: read it (joined with pre) */
    TT__PERF_WARN_LONE,    /* as END, after a "Warning:" without a message (count it) */
    TT__PERF_WARN_IN,      /* a line of the warning */
    TT__PERF_WARN_HEAD,    /* a further "Warning:" line of it */
    TT__PERF_WARN_MSG      /* the first line of a message (count it) */
};
/* line[0..n) as read: 1 when it ends in "Warning:" and is held (w->state 1, w->pre set). */
int tt__perf_warn_start(tt__perf_warn *w, const char *line, size_t n);
/* The next line while w->state is not 0; tid_or_time: the file's headers have a tid or a
 * time. */
int tt__perf_warn_step(tt__perf_warn *w, const char *line, size_t n, int tid_or_time,
                       tt__perf_warn_sample sample, void *ctx);

/* A frame line cut into its parts (s trimmed, not empty): "[addr] [symbol[+0xoff]] [(dso)]".
 * Pointers into s. */
typedef struct tt__perf_fline {
    int has_addr, unnamed; /* unnamed: no symbol or "[unknown]" */
    uint64_t addr;
    const char *sym;       /* the symbol with its offset (n bytes), without it symn bytes */
    size_t n, symn;
    const char *dso, *base; /* "(dso)" without parentheses and its basename; NULL when none */
    size_t dn, bn;
    int kind;              /* TT_FRAME_* from the dso */
    int deleted;           /* perf's " (deleted)" was after the dso (not in dso, dn) */
    int has_off;           /* the symbol had "+0x<off>": addr - off is the symbol's start */
    uint64_t off;
    /* simpleperf's name of a frame without a symbol, "<dso file name>[+<vaddr_in_file>]"
     * (report_sample.py shows the ip of unknown symbols): unnamed, with the address in the
     * ELF file's address space */
    int has_vaddr;
    uint64_t vaddr;
} tt__perf_fline;
void tt__perf_frame_split(tt__perf_fline *f, const char *s, size_t n);

/* The line -F +srcline prints after a frame: "file:line", "??:0", "file:line (discriminator
 * 2)" or "dso[offset]" when there is no line table; after a frame of a function inlined
 * into the one below it (perf's inline expansion) any of these ends in " (inlined)". 0: not
 * one; 1: one without a usable location; 2: file s[0..*file_n) at *line. */
int tt__perf_srcline_parse(const char *s, size_t n, size_t *file_n, int32_t *line);

/* The line perf script -F +srccode prints when the source line changes: "|<line> <code>" at
 * the start of the line as read (after a sample's blank line, or after a one-line sample). */
int tt__perf_srccode_line(const char *line, size_t n);

/* `simpleperf report-sample` text ("meta_info:" / "sample:" blocks of "key: value" lines,
 * "vaddr_in_file:", "file:", "symbol:" per frame), which is not perf script text: p[0..n)
 * starts so. The message that says so, naming the converter tracetool reads. */
int tt__simpleperf_report_sample(const char *p, size_t n);
#define TT__SIMPLEPERF_REPORT_SAMPLE_MSG                                                       \
    "simpleperf report-sample text (sample:, vaddr_in_file:, file:, symbol: lines), not "     \
    "read: convert the recording with simpleperf's report_sample.py (perf script-like text)"

/* The first blank-separated word of s is an address (at most 16 hex digits). */
int tt__perf_addr_first(const char *s, size_t n);
/* A blank or the end of the line after some ':' (a time or an event); C++ and Java names
 * ("std::move", "Lfoo;::bar") have none. */
int tt__perf_colon_blank(const char *s, size_t n);
/* A frame line by its text alone: an address first, no time or event. */
int tt__perf_frame_text(const char *s, size_t n);
/* The line with tabs and carriage returns as blanks (simpleperf separates fields with both),
 * copied into b; *s, *sn: it trimmed (borrowed from b). */
int tt__perf_blank(tt_buf *b, const char *line, size_t n, const char **s, size_t *sn);
/* An event's length without perf's modifiers ("cycles:u" -> "cycles", "cpu/cycles/Pu" ->
 * "cpu/cycles/"). */
size_t tt__perf_event_base(const char *e, size_t n);
/* The event e[0..n) as one profile (samples.md 2.2), into out: without the modifiers that do
 * not change what is counted (p, P, S, D, W, e, b), keeping the ones that do (u k h I G H,
 * in that order): "cycles:ppp" -> "cycles", "cycles:uppp" and "cycles:u" -> "cycles:u",
 * "cpu/cycles/Pu" -> "cpu/cycles/u". 0 or TT_ENOMEM. */
int tt__perf_event_key(tt_buf *out, const char *e, size_t n);
/* A frame on the header line ends at its "(dso)": perf prints some fields after it. */
size_t tt__perf_inline_len(const char *s, size_t n);

#endif
