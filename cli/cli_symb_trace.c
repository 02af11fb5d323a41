/* tracetool symbolicate: tombstone, perf script and module+offset backtraces in text
 * (spec/symbolication.md 7.2-7.4) */
#include "cli_symb_int.h"

#include <stdlib.h>
#include <string.h>

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
void cli_symb__summary(const run *r)
{
    if (r->hits)
        return;
    if (!r->frames && !r->named && !r->no_file) {
        cli_warnf("nothing symbolicated: no tombstone, perf script or module+offset frames "
                  "in the input");
        return;
    }
    if (!r->frames) { /* frames there, none to look up */
        unsigned long long a = r->named, k = r->no_file;
        tt_buf b = {0};
        if (a)
            tt_buf_printf(&b, "%llu already named by perf, which --resymbolize looks up again", a);
        if (k)
            tt_buf_printf(&b, "%s%llu in kernel, vdso, anonymous, JIT, ART or dex maps "
                          "(no ELF file)", a ? "; " : "", k);
        cli_warnf("nothing symbolicated: %llu frame%s in the input, none to look up (%s)", a + k,
                  a + k == 1 ? "" : "s", b.data ? b.data : "");
        tt_buf_free(&b);
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

static void chain_lines(run *r, const char *prefix, size_t plen, const tsym_result *res)
{
    if (!res->found && !res->frames[0].file)
        return;
    for (size_t j = 0; j < res->n_frames; j++) {
        const tsym_frame *f = &res->frames[j];
        tt_buf_put(&r->out, prefix, plen);
        tt_buf_printf(&r->out, "    %s at ", f->function ? f->function : "??");
        cli_symb__put_loc(r, f, res->found, f->discriminator);
        tt_buf_puts(&r->out, j + 1 < res->n_frames ? " (inlined)\n" : "\n");
    }
}

static void resolved(run *r, const char *line, size_t n, size_t plen, tsym_module *m,
                     const char *label, const char *bid, uint64_t addr_in, uint64_t vaddr,
                     uint64_t ln, int frame_no, const char *why)
{
    char text[32];
    cli_symb__hex_str(text, sizeof text, addr_in);
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
    cli_symb__emit_json(r, text, m, label, m ? &res : NULL,
                        m ? NULL : (why ? why : "module not found"), ln, frame_no);
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
    if (!t.symbolicatable) {
        r->no_file++;
        return 1;
    }
    char path[4096];
    snprintf(path, sizeof path, "%.*s", (int)t.lib_len, t.lib);
    const char *why;
    tsym_module *m = cli_sym_module(r->sym, path, t.build_id, CLI_SYM_DEVICE, &why);
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
    if (pf.header) /* a sample of its own (perf record without -g) */
        r->perf_depth = 0;
    int depth = r->perf_depth++;
    /* a sample in the kernel lists the kernel frames, then the interrupted user context:
     * the first frame of each is a program counter, the others return addresses */
    int kernel = pf.dso_len && tt_perf_dso_kind(pf.dso, pf.dso_len) == TT_FRAME_KERNEL;
    int pc = depth == 0 || (r->perf_kernel && !kernel);
    r->perf_kernel = kernel;
    echo(r, line, n);
    int unknown = pf.symbol_len == 0 || (pf.symbol_len >= 9 && !memcmp(pf.symbol, "[unknown]", 9));
    if (!unknown && !r->resym) {
        r->named++;
        return 1;
    }
    if (pf.dso_len == 0 || pf.dso[0] == '[') {
        r->no_file++;
        return 1;
    }
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
    if (!pc && vaddr > 0)
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

/* The line without its ANSI escape sequences (adb logcat -v color, grep --color): CSI
 * sequences (ESC [ parameters intermediates final byte) and two-byte ESC sequences are
 * dropped, into b when the line holds an ESC. */
static const char *plain_line(tt_buf *b, const char *line, size_t *n)
{
    if (!memchr(line, 0x1b, *n))
        return line;
    b->len = 0;
    size_t i = 0;
    while (i < *n) {
        const char *e = memchr(line + i, 0x1b, *n - i);
        size_t k = e ? (size_t)(e - line) : *n;
        if (tt_buf_put(b, line + i, k - i))
            return line; /* out of memory: the line as it is */
        if (!e)
            break;
        i = k + 1;
        if (i < *n && line[i] == '[') {
            i++;
            while (i < *n && (unsigned char)line[i] >= 0x20 && (unsigned char)line[i] <= 0x3f)
                i++;
            if (i < *n && (unsigned char)line[i] >= 0x40 && (unsigned char)line[i] <= 0x7e)
                i++;
        } else if (i < *n && (unsigned char)line[i] >= 0x40 && (unsigned char)line[i] <= 0x5f) {
            i++;
        }
    }
    *n = b->len;
    return b->len ? b->data : "";
}

int cli_symb__text_file(run *r, const char *path)
{
    tt_error err = {0};
    tt_input *in;
    if (tt_input_open(&in, path, &err))
        return cli_err(&err);
    const char *line;
    size_t n;
    uint64_t ln;
    int rc;
    tt_buf plain = {0};
    uint64_t size;
    int regular = tt_input_size(in, &size) == 0;
    while ((rc = tt_input_line(in, &line, &n, &ln, &err)) == 0) {
        if ((rc = cli_symb__binary_line(in, line, n, ln)))
            break;
        line = plain_line(&plain, line, &n);
        int done = 0;
        if (r->kind == K_AUTO || r->kind == K_TOMB)
            done = tomb_line(r, line, n, ln);
        if (!done && (r->kind == K_AUTO || r->kind == K_PERF))
            done = perf_mmap_line(r, line, n) || perf_frame_line(r, line, n, ln);
        if (!done && (r->kind == K_AUTO || r->kind == K_MODOFF))
            done = modoff_line(r, line, n, ln);
        if (!done)
            echo(r, line, n);
        /* a pipe or terminal (adb logcat | tracetool symbolicate) hears each line's
         * answer before more is read; a regular file is written in large pieces */
        if (!regular && !tt_input_line_ready(in))
            cli_symb__flush_now(r);
        else if (r->out.len > 65536)
            cli_symb__flush(r);
    }
    tt_buf_free(&plain);
    tt_input_close(in);
    return rc == TT_DONE ? 0 : rc == CLI_BAD ? rc : cli_err(&err);
}

