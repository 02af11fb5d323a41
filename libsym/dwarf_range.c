/* The live code ranges of a DIE (spec/symbolication.md 5.2.5): low_pc/high_pc, DWARF 5
 * range lists (.debug_rnglists, checked from the section bytes before libdwarf reads them)
 * and DWARF 2-4 .debug_ranges, appended to the index. */
#include "dwarf_int.h"

#include <stdio.h>

static int push_range(cu_state *s, uint64_t lo, uint64_t hi)
{
    int rc = tsym__index_add_range(s->ix, lo, hi);
    s->nomem |= rc < 0;
    return rc > 0;
}

static uint64_t rd_le(const unsigned char *p, unsigned n)
{
    uint64_t v = 0;
    for (unsigned i = n; i-- > 0;)
        v = v << 8 | p[i];
    return v;
}

/* Whether the .debug_addr entry idx of the CU is inside .debug_addr. */
static int addr_index_ok(const cu_state *s, uint64_t idx)
{
    uint64_t n = s->secs.size[TSYM_DS_ADDR], a = s->asize;
    return a && s->secs.data[TSYM_DS_ADDR] && s->addr_base <= n && idx < (n - s->addr_base) / a;
}

/* The entries of the range list at off (DWARF 5, 7.25) as libdwarf reads them, until the end
 * of the list or anything it reports itself: 0 when one of them names an entry outside
 * .debug_addr. libdwarf 20210528 leaks an error object when DW_RLE_base_addressx does (found
 * by fuzz_macho, through offsets into a table's header too). asize: the table's. */
static int rle_indexes_ok(const cu_state *s, uint64_t off, unsigned asize)
{
    tsym__cur c = {s->rl + off, s->rl + s->rl_size, 0, 0};
    while (c.p < c.end && !c.bad) {
        unsigned code = *c.p++;
        uint64_t i1 = 0, i2 = 0;
        switch (code) {
        case DW_RLE_base_addressx: i1 = tsym__cur_leb(&c, 0); break;
        case DW_RLE_startx_endx: i1 = tsym__cur_leb(&c, 0); i2 = tsym__cur_leb(&c, 0); break;
        case DW_RLE_startx_length: i1 = tsym__cur_leb(&c, 0); (void)tsym__cur_leb(&c, 0); break;
        case DW_RLE_offset_pair: (void)tsym__cur_leb(&c, 0); (void)tsym__cur_leb(&c, 0); break;
        case DW_RLE_base_address: tsym__cur_skip(&c, asize); break;
        case DW_RLE_start_end: tsym__cur_skip(&c, 2 * (uint64_t)asize); break;
        case DW_RLE_start_length: tsym__cur_skip(&c, asize); (void)tsym__cur_leb(&c, 0); break;
        default: return 1; /* end of list, or a code libdwarf refuses */
        }
        if (!c.bad && code <= DW_RLE_startx_length &&
            (!addr_index_ok(s, i1) || (code == DW_RLE_startx_endx && !addr_index_ok(s, i2))))
            return 0;
    }
    return 1;
}

/* The address size of the range list table holding off; 0 when none does. */
static unsigned rl_table_asize(const cu_state *s, uint64_t off)
{
    uint64_t at = 0, n = s->rl_size;
    while (at + 12 <= n) {
        uint64_t len = rd_le(s->rl + at, 4), hdr = 4;
        if (len == 0xffffffffu) {
            if (at + 20 > n)
                return 0;
            len = rd_le(s->rl + at + 4, 8);
            hdr = 12;
        }
        if (len < 8 || len > n - at - hdr)
            return 0;
        if (off < at + hdr + len)
            return off >= at ? s->rl[at + hdr + 2] : 0;
        at += hdr + len;
    }
    return 0;
}

/* libdwarf 20210528 reads outside .debug_rnglists for a DW_FORM_rnglistx index or an offset
 * beyond the CU's table (found by fuzz_macho; an ELF file crashes the same way), and leaks
 * on a list naming an address outside .debug_addr: check them when the bytes are known. */
static int rnglist_ok(cu_state *s, Dwarf_Half form, uint64_t val)
{
    uint64_t at = val;
    if (form == DW_FORM_rnglistx) {
        if (!s->rl_count || val >= s->rl_count)
            return 0;
        uint64_t off = rd_le(s->rl + s->rl_base + val * s->rl_osz, s->rl_osz);
        if (off >= s->rl_end - s->rl_base)
            return 0;
        at = s->rl_base + off;
    }
    if (at >= s->rl_size)
        return 0;
    if (rle_indexes_ok(s, at, rl_table_asize(s, at)))
        return 1;
    if (!s->msg[0])
        snprintf(s->msg, sizeof s->msg, ".debug_rnglists: the range list at 0x%llx names an "
                 "address outside .debug_addr", (unsigned long long)at);
    return 0;
}

/* Finds the range list table whose offsets array starts at base (DW_AT_rnglists_base). */
void tsym__dw_rnglist_table(cu_state *s, uint64_t base)
{
    s->rl_count = 0;
    uint64_t off = 0, n = s->rl_size;
    while (off + 12 <= n) {
        uint64_t len = rd_le(s->rl + off, 4), hdr = 4;
        unsigned osz = 4;
        if (len == 0xffffffffu) {
            if (off + 20 > n)
                return;
            len = rd_le(s->rl + off + 4, 8);
            hdr = 12;
            osz = 8;
        }
        if (len < 8 || len > n - off - hdr)
            return;
        uint64_t arr = off + hdr + 8, end = off + hdr + len;
        uint32_t count = (uint32_t)rd_le(s->rl + off + hdr + 4, 4);
        if (arr == base || (base == 0 && off == 0)) {
            if ((uint64_t)count * osz <= end - arr) {
                s->rl_base = arr;
                s->rl_end = end;
                s->rl_count = count;
                s->rl_osz = osz;
            }
            return;
        }
        off = end;
    }
}

/* libdwarf 20210528 frees twice when a table's offset_entry_count does not fit its
 * length, while it loads .debug_info: every table header is checked before libdwarf reads
 * a unit. 0 when they are sound, else s->msg says why. */
int tsym__dw_rnglists_bad(cu_state *s)
{
    uint64_t off = 0, n = s->rl_size;
    while (off < n) {
        /* bytes too few for a header after the last table: libdwarf frees twice on them
         * too (found by fuzz_elf) */
        uint64_t len = n - off >= 4 ? rd_le(s->rl + off, 4) : 0, hdr = 4;
        if (n - off < 12 || (len == 0xffffffffu && n - off < 20)) {
            snprintf(s->msg, sizeof s->msg,
                     ".debug_rnglists: %llu bytes at 0x%llx are too few for a table header: "
                     "DWARF not read", (unsigned long long)(n - off), (unsigned long long)off);
            return 1;
        }
        unsigned osz = 4;
        if (len == 0xffffffffu) {
            len = rd_le(s->rl + off + 4, 8);
            hdr = 12;
            osz = 8;
        }
        const unsigned char *h = s->rl + off + hdr;
        uint64_t count = rd_le(h + 4, 4), ver = rd_le(h, 2);
        if (ver != 5 || (h[2] != 4 && h[2] != 8) || h[3] != 0) {
            snprintf(s->msg, sizeof s->msg,
                     ".debug_rnglists: the table at 0x%llx has version %u, address size %u, "
                     "segment selector size %u (expected 5, 4 or 8, 0): DWARF not read",
                     (unsigned long long)off, (unsigned)ver, h[2], h[3]);
            return 1;
        }
        if (len < 8 || len > n - off - hdr || count * osz > len - 8) {
            snprintf(s->msg, sizeof s->msg,
                     ".debug_rnglists: the table at 0x%llx (length %llu) cannot hold %llu "
                     "offsets: DWARF not read",
                     (unsigned long long)off, (unsigned long long)len,
                     (unsigned long long)count);
            return 1;
        }
        off += hdr + len;
    }
    return 0;
}

static uint32_t rnglists(cu_state *s, Dwarf_Attribute a, Dwarf_Half form)
{
    Dwarf_Error e = NULL;
    Dwarf_Unsigned val = 0, count = 0, goff = 0;
    Dwarf_Off ref;
    if (form != DW_FORM_rnglistx && dwarf_global_formref(a, &ref, &e) == DW_DLV_OK)
        val = ref;
    else {
        if (e)
            dwarf_dealloc_error(s->dbg, e);
        e = NULL;
        if (dwarf_formudata(a, &val, &e) != DW_DLV_OK) {
            tsym__dw_note_error(s, e);
            return 0;
        }
    }
    if (s->rl && !rnglist_ok(s, form, val))
        return 0;
    Dwarf_Rnglists_Head head = NULL;
    int res = dwarf_rnglists_get_rle_head(a, form, val, &head, &count, &goff, &e);
    if (res != DW_DLV_OK) {
        tsym__dw_note_error(s, e);
        return 0;
    }
    uint32_t n = 0;
    for (Dwarf_Unsigned i = 0; i < count; i++) {
        unsigned len = 0, code = 0;
        Dwarf_Unsigned r1, r2, c1 = 0, c2 = 0;
        Dwarf_Bool unavailable = 0;
        if (dwarf_get_rnglists_entry_fields_a(head, i, &len, &code, &r1, &r2, &unavailable, &c1,
                                              &c2, &e) != DW_DLV_OK) {
            tsym__dw_note_error(s, e);
            break;
        }
        if (code == DW_RLE_end_of_list || code == DW_RLE_base_address ||
            code == DW_RLE_base_addressx || unavailable)
            continue;
        n += (uint32_t)push_range(s, c1, c2);
    }
    dwarf_dealloc_rnglists_head(head);
    return n;
}

static uint32_t debug_ranges(cu_state *s, Dwarf_Die die, Dwarf_Attribute a)
{
    Dwarf_Error e = NULL;
    Dwarf_Off off;
    if (!tsym__dw_form_offset(s, a, &off))
        return 0;
    Dwarf_Ranges *r = NULL;
    Dwarf_Signed n = 0;
    Dwarf_Unsigned bytes;
    Dwarf_Off real;
    int res = dwarf_get_ranges_b(s->dbg, off, die, &real, &r, &n, &bytes, &e);
    if (res != DW_DLV_OK) {
        tsym__dw_note_error(s, e);
        return 0;
    }
    uint64_t base = s->base;
    uint32_t got = 0;
    for (Dwarf_Signed i = 0; i < n; i++) {
        if (r[i].dwr_type == DW_RANGES_END)
            break;
        if (r[i].dwr_type == DW_RANGES_ADDRESS_SELECTION)
            base = r[i].dwr_addr2;
        else
            got += (uint32_t)push_range(s, base + r[i].dwr_addr1, base + r[i].dwr_addr2);
    }
    dwarf_ranges_dealloc(s->dbg, r, n);
    return got;
}

/* Appends the live code ranges of die to ix->ranges; returns how many (spec 5.2.5). */
uint32_t tsym__dw_die_ranges(cu_state *s, Dwarf_Die die)
{
    Dwarf_Error e = NULL;
    uint64_t lo, hi;
    int lo_const, hi_const;
    if (tsym__dw_attr_addr(s, die, DW_AT_low_pc, &lo, &lo_const) && !lo_const) {
        if (!tsym__dw_attr_addr(s, die, DW_AT_high_pc, &hi, &hi_const))
            return 0;
        if (hi_const)
            hi += lo;
        return (uint32_t)push_range(s, lo, hi);
    }
    int res;
    Dwarf_Attribute a;
    res = dwarf_attr(die, DW_AT_ranges, &a, &e);
    if (res != DW_DLV_OK) {
        tsym__dw_note_error(s, e);
        return 0;
    }
    Dwarf_Half form = 0;
    uint32_t n = 0;
    if (dwarf_whatform(a, &form, &e) != DW_DLV_OK)
        tsym__dw_note_error(s, e);
    else if (s->version >= 5 || form == DW_FORM_rnglistx)
        n = rnglists(s, a, form);
    else
        n = debug_ranges(s, die, a);
    dwarf_dealloc_attribute(a);
    return n;
}
