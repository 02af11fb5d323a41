/* tracetool symbolicate: addresses to functions, source lines and inline chains
 * (spec/symbolication.md sections 7 and 8; GNU addr2line's text layout, llvm-symbolizer's
 * JSON field names). */
#include "cli.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli_kscrash.h"
#include "cli_sym.h"

static const char usage[] =
    "usage: tracetool symbolicate -e FILE [-a] [-f] [-i] [-C] [-s] [-p] [--offsets]\n"
    "                             [--return-addresses] [--nearest-symbol] [--names debug|symbol]\n"
    "                             [--build-id HEX] [--format text|json|jsonl|tsv|csv] [ADDR...]\n"
    "       tracetool symbolicate -e MACHO[:ARCH] [--dsym PATH]... [--load-address ADDR]\n"
    "                             [--swift-demangler CMD] [-a] [-f] [-i] [-C] [-s] [-p]\n"
    "                             [--format FMT] [ADDR...]\n"
    "       tracetool symbolicate --uuid HEX [--arch ARCH] [--dsym PATH]... [--symbols DIR]...\n"
    "                             [-a] [-f] [-i] [-C] [-s] [-p] [--format FMT] [ADDR...]\n"
    "       tracetool symbolicate --symbols DIR... [--kind KIND] [-e FILE]... [-s]\n"
    "                             [--resymbolize] [--format text|json|jsonl] [FILE...]\n"
    "       tracetool symbolicate --kind kscrash [--symbols DIR]... [--dsym [NAME=]PATH]...\n"
    "                             [--no-adjust] [--swift-demangler CMD]\n"
    "                             [--format text|json|jsonl] FILE...\n"
    "       tracetool symbolicate --add-to-store DIR FILE...\n"
    "\n"
    "  -e, --exe FILE          module of the raw addresses; with --kind an extra module\n"
    "                          for backtraces (repeatable)\n"
    "      --build-id HEX      find the module by build id in the symbol stores\n"
    "  -a, --addresses         print the address before each result\n"
    "  -f, --functions         print function names\n"
    "  -i, --inlines           print the whole inline chain, innermost first\n"
    "  -C, --demangle          demangle C++ and Rust names\n"
    "  -s, --basenames         print file names without directories\n"
    "  -p, --pretty-print      one line per address (\"func at file:line\")\n"
    "      --offsets           addresses are module offsets, not ELF virtual addresses\n"
    "      --return-addresses  addresses are return addresses: look up ADDR-1\n"
    "      --nearest-symbol    name padding after the preceding symbol (addr2line's way)\n"
    "      --names STYLE       debug (DWARF name, default) or symbol (ELF symbol name)\n"
    "      --format FMT        text (default), json, jsonl, tsv, csv\n"
    "      --symbols DIR       symbol store directory (repeatable; also\n"
    "                          TRACETOOL_SYMBOL_PATH)\n"
    "      --kind KIND         backtrace lines: auto (default without -e), tombstone,\n"
    "                          perf, modoff, kscrash (KSCrash / Matrix iOS JSON reports)\n"
    "      --dsym [NAME=]PATH  with --kind kscrash: dSYM bundle, DWARF file or directory\n"
    "      --no-adjust         with --kind kscrash: look return addresses up unchanged\n"
    "      --resymbolize       replace perf's own symbols too\n"
    "      --add-to-store DIR  copy FILEs into DIR's .build-id layout (Mach-O: DIR/uuid/)\n"
    "      --dsym [NAME=]PATH  Mach-O debug information: a .dSYM bundle, its DWARF file or a\n"
    "                          directory of them, searched first (repeatable); NAME=\n"
    "                          binds it to frames of image NAME given without UUID\n"
    "      --uuid HEX          find the Mach-O image or dSYM by LC_UUID in the stores\n"
    "      --arch ARCH         with --uuid: the slice must be this architecture\n"
    "      --load-address ADDR addresses are runtime addresses of an image loaded at ADDR\n"
    "      --swift-demangler CMD  demangle Swift names with CMD, one name a line on its\n"
    "                          standard input (also TRACETOOL_SWIFT_DEMANGLE)\n"
    "  -h, --help              show this help\n";

enum { O_BUILD_ID = 256, O_FORMAT, O_OFFSETS, O_RETADDR, O_NAMES, O_KIND, O_RESYM, O_ADD };
enum { O_UUID = 300, O_ARCH, O_LOAD }; /* Mach-O (spec/ios.md 11) */

static const struct option longopts[] = {
    {"exe", required_argument, NULL, 'e'},
    {"build-id", required_argument, NULL, O_BUILD_ID},
    {"addresses", no_argument, NULL, 'a'},
    {"functions", no_argument, NULL, 'f'},
    {"inlines", no_argument, NULL, 'i'},
    {"demangle", no_argument, NULL, 'C'},
    {"basenames", no_argument, NULL, 's'},
    {"pretty-print", no_argument, NULL, 'p'},
    {"offsets", no_argument, NULL, O_OFFSETS},
    {"return-addresses", no_argument, NULL, O_RETADDR},
    {"nearest-symbol", no_argument, NULL, CLI_SYM_O_NEAREST},
    {"names", required_argument, NULL, O_NAMES},
    {"format", required_argument, NULL, O_FORMAT},
    {"symbols", required_argument, NULL, CLI_SYM_O_SYMBOLS},
    {"kind", required_argument, NULL, O_KIND},
    {"resymbolize", no_argument, NULL, O_RESYM},
    {"add-to-store", required_argument, NULL, O_ADD},
    {"dsym", required_argument, NULL, CLI_SYM_O_DSYM},
    {"swift-demangler", required_argument, NULL, CLI_SYM_O_SWIFT},
    {"uuid", required_argument, NULL, O_UUID},
    {"arch", required_argument, NULL, O_ARCH},
    {"load-address", required_argument, NULL, O_LOAD},
    {"no-adjust", no_argument, NULL, CLI_KS_O_NOADJ},
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0},
};

enum { F_TEXT, F_JSON, F_JSONL, F_TSV, F_CSV };
static const char *const formats[] = {"text", "json", "jsonl", "tsv", "csv", NULL};
static const char *const names_styles[] = {"debug", "symbol", NULL};
enum { K_AUTO, K_TOMB, K_PERF, K_MODOFF, K_KSCRASH };
static const char *const kinds[] = {"auto", "tombstone", "perf", "modoff", "kscrash", NULL};

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
    uint64_t frames, hits; /* backtrace frames looked up / resolved, for the summary */
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

/* Remembers a module that resolved nothing, once per name and build id. */
static void note_miss(run *r, const char *label, const char *bid)
{
    const char *base = strrchr(label, '/');
    base = base ? base + 1 : label;
    bid = bid ? bid : "";
    for (size_t i = 0; i < r->n_miss; i++)
        if (!strcmp(r->miss[i].bid, bid) && !strcmp(r->miss[i].label, base))
            return;
    if (r->n_miss == sizeof r->miss / sizeof r->miss[0]) {
        r->more_miss++;
        return;
    }
    snprintf(r->miss[r->n_miss].label, sizeof r->miss[0].label, "%s", base);
    snprintf(r->miss[r->n_miss].bid, sizeof r->miss[0].bid, "%s", bid);
    r->n_miss++;
}

/* A backtrace run that resolved nothing says so, naming what was missing (ndk-stack users
 * otherwise see their input echoed unchanged and cannot tell why). */
static void summary(const run *r)
{
    if (r->hits)
        return;
    if (!r->frames) {
        cli_warnf("nothing symbolicated: no tombstone, perf script or module+offset frames "
                  "in the input");
        return;
    }
    tt_buf b = {0};
    for (size_t i = 0; i < r->n_miss; i++)
        tt_buf_printf(&b, "%s%s (%s%s)", i ? ", " : "", r->miss[i].label,
                      r->miss[i].bid[0] ? "build id " : "no build id", r->miss[i].bid);
    if (r->more_miss)
        tt_buf_printf(&b, " and %zu more", r->more_miss);
    cli_warnf("nothing symbolicated: none of %llu frames resolved; no debug information for %s",
              (unsigned long long)r->frames, b.data ? b.data : "their modules");
    tt_buf_free(&b);
}

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

static void put_loc(run *r, const tsym_frame *f, int found)
{
    const char *file = shown_file(r, f->file);
    if (file && f->line)
        tt_buf_printf(&r->out, "%s:%u", file, f->line);
    else if (file)
        tt_buf_printf(&r->out, "%s:?", file);
    else
        tt_buf_puts(&r->out, found ? "??:?" : "??:0");
    if (f->discriminator)
        tt_buf_printf(&r->out, " (discriminator %u)", f->discriminator);
}

/* GNU addr2line's layout for -a -f -i -p (spec 8.1) */
static void text_result(run *r, uint64_t addr, int width, const tsym_result *res)
{
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
            if (r->opt_f)
                tt_buf_printf(&r->out, "%s at ", fn);
            put_loc(r, f, res->found);
            tt_buf_puts(&r->out, "\n");
        } else {
            if (r->opt_f)
                tt_buf_printf(&r->out, "%s\n", fn);
            put_loc(r, f, res->found);
            tt_buf_puts(&r->out, "\n");
        }
    }
}

/* tsv: ADDRESS<TAB>CHAIN; csv: the same two fields quoted as RFC 4180 says (C++ names
 * hold commas and quotes) */
static void tsv_result(run *r, const char *addr_text, const tsym_result *res)
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
        if (strpbrk(c, ",\"\r\n")) {
            tt_buf_puts(&r->out, "\"");
            for (const char *q = c; *q; q++)
                tt_buf_put(&r->out, *q == '"' ? "\"\"" : q, *q == '"' ? 2 : 1);
            tt_buf_puts(&r->out, "\"\n");
        } else {
            tt_buf_printf(&r->out, "%s\n", c);
        }
    }
    tt_buf_free(&chain);
}

/* "0x%llx" without printf's format parsing (two per JSON result) */
static void hex_str(char *dst, size_t cap, uint64_t v)
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
            hex_str(hx, sizeof hx, res->start_addr);
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
static void emit_json(run *r, const char *addr_text, const tsym_module *m, const char *label,
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

/* Raw results go out in writes of this size (a file takes large writes for less kernel
 * time: 15 % less than 32 KiB writes) */
#define OUT_CHUNK (256 * 1024)

static void flush(run *r)
{
    /* keep the buffer's capacity: raw mode flushes after every input line */
    if (r->out.len >= OUT_CHUNK)
        cli_out_write_large(r->out.data, r->out.len);
    else if (r->out.len)
        cli_out_write(r->out.data, r->out.len);
    r->out.len = 0;
}

/* ---- raw addresses (spec 7.1) ---- */

/* Raw addresses go in batches: looked up in address order (neighbouring lookups share the
 * index's cache lines: the denser the batch, the more they share; 20k random addresses in
 * one batch take half the lookup time of five batches), printed in input order from a few
 * words per address. From a pipe a batch holds what one read brought (spec 7.1: each line
 * of a pipe is answered before the next one is read); from a regular file, which never
 * makes a reader wait, up to RAW_BATCH addresses. */
#define RAW_BATCH 32768
#define PREFETCH_AHEAD 8

typedef struct raw_ent {
    uint64_t addr, start_addr; /* as given; res->start_addr */
    const char *symbol;        /* res->symbol */
    uint32_t frame0;           /* first of its frames in raw_batch.frames; bad: text offset */
    uint8_t n_frames;
    unsigned bad : 1, found : 1, approximate : 1, has_start : 1; /* 32 bytes: fresh pages
                                                                 * cost a fault each */
} raw_ent;

typedef struct raw_key {
    uint64_t v; /* address looked up */
    uint32_t i; /* its raw_ent */
} raw_key;

typedef struct raw_batch {
    raw_ent *ents;
    raw_key *keys;
    size_t n;
    tt_vec frames; /* tsym_frame */
    tt_buf bad;    /* texts of unparsable tokens, NUL-separated */
    int nomem;
} raw_batch;

static void batch_free(raw_batch *b)
{
    free(b->ents);
    free(b->keys);
    tt_vec_free(&b->frames);
    tt_buf_free(&b->bad);
}

/* LSD radix sort by v, one pass per byte that differs between the keys (qsort's calls
 * through a pointer cost 5 % of a 20k-address run); tmp holds n keys. */
static void sort_keys(raw_key *k, raw_key *tmp, size_t n)
{
    uint64_t lo = UINT64_MAX, hi = 0;
    for (size_t i = 0; i < n; i++) {
        lo = k[i].v < lo ? k[i].v : lo;
        hi = k[i].v > hi ? k[i].v : hi;
    }
    for (unsigned shift = 0; n > 1 && shift < 64 && (hi - lo) >> shift; shift += 8) {
        size_t count[257] = {0};
        for (size_t i = 0; i < n; i++)
            count[((k[i].v - lo) >> shift & 255) + 1]++;
        for (size_t d = 0; d < 256; d++)
            count[d + 1] += count[d];
        for (size_t i = 0; i < n; i++)
            tmp[count[(k[i].v - lo) >> shift & 255]++] = k[i];
        memcpy(k, tmp, n * sizeof *k);
    }
}

/* The same for keys packed as (v - lo) << 32 | i (half the memory to touch: the keys of a
 * module's addresses span less than 4 GiB); equal v stay in input order, as above. */
static void sort_packed(uint64_t *k, uint64_t *tmp, size_t n, unsigned bytes)
{
    for (unsigned shift = 32; n > 1 && shift < 32 + 8 * bytes; shift += 8) {
        size_t count[257] = {0};
        for (size_t i = 0; i < n; i++)
            count[(k[i] >> shift & 255) + 1]++;
        for (size_t d = 0; d < 256; d++)
            count[d + 1] += count[d];
        for (size_t i = 0; i < n; i++)
            tmp[count[k[i] >> shift & 255]++] = k[i];
        memcpy(k, tmp, n * sizeof *k);
    }
}

static void batch_lookup(run *r, raw_batch *b, tsym_module *m)
{
    size_t nk = 0;
    uint64_t lo = UINT64_MAX, hi = 0;
    for (size_t i = 0; i < b->n; i++) {
        if (b->ents[i].bad)
            continue;
        uint64_t addr = b->ents[i].addr;
        uint64_t v = r->offsets ? tsym_module_offset_to_vaddr(m, addr) : addr;
        if (r->load_set) /* atos -l: vmaddr = addr - load address + __TEXT vmaddr */
            v = tsym_module_offset_to_vaddr(m, addr - r->load);
        if (r->retaddr && v > 0)
            v--;
        b->keys[nk].i = (uint32_t)i;
        b->keys[nk++].v = v;
        lo = v < lo ? v : lo;
        hi = v > hi ? v : hi;
    }
    /* packed keys, written over the front of the wide ones as they are read */
    int packed = nk && hi - lo <= UINT32_MAX;
    uint64_t *pk = (uint64_t *)(void *)b->keys;
    if (packed) {
        unsigned bytes = 0;
        while (bytes < 4 && (hi - lo) >> (8 * bytes))
            bytes++;
        for (size_t k = 0; k < nk; k++)
            pk[k] = (b->keys[k].v - lo) << 32 | b->keys[k].i;
        sort_packed(pk, pk + nk, nk, bytes);
    } else {
        sort_keys(b->keys, b->keys + RAW_BATCH, nk);
    }
#define KEY_I(k) (packed ? (uint32_t)pk[k] : b->keys[k].i)
#define KEY_V(k) (packed ? lo + (pk[k] >> 32) : b->keys[k].v)
    tsym_result res;
    tsym_cursor cur = {0, 0, 0, 0, 0, 0};
    int sized = 0;
    for (size_t k = 0; k < nk; k++) {
        if (k + PREFETCH_AHEAD < nk) /* the entries are written in address order */
            __builtin_prefetch(&b->ents[KEY_I(k + PREFETCH_AHEAD)], 1);
        raw_ent *e = &b->ents[KEY_I(k)];
        tsym_module_lookup_at(&res, m, KEY_V(k), r->flags, &cur);
        cli_sym_swift_result(r->sym, &res);
        e->frame0 = (uint32_t)b->frames.len;
        size_t need = b->frames.len + res.n_frames;
        if (need > b->frames.cap && !sized && k >= nk / 16) {
            /* once a sixteenth of the batch shows the frames per address: room for all of
             * them, in huge pages (each fresh 4 KiB page costs a fault: a fifth of the
             * kernel time of a 20k-address run went into the frames' ones); the lowest
             * addresses may have fewer inlined frames than the rest: 10 % more */
            sized = 1;
            (void)tt_vec_reserve_huge(&b->frames, need * nk / (k + 1) / 10 * 11);
        }
        if (tt_vec_reserve(&b->frames, need)) {
            b->nomem = 1;
            return;
        }
        memcpy((tsym_frame *)b->frames.data + b->frames.len, res.frames,
               res.n_frames * sizeof *res.frames);
        b->frames.len += res.n_frames;
        e->n_frames = (uint8_t)res.n_frames;
        e->found = (uint8_t)res.found;
        e->approximate = (uint8_t)res.approximate;
        e->has_start = (uint8_t)res.has_start;
        e->start_addr = res.start_addr;
        e->symbol = res.symbol;
    }
#undef KEY_I
#undef KEY_V
}

/* Quotes the batch's label and build id once (r->qc); off when out of memory. */
static void qcache_begin(run *r, const tsym_module *m, const char *label)
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

static void batch_print(run *r, const raw_batch *b, tsym_module *m, const char *label)
{
    int width = tsym_module_info_get(m)->elf_class == 32 ? 8 : 16;
    tsym_result res;
    char text[64];
    if (r->fmt == F_JSON || r->fmt == F_JSONL)
        qcache_begin(r, m, label);
    for (size_t i = 0; i < b->n; i++) {
        const raw_ent *e = &b->ents[i];
        /* the frames were stored in address order and are read in input order: fetched
         * ahead, their cache misses overlap */
        if (i + PREFETCH_AHEAD < b->n && !b->ents[i + PREFETCH_AHEAD].bad) {
            const tsym_frame *f = b->frames.data;
            const raw_ent *a = &b->ents[i + PREFETCH_AHEAD];
            __builtin_prefetch(f + a->frame0);
            __builtin_prefetch(f + a->frame0 + a->n_frames - 1);
        }
        /* and, nearer, the names those frames point to */
        if (i + PREFETCH_AHEAD / 2 < b->n && !b->ents[i + PREFETCH_AHEAD / 2].bad) {
            const raw_ent *a = &b->ents[i + PREFETCH_AHEAD / 2];
            const tsym_frame *f = (const tsym_frame *)b->frames.data + a->frame0;
            for (size_t j = 0; j < a->n_frames; j++)
                __builtin_prefetch(f[j].function);
            __builtin_prefetch(a->symbol);
        }
        if (e->bad) {
            const char *t = b->bad.data + e->frame0;
            cli_warnf("%s: not a hexadecimal address", t);
            tsym_result none = {.n_frames = 1};
            if (r->fmt == F_TEXT)
                text_result(r, 0, width, &none);
            else if (r->fmt >= F_TSV)
                tsv_result(r, t, &none);
            else
                emit_json(r, t, m, label, NULL, "not a hexadecimal address", 0, -1);
        } else {
            res.n_frames = e->n_frames;
            memcpy(res.frames, (const tsym_frame *)b->frames.data + e->frame0,
                   e->n_frames * sizeof *res.frames);
            res.found = e->found;
            res.approximate = e->approximate;
            res.has_start = e->has_start;
            res.start_addr = e->start_addr;
            res.symbol = e->symbol;
            hex_str(text, sizeof text, e->addr);
            if (r->fmt == F_TEXT)
                text_result(r, e->addr, width, &res);
            else if (r->fmt >= F_TSV)
                tsv_result(r, text, &res);
            else
                emit_json(r, text, m, label, &res, NULL, 0, -1);
        }
        if (r->fmt != F_JSON && r->out.len >= OUT_CHUNK)
            flush(r);
    }
    r->qc.on = 0;
}

/* Answers the batch; 0 or TT_ENOMEM. */
static int batch_run(run *r, raw_batch *b, tsym_module *m, const char *label)
{
    if (!b->n)
        return b->nomem;
    if (!b->nomem)
        batch_lookup(r, b, m);
    if (!b->nomem)
        batch_print(r, b, m, label);
    b->n = 0;
    b->frames.len = 0;
    b->bad.len = 0;
    return b->nomem ? TT_ENOMEM : 0;
}

static int batch_add(run *r, raw_batch *b, tsym_module *m, const char *label, const char *tok,
                     size_t n)
{
    if (b->n == RAW_BATCH && batch_run(r, b, m, label))
        return TT_ENOMEM;
    if (!b->ents) {
        b->ents = malloc(RAW_BATCH * sizeof *b->ents);
        b->keys = malloc(2 * RAW_BATCH * sizeof *b->keys); /* and the sort's room */
        tt_vec_init(&b->frames, sizeof(tsym_frame));
        if (!b->ents || !b->keys)
            return b->nomem = TT_ENOMEM;
    }
    raw_ent *e = &b->ents[b->n++];
    memset(e, 0, sizeof *e);
    if (tsym_addr_parse(&e->addr, tok, n)) {
        e->bad = 1;
        e->frame0 = (uint32_t)b->bad.len;
        tt_buf_printf(&b->bad, "%.*s", (int)(n < 40 ? n : 40), tok);
        if (tt_buf_put(&b->bad, "", 1))
            return b->nomem = TT_ENOMEM;
    }
    return 0;
}

static int raw_tokens(run *r, raw_batch *b, tsym_module *m, const char *label,
                      const char *line, size_t n)
{
    size_t i = 0;
    while (i < n) {
        while (i < n && (line[i] == ' ' || line[i] == '\t' || line[i] == '\r'))
            i++;
        size_t s = i;
        while (i < n && line[i] != ' ' && line[i] != '\t' && line[i] != '\r')
            i++;
        if (i > s && batch_add(r, b, m, label, line + s, i - s))
            return TT_ENOMEM;
    }
    return 0;
}

/* Text only: a NUL byte means a binary file (an ELF given as input?), which is refused
 * instead of being echoed to the terminal. */
static int binary_line(tt_input *in, const char *line, size_t n, uint64_t ln)
{
    if (!memchr(line, 0, n))
        return 0;
    cli_errorf("%s:%llu: binary data (NUL byte): expected text with backtraces or addresses",
               tt_input_name(in), (unsigned long long)ln);
    return CLI_BAD;
}

static int raw_stdin(run *r, raw_batch *b, tsym_module *m, const char *label)
{
    tt_error err = {0};
    tt_input *in;
    if (tt_input_open(&in, "-", &err))
        return cli_err(&err);
    const char *line;
    size_t n;
    uint64_t ln;
    int rc;
    uint64_t size;
    int regular = tt_input_size(in, &size) == 0;
    while ((rc = tt_input_line(in, &line, &n, &ln, &err)) == 0) {
        if ((rc = binary_line(in, line, n, ln)))
            break;
        if ((rc = raw_tokens(r, b, m, label, line, n)))
            break;
        /* answer what arrived before reading more: scripts talk to us through a pipe,
         * like addr2line */
        if (r->fmt != F_JSON && !regular && !tt_input_line_ready(in)) {
            if ((rc = batch_run(r, b, m, label)))
                break;
            flush(r);
        }
    }
    tt_input_close(in);
    if (rc == TT_ENOMEM)
        tt_error_set(&err, rc, NULL, 0, 0, "out of memory");
    return rc == TT_DONE ? 0 : rc == CLI_BAD ? rc : cli_err(&err);
}

/* Raw mode's addresses: the arguments, or standard input without them. */
static int raw_addresses(run *r, tsym_module *m, const char *label, int argc, char **argv)
{
    raw_batch b = {0};
    int rc = 0;
    for (int i = 0; i < argc && !rc; i++)
        rc = raw_tokens(r, &b, m, label, argv[i], strlen(argv[i]));
    if (!argc)
        rc = raw_stdin(r, &b, m, label);
    /* lines before an error were answered */
    if (batch_run(r, &b, m, label) && !rc)
        rc = TT_ENOMEM;
    batch_free(&b);
    if (rc == TT_ENOMEM) {
        cli_errorf("out of memory");
        rc = CLI_BAD;
    }
    return rc;
}
/* ---- backtraces in text (spec 7.2-7.4) ---- */

static void chain_lines(run *r, const char *prefix, size_t plen, const tsym_result *res)
{
    if (!res->found && !res->frames[0].file)
        return;
    for (size_t j = 0; j < res->n_frames; j++) {
        const tsym_frame *f = &res->frames[j];
        tt_buf_put(&r->out, prefix, plen);
        tt_buf_printf(&r->out, "    %s at ", f->function ? f->function : "??");
        put_loc(r, f, res->found);
        tt_buf_puts(&r->out, j + 1 < res->n_frames ? " (inlined)\n" : "\n");
    }
}

static void resolved(run *r, const char *line, size_t n, size_t plen, tsym_module *m,
                     const char *label, const char *bid, uint64_t addr_in, uint64_t vaddr,
                     uint64_t ln, int frame_no, const char *why)
{
    char text[32];
    hex_str(text, sizeof text, addr_in);
    tsym_result res;
    if (m) {
        tsym_module_lookup(&res, m, vaddr, r->flags);
        cli_sym_swift_result(r->sym, &res);
    }
    r->frames++;
    if (m && (res.found || res.frames[0].file))
        r->hits++;
    else
        note_miss(r, label, m ? tsym_module_info_get(m)->build_id : bid);
    if (r->fmt == F_TEXT) {
        (void)line;
        (void)n;
        if (m)
            chain_lines(r, line, plen, &res);
        return;
    }
    emit_json(r, text, m, label, m ? &res : NULL, m ? NULL : (why ? why : "module not found"),
              ln, frame_no);
}

static void echo(run *r, const char *line, size_t n)
{
    if (r->fmt != F_TEXT)
        return;
    tt_buf_put(&r->out, line, n);
    tt_buf_puts(&r->out, "\n");
}

static int tomb_line(run *r, const char *line, size_t n, uint64_t ln)
{
    tsym_tomb_frame t;
    if (tsym_tombstone_parse(&t, line, n))
        return 0;
    echo(r, line, n);
    if (!t.symbolicatable)
        return 1;
    char path[4096];
    snprintf(path, sizeof path, "%.*s", (int)t.lib_len, t.lib);
    const char *why;
    tsym_module *m = cli_sym_module(r->sym, path, t.build_id, 0, &why);
    /* tombstone pcs are already ELF virtual addresses, with the PC adjustment applied
     * by the unwinder for frames >= 1 (spec 3.2, 3.3) */
    resolved(r, line, n, t.prefix_len, m, path, t.build_id, t.pc, t.pc, ln, (int)t.frame, why);
    return 1;
}

static int perf_mmap_line(run *r, const char *line, size_t n)
{
    tt_perf_mmap mm;
    if (tt_perf_mmap_parse(&mm, line, n))
        return 0;
    echo(r, line, n);
    if (r->maps && tt_perf_maps_add(r->maps, &mm))
        tt_perf_maps_free(r->maps), r->maps = NULL; /* out of memory: no further maps */
    return 1;
}

static int perf_frame_line(run *r, const char *line, size_t n, uint64_t ln)
{
    tsym_perf_frame pf;
    if (tsym_perf_frame_parse(&pf, line, n)) {
        r->perf_depth = 0;
        return 0;
    }
    int depth = r->perf_depth++;
    echo(r, line, n);
    int unknown = pf.symbol_len == 0 || (pf.symbol_len >= 9 && !memcmp(pf.symbol, "[unknown]", 9));
    if ((!unknown && !r->resym) || pf.dso_len == 0 || pf.dso[0] == '[')
        return 1;
    char path[4096];
    snprintf(path, sizeof path, "%.*s", (int)pf.dso_len, pf.dso);
    uint64_t off = 0;
    const tt_perf_map *hit = tt_perf_maps_find(r->maps, -1, pf.dso, pf.dso_len, pf.addr, &off);
    const char *why;
    tsym_module *m = cli_sym_module(r->sym, path, NULL, 0, &why);
    uint64_t vaddr = pf.addr;
    if (m && hit) {
        if (tsym_module_map_to_vaddr(&vaddr, m, off, off, off))
            m = NULL, why = "mapping does not match the module's segments";
    } else if (m && tsym_module_guess_vaddr(&vaddr, m, pf.addr)) {
        m = NULL;
        why = "no PERF_RECORD_MMAP for this module (perf script --show-mmap-events)";
    }
    if (depth > 0 && vaddr > 0)
        vaddr--; /* return address (spec 3.3) */
    resolved(r, line, n, pf.indent, m, path, NULL, pf.addr, vaddr, ln, depth, why);
    return 1;
}

static int modoff_line(run *r, const char *line, size_t n, uint64_t ln)
{
    size_t pos = 0;
    tsym_modoff mo;
    int any = 0;
    while (tsym_modoff_next(&mo, line, n, &pos) == 0) {
        if (!any)
            echo(r, line, n);
        any = 1;
        char path[4096];
        snprintf(path, sizeof path, "%.*s", (int)mo.module_len, mo.module);
        const char *why;
        tsym_module *m = cli_sym_module(r->sym, path, NULL, 0, &why);
        uint64_t v = m ? tsym_module_offset_to_vaddr(m, mo.offset) : 0;
        size_t ind = 0;
        while (ind < n && (line[ind] == ' ' || line[ind] == '\t'))
            ind++;
        resolved(r, line, n, ind, m, path, NULL, mo.offset, v, ln, -1, why);
    }
    return any;
}

static int text_file(run *r, const char *path)
{
    tt_error err = {0};
    tt_input *in;
    if (tt_input_open(&in, path, &err))
        return cli_err(&err);
    const char *line;
    size_t n;
    uint64_t ln;
    int rc;
    while ((rc = tt_input_line(in, &line, &n, &ln, &err)) == 0) {
        if ((rc = binary_line(in, line, n, ln)))
            break;
        int done = 0;
        if (r->kind == K_AUTO || r->kind == K_TOMB)
            done = tomb_line(r, line, n, ln);
        if (!done && (r->kind == K_AUTO || r->kind == K_PERF))
            done = perf_mmap_line(r, line, n) || perf_frame_line(r, line, n, ln);
        if (!done && (r->kind == K_AUTO || r->kind == K_MODOFF))
            done = modoff_line(r, line, n, ln);
        if (!done)
            echo(r, line, n);
        if (r->out.len > 65536)
            flush(r);
    }
    tt_input_close(in);
    return rc == TT_DONE ? 0 : rc == CLI_BAD ? rc : cli_err(&err);
}

static int add_to_store(const char *dir, int argc, char **argv)
{
    if (argc == 0) {
        cli_errorf("--add-to-store needs at least one FILE");
        return CLI_BAD;
    }
    int rc = 0;
    for (int i = 0; i < argc; i++) {
        char dest[4096];
        tt_error err = {0};
        tsym_macho_slice sl[8];
        size_t n = 0;
        char df[4096];
        if (tsym_store_add(dest, sizeof dest, dir, argv[i], &err))
            rc = cli_err(&err);
        else if (!tsym_dsym_file(df, sizeof df, argv[i]) &&
                 !tsym_macho_slices(sl, 8, &n, df, &err) && n > 0) {
            /* Mach-O: one line per slice with a UUID */
            for (size_t k = 0; k < n && k < 8; k++)
                if (!tsym_store_macho_path(dest, sizeof dest, dir, sl[k].uuid))
                    cli_out_printf("%s\t%s\t%s%s%s\n", argv[i], sl[k].arch, dest,
                                   sl[k].platform[0] ? "\t" : "", sl[k].platform);
        } else {
            cli_out_printf("%s\t%s\n", argv[i], dest);
        }
    }
    return rc;
}

static void run_free(run *r)
{
    tt_perf_maps_free(r->maps);
    tt_buf_free(&r->out);
    tt_buf_free(&r->qc.top);
    tt_jsonw_free(&r->json);
    cli_sym_close(r->sym);
}

static int raw_mode(run *r, const char *build_id, int argc, char **argv)
{
    const char *why;
    tsym_module *m = cli_sym_module(r->sym, NULL, build_id, 1, &why);
    if (!m)
        return CLI_BAD;
    const tsym_module_info *mi = tsym_module_info_get(m);
    const char *label = mi->path ? mi->path : mi->debug_path;
    if (r->arch && strcmp(mi->arch, r->arch)) {
        cli_errorf("%s: UUID %s is the %s slice, not %s", label, build_id,
                   mi->arch[0] ? mi->arch : "non-Mach-O", r->arch);
        return CLI_BAD;
    }
    return raw_addresses(r, m, label, argc, argv);
}

static int parse_opts(run *r, cli_sym_opts *so, const char **build_id, const char **store_dir,
                      int argc, char **argv)
{
    int c, style = 0;
    while ((c = getopt_long(argc, argv, "e:afiCsph", longopts, NULL)) != -1) {
        int s = cli_sym_opt(so, c, optarg);
        if (s < 0)
            return CLI_BAD;
        if (s)
            continue;
        switch (c) {
        case 'a': r->opt_a = 1; break;
        case 'f': r->opt_f = 1; break;
        case 'i': r->opt_i = 1; break;
        case 'C': r->flags |= TSYM_F_DEMANGLE; break;
        case 's': r->opt_s = 1; break;
        case 'p': r->opt_p = 1; break;
        case O_BUILD_ID: *build_id = optarg; break;
        case O_OFFSETS: r->offsets = 1; break;
        case O_RETADDR: r->retaddr = 1; break;
        case CLI_SYM_O_NEAREST: r->flags |= TSYM_F_NEAREST; break;
        case O_RESYM: r->resym = 1; break;
        case O_ADD: *store_dir = optarg; break;
        case O_UUID: r->uuid = optarg; break;
        case O_ARCH: r->arch = optarg; break;
        case O_LOAD:
            if (tsym_addr_parse(&r->load, optarg, strlen(optarg))) {
                cli_errorf("option --load-address: expected a hexadecimal address, got \"%s\"",
                           optarg);
                return CLI_BAD;
            }
            r->load_set = 1;
            break;
        case CLI_KS_O_NOADJ:
            if (cli_ks_opt(&r->ks, c, optarg) < 0)
                return CLI_BAD;
            r->ks_opt = 1;
            break;
        case O_NAMES:
            if ((style = cli_opt_enum("--names", optarg, names_styles)) < 0)
                return CLI_BAD;
            r->flags = style ? r->flags | TSYM_F_SYMBOL_NAMES : r->flags & ~TSYM_F_SYMBOL_NAMES;
            break;
        case O_FORMAT:
            if ((r->fmt = cli_opt_enum("--format", optarg, formats)) < 0)
                return CLI_BAD;
            break;
        case O_KIND:
            if ((r->kind = cli_opt_enum("--kind", optarg, kinds)) < 0)
                return CLI_BAD;
            r->kind_set = 1;
            break;
        case 'h': return cli_usage(usage, 0) + 100;
        default: return cli_usage(usage, 1);
        }
    }
    return 0;
}

static int normalise_build_id(char *dst, size_t cap, const char *s)
{
    size_t k = 0;
    for (; *s; s++) {
        char ch = *s;
        if (ch == '-')
            continue;
        if (ch >= 'A' && ch <= 'F')
            ch = (char)(ch - 'A' + 'a');
        if (!((ch >= '0' && ch <= '9') || (ch >= 'a' && ch <= 'f')) || k + 1 >= cap)
            return -1;
        dst[k++] = ch;
    }
    dst[k] = 0;
    return k >= 2 ? 0 : -1;
}

static int kscrash(run *r, const cli_sym_opts *so, int argc, char **argv, cli_ctx *ctx)
{
    if (r->kind != K_KSCRASH) {
        cli_errorf("--no-adjust needs --kind kscrash");
        return CLI_BAD;
    }
    if (r->fmt == F_TSV) {
        cli_errorf("--format tsv is for raw addresses (-e FILE)");
        return CLI_BAD;
    }
    if (!argc) {
        cli_errorf("symbolicate: --kind kscrash needs FILE...");
        return CLI_BAD;
    }
    cli_ks_opts *o = &r->ks;
    o->format = r->fmt == F_JSON ? CLI_KS_JSON : r->fmt == F_JSONL ? CLI_KS_JSONL : CLI_KS_TEXT;
    o->interval_ms = 50;
    o->full_path = !r->opt_s;
    for (size_t i = 0; i < so->n_dirs && o->sym.n_dirs < CLI_SYM_MAX; i++)
        o->sym.dirs[o->sym.n_dirs++] = so->dirs[i];
    for (size_t i = 0; i < so->n_exes; i++)
        o->sym.exes[o->sym.n_exes++] = so->exes[i];
    for (size_t i = 0; i < so->n_dsyms; i++) /* --dsym as report takes it */
        if (cli_ks_opt(o, CLI_KS_O_DSYM, so->dsyms[i]) < 0)
            return CLI_BAD;
    o->sym.flags = r->flags;
    o->sym.swift = so->swift;
    int rc = cli_ks_run(o, argv, argc, ctx);
    cli_stats_report(ctx->stats);
    return rc;
}

int cmd_symbolicate(int argc, char **argv, cli_ctx *ctx)
{
    /* results to a file or pipe go out in 32 KiB writes (stdio's default is one write
     * per 4 KiB; a JSON result is about 700 bytes) */
    static char out_buf[1 << 15];
    if (!isatty(STDOUT_FILENO))
        setvbuf(stdout, out_buf, _IOFBF, sizeof out_buf);
    run r = {.fmt = F_TEXT, .kind = K_AUTO};
    cli_sym_opts so = {0};
    const char *bid_opt = NULL, *store_dir = NULL;
    tt_jsonw_init(&r.json, 0);
    int rc = parse_opts(&r, &so, &bid_opt, &store_dir, argc, argv);
    if (rc) {
        tt_jsonw_free(&r.json);
        return rc >= 100 ? rc - 100 : rc;
    }
    argc -= optind;
    argv += optind;
    /* files: backtraces and --add inputs; with -e or --build-id the arguments are addresses */
    if ((!so.n_exes || r.kind_set || store_dir) && !bid_opt)
        for (int i = 0; i < argc; i++)
            if (!(store_dir && cli_is_dsym(argv[i])) && cli_input_path(argv[i])) {
                tt_jsonw_free(&r.json);
                return CLI_BAD;
            }
    if (store_dir) {
        tt_jsonw_free(&r.json);
        return add_to_store(store_dir, argc, argv);
    }
    if (r.kind == K_KSCRASH || r.ks_opt) { /* KSCrash / Matrix iOS reports (ios.md 11) */
        tt_jsonw_free(&r.json);
        return kscrash(&r, &so, argc, argv, ctx);
    }
    char bid[TSYM_BUILD_ID_HEX_MAX];
    if (r.uuid && !bid_opt) {
        if (normalise_build_id(bid, sizeof bid, r.uuid) || strlen(bid) != 32) {
            cli_errorf("option --uuid: expected 32 hexadecimal digits, got \"%s\"", r.uuid);
            tt_jsonw_free(&r.json);
            return CLI_BAD;
        }
        bid_opt = r.uuid;
    } else if (r.arch) {
        cli_errorf("--arch goes with --uuid; with -e write -e FILE:ARCH");
        tt_jsonw_free(&r.json);
        return CLI_BAD;
    }
    if (bid_opt && bid_opt != r.uuid && normalise_build_id(bid, sizeof bid, bid_opt)) {
        cli_errorf("option --build-id: expected a hexadecimal build id, got \"%s\"", bid_opt);
        tt_jsonw_free(&r.json);
        return CLI_BAD;
    }
    /* raw addresses with -e or --build-id; --kind (or neither) reads backtraces */
    int raw = (so.n_exes > 0 && !r.kind_set) || bid_opt;
    if (so.n_exes > 1 && raw && !bid_opt) {
        cli_errorf("several -e modules: give --symbols DIR for backtraces, or one -e");
        tt_jsonw_free(&r.json);
        return CLI_BAD;
    }
    if (!raw && so.n_dirs == 0 && so.n_exes == 0 && !r.kind_set &&
        !getenv("TRACETOOL_SYMBOL_PATH")) {
        cli_errorf("symbolicate: give -e FILE, --build-id HEX, --symbols DIR or --kind KIND");
        tt_jsonw_free(&r.json);
        return cli_usage(usage, 1);
    }
    if (!raw && r.fmt >= F_TSV) {
        cli_errorf("--format %s is for raw addresses (-e FILE)", formats[r.fmt]);
        tt_jsonw_free(&r.json);
        return CLI_BAD;
    }
    so.flags = r.flags;
    if ((rc = cli_sym_open(&r.sym, &so, ctx))) {
        tt_jsonw_free(&r.json);
        return rc;
    }
    if (tt_perf_maps_new(&r.maps))
        r.maps = NULL; /* out of memory: runtime addresses stay unmapped */
    if (!raw)
        r.flags |= TSYM_F_DEMANGLE; /* backtraces are for people: always demangled */
    if (r.fmt == F_JSON)
        tt_jsonw_arr_begin(&r.json);
    if (r.fmt == F_CSV)
        tt_buf_puts(&r.out, "address,frames\n");
    if (raw && !bid_opt) {
        tsym_module *m = cli_sym_module(r.sym, so.exes[0], NULL, 1, NULL);
        rc = raw_addresses(&r, m, so.exes[0], argc, argv);
    } else if (raw) {
        rc = raw_mode(&r, bid, argc, argv);
    } else {
        for (int i = 0; i < (argc ? argc : 1) && !rc; i++)
            rc = text_file(&r, argc ? argv[i] : "-");
        if (!rc)
            summary(&r);
    }
    if (r.fmt == F_JSON && !rc) {
        tt_jsonw_arr_end(&r.json);
        tt_buf_puts(&r.json.buf, "\n");
        tt_buf_put(&r.out, r.json.buf.data, r.json.buf.len);
    }
    flush(&r);
    run_free(&r);
    cli_stats_report_prefix(ctx->stats, "swift_"); /* counted when the demangler was closed */
    return rc;
}
