/* Units, abbreviation tables and attribute values of .debug_info read from the section
 * bytes (spec/symbolication.md 5.2) for die.c's walk: no allocation per DIE, and DIEs whose
 * values the index does not read skipped by per-abbreviation skip operations. */
#include "die_int.h"

#include <stdlib.h>
#include <string.h>

#define MAX_CODES (1u << 16)

void tsym__atab_free(atab *t)
{
    free(t->codes);
    free(t->specs);
    free(t->skops);
    memset(t, 0, sizeof *t);
}

/* A form code of DWARF 2-5 (0x01-0x2c) or one of the GNU forms libdwarf reads. */
static int known_form(uint64_t f)
{
    return (f >= 0x01 && f <= FORM_addrx4) || f == FORM_GNU_addr_index ||
           f == FORM_GNU_str_index || f == FORM_GNU_ref_alt || f == FORM_GNU_strp_alt;
}

/* Byte size of a form whose size does not depend on the data, -1 otherwise. */
static int form_size(uint16_t form, const unit *u)
{
    switch (form) {
    case FORM_addr: return (int)u->asize;
    case FORM_data1: case FORM_ref1: case FORM_flag: case FORM_strx1: case FORM_addrx1:
        return 1;
    case FORM_data2: case FORM_ref2: case FORM_strx2: case FORM_addrx2: return 2;
    case FORM_strx3: case FORM_addrx3: return 3;
    case FORM_data4: case FORM_ref4: case FORM_strx4: case FORM_addrx4: case FORM_ref_sup4:
        return 4;
    case FORM_data8: case FORM_ref8: case FORM_ref_sig8: case FORM_ref_sup8: return 8;
    case FORM_data16: return 16;
    case FORM_flag_present: case FORM_implicit_const: return 0;
    case FORM_strp: case FORM_line_strp: case FORM_sec_offset: case FORM_strp_sup:
    case FORM_GNU_strp_alt: case FORM_GNU_ref_alt:
        return (int)u->osz;
    case FORM_ref_addr: return u->version <= 2 ? (int)u->asize : (int)u->osz;
    default: return -1;
    }
}

static int slot_of(uint16_t at)
{
    switch (at) {
    case AT_low_pc: return A_LOW;
    case AT_high_pc: return A_HIGH;
    case AT_ranges: return A_RANGES;
    case AT_abstract_origin: return A_ORIGIN;
    case AT_specification: return A_SPEC;
    case AT_linkage_name: return A_LINKAGE;
    case AT_MIPS_linkage_name: return A_MIPS;
    case AT_name: return A_NAME;
    case AT_decl_file: return A_DFILE;
    case AT_decl_line: return A_DLINE;
    case AT_call_file: return A_CFILE;
    case AT_call_line: return A_CLINE;
    case AT_call_column: return A_CCOL;
    case AT_stmt_list: return A_STMT;
    case AT_str_offsets_base: return A_STROFF;
    case AT_addr_base: return A_ADDRBASE;
    case AT_rnglists_base: return A_RLBASE;
    case AT_comp_dir: return A_COMPDIR;
    case AT_language: return A_LANG;
    case AT_sibling: return A_SIBLING;
    case AT_GNU_addr_base: return A_ADDRBASE;
    case AT_GNU_ranges_base: return A_GNU_RBASE;
    case AT_GNU_dwo_id: return A_DWOID;
    case AT_GNU_dwo_name: case AT_dwo_name: return A_DWONAME;
    default: return -1;
    }
}

static int sk_push(atab *t, uint16_t op)
{
    if (t->n_skops == t->cap_skops) {
        size_t nc = t->cap_skops ? t->cap_skops * 2 : 256;
        uint16_t *np = realloc(t->skops, nc * sizeof *np);
        if (!np)
            return TT_ENOMEM;
        t->skops = np;
        t->cap_skops = nc;
    }
    t->skops[t->n_skops++] = op;
    return 0;
}

/* The skip operations of abbreviation a (its specs are the last ones of t). */
static int skip_ops(atab *t, abbrev *a, const unit *u)
{
    a->sk_first = (uint32_t)t->n_skops;
    a->sk_n = 0;
    a->has_sib = 0;
    int run = -1; /* index of the open SK_FIX operation */
    for (uint32_t i = 0; i < a->n; i++) {
        const spec *sp = &t->specs[a->first + i];
        a->has_sib |= sp->slot == A_SIBLING;
        int fs = form_size(sp->form, u), kind;
        switch (sp->form) {
        case FORM_udata: case FORM_sdata: case FORM_strx: case FORM_addrx:
        case FORM_GNU_addr_index: case FORM_GNU_str_index: case FORM_ref_udata:
        case FORM_loclistx: case FORM_rnglistx:
            kind = SK_ULEB; break;
        case FORM_string: kind = SK_STR; break;
        case FORM_block1: kind = SK_BLK1; break;
        case FORM_block2: kind = SK_BLK2; break;
        case FORM_block4: kind = SK_BLK4; break;
        case FORM_block: case FORM_exprloc: kind = SK_BLKU; break;
        default: kind = fs >= 0 ? SK_FIX : -1;
        }
        if (kind < 0) { /* read_val decides (it gives up on most of these) */
            t->n_skops = a->sk_first;
            a->sk_n = SK_NONE;
            return 0;
        }
        if (kind == SK_FIX && run >= 0 && (t->skops[run] & SK_FIX_MAX) + fs <= SK_FIX_MAX) {
            t->skops[run] = (uint16_t)(t->skops[run] + fs);
            continue;
        }
        if (a->sk_n >= SK_NONE - 1) {
            t->n_skops = a->sk_first;
            a->sk_n = SK_NONE;
            return 0;
        }
        run = kind == SK_FIX ? (int)t->n_skops : -1;
        if (sk_push(t, (uint16_t)(kind << SK_KIND_SHIFT | (kind == SK_FIX ? fs : 0))))
            return TT_ENOMEM;
        a->sk_n++;
    }
    return 0;
}

/* Reads the abbreviation table at u->abbrev_off into t (reused when it is already there).
 * lenient: a broken entry ends the table, the codes before it are kept (t is not reused). */
int tsym__atab_read(atab *t, const tsym__dsecs *s, const unit *u, int lenient)
{
    if (t->valid && t->off == u->abbrev_off && t->version == u->version &&
        t->asize == u->asize && t->osz == u->osz)
        return 0;
    t->valid = 0;
    t->n_codes = t->n_specs = t->n_skops = 0;
    size_t cap_codes = 0, cap_specs = 0;
    if (u->abbrev_off >= s->size[TSYM_DS_ABBREV])
        return TSYM__DIE_FALLBACK;
    cur c = {s->data[TSYM_DS_ABBREV] + u->abbrev_off,
             s->data[TSYM_DS_ABBREV] + s->size[TSYM_DS_ABBREV], s->big_endian, 0};
    for (;;) {
        uint64_t code = uleb(&c);
        if (c.bad)
            return lenient ? 0 : TSYM__DIE_FALLBACK;
        if (code == 0)
            break;
        if (code >= MAX_CODES)
            return lenient ? 0 : TSYM__DIE_FALLBACK;
        if (code >= cap_codes) {
            size_t nc = cap_codes ? cap_codes : 64;
            while (nc <= code)
                nc *= 2;
            abbrev *na = realloc(t->codes, nc * sizeof *na);
            if (!na)
                return TT_ENOMEM;
            memset(na + cap_codes, 0, (nc - cap_codes) * sizeof *na);
            t->codes = na;
            cap_codes = nc;
        }
        if (code >= t->n_codes) {
            if (code >= t->n_codes)
                memset(t->codes + t->n_codes, 0, (code + 1 - t->n_codes) * sizeof *t->codes);
            t->n_codes = code + 1;
        }
        abbrev *a = &t->codes[code];
        if (a->known)
            return lenient ? 0 : TSYM__DIE_FALLBACK; /* duplicate code */
        uint64_t tag = uleb(&c);
        a->tag = tag > 0xffff ? 0xffff : (uint16_t)tag;
        a->children = (uint8_t)fixed(&c, 1);
        a->first = (uint32_t)t->n_specs;
        a->x3 = 0;
        a->size = 0;
        for (;;) {
            uint64_t at = uleb(&c), form = uleb(&c);
            if (c.bad || at > 0xffff || form > 0xffff)
                return lenient ? 0 : TSYM__DIE_FALLBACK;
            if (at == 0 && form == 0)
                break;
            int64_t ic = form == FORM_implicit_const ? (int64_t)leb(&c, 1) : 0;
            if (t->n_specs == cap_specs) {
                size_t ns = cap_specs ? cap_specs * 2 : 256;
                spec *np = realloc(t->specs, ns * sizeof *np);
                if (!np)
                    return TT_ENOMEM;
                t->specs = np;
                cap_specs = ns;
            }
            t->specs[t->n_specs++] = (spec){(uint16_t)at, (uint16_t)form, slot_of((uint16_t)at), ic};
            a->x3 |= form == FORM_strx3 || form == FORM_addrx3;
            int sz = form_size((uint16_t)form, u);
            a->size = sz < 0 || a->size < 0 ? -1 : a->size + sz;
        }
        a->n = (uint32_t)(t->n_specs - a->first);
        if (skip_ops(t, a, u))
            return TT_ENOMEM;
        a->known = 1;
    }
    t->off = u->abbrev_off;
    t->version = u->version;
    t->asize = u->asize;
    t->osz = u->osz;
    t->valid = 1;
    return 0;
}

/* Reads one attribute value of form at c. */
static int read_val(val *v, cur *c, const unit *u, uint16_t form, int64_t ic)
{
    v->form = form;
    v->str = NULL;
    switch (form) {
    case FORM_addr: v->cls = V_ADDR; v->u = fixed(c, u->asize); break;
    case FORM_addrx: case FORM_GNU_addr_index: v->cls = V_ADDRX; v->u = uleb(c); break;
    case FORM_addrx1: v->cls = V_ADDRX; v->u = fixed(c, 1); break;
    case FORM_addrx2: v->cls = V_ADDRX; v->u = fixed(c, 2); break;
    case FORM_addrx3: v->cls = V_ADDRX; v->u = fixed(c, 3); break;
    case FORM_addrx4: v->cls = V_ADDRX; v->u = fixed(c, 4); break;
    case FORM_data1: v->cls = V_CONST; v->u = fixed(c, 1); break;
    case FORM_data2: v->cls = V_CONST; v->u = fixed(c, 2); break;
    case FORM_data4: v->cls = V_CONST; v->u = fixed(c, 4); break;
    case FORM_data8: v->cls = V_CONST; v->u = fixed(c, 8); break;
    case FORM_udata: v->cls = V_CONST; v->u = uleb(c); break;
    case FORM_sdata: v->cls = V_SCONST; v->u = leb(c, 1); break;
    case FORM_implicit_const: v->cls = V_SCONST; v->u = (uint64_t)ic; break;
    case FORM_string: {
        const unsigned char *z = c->bad ? NULL : memchr(c->p, 0, (size_t)(c->end - c->p));
        if (!z) {
            c->bad = 1;
            return 0;
        }
        v->cls = V_STR;
        v->str = (const char *)c->p;
        c->p = z + 1;
        break;
    }
    case FORM_strp: v->cls = V_STR; v->u = fixed(c, u->osz); v->form = TSYM_DS_STR; break;
    case FORM_line_strp:
        v->cls = V_STR;
        v->u = fixed(c, u->osz);
        v->form = TSYM_DS_LINE_STR;
        break;
    case FORM_strx: v->cls = V_STRX; v->u = uleb(c); break;
    case FORM_GNU_str_index: /* GNU's DWARF 4 split units (die.c marks them); elsewhere
                              * libdwarf decides */
        if (u->ut != UT_split_compile)
            return 0;
        v->cls = V_STRX;
        v->u = uleb(c);
        break;
    case FORM_strx1: v->cls = V_STRX; v->u = fixed(c, 1); break;
    case FORM_strx2: v->cls = V_STRX; v->u = fixed(c, 2); break;
    case FORM_strx3: v->cls = V_STRX; v->u = fixed(c, 3); break;
    case FORM_strx4: v->cls = V_STRX; v->u = fixed(c, 4); break;
    case FORM_ref1: v->cls = V_REF; v->u = u->start + fixed(c, 1); break;
    case FORM_ref2: v->cls = V_REF; v->u = u->start + fixed(c, 2); break;
    case FORM_ref4: v->cls = V_REF; v->u = u->start + fixed(c, 4); break;
    case FORM_ref8: v->cls = V_REF; v->u = u->start + fixed(c, 8); break;
    case FORM_ref_udata: v->cls = V_REF; v->u = u->start + uleb(c); break;
    case FORM_ref_addr:
        v->cls = V_REF;
        v->u = fixed(c, u->version <= 2 ? u->asize : u->osz);
        break;
    case FORM_sec_offset: v->cls = V_SECOFF; v->u = fixed(c, u->osz); break;
    case FORM_loclistx: case FORM_rnglistx: v->cls = V_LISTX; v->u = uleb(c); break;
    case FORM_flag: v->cls = V_OTHER; skip(c, 1); break;
    case FORM_flag_present: v->cls = V_OTHER; break;
    case FORM_block1: v->cls = V_OTHER; skip(c, fixed(c, 1)); break;
    case FORM_block2: v->cls = V_OTHER; skip(c, fixed(c, 2)); break;
    case FORM_block4: v->cls = V_OTHER; skip(c, fixed(c, 4)); break;
    case FORM_block: case FORM_exprloc: v->cls = V_OTHER; skip(c, uleb(c)); break;
    case FORM_indirect: {
        /* the form is in the DIE, before the value (DWARF 5 7.5.3); another indirection
         * or an implicit constant (its value is in the abbreviation) cannot be read */
        uint64_t f = uleb(c);
        if (c->bad)
            return 0;
        /* form 0 and codes DWARF does not define: libdwarf 20210528 reads past such a
         * value and leaks the next DIE it allocates (found by fuzz_macho) */
        if (f == FORM_indirect || f == FORM_implicit_const || !known_form(f)) {
            c->bad = TSYM__BAD_INDIRECT;
            return 0;
        }
        if (f == FORM_strx3 || f == FORM_addrx3) { /* libdwarf would read 4 bytes */
            c->bad = TSYM__BAD_X3;
            return 0;
        }
        return read_val(v, c, u, (uint16_t)f, ic);
    }
    default: {
        int n = form_size(form, u);
        if (n < 0)
            return 0; /* vendor forms: libdwarf decides */
        v->cls = V_OTHER;
        skip(c, (uint64_t)n);
    }
    }
    return !c->bad;
}

/* Reads the DIE at c: 1, 0 for a null entry (end of siblings), -1 when it cannot be read.
 * full: as die_int.h says. */
int tsym__die_parse(die *e, cur *c, const unsigned char *info, const unit *u, const atab *t,
                    int full)
{
    e->off = (uint64_t)(c->p - info);
    e->u = u;
    uint64_t code = uleb(c);
    if (c->bad)
        return -1;
    if (code == 0)
        return 0;
    if (code >= t->n_codes || !t->codes[code].known)
        return -1;
    const abbrev *a = &t->codes[code];
    e->ab = a;
    e->have = 0;
    if (full < 0)
        full = a->tag == TAG_subprogram || a->tag == TAG_inlined_subroutine ||
               (full == -2 && a->children && tsym__die_scope_tag(a->tag));
    if (!full && !a->children && a->size >= 0) {
        skip(c, (uint64_t)a->size);
        return c->bad ? -1 : 1;
    }
    if (!full && (!a->children || !a->has_sib) && a->sk_n != SK_NONE) {
        /* skops is NULL while no abbreviation has a skip list: none to apply then */
        const uint16_t *op = a->sk_n ? t->skops + a->sk_first : NULL;
        for (uint32_t i = 0; i < a->sk_n && !c->bad; i++) {
            unsigned v = op[i] & SK_FIX_MAX;
            switch (op[i] >> SK_KIND_SHIFT) {
            case SK_FIX: skip(c, v); break;
            case SK_ULEB: uleb(c); break;
            case SK_STR: {
                const unsigned char *z = memchr(c->p, 0, (size_t)(c->end - c->p));
                if (!z) { /* as read_val: the unit's bytes ran out */
                    c->bad = 1;
                    return -1;
                }
                c->p = z + 1;
                break;
            }
            case SK_BLK1: skip(c, fixed(c, 1)); break;
            case SK_BLK2: skip(c, fixed(c, 2)); break;
            case SK_BLK4: skip(c, fixed(c, 4)); break;
            default: skip(c, uleb(c)); break;
            }
        }
        return c->bad ? -1 : 1;
    }
    const spec *sp = a->n ? t->specs + a->first : NULL; /* specs is NULL without any */
    for (uint32_t i = 0; i < a->n; i++) {
        int k = sp[i].slot;
        if (!full && k != A_SIBLING)
            k = -1;
        val tmp;
        val *v = k >= 0 && !(e->have >> k & 1) ? &e->v[k] : &tmp;
        if (!read_val(v, c, u, sp[i].form, sp[i].ic))
            return -1;
        if (v != &tmp)
            e->have |= 1u << k;
    }
    return 1;
}

/* The header of the unit at off in .debug_info; 0 or TSYM__DIE_FALLBACK. */
int tsym__unit_read(unit *u, const tsym__dsecs *s, uint64_t off)
{
    const unsigned char *info = s->data[TSYM_DS_INFO];
    uint64_t n = s->size[TSYM_DS_INFO];
    cur c = {info + off, info + n, s->big_endian, 0};
    uint64_t len = fixed(&c, 4);
    *u = (unit){.start = off, .osz = 4};
    if (len == 0xffffffffu) {
        len = fixed(&c, 8);
        u->osz = 8;
    } else if (len >= 0xfffffff0u) {
        return TSYM__DIE_FALLBACK;
    }
    uint64_t hdr = (uint64_t)(c.p - info);
    if (c.bad || len > n - hdr)
        return TSYM__DIE_FALLBACK;
    u->end = hdr + len;
    c.end = info + u->end;
    u->version = (unsigned)fixed(&c, 2);
    if (u->version < 2 || u->version > 5)
        return TSYM__DIE_FALLBACK;
    if (u->version == 5) {
        unsigned ut = (unsigned)fixed(&c, 1);
        u->asize = (unsigned)fixed(&c, 1);
        u->abbrev_off = fixed(&c, u->osz);
        if (ut == UT_skeleton || ut == UT_split_compile)
            u->dwo_id = fixed(&c, 8);
        else if (ut == UT_type || ut == UT_split_type)
            skip(&c, 8 + u->osz); /* type signature, type offset */
        else if (ut != UT_compile && ut != UT_partial)
            return TSYM__DIE_FALLBACK;
        u->ut = ut;
    } else {
        u->abbrev_off = fixed(&c, u->osz);
        u->asize = (unsigned)fixed(&c, 1);
        u->ut = UT_compile;
    }
    if (c.bad || (u->asize != 4 && u->asize != 8))
        return TSYM__DIE_FALLBACK;
    u->die = (uint64_t)(c.p - info);
    return 0;
}
