/* tracetool symbolicate, inside cli/: the run shared by the driver (cmd_symbolicate.c), the raw
 * address path (cli_symb_raw.c), the backtrace path (cli_symb_trace.c) and the result writers
 * they share (cli_symb_out.c). Neither path calls back into the driver or into the other. */
#ifndef CLI_SYMB_INT_H
#define CLI_SYMB_INT_H

#include "cli.h"

#include <assert.h>

#include "cli_kscrash.h"
#include "cli_sym.h"

enum { F_TEXT, F_JSON, F_JSONL, F_TSV, F_CSV };
enum { K_AUTO, K_TOMB, K_PERF, K_MODOFF, K_KSCRASH };

typedef struct run {
    cli_sym *sym;
    int fmt, kind, kind_set;
    int opt_a, opt_f, opt_i, opt_s, opt_p, offsets, retaddr, resym;
    int load_set;        /* --load-address */
    uint64_t load;
    const char *uuid, *arch; /* --uuid, --arch */
    unsigned flags;
    tt_jsonw json; /* --format json: one array over the whole run */
    tt_buf out;
    tt_perf_maps *maps; /* PERF_RECORD_MMAP lines seen so far (NULL after out of memory) */
    int perf_depth; /* index of the next perf frame in the current callchain */
    int perf_kernel; /* the callchain's last frame was a kernel frame */
    uint64_t frames, hits; /* backtrace frames looked up / resolved, for the summary */
    uint64_t named;        /* perf frames perf named, left alone (no --resymbolize) */
    uint64_t no_file;      /* frames in maps without an ELF file (kernel, JIT, dex) */
    struct miss {
        char label[128], bid[TSYM_BUILD_ID_HEX_MAX];
    } miss[8];            /* modules without debug information (the first 8) */
    size_t n_miss, more_miss;
    cli_ks_opts ks;  /* --kind kscrash: --dsym, --no-adjust */
    int ks_opt;
    /* While batch_print runs, strings stay put (every frame's strings live until its end):
     * the module's label and build id, and the last file name, are quoted once instead of
     * once per result (a tenth of a 20k-address jsonl run went into quoting and strlen) */
    struct qcache {
        int on;
        tt_buf top;         /* ,"ModuleName":"…","BuildId":"…" */
        const char *file;   /* the last FileName written, NULL: none */
        size_t file_n, ftext_n;
        char ftext[512];    /* its quoted text */
    } qc;
} run;

/* Raw results go out in writes of this size (a file takes large writes for less kernel
 * time: 15 % less than 32 KiB writes) */
#define OUT_CHUNK (256 * 1024)

/* "0x%llx" without printf's format parsing (two per JSON result) */
static inline void cli_symb__hex_str(char *dst, size_t cap, uint64_t v)
{
    size_t digits = v ? (size_t)(67 - __builtin_clzll(v)) / 4 : 1; /* without a loop */
    assert(cap >= 19);
    (void)cap;
    dst[0] = '0';
    dst[1] = 'x';
    for (size_t i = digits; i > 0; i--, v >>= 4) /* written in place from the last digit */
        dst[1 + i] = "0123456789abcdef"[v & 15];
    dst[2 + digits] = 0;
}

/* ---- cli_symb_out.c: the result writers (spec 8.1, 8.2) ---- */
/* A frame's location ("file:line", "??:0", ...) onto r->out, then " (discriminator N)" when
 * discriminator is not 0. */
void cli_symb__put_loc(run *r, const tsym_frame *f, int found, uint32_t discriminator);
/* One result in GNU addr2line's text layout (-a -f -i -p). */
void cli_symb__text_result(run *r, uint64_t addr, int width, const tsym_result *res);
/* One result as a tsv or csv row. */
void cli_symb__tsv_result(run *r, const char *addr_text, const tsym_result *res);
/* One JSON result in the current format (array element or one line); res NULL with error
 * set for failures. */
void cli_symb__emit_json(run *r, const char *addr_text, const tsym_module *m, const char *label,
                         const tsym_result *res, const char *error, uint64_t input_line,
                         int frame_no);
/* Quotes a batch's label and build id once (r->qc); off when out of memory. */
void cli_symb__qcache_begin(run *r, const tsym_module *m, const char *label);
/* Writes r->out and empties it (keeping its capacity). */
void cli_symb__flush(run *r);
/* The same, then fflush(stdout): the answer reaches a waiting co-process. */
void cli_symb__flush_now(run *r);
/* A line holding a NUL byte: CLI_BAD after the message, else 0. */
int cli_symb__binary_line(tt_input *in, const char *line, size_t n, uint64_t ln);

/* ---- cli_symb_raw.c: raw addresses (spec 7.1) ---- */
/* The arguments, or standard input without them, looked up in module m; an exit code. */
int cli_symb__raw_addresses(run *r, tsym_module *m, const char *label, int argc, char **argv);

/* ---- cli_symb_trace.c: backtraces in text (spec 7.2-7.4) ---- */
/* One input of backtrace lines (path "-": standard input); an exit code. */
int cli_symb__text_file(run *r, const char *path);
/* A backtrace run that resolved nothing says so. */
void cli_symb__summary(const run *r);

#endif
