/* DWARF 2-5 to the interval index through libdwarf 20210528 (spec/symbolication.md 5.2,
 * API and pitfalls in section 6): the units, the DIE tree walk and the names; attribute
 * values are read in dwarf_attr.c, code ranges in dwarf_range.c (dwarf_int.h). These three
 * are the only files of tracetool that include libdwarf.h.
 * dwarf_set_de_alloc_flag(0) is in effect (tsym_init), so every libdwarf object read here
 * is freed here: dies, attributes, errors, range lists. Line tables are decoded by line.c
 * from the section bytes (libdwarf's dwarf_srclines_b allocates per row). */
#include "dwarf_int.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#define MAX_ORIGIN_HOPS 8
#define ABBREV_KNOWN 0x80000000u

/* DWARF 5 numbers files from 0, DWARF 2-4 from 1 (spec 5.2.8) */
static uint32_t file_id(const cu_state *s, uint64_t raw, unsigned version)
{
    if (version < 5) {
        if (raw == 0)
            return TSYM_NONE;
        raw--;
    }
    return raw < s->n_files ? s->files[raw] : TSYM_NONE;
}

/* Walks die and its abstract_origin / specification chain (spec 5.2.6). */
static int walk_name(cu_state *s, Dwarf_Die die, int in_sup, name_info *out)
{
    const char *linkage = NULL, *plain = NULL;
    uint64_t dfile = 0, dline = 0;
    int have_file = 0, have_line = 0;
    Dwarf_Die cur = die;
    Dwarf_Error e = NULL;
    Dwarf_Debug cdbg = in_sup ? s->sup : s->dbg; /* the file cur is in */
    for (int hop = 0; hop <= MAX_ORIGIN_HOPS; hop++) {
        const char *t = NULL;
        int named = linkage != NULL; /* the names come from the chain up to the linkage name */
        if (!named && (tsym__dw_attr_string(s, cur, DW_AT_linkage_name, &t) ||
                       tsym__dw_attr_string(s, cur, DW_AT_MIPS_linkage_name, &t)))
            linkage = t;
        if (!named && !plain && tsym__dw_attr_string(s, cur, DW_AT_name, &t))
            plain = t;
        /* each from the first DIE of the chain that has it (llvm-symbolizer's way): a member
         * defined in its class has both only on the declaration its specification points
         * to, one defined outside has its own decl_line but the declaration's decl_file */
        if (!have_file && cdbg == s->dbg && tsym__dw_attr_udata(s, cur, DW_AT_decl_file, &dfile)) {
            Dwarf_Off off = 0;
            if (dwarf_dieoffset(cur, &off, &e) == DW_DLV_OK && off >= s->cu_start &&
                off < s->cu_end)
                have_file = 1;
            if (e) {
                dwarf_dealloc_error(s->dbg, e);
                e = NULL;
            }
        }
        if (!have_line && cdbg == s->dbg && tsym__dw_attr_udata(s, cur, DW_AT_decl_line, &dline))
            have_line = 1;
        if (linkage && have_file && have_line)
            break;
        Dwarf_Off ref;
        int sup_ref = 0;
        if (!tsym__dw_attr_ref_any(s, cur, DW_AT_abstract_origin, &ref, &sup_ref) &&
            !tsym__dw_attr_ref_any(s, cur, DW_AT_specification, &ref, &sup_ref))
            break;
        if (sup_ref)
            cdbg = s->sup;
        Dwarf_Die next = NULL;
        int res = dwarf_offdie_b(cdbg, ref, 1, &next, &e);
        if (res != DW_DLV_OK) {
            if (linkage && e) /* only the declaration's line is lost: the name stands */
                dwarf_dealloc_error(s->dbg, e);
            else
                tsym__dw_note_error(s, e);
            break;
        }
        if (cur != die)
            dwarf_dealloc_die(cur);
        cur = next;
    }
    out->name = TSYM_NONE;
    out->decl_file = have_file ? file_id(s, dfile, s->version) : TSYM_NONE;
    out->decl_line = have_line && dline <= UINT32_MAX ? (uint32_t)dline : 0;
    const char *nm = linkage ? linkage : plain;
    int rc = 0;
    if (nm)
        rc = tsym__str_intern(&out->name, &s->ix->str, nm, strlen(nm));
    if (cur != die)
        dwarf_dealloc_die(cur);
    return rc;
}

/* A concrete DIE's own linkage name wins over its origin's: gcc gives the abstract
 * constructor or destructor the unified C4/D4 name and each out-of-line copy its real
 * C1/C2/D1/D2 symbol. */
static int own_linkage(cu_state *s, Dwarf_Die die, name_info *out)
{
    const char *t = NULL;
    if (tsym__dw_attr_string(s, die, DW_AT_linkage_name, &t) ||
        tsym__dw_attr_string(s, die, DW_AT_MIPS_linkage_name, &t))
        return tsym__str_intern(&out->name, &s->ix->str, t, strlen(t));
    return 0;
}

/* Name of a concrete DIE, through a cache keyed by abstract origin (inline nodes of one
 * function share it). */
static int die_name(cu_state *s, Dwarf_Die die, name_info *out)
{
    Dwarf_Off ref;
    int in_sup = 0;
    if (!tsym__dw_attr_ref_any(s, die, DW_AT_abstract_origin, &ref, &in_sup))
        return walk_name(s, die, 0, out);
    /* offsets in the supplementary file get the top bit: no clash with the file's own */
    uint32_t *slot = tsym__map_slot(&s->names, in_sup ? ref | (uint64_t)1 << 63 : ref);
    if (!slot)
        return TT_ENOMEM;
    if (*slot != TSYM_NONE) {
        *out = TT_VEC_AT(&s->infos, name_info, *slot);
        return own_linkage(s, die, out);
    }
    Dwarf_Die o = NULL;
    Dwarf_Error e = NULL;
    int res = dwarf_offdie_b(in_sup ? s->sup : s->dbg, ref, 1, &o, &e);
    if (res != DW_DLV_OK) {
        tsym__dw_note_error(s, e);
        return walk_name(s, die, 0, out);
    }
    int rc = walk_name(s, o, in_sup, out);
    dwarf_dealloc_die(o);
    if (rc)
        return rc;
    *slot = (uint32_t)s->infos.len;
    return tt_vec_push(&s->infos, out) ? own_linkage(s, die, out) : TT_ENOMEM;
}

static int container_tag(Dwarf_Half tag)
{
    switch (tag) {
    case DW_TAG_subprogram:
    case DW_TAG_inlined_subroutine:
    case DW_TAG_lexical_block:
    case DW_TAG_namespace:
    case DW_TAG_class_type:
    case DW_TAG_structure_type:
    case DW_TAG_union_type:
    case DW_TAG_module:
    case DW_TAG_try_block:
    case DW_TAG_catch_block:
        return 1;
    default:
        return 0;
    }
}

/* The attributes of die's abbreviation, read once per abbreviation code of the CU with
 * dwarf_attrlist (every DIE of one code has the same attributes); 0 when unknown. */
static uint32_t abbrev_mask(cu_state *s, Dwarf_Die die)
{
    int code = dwarf_die_abbrev_code(die);
    if (code <= 0 || code >= ABBREV_CACHE)
        return 0;
    if (s->abbrev_attrs[code] & ABBREV_KNOWN)
        return s->abbrev_attrs[code];
    Dwarf_Attribute *list = NULL;
    Dwarf_Signed n = 0;
    Dwarf_Error e = NULL;
    if (dwarf_attrlist(die, &list, &n, &e) != DW_DLV_OK) {
        tsym__dw_drop(s, &e);
        return 0;
    }
    uint32_t m = ABBREV_KNOWN;
    for (Dwarf_Signed i = 0; i < n; i++) {
        Dwarf_Half at = 0;
        if (m && dwarf_whatattr(list[i], &at, &e) == DW_DLV_OK)
            m |= tsym__dw_attr_bit(at);
        else
            m = 0;
        tsym__dw_drop(s, &e);
        dwarf_dealloc_attribute(list[i]);
    }
    dwarf_dealloc(s->dbg, list, DW_DLA_LIST);
    if (m)
        s->abbrev_attrs[code] = m;
    return m;
}

/* Creates the node of a concrete subprogram (parent TSYM_NONE) or inline subroutine;
 * returns its index or TSYM_NONE when it has no live code. */
static uint32_t make_node(cu_state *s, Dwarf_Die die, uint32_t parent)
{
    tsym__index *ix = s->ix;
    size_t first = ix->ranges.len;
    s->mask = abbrev_mask(s, die);
    s->mask_die = s->mask ? die : NULL;
    uint32_t nr = tsym__dw_die_ranges(s, die);
    if (nr == 0 || ix->nodes.len >= TSYM_NONE - 1) {
        s->mask_die = NULL;
        return TSYM_NONE;
    }
    name_info ni;
    if (die_name(s, die, &ni)) {
        s->mask_die = NULL;
        s->nomem = 1;
        return TSYM_NONE;
    }
    tsym__node n = {.parent = parent, .name = ni.name, .decl_file = ni.decl_file,
                    .decl_line = ni.decl_line, .call_file = TSYM_NONE,
                    .first_range = (uint32_t)first, .n_ranges = nr, .subtree_end = TSYM_NONE};
    if (parent != TSYM_NONE) {
        uint64_t v;
        if (tsym__dw_attr_udata(s, die, DW_AT_call_file, &v))
            n.call_file = file_id(s, v, s->version);
        if (tsym__dw_attr_udata(s, die, DW_AT_call_line, &v) && v <= UINT32_MAX)
            n.call_line = (uint32_t)v;
        if (tsym__dw_attr_udata(s, die, DW_AT_call_column, &v))
            n.call_col = v > 0xFFFF ? 0xFFFF : (uint16_t)v;
    }
    s->mask_die = NULL;
    uint32_t id = tsym__index_add_node(ix, &n);
    if (id == TSYM_NONE)
        s->nomem = 1;
    return id;
}

static void close_level(cu_state *s)
{
    walk_frame *f = &TT_VEC_AT(&s->stack, walk_frame, s->stack.len - 1);
    if (f->die)
        dwarf_dealloc_die(f->die);
    if (f->own != TSYM_NONE)
        TT_VEC_AT(&s->ix->nodes, tsym__node, f->own).subtree_end = (uint32_t)s->ix->nodes.len;
    s->stack.len--;
}

/* One pass over the DIE tree of a CU with an explicit stack (deep C++ nesting). */
static void walk_cu(cu_state *s, Dwarf_Die cu_die)
{
    Dwarf_Die child = NULL;
    Dwarf_Error e = NULL;
    if (dwarf_child(cu_die, &child, &e) != DW_DLV_OK) {
        tsym__dw_note_error(s, e);
        return;
    }
    walk_frame top = {child, TSYM_NONE, TSYM_NONE};
    if (!tt_vec_push(&s->stack, &top)) {
        dwarf_dealloc_die(child);
        s->nomem = 1;
        return;
    }
    int failed = 0;
    while (s->stack.len) {
        walk_frame *f = &TT_VEC_AT(&s->stack, walk_frame, s->stack.len - 1);
        if (!f->die || failed || s->nomem) {
            close_level(s);
            continue;
        }
        Dwarf_Die die = f->die;
        uint32_t ctx = f->ctx, created = TSYM_NONE, child_ctx = TSYM_NONE;
        Dwarf_Half tag = 0;
        if (dwarf_tag(die, &tag, &e) != DW_DLV_OK) {
            tsym__dw_note_error(s, e);
            failed = 1;
            continue;
        }
        if (tag == DW_TAG_subprogram) {
            created = make_node(s, die, TSYM_NONE);
            child_ctx = created;
        } else if (tag == DW_TAG_inlined_subroutine && ctx != TSYM_NONE) {
            created = make_node(s, die, ctx);
            child_ctx = created;
        } else if (tag == DW_TAG_lexical_block || tag == DW_TAG_try_block ||
                   tag == DW_TAG_catch_block) {
            child_ctx = ctx;
        }
        child = NULL;
        if (container_tag(tag)) {
            int res = dwarf_child(die, &child, &e);
            tsym__dw_note_error(s, e);
            if (res == DW_DLV_ERROR)
                failed = 1;
        }
        Dwarf_Die sib = NULL;
        int res = dwarf_siblingof_b(s->dbg, die, 1, &sib, &e);
        tsym__dw_note_error(s, e);
        if (res == DW_DLV_ERROR)
            failed = 1;
        dwarf_dealloc_die(die);
        f->die = sib;
        if (created != TSYM_NONE && !child)
            TT_VEC_AT(&s->ix->nodes, tsym__node, created).subtree_end = created + 1;
        if (child) {
            walk_frame nf = {child, child_ctx, created};
            if (!tt_vec_push(&s->stack, &nf)) {
                dwarf_dealloc_die(child);
                if (created != TSYM_NONE)
                    TT_VEC_AT(&s->ix->nodes, tsym__node, created).subtree_end = created + 1;
                s->nomem = 1;
            }
        }
    }
}

static uint64_t cu_base(cu_state *s, Dwarf_Die cu_die)
{
    uint64_t lo = 0;
    int is_const = 0;
    if (!tsym__dw_attr_addr(s, cu_die, DW_AT_low_pc, &lo, &is_const) || is_const)
        return 0;
    return lo;
}

static void note_line_rc(cu_state *s, int rc)
{
    if (rc == TT_ENOMEM)
        s->nomem = 1;
    else if (rc && !s->msg[0])
        snprintf(s->msg, sizeof s->msg, "%s", s->lmsg);
}

/* Decodes the header of the CU's line table (DW_AT_stmt_list) and interns its file names
 * into s->files; 1 when the table's rows can be read. */
static int cu_line_header(cu_state *s, Dwarf_Die cu_die)
{
    Dwarf_Off stmt, sob = 0;
    s->n_files = 0;
    if (!s->have_secs || !tsym__dw_attr_offset(s, cu_die, DW_AT_stmt_list, &stmt))
        return 0;
    tsym__dw_attr_offset(s, cu_die, DW_AT_str_offsets_base, &sob);
    int rc = tsym__line_header(&s->lh, &s->secs, stmt, sob, s->lmsg, sizeof s->lmsg);
    if (rc) {
        note_line_rc(s, rc);
        return 0;
    }
    const char *comp = NULL;
    tsym__dw_attr_string(s, cu_die, DW_AT_comp_dir, &comp);
    note_line_rc(s, tsym__line_files(&s->files, &s->n_files, s->ix, &s->lh, comp));
    return !s->nomem;
}

/* 1 when the unit at off may be walked: libdwarf 20210528 leaks the DIE dwarf_child or
 * dwarf_siblingof_b allocated when the next DIE's abbreviation code runs off the end of
 * the unit (DW_DLE_LEB_IMPROPER, found by fuzz_macho), so die.c checks the codes first. */
static int unit_sound(cu_state *s, uint64_t off)
{
    char m[200];
    int rc = tsym__die_check_unit(&s->secs, off, m, sizeof m);
    if (rc == TT_ENOMEM)
        s->nomem = 1;
    else if (rc && !s->msg[0])
        snprintf(s->msg, sizeof s->msg, "%s", m);
    return rc == 0;
}

/* A split-DWARF skeleton unit (DWARF 5 DW_UT_skeleton, or GNU's DWARF 4 extension): its
 * functions are in a .dwo file, named by DW_AT_dwo_name relative to DW_AT_comp_dir; the
 * first one is kept for the module's warning. */
static void note_skeleton(cu_state *s, Dwarf_Die cu_die)
{
    const char *dwo = NULL, *comp = NULL;
    s->ix->split_dwarf = 1;
    if (s->ix->has_dwo_path || (!tsym__dw_attr_string(s, cu_die, DW_AT_dwo_name, &dwo) &&
                                !tsym__dw_attr_string(s, cu_die, DW_AT_GNU_dwo_name, &dwo)))
        return;
    tsym__dw_attr_string(s, cu_die, DW_AT_comp_dir, &comp);
    char buf[TT_ERRMSG_MAX];
    int n = dwo[0] != '/' && comp && comp[0] ? snprintf(buf, sizeof buf, "%s/%s", comp, dwo)
                                              : snprintf(buf, sizeof buf, "%s", dwo);
    size_t len = n < 0 ? 0 : (size_t)n < sizeof buf ? (size_t)n : sizeof buf - 1;
    if (tsym__str_intern(&s->ix->dwo_path, &s->ix->str, buf, len))
        s->nomem = 1;
    else
        s->ix->has_dwo_path = 1;
}

static int load_units(cu_state *s)
{
    Dwarf_Error e = NULL;
    Dwarf_Unsigned prev_next = 0;
    for (;;) {
        Dwarf_Unsigned hlen, typeoff, next = 0;
        Dwarf_Half ver = 0, asize, lsize, xsize, utype = 0;
        Dwarf_Off abbrev;
        Dwarf_Sig8 sig;
        int res = dwarf_next_cu_header_d(s->dbg, 1, &hlen, &ver, &abbrev, &asize, &lsize,
                                         &xsize, &sig, &typeoff, &next, &utype, &e);
        tsym__dw_note_error(s, e);
        if (res != DW_DLV_OK)
            break;
        Dwarf_Die cu_die = NULL;
        res = dwarf_siblingof_b(s->dbg, NULL, 1, &cu_die, &e);
        if (res != DW_DLV_OK) {
            tsym__dw_note_error(s, e);
            break;
        }
        s->ix->n_cus++;
        s->version = ver;
        s->cu_start = prev_next;
        s->cu_end = next;
        prev_next = next;
        s->base = cu_base(s, cu_die);
        if (s->rl) {
            Dwarf_Off rb = 0, ab = 0;
            tsym__dw_rnglist_table(
                s, tsym__dw_attr_offset(s, cu_die, DW_AT_rnglists_base, &rb) ? rb : 0);
            s->asize = asize;
            s->addr_base = tsym__dw_attr_offset(s, cu_die, DW_AT_addr_base, &ab) ? ab : 0;
        }
        memset(s->abbrev_attrs, 0, sizeof s->abbrev_attrs); /* each CU has its own table */
        const char *gnu_dwo;
        if (utype == DW_UT_skeleton ||
            tsym__dw_attr_string(s, cu_die, DW_AT_GNU_dwo_name, &gnu_dwo))
            note_skeleton(s, cu_die);
        /* the line table first: its header names the files decl/call attributes use */
        int lines = cu_line_header(s, cu_die);
        if (!s->nomem && unit_sound(s, s->cu_start))
            walk_cu(s, cu_die);
        if (lines && !s->nomem)
            note_line_rc(s, tsym__line_rows(s->ix, &s->lh, s->files, s->n_files, s->lmsg,
                                            sizeof s->lmsg));
        dwarf_dealloc_die(cu_die);
        if (s->nomem)
            return TT_ENOMEM;
    }
    return 0;
}

/* Indexes every unit of an open dbg; secs (opened or not: have_secs) feeds line.c. */
static int load_dbg(tsym__index *ix, Dwarf_Debug dbg, Dwarf_Debug sup, tsym__dsecs *secs,
                    int have_secs, const char *secs_msg, const char *path, tt_error *err)
{
    cu_state s = {.dbg = dbg, .sup = sup, .ix = ix, .secs = *secs, .have_secs = have_secs};
    if (secs->size[TSYM_DS_RNGLISTS]) {
        s.rl = secs->data[TSYM_DS_RNGLISTS];
        s.rl_size = secs->size[TSYM_DS_RNGLISTS];
    }
    tt_vec_init(&s.infos, sizeof(name_info));
    tt_vec_init(&s.stack, sizeof(walk_frame));
    tsym__lhdr_init(&s.lh);
    /* compilers spend 2-4 bytes of line program per row: one allocation up front, the
     * pages are touched only as rows arrive; when it fails the rows grow as they come */
    if (have_secs)
        (void)tt_vec_reserve(&ix->rows, ix->rows.len + s.secs.size[TSYM_DS_LINE] / 2);
    if (secs_msg)
        snprintf(s.msg, sizeof s.msg, "%.190s", secs_msg);
    int rl_bad = s.rl && tsym__dw_rnglists_bad(&s);
    if (!rl_bad && secs->rl_unread) { /* libdwarf 20210528 frees twice on bad tables */
        rl_bad = 1;
        snprintf(s.msg, sizeof s.msg, ".debug_rnglists cannot be read: DWARF not read");
    }
    int rc = rl_bad ? 0 : load_units(&s);
    *secs = s.secs;
    tsym__lhdr_free(&s.lh);
    tt_vec_free(&s.infos);
    tt_vec_free(&s.stack);
    tsym__map_free(&s.names);
    free(s.files);
    if (rc)
        return tt_error_set(err, rc, path, TT_LOC_NONE, 0, "out of memory");
    if (s.msg[0])
        return tt_error_set(err, TT_EFORMAT, path, TT_LOC_NONE, 0, "DWARF error: %s", s.msg);
    return 0;
}

/* The index built by die.c without libdwarf when it can read the sections: 1 when it did,
 * 0 when libdwarf must (what die.c added is dropped), TT_ENOMEM. */
static int fast_load(tsym__index *ix, const tsym__dsecs *secs, int have_lines)
{
    if (secs->no_die)
        return 0;
    size_t funcs = ix->funcs.len, nodes = ix->nodes.len, ranges = ix->ranges.len;
    size_t rows = ix->rows.len, cus = ix->n_cus, inlines = ix->n_inlines;
    int split = ix->split_dwarf, has_dwo = ix->has_dwo_path;
    size_t n_split = ix->n_split, swiftq = ix->swiftq.count;
    if (have_lines) /* as load_dbg */
        (void)tt_vec_reserve(&ix->rows, ix->rows.len + secs->size[TSYM_DS_LINE] / 2);
    int rc = tsym__die_index(ix, secs, have_lines);
    if (rc == 0)
        return 1;
    ix->funcs.len = funcs;
    ix->nodes.len = nodes;
    ix->ranges.len = ranges;
    ix->rows.len = rows;
    ix->n_cus = cus;
    ix->n_inlines = inlines;
    ix->split_dwarf = split;
    ix->has_dwo_path = has_dwo;
    ix->n_split = n_split;
    ix->dwo_why = TSYM__DWO_UNREAD;
    if (!swiftq) /* libdwarf's walk builds no qualified Swift names: none from die.c either */
        tsym__map_free(&ix->swiftq);
    return rc == TT_ENOMEM ? TT_ENOMEM : 0;
}

/* libdwarf 20210528 reads ELF section flags through a process-wide hook that its ELF
 * reader sets on every dwarf_init_path and nothing resets: a later dwarf_object_init_b
 * (Mach-O sections in memory) called it with our object, reading our struct as its ELF
 * state (a crash, or DW_DLE_SECTION_INDEX_BAD). Every libdwarf init takes this lock, and
 * the object-access one clears the hook first; libdwarf reads it only while it sets up. */
extern int (*_dwarf_get_elf_flags_func_ptr)(void *obj, Dwarf_Half section_index,
                                            Dwarf_Unsigned *flags, Dwarf_Unsigned *addralign,
                                            int *error);
static pthread_mutex_t init_mu = PTHREAD_MUTEX_INITIALIZER;

static int init_path(const char *path, Dwarf_Debug *dbg, Dwarf_Error *e)
{
    pthread_mutex_lock(&init_mu);
    /* NULL true-path buffer: libdwarf must not follow .gnu_debuglink or look into the
     * host's /usr/lib/debug; tracetool's own search decides (spec 4.3) */
    int res = dwarf_init_path(path, NULL, 0, DW_DLC_READ, DW_GROUPNUMBER_ANY, NULL, NULL, dbg,
                              NULL, 0, NULL, e);
    pthread_mutex_unlock(&init_mu);
    return res;
}

static int init_object(Dwarf_Obj_Access_Interface *iface, Dwarf_Debug *dbg, Dwarf_Error *e)
{
    pthread_mutex_lock(&init_mu);
    _dwarf_get_elf_flags_func_ptr = NULL;
    int res = dwarf_object_init_b(iface, NULL, NULL, DW_GROUPNUMBER_ANY, dbg, e);
    pthread_mutex_unlock(&init_mu);
    return res;
}

/* ---- libdwarf's object-access interface over sections in memory (spec/ios.md 6.2):
 * index 0 is an empty dummy, the DWARF sections are 1..n ---- */

typedef struct osects {
    const tsym__osect *s;
    size_t n;
    unsigned ptr_size;
    int big_endian;
} osects;

static int os_info(void *obj, Dwarf_Half i, Dwarf_Obj_Access_Section *out, int *errc)
{
    const osects *o = obj;
    (void)errc;
    memset(out, 0, sizeof *out);
    if (i > o->n)
        return DW_DLV_NO_ENTRY;
    if (i == 0) {
        out->name = "";
        return DW_DLV_OK;
    }
    out->addr = o->s[i - 1].addr;
    out->size = o->s[i - 1].size;
    out->name = o->s[i - 1].name;
    return DW_DLV_OK;
}

static Dwarf_Endianness os_order(void *obj)
{
    return ((const osects *)obj)->big_endian ? DW_OBJECT_MSB : DW_OBJECT_LSB;
}

static Dwarf_Small os_length(void *obj)
{
    (void)obj;
    return 4;
}

static Dwarf_Small os_pointer(void *obj) { return (Dwarf_Small)((const osects *)obj)->ptr_size; }

static Dwarf_Unsigned os_count(void *obj) { return ((const osects *)obj)->n + 1; }

static int os_load(void *obj, Dwarf_Half i, Dwarf_Small **data, int *errc)
{
    const osects *o = obj;
    (void)errc;
    if (i == 0 || i > o->n)
        return DW_DLV_NO_ENTRY;
    /* libdwarf only reads sections it does not relocate (relocate_a_section is NULL) */
    *data = (Dwarf_Small *)(uintptr_t)o->s[i - 1].data;
    return DW_DLV_OK;
}

static const Dwarf_Obj_Access_Methods os_methods = {os_info,  os_order, os_length, os_pointer,
                                                   os_count, os_load,  NULL};


static const char *const ds_names[TSYM_DS_N] = {
    ".debug_line", ".debug_line_str", ".debug_str",      ".debug_str_offsets", ".debug_info",
    ".debug_abbrev", ".debug_addr",   ".debug_rnglists", ".debug_ranges"};

/* The dwz supplementary file, tied to a dbg so that DW_FORM_GNU_strp_alt strings resolve;
 * a zstd-compressed one is read from its decompressed sections (elf.c), which stay open
 * as long as the dbg. */
typedef struct sup_file {
    Dwarf_Debug dbg; /* NULL when it cannot be opened (its names are then missing, never
                      * wrong) */
    int object;      /* dbg reads secs through the object-access interface */
    tsym__dsecs secs;
    tsym__osect os[TSYM_DS_N];
    osects o;
    Dwarf_Obj_Access_Interface iface;
} sup_file;

static void sup_close(sup_file *f)
{
    Dwarf_Error e = NULL;
    if (f->dbg && (f->object ? dwarf_object_finish(f->dbg, &e) : dwarf_finish(f->dbg, &e)) !=
                      DW_DLV_OK && e)
        dwarf_dealloc_error(NULL, e);
    f->dbg = NULL;
    tsym__dsecs_close(&f->secs);
}

static size_t osect_list(tsym__osect *os, const tsym__dsecs *secs)
{
    size_t n = 0;
    for (int k = 0; k < TSYM_DS_N; k++)
        if (secs->size[k])
            os[n++] = (tsym__osect){ds_names[k], 0, secs->size[k], secs->data[k]};
    return n;
}

/* f->dbg: the supplementary file at path tied to dbg, or NULL */
static void open_sup(sup_file *f, Dwarf_Debug dbg, const char *path)
{
    memset(f, 0, sizeof *f);
    f->secs.fd_ = -1;
    tt_error ferr;
    if (tsym__dsecs_open(&f->secs, path, &ferr)) /* also refuses what does not fit */
        return;
    Dwarf_Error e = NULL;
    int res;
    if (f->secs.zstd || f->secs.bad_secs) {
        f->object = 1;
        f->o = (osects){f->os, osect_list(f->os, &f->secs), f->secs.ptr_size,
                        f->secs.big_endian};
        f->iface = (Dwarf_Obj_Access_Interface){&f->o, &os_methods};
        res = init_object(&f->iface, &f->dbg, &e);
    } else {
        tsym__dsecs_close(&f->secs);
        res = init_path(path, &f->dbg, &e);
    }
    if (res != DW_DLV_OK) {
        if (e)
            dwarf_dealloc_error(NULL, e);
        f->dbg = NULL;
        sup_close(f);
        return;
    }
    if (dwarf_set_tied_dbg(dbg, f->dbg, &e) != DW_DLV_OK) {
        if (e)
            dwarf_dealloc_error(dbg, e);
        sup_close(f);
    }
}

int tsym__dwarf_load(tsym__index *ix, const char *path, tt_error *err)
{
    return tsym__dwarf_load_with(ix, path, 1, err);
}

static int load_decompressed(tsym__index *ix, tsym__dsecs *secs, const char *path,
                             tt_error *err);

int tsym__dwarf_load_with(tsym__index *ix, const char *path, int use_die, tt_error *err)
{
    tt_error serr = {0};
    tsym__dsecs secs;
    int rc = tsym__dsecs_open(&secs, path, &serr);
    if (rc && secs.unfit) {
        *err = serr;
        return rc;
    }
    const char *split_debug = ix->split_debug;
    ix->split_debug = path; /* .dwo files and a .dwp package are also looked for beside it */
    int fast = rc == 0 && use_die ? fast_load(ix, &secs, 1) : 0;
    ix->split_debug = split_debug;
    if (fast) {
        tsym__dsecs_close(&secs);
        return fast == 1 ? 0 : tt_error_set(err, TT_ENOMEM, path, TT_LOC_NONE, 0, "out of memory");
    }
    if (rc == 0 && (secs.zstd || secs.bad_secs)) { /* libdwarf's reader cannot have it */
        rc = load_decompressed(ix, &secs, path, err);
        tsym__dsecs_close(&secs);
        return rc;
    }
    Dwarf_Debug dbg = NULL;
    Dwarf_Error e = NULL;
    int res = init_path(path, &dbg, &e);
    sup_file sup = {.secs.fd_ = -1};
    if (res == DW_DLV_OK && ix->sup_path)
        open_sup(&sup, dbg, ix->sup_path);
    if (res != DW_DLV_OK) {
        tsym__dsecs_close(&secs);
        if (res == DW_DLV_NO_ENTRY)
            return 0;
        rc = tt_error_set(err, TT_EFORMAT, path, TT_LOC_NONE, 0, "DWARF: %s",
                          e ? dwarf_errmsg(e) : "cannot open");
        if (e)
            dwarf_dealloc_error(dbg, e);
        return rc;
    }
    /* sections we cannot read ourselves leave .debug_rnglists unchecked, and libdwarf
     * 20210528 frees twice on a bad table header (found by fuzz_elf): no unit is walked */
    if (rc == TT_ENOMEM)
        rc = tt_error_set(err, TT_ENOMEM, path, TT_LOC_NONE, 0, "out of memory");
    else if (rc)
        rc = tt_error_set(err, TT_EFORMAT, path, TT_LOC_NONE, 0, "DWARF error: %s", serr.msg);
    else
        rc = load_dbg(ix, dbg, sup.dbg, &secs, 1, NULL, path, err);
    tsym__dsecs_close(&secs);
    if (dwarf_finish(dbg, &e) != DW_DLV_OK && e)
        dwarf_dealloc_error(NULL, e);
    sup_close(&sup);
    return rc;
}

/* libdwarf's walk over sections in memory (the object-access interface); ls: the same
 * sections for line.c and the guards */
static int load_object(tsym__index *ix, const osects *o, tsym__dsecs *ls, const char *label,
                       tt_error *err)
{
    /* cast: libdwarf's interface has no const; it only reads o */
    Dwarf_Obj_Access_Interface iface = {(void *)(uintptr_t)o, &os_methods};
    Dwarf_Debug dbg = NULL;
    Dwarf_Error e = NULL;
    int res = init_object(&iface, &dbg, &e);
    if (res == DW_DLV_NO_ENTRY)
        return 0;
    if (res != DW_DLV_OK) {
        int rc = tt_error_set(err, TT_EFORMAT, label, TT_LOC_NONE, 0, "DWARF: %s",
                              e ? dwarf_errmsg(e) : "cannot open");
        if (e)
            dwarf_dealloc_error(dbg, e);
        return rc;
    }
    sup_file sup = {.secs.fd_ = -1};
    if (ix->sup_path)
        open_sup(&sup, dbg, ix->sup_path);
    int rc = load_dbg(ix, dbg, sup.dbg, ls, ls->size[TSYM_DS_LINE] > 0, NULL, label, err);
    if (dwarf_object_finish(dbg, &e) != DW_DLV_OK && e)
        dwarf_dealloc_error(NULL, e);
    sup_close(&sup);
    return rc;
}

int tsym__dwarf_load_sections(tsym__index *ix, const tsym__osect *secs, size_t n,
                              unsigned ptr_size, const char *label, tt_error *err)
{
    tsym__dsecs ls;
    memset(&ls, 0, sizeof ls);
    ls.fd_ = -1;
    int have_info = 0;
    for (size_t i = 0; i < n; i++) {
        have_info |= !strcmp(secs[i].name, ".debug_info") && secs[i].size;
        for (int k = 0; k < TSYM_DS_N; k++)
            if (!strcmp(secs[i].name, ds_names[k])) {
                ls.data[k] = secs[i].data;
                ls.size[k] = (size_t)secs[i].size;
            }
    }
    if (!have_info)
        return 0;
    int fast = fast_load(ix, &ls, ls.size[TSYM_DS_LINE] > 0);
    if (fast)
        return fast == 1 ? 0 : tt_error_set(err, TT_ENOMEM, label, TT_LOC_NONE, 0, "out of memory");
    osects o = {secs, n, ptr_size, 0};
    return load_object(ix, &o, &ls, label, err);
}

/* An ELF file with zstd sections, which libdwarf's own reader cannot decompress, or with
 * sections past the end of the file, which it must not read: libdwarf reads the sections
 * elf.c decompressed or found intact (spec 4.4) */
static int load_decompressed(tsym__index *ix, tsym__dsecs *secs, const char *path, tt_error *err)
{
    tsym__osect os[TSYM_DS_N];
    osects o = {os, osect_list(os, secs), secs->ptr_size, secs->big_endian};
    return load_object(ix, &o, secs, path, err);
}

int tsym_init(void)
{
    dwarf_set_de_alloc_flag(0);
    return 0;
}
