/* tracetool symbolicate: raw addresses in batches, looked up in address order and answered in
 * input order (spec/symbolication.md 7.1) */
#include "cli_symb_int.h"

#include <stdlib.h>
#include <string.h>

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


static void batch_print(run *r, const raw_batch *b, tsym_module *m, const char *label)
{
    int width = tsym_module_info_get(m)->elf_class == 32 ? 8 : 16;
    tsym_result res;
    char text[64];
    if (r->fmt == F_JSON || r->fmt == F_JSONL)
        cli_symb__qcache_begin(r, m, label);
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
                cli_symb__text_result(r, 0, width, &none);
            else if (r->fmt >= F_TSV)
                cli_symb__tsv_result(r, t, &none);
            else
                cli_symb__emit_json(r, t, m, label, NULL, "not a hexadecimal address", 0, -1);
        } else {
            res.n_frames = e->n_frames;
            memcpy(res.frames, (const tsym_frame *)b->frames.data + e->frame0,
                   e->n_frames * sizeof *res.frames);
            res.found = e->found;
            res.approximate = e->approximate;
            res.has_start = e->has_start;
            res.start_addr = e->start_addr;
            res.symbol = e->symbol;
            cli_symb__hex_str(text, sizeof text, e->addr);
            if (r->fmt == F_TEXT)
                cli_symb__text_result(r, e->addr, width, &res);
            else if (r->fmt >= F_TSV)
                cli_symb__tsv_result(r, text, &res);
            else
                cli_symb__emit_json(r, text, m, label, &res, NULL, 0, -1);
        }
        if (r->fmt != F_JSON && r->out.len >= OUT_CHUNK)
            cli_symb__flush(r);
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
        if ((rc = cli_symb__binary_line(in, line, n, ln)))
            break;
        if ((rc = raw_tokens(r, b, m, label, line, n)))
            break;
        /* answer what arrived before reading more: scripts talk to us through a pipe,
         * like addr2line */
        if (r->fmt != F_JSON && !regular && !tt_input_line_ready(in)) {
            if ((rc = batch_run(r, b, m, label)))
                break;
            cli_symb__flush_now(r);
        }
    }
    tt_input_close(in);
    if (rc == TT_ENOMEM)
        tt_error_set(&err, rc, NULL, 0, 0, "out of memory");
    return rc == TT_DONE ? 0 : rc == CLI_BAD ? rc : cli_err(&err);
}

/* Raw mode's addresses: the arguments, or standard input without them. */
int cli_symb__raw_addresses(run *r, tsym_module *m, const char *label, int argc, char **argv)
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
