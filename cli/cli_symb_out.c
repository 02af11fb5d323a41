/* tracetool symbolicate: the result writers, text, tsv/csv and JSON (spec/symbolication.md 8) */
#include "cli_symb_int.h"
#include "cli_csv.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *shown_file(const run *r, const char *f)
{
    if (!f)
        return NULL;
    if (r->opt_s) {
        const char *s = strrchr(f, '/');
        return s ? s + 1 : f;
    }
    return f;
}

void cli_symb__put_loc(run *r, const tsym_frame *f, int found, uint32_t discriminator)
{
    const char *file = shown_file(r, f->file);
    if (file && f->line)
        tt_buf_printf(&r->out, "%s:%u", file, f->line);
    else if (file)
        tt_buf_printf(&r->out, "%s:?", file);
    else
        tt_buf_puts(&r->out, found ? "??:?" : "??:0");
    if (discriminator)
        tt_buf_printf(&r->out, " (discriminator %u)", discriminator);
}

/* GNU addr2line's layout for -a -f -i -p (spec 8.1). addr2line prints the discriminator of
 * the address's line row after every frame of the chain, the inlined-by callers too (JSON
 * keeps llvm-symbolizer's per-frame values). */
void cli_symb__text_result(run *r, uint64_t addr, int width, const tsym_result *res)
{
    uint32_t discr = res->frames[0].discriminator;
    if (r->opt_a)
        tt_buf_printf(&r->out, "0x%0*llx%s", width, (unsigned long long)addr,
                      r->opt_p ? ": " : "\n");
    size_t n = r->opt_i ? res->n_frames : 1;
    for (size_t j = 0; j < n; j++) {
        const tsym_frame *f = &res->frames[j];
        const char *fn = f->function ? f->function : "??";
        if (r->opt_p) {
            if (j > 0)
                tt_buf_puts(&r->out, " (inlined by) ");
            /* addr2line: "?? ??:0" for an address it found nothing for (no function,
             * no line), "fn at loc" otherwise */
            if (r->opt_f)
                tt_buf_printf(&r->out, res->found || f->file ? "%s at " : "%s ", fn);
            cli_symb__put_loc(r, f, res->found, discr);
            tt_buf_puts(&r->out, "\n");
        } else {
            if (r->opt_f)
                tt_buf_printf(&r->out, "%s\n", fn);
            cli_symb__put_loc(r, f, res->found, discr);
            tt_buf_puts(&r->out, "\n");
        }
    }
}

/* tsv: ADDRESS<TAB>CHAIN; csv: the same two fields quoted as RFC 4180 says (C++ names
 * hold commas and quotes) */
void cli_symb__tsv_result(run *r, const char *addr_text, const tsym_result *res)
{
    tt_buf chain = {0};
    for (size_t j = 0; j < res->n_frames; j++) {
        const tsym_frame *f = &res->frames[j];
        const char *file = shown_file(r, f->file);
        tt_buf_printf(&chain, "%s%s@%s:%u", j ? ";" : "", f->function ? f->function : "??",
                      file ? file : "??", f->line);
    }
    const char *c = chain.len ? chain.data : "";
    if (r->fmt == F_TSV) {
        tt_buf_printf(&r->out, "%s\t%s\n", addr_text, c);
    } else {
        tt_buf_printf(&r->out, "%s,", addr_text);
        cli_csv_str(&r->out, c);
        tt_buf_puts(&r->out, "\n");
    }
    tt_buf_free(&chain);
}

/* The literal s at p (a constant size: a few moves); the end */
#define LIT(p, s) (memcpy(p, s, sizeof s - 1), (p) + sizeof s - 1)

/* A number that is mostly one digit (columns, discriminators: mostly 0) without a call */
static char *small_uint(char *p, uint32_t v)
{
    if (v < 10) {
        *p = (char)('0' + v);
        return p + 1;
    }
    return tt_json_uint(p, v);
}

/* The strings of one frame object (NULL written as "") and their lengths */
typedef struct frame_strs {
    const char *s[5]; /* FunctionName, FileName, StartFileName, StartAddress, SymbolName */
    size_t n[5];
} frame_strs;

/* One frame object of a result's "Symbol" array at p (room for frame_room bytes): the fixed
 * layout written as literal text (a sixth of a 20k-address jsonl run went into the
 * generic field writer); the end. */
static char *frame_text(const tt_jsonw *w, char *p, const tsym_frame *f, const frame_strs *fs,
                        int outer, int approximate, struct qcache *qc)
{
    p = LIT(p, "{\"FunctionName\":");
    char *fn = p;
    p = tt_jsonw_quote(w, p, fs->s[0], fs->n[0]);
    size_t fn_len = (size_t)(p - fn);
    p = LIT(p, ",\"FileName\":");
    char *file = p;
    if (qc->on && fs->s[1] == qc->file) {
        memcpy(p, qc->ftext, qc->ftext_n);
        p += qc->ftext_n;
    } else {
        p = tt_jsonw_quote(w, p, fs->s[1], fs->n[1]);
        if (qc->on && (size_t)(p - file) <= sizeof qc->ftext) {
            qc->file = fs->s[1];
            qc->file_n = fs->n[1];
            qc->ftext_n = (size_t)(p - file);
            memcpy(qc->ftext, file, qc->ftext_n);
        }
    }
    size_t file_len = (size_t)(p - file);
    p = LIT(p, ",\"Line\":");
    p = tt_json_uint(p, f->line);
    p = LIT(p, ",\"Column\":");
    p = small_uint(p, f->column);
    p = LIT(p, ",\"Discriminator\":");
    p = small_uint(p, f->discriminator);
    p = LIT(p, ",\"StartFileName\":");
    if (fs->s[2] == fs->s[1]) { /* mostly: the function is declared in the row's file */
        memcpy(p, file, file_len);
        p += file_len;
    } else {
        p = tt_jsonw_quote(w, p, fs->s[2], fs->n[2]);
    }
    p = LIT(p, ",\"StartLine\":");
    p = tt_json_uint(p, f->start_line);
    p = LIT(p, ",\"StartAddress\":");
    p = tt_jsonw_quote(w, p, fs->s[3], fs->n[3]);
    p = outer ? LIT(p, ",\"Inlined\":false,\"SymbolName\":")
              : LIT(p, ",\"Inlined\":true,\"SymbolName\":");
    if (fs->n[4] == fs->n[0] && !memcmp(fs->s[4], fs->s[0], fs->n[0])) {
        memcpy(p, fn, fn_len); /* C: the symbol is the function's name */
        p += fn_len;
    } else {
        p = tt_jsonw_quote(w, p, fs->s[4], fs->n[4]);
    }
    return approximate ? LIT(p, ",\"Approximate\":true}") : LIT(p, ",\"Approximate\":false}");
}

/* Bytes a quoted string of n bytes may take (every byte a \u escape) */
#define QROOM(n) (6 * (n) + 2)

/* One llvm-symbolizer style object (spec 8.2); res NULL with error set for failures. The
 * whole object is written as literal text and quoted strings into one reservation. */
static void json_result(run *r, tt_jsonw *w, const char *addr_text, const tsym_module *m,
                        const char *label, const tsym_result *res, const char *error,
                        uint64_t input_line, int frame_no)
{
    char hx[32];
    const char *top[3] = {addr_text, label ? label : "",
                          m ? tsym_module_info_get(m)->build_id : ""};
    size_t tn[3], room = 256, en = error ? strlen(error) : 0; /* keys, numbers, brackets */
    int cached = r->qc.on; /* top[1] and top[2] are quoted in r->qc.top */
    for (int i = 0; i < (cached ? 1 : 3); i++) {
        tn[i] = strlen(top[i]);
        room += QROOM(tn[i]);
    }
    room += cached ? r->qc.top.len : 0;
    room += QROOM(en);
    size_t nf = error ? 0 : res->n_frames;
    frame_strs fs[TSYM_MAX_FRAMES];
    for (size_t j = 0; j < nf; j++) {
        const tsym_frame *f = &res->frames[j];
        int outer = j + 1 == nf;
        const char *sym = outer ? res->symbol : NULL;
        const char *file = shown_file(r, f->file), *sfile = shown_file(r, f->start_file);
        fs[j].s[0] = f->function ? f->function : "";
        fs[j].s[1] = file ? file : "";
        fs[j].s[2] = sfile ? sfile : "";
        fs[j].s[3] = "";
        fs[j].s[4] = sym ? sym : "";
        room += 256;
        for (int i = 0; i < 5; i++) {
            fs[j].n[i] = i == 3                                     ? 0
                         : i == 1 && cached && fs[j].s[1] == r->qc.file ? r->qc.file_n
                         : i == 2 && fs[j].s[2] == fs[j].s[1]       ? fs[j].n[1]
                                                                    : strlen(fs[j].s[i]);
            room += QROOM(fs[j].n[i]);
        }
    }
    if (room > SIZE_MAX / 4)
        return;
    char *p = tt_jsonw_value_room(w, room);
    if (!p)
        return;
    *p++ = '{';
    if (input_line) {
        p = LIT(p, "\"InputLine\":");
        p = tt_json_uint(p, input_line);
        *p++ = ',';
    }
    if (frame_no >= 0) {
        p = LIT(p, "\"Frame\":");
        p = tt_json_uint(p, (uint64_t)frame_no);
        *p++ = ',';
    }
    p = LIT(p, "\"Address\":");
    p = tt_jsonw_quote(w, p, top[0], tn[0]);
    if (cached) {
        memcpy(p, r->qc.top.data, r->qc.top.len);
        p += r->qc.top.len;
    } else {
        p = LIT(p, ",\"ModuleName\":");
        p = tt_jsonw_quote(w, p, top[1], tn[1]);
        p = LIT(p, ",\"BuildId\":");
        p = tt_jsonw_quote(w, p, top[2], tn[2]);
    }
    if (error) {
        p = LIT(p, ",\"Error\":{\"Message\":");
        p = tt_jsonw_quote(w, p, error, en);
        p = LIT(p, "}}");
        tt_jsonw_value_end(w, p);
        return;
    }
    p = LIT(p, ",\"Symbol\":[");
    for (size_t j = 0; j < nf; j++) {
        int outer = j + 1 == nf;
        if (outer && res->has_start) {
            cli_symb__hex_str(hx, sizeof hx, res->start_addr);
            fs[j].s[3] = hx;
            fs[j].n[3] = strlen(hx); /* room: 256 per frame covers its 18 bytes */
        }
        if (j)
            *p++ = ',';
        p = frame_text(w, p, &res->frames[j], &fs[j], outer, outer && res->approximate, &r->qc);
    }
    p = LIT(p, "]}");
    tt_jsonw_value_end(w, p);
}

#undef LIT
#undef QROOM

/* Emits one JSON result in the current format (array element or one line). */
void cli_symb__emit_json(run *r, const char *addr_text, const tsym_module *m, const char *label,
                         const tsym_result *res, const char *error, uint64_t input_line,
                         int frame_no)
{
    if (r->fmt == F_JSON) {
        json_result(r, &r->json, addr_text, m, label, res, error, input_line, frame_no);
        return;
    }
    /* jsonl: one writer reused at depth 0 (no separators there) writes straight onto the
     * output buffer, lent to it for the line */
    tt_buf own = r->json.buf;
    r->json.buf = r->out;
    json_result(r, &r->json, addr_text, m, label, res, error, input_line, frame_no);
    tt_buf_puts(&r->json.buf, "\n");
    r->out = r->json.buf;
    r->json.buf = own;
}


void cli_symb__flush(run *r)
{
    /* keep the buffer's capacity: raw mode flushes after every input line */
    if (r->out.len >= OUT_CHUNK)
        cli_out_write_large(r->out.data, r->out.len);
    else if (r->out.len)
        cli_out_write(r->out.data, r->out.len);
    r->out.len = 0;
}

/* cli_symb__flush, then stdout itself (fully buffered when not a terminal): for answers
 * a co-process waits for */
void cli_symb__flush_now(run *r)
{
    cli_symb__flush(r);
    fflush(stdout);
}

/* Quotes the batch's label and build id once (r->qc); off when out of memory. */
void cli_symb__qcache_begin(run *r, const tsym_module *m, const char *label)
{
    struct qcache *qc = &r->qc;
    qc->file = NULL;
    qc->top.len = 0;
    const char *top[2] = {label ? label : "", tsym_module_info_get(m)->build_id};
    static const char *const key[2] = {",\"ModuleName\":", ",\"BuildId\":"};
    int bad = 0;
    for (int i = 0; i < 2 && !bad; i++) {
        size_t n = strlen(top[i]);
        char *q = n < SIZE_MAX / 8 ? malloc(6 * n + 2) : NULL;
        bad = !q || tt_buf_puts(&qc->top, key[i]) ||
              tt_buf_put(&qc->top, q, (size_t)(tt_jsonw_quote(&r->json, q, top[i], n) - q));
        free(q);
    }
    qc->on = !bad;
}

/* Text only: a NUL byte means a binary file (an ELF given as input?), which is refused
 * instead of being echoed to the terminal. */
int cli_symb__binary_line(tt_input *in, const char *line, size_t n, uint64_t ln)
{
    if (!memchr(line, 0, n))
        return 0;
    cli_errorf("%s:%llu: binary data (NUL byte): expected text with backtraces or addresses",
               tt_input_name(in), (unsigned long long)ln);
    return CLI_BAD;
}
