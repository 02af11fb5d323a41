/* The libdwarf walk's state and helpers shared by dwarf.c (units, DIE tree, names),
 * dwarf_attr.c (attribute values) and dwarf_range.c (code ranges), spec/symbolication.md
 * 5.2 and 6. Private to these three files, the only ones that include libdwarf.h. */
#ifndef TSYM_DWARF_INT_H
#define TSYM_DWARF_INT_H

#include "tsym_int.h"

#include <dwarf.h>
#include <libdwarf.h>

#define ABBREV_CACHE 1024

typedef struct name_info {
    uint32_t name, decl_file, decl_line;
} name_info;

typedef struct walk_frame {
    Dwarf_Die die;  /* next DIE to visit at this level, NULL when the level is done */
    uint32_t ctx;   /* concrete node inline subroutines attach to, or TSYM_NONE */
    uint32_t own;   /* node whose children this level holds, or TSYM_NONE */
} walk_frame;

typedef struct cu_state {
    Dwarf_Debug dbg;
    Dwarf_Debug sup;      /* the dwz supplementary file (.gnu_debugaltlink), tied, or NULL */
    tsym__index *ix;
    Dwarf_Half version;
    uint64_t base, cu_start, cu_end;
    uint32_t *files;
    size_t n_files;
    tsym__map names;      /* DIE offset of an abstract origin -> index into infos */
    tt_vec infos;         /* name_info */
    tt_vec stack;         /* walk_frame */
    tsym__dsecs secs;     /* .debug_line and its string sections (line.c) */
    int have_secs;
    tsym__lhdr lh;        /* line table header of the current CU */
    const unsigned char *rl; /* .debug_rnglists bytes (ELF and Mach-O), NULL when none */
    uint64_t rl_size;
    uint64_t rl_base, rl_end; /* the CU's range list table: offsets array .. table end */
    uint32_t rl_count;        /* offset_entry_count of that table, 0: none found */
    unsigned rl_osz;
    unsigned asize;           /* the CU's address size */
    uint64_t addr_base;       /* its DW_AT_addr_base, 0 when absent */
    char msg[200];        /* first DWARF error */
    char lmsg[200];       /* line table error */
    int nomem;
    /* attributes a node DIE's abbreviation has, by abbreviation code (this CU's table):
     * bit 31 = known, other bits = tsym__dw_attr_bit(); lookups of absent ones skip libdwarf */
    uint32_t abbrev_attrs[ABBREV_CACHE];
    Dwarf_Die mask_die;   /* the DIE make_node reads (in this CU), or NULL */
    uint32_t mask;        /* its abbreviation's bits */
} cu_state;

/* ---- attribute values (dwarf_attr.c); each notes libdwarf's errors in s ---- */

/* The bit of an attribute make_node asks for in cu_state.mask, 0 for others. */
uint32_t tsym__dw_attr_bit(Dwarf_Half at);
/* Records the first message in s->msg and frees e (NULL: nothing). */
void tsym__dw_note_error(cu_state *s, Dwarf_Error e);
/* Frees *e without recording it and clears it. */
void tsym__dw_drop(cu_state *s, Dwarf_Error *e);
/* Each: 1 when die has attribute at with a value of the class, stored in *out. */
int tsym__dw_attr_udata(cu_state *s, Dwarf_Die die, Dwarf_Half at, uint64_t *out);
int tsym__dw_attr_string(cu_state *s, Dwarf_Die die, Dwarf_Half at, const char **out);
int tsym__dw_attr_ref(cu_state *s, Dwarf_Die die, Dwarf_Half at, Dwarf_Off *out);
int tsym__dw_attr_ref_any(cu_state *s, Dwarf_Die die, Dwarf_Half at, Dwarf_Off *out,
                          int *in_sup);
int tsym__dw_attr_offset(cu_state *s, Dwarf_Die die, Dwarf_Half at, Dwarf_Off *out);
int tsym__dw_form_offset(cu_state *s, Dwarf_Attribute a, Dwarf_Off *off);
int tsym__dw_attr_addr(cu_state *s, Dwarf_Die die, Dwarf_Half at, uint64_t *out,
                       int *is_const);

/* ---- code ranges (dwarf_range.c) ---- */

/* Appends the live code ranges of die to s->ix->ranges; returns how many (spec 5.2.5). */
uint32_t tsym__dw_die_ranges(cu_state *s, Dwarf_Die die);
/* Finds the CU's range list table, whose offsets array starts at base. */
void tsym__dw_rnglist_table(cu_state *s, uint64_t base);
/* 1 when a .debug_rnglists table header is unsound (s->msg says why): no unit is read. */
int tsym__dw_rnglists_bad(cu_state *s);

#endif
