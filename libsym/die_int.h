/* The DIE reader shared by the index walk (die.c) and the decoding of units, abbreviation
 * tables and attribute values (die_read.c), spec/symbolication.md 5.2. Private to these
 * two files: the short names (unit, die, FORM_*, A_*, ...) stay out of tsym_int.h. */
#ifndef TSYM_DIE_INT_H
#define TSYM_DIE_INT_H

#include "tsym_int.h"

/* DWARF constants (DWARF 5 section 7); libdwarf's dwarf.h is for dwarf_int.h only */
enum {
    TAG_try_block = 0x32, TAG_catch_block = 0x25, TAG_lexical_block = 0x0b,
    TAG_subprogram = 0x2e, TAG_inlined_subroutine = 0x1d, TAG_namespace = 0x39,
    TAG_class_type = 0x02, TAG_structure_type = 0x13, TAG_union_type = 0x17, TAG_module = 0x1e,
    TAG_enumeration_type = 0x04, AT_language = 0x13, LANG_Swift = 0x1e,
    AT_sibling = 0x01, AT_name = 0x03, AT_stmt_list = 0x10, AT_low_pc = 0x11,
    AT_high_pc = 0x12, AT_comp_dir = 0x1b, AT_abstract_origin = 0x31, AT_decl_file = 0x3a,
    AT_decl_line = 0x3b, AT_specification = 0x47, AT_ranges = 0x55, AT_call_column = 0x57,
    AT_call_file = 0x58, AT_call_line = 0x59, AT_linkage_name = 0x6e,
    AT_str_offsets_base = 0x72, AT_addr_base = 0x73, AT_rnglists_base = 0x74,
    AT_MIPS_linkage_name = 0x2007, AT_GNU_dwo_id = 0x2131, AT_GNU_ranges_base = 0x2132,
    AT_GNU_addr_base = 0x2133, AT_GNU_dwo_name = 0x2130, AT_dwo_name = 0x76,
    FORM_addr = 0x01, FORM_block2 = 0x03, FORM_block4 = 0x04, FORM_data2 = 0x05,
    FORM_data4 = 0x06, FORM_data8 = 0x07, FORM_string = 0x08, FORM_block = 0x09,
    FORM_block1 = 0x0a, FORM_data1 = 0x0b, FORM_flag = 0x0c, FORM_sdata = 0x0d,
    FORM_strp = 0x0e, FORM_udata = 0x0f, FORM_ref_addr = 0x10, FORM_ref1 = 0x11,
    FORM_ref2 = 0x12, FORM_ref4 = 0x13, FORM_ref8 = 0x14, FORM_ref_udata = 0x15,
    FORM_indirect = 0x16, FORM_sec_offset = 0x17, FORM_exprloc = 0x18,
    FORM_flag_present = 0x19, FORM_strx = 0x1a, FORM_addrx = 0x1b, FORM_ref_sup4 = 0x1c,
    FORM_strp_sup = 0x1d, FORM_data16 = 0x1e, FORM_line_strp = 0x1f, FORM_ref_sig8 = 0x20,
    FORM_implicit_const = 0x21, FORM_loclistx = 0x22, FORM_rnglistx = 0x23,
    FORM_ref_sup8 = 0x24, FORM_strx1 = 0x25, FORM_strx2 = 0x26, FORM_strx3 = 0x27,
    FORM_strx4 = 0x28, FORM_addrx1 = 0x29, FORM_addrx2 = 0x2a, FORM_addrx3 = 0x2b,
    FORM_addrx4 = 0x2c, FORM_GNU_addr_index = 0x1f01, FORM_GNU_str_index = 0x1f02,
    FORM_GNU_ref_alt = 0x1f20, FORM_GNU_strp_alt = 0x1f21,
    RLE_end_of_list = 0, RLE_base_addressx, RLE_startx_endx, RLE_startx_length,
    RLE_offset_pair, RLE_base_address, RLE_start_end, RLE_start_length,
    UT_compile = 1, UT_type = 2, UT_partial = 3, UT_skeleton = 4, UT_split_compile = 5,
    UT_split_type = 6,
};

typedef tsym__cur cur;

static inline uint64_t fixed(cur *c, unsigned n) { return tsym__cur_fixed(c, n); }
static inline void skip(cur *c, uint64_t n) { tsym__cur_skip(c, n); }
static inline uint64_t leb(cur *c, int sign) { return tsym__cur_leb(c, sign); }

static inline uint64_t uleb(cur *c)
{
    if (c->p < c->end && !(*c->p & 0x80))
        return *c->p++;
    return leb(c, 0);
}

/* ---- units and abbreviations ---- */

typedef struct unit {
    uint64_t start, end, die; /* section offsets: header, end, first DIE */
    uint64_t abbrev_off;
    unsigned version, asize, osz;
    unsigned ut;     /* DWARF 5 unit type, UT_compile before DWARF 5 */
    uint64_t dwo_id; /* DWARF 5 skeleton and split units: the header's dwo_id */
} unit;

typedef struct spec {
    uint16_t at, form;
    int slot;   /* A_* or -1 */
    int64_t ic; /* DW_FORM_implicit_const value */
} spec;

typedef struct abbrev {
    uint32_t first, n; /* specs */
    uint16_t tag;
    uint8_t children, known;
    int32_t size; /* bytes of the attributes when every form has a fixed size, else -1 */
    uint32_t sk_first; /* skip operations (below) */
    uint16_t sk_n;     /* SK_NONE: a form they do not cover */
    uint8_t has_sib;   /* a DW_AT_sibling among the attributes */
    uint8_t x3;        /* a DW_FORM_strx3 or DW_FORM_addrx3 among them (libdwarf 20210528
                        * reads both as 4 bytes: the guard keeps its walk off such units) */
} abbrev;

/* Skipping the attributes of a DIE whose values the index does not read (most DIEs): one
 * operation per attribute of variable size, one per run of fixed-size ones. Kind in the top
 * three bits, byte count (SK_FIX) in the others. */
enum { SK_FIX, SK_ULEB, SK_STR, SK_BLK1, SK_BLK2, SK_BLK4, SK_BLKU };
#define SK_KIND_SHIFT 13
#define SK_FIX_MAX 0x1fff
#define SK_NONE 0xffff

typedef struct atab {
    uint64_t off;
    unsigned version, asize, osz;
    int valid;
    abbrev *codes; /* by code; known == 0: no such code */
    size_t n_codes;
    spec *specs;
    size_t n_specs;
    uint16_t *skops;
    size_t n_skops, cap_skops;
} atab;

/* the attributes the index reads, one slot each */
enum { A_LOW, A_HIGH, A_RANGES, A_ORIGIN, A_SPEC, A_LINKAGE, A_MIPS, A_NAME, A_DFILE, A_DLINE,
       A_CFILE, A_CLINE, A_CCOL, A_STMT, A_STROFF, A_ADDRBASE, A_RLBASE, A_COMPDIR, A_SIBLING,
       A_DWONAME, A_DWOID, A_GNU_RBASE, A_LANG, A_N };

/* ---- attribute values ---- */

enum { V_ADDR = 1, V_ADDRX, V_CONST, V_SCONST, V_STR, V_STRX, V_REF, V_SECOFF, V_LISTX,
       V_OTHER };

typedef struct val {
    uint8_t cls;
    uint16_t form; /* V_STR: the string section (TSYM_DS_*) when str is NULL */
    uint64_t u;    /* address, index, offset or constant */
    const char *str;
} val;

typedef struct die {
    uint64_t off;
    const unit *u;
    const abbrev *ab;
    uint32_t have; /* bit per slot */
    val v[A_N];
} die;

static inline int has(const die *e, int k) { return (int)(e->have >> k & 1); }

/* The tags whose DW_AT_name qualifies the names of a Swift unit (spec/ios.md 7) */
static inline int tsym__die_scope_tag(unsigned tag)
{
    return tag == TAG_module || tag == TAG_structure_type || tag == TAG_class_type ||
           tag == TAG_enumeration_type || tag == TAG_namespace;
}

void tsym__atab_free(atab *t);
/* Reads the abbreviation table at u->abbrev_off into t (reused when it is already there).
 * lenient: a broken entry ends the table, the codes before it are kept (t is not reused).
 * 0, TSYM__DIE_FALLBACK or TT_ENOMEM. */
int tsym__atab_read(atab *t, const tsym__dsecs *s, const unit *u, int lenient);
/* The header of the unit at off in .debug_info; 0 or TSYM__DIE_FALLBACK. Type units
 * (DWARF 5 DW_UT_type, DW_UT_split_type) are read too: callers skip or refuse them. */
int tsym__unit_read(unit *u, const tsym__dsecs *s, uint64_t off);
/* Reads the DIE at c: 1, 0 for a null entry (end of siblings), -1 when it cannot be read.
 * full: record every attribute the index reads; 0: only DW_AT_sibling, and only when the
 * DIE's children are skipped; -1: full for subprograms and inlined subroutines; -2: also
 * for the scopes of a Swift unit's names (tsym__die_scope_tag). */
int tsym__die_parse(die *e, cur *c, const unsigned char *info, const unit *u, const atab *t,
                    int full);

#endif
