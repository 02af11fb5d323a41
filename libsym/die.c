/* DWARF 2-5 debugging information entries read from the section bytes for the index build
 * (spec/symbolication.md 5.2): one linear pass per unit over the DIEs die_read.c decodes.
 * Split DWARF: a skeleton unit's split unit is read from its .dwo file or .dwp package.
 * Anything it does not handle (type units, unknown forms, corrupt input) makes
 * it give up with TSYM__DIE_FALLBACK, and dwarf.c indexes the file with libdwarf instead.
 * Also the guard of dwarf.c's libdwarf walk (tsym__die_check_unit). */
#include "die_int.h"

#include <stdlib.h>
#include <string.h>

#define MAX_ORIGIN_HOPS 8 /* as dwarf.c */

static int atab_load(atab *t, const tsym__dsecs *s, const unit *u)
{
    return tsym__atab_read(t, s, u, 0);
}

typedef struct name_info {
    uint32_t name, decl_file, decl_line;
    const char *plain; /* the DW_AT_name met on the way, or NULL */
    uint64_t plain_at; /* the offset of its DIE */
} name_info;

typedef struct frame {
    uint32_t ctx, own;
    uint32_t scope; /* the scope this level opened (Swift units), or TSYM_NONE */
    int skip;
} frame;

/* A Swift unit's named module, type or namespace DIE: [start, end) of its subtree */
typedef struct scope {
    uint64_t start, end;
    uint32_t parent; /* the enclosing scope, or TSYM_NONE */
    const char *name;
} scope;

/* A function of a Swift unit whose qualified name is built after the walk */
typedef struct pend {
    uint32_t link;     /* its linkage name */
    const char *plain; /* its DW_AT_name */
    uint64_t at;       /* the DIE that has it */
} pend;

typedef struct dstate {
    tsym__index *ix;
    const tsym__dsecs *s;
    unit *units;
    size_t n_units;
    const unit *cu;
    atab tab, other;
    uint64_t base, addr_base, str_base, rl_base;
    int has_addr_base, has_str_base, has_rl_base;
    uint32_t *files;
    size_t n_files;
    tsym__lhdr lh;
    tsym__map names; /* DIE offset of an abstract origin -> index into infos */
    tt_vec infos;    /* name_info */
    tt_vec stack;    /* frame */
    int swift;       /* the unit is Swift (DW_LANG_Swift): scopes and pend are kept */
    tt_vec scopes;   /* scope, in DIE order */
    tt_vec pend;     /* pend */
    uint32_t open;   /* the innermost open scope, or TSYM_NONE */
    int bail, nomem;
    uint64_t ranges_add; /* GNU DWARF 4 split units: the skeleton's DW_AT_GNU_ranges_base */
    tsym__dsecs dwp;     /* the .dwp package when dwp_state is 1 (0: not tried, -1: none) */
    const unsigned char *dwp_index;
    size_t dwp_index_n;
    int dwp_state;
    char dwp_path[4096];
} dstate;

static const char *sec_str(const tsym__dsecs *s, int k, uint64_t off)
{
    if (off >= s->size[k])
        return NULL;
    const char *p = (const char *)s->data[k] + off;
    return memchr(p, 0, s->size[k] - off) ? p : NULL;
}

/* dwarf_formudata, then dwarf_formsdata when it is not negative (dwarf_attr.c form_udata) */
static int get_udata(dstate *d, const die *e, int k, uint64_t *out)
{
    if (!has(e, k))
        return 0;
    const val *v = &e->v[k];
    if (v->cls == V_CONST || (v->cls == V_SCONST && (int64_t)v->u >= 0)) {
        *out = v->u;
        return 1;
    }
    if (v->cls != V_SCONST)
        d->bail = 1;
    return 0;
}

/* a section offset: DW_FORM_sec_offset, or a constant before DWARF 4 */
static int get_off(dstate *d, const die *e, int k, uint64_t *out)
{
    if (!has(e, k))
        return 0;
    const val *v = &e->v[k];
    if (v->cls == V_SECOFF || v->cls == V_CONST) {
        *out = v->u;
        return 1;
    }
    d->bail = 1;
    return 0;
}

static int get_ref(dstate *d, const die *e, int k, uint64_t *out)
{
    if (!has(e, k))
        return 0;
    if (e->v[k].cls == V_REF) {
        *out = e->v[k].u;
        return 1;
    }
    d->bail = 1;
    return 0;
}

static int addr_at(dstate *d, const die *e, uint64_t idx, uint64_t *out)
{
    const tsym__dsecs *s = d->s;
    unsigned n = e->u->asize;
    if (e->u != d->cu || !d->has_addr_base || idx > (s->size[TSYM_DS_ADDR] / n) ||
        d->addr_base > s->size[TSYM_DS_ADDR] || idx * n > s->size[TSYM_DS_ADDR] - d->addr_base ||
        s->size[TSYM_DS_ADDR] - d->addr_base - idx * n < n) {
        d->bail = 1;
        return 0;
    }
    cur c = {s->data[TSYM_DS_ADDR] + d->addr_base + idx * n,
             s->data[TSYM_DS_ADDR] + s->size[TSYM_DS_ADDR], s->big_endian, 0};
    *out = fixed(&c, n);
    return 1;
}

/* DW_AT_low_pc / DW_AT_high_pc (dwarf_attr.c tsym__dw_attr_addr): an address, or a constant */
static int get_addr(dstate *d, const die *e, int k, uint64_t *out, int *is_const)
{
    if (!has(e, k))
        return 0;
    const val *v = &e->v[k];
    *is_const = 0;
    if (v->cls == V_ADDR) {
        *out = v->u;
        return 1;
    }
    if (v->cls == V_ADDRX)
        return addr_at(d, e, v->u, out);
    *is_const = 1;
    return get_udata(d, e, k, out);
}

static int get_str(dstate *d, const die *e, int k, const char **out)
{
    if (!has(e, k))
        return 0;
    const val *v = &e->v[k];
    const tsym__dsecs *s = d->s;
    const char *str = NULL;
    if (v->cls == V_STR)
        str = v->str ? v->str : sec_str(s, v->form, v->u);
    else if (v->cls == V_STRX && e->u == d->cu && d->has_str_base) {
        unsigned n = e->u->osz;
        uint64_t size = s->size[TSYM_DS_STR_OFFSETS], at = d->str_base;
        if (at <= size && v->u <= size / n && v->u * n <= size - at &&
            size - at - v->u * n >= n) {
            cur c = {s->data[TSYM_DS_STR_OFFSETS] + at + v->u * n,
                     s->data[TSYM_DS_STR_OFFSETS] + size, s->big_endian, 0};
            str = sec_str(s, TSYM_DS_STR, fixed(&c, n));
        }
    }
    if (!str) {
        d->bail = 1;
        return 0;
    }
    *out = str;
    return 1;
}

/* ---- ranges (dwarf_range.c tsym__dw_die_ranges) ---- */

static int push_range(dstate *d, uint64_t lo, uint64_t hi)
{
    int rc = tsym__index_add_range(d->ix, lo, hi);
    d->nomem |= rc < 0;
    return rc > 0;
}

/* DWARF 5 range list (.debug_rnglists) */
static uint32_t rnglists(dstate *d, const die *e, const val *v)
{
    const tsym__dsecs *s = d->s;
    const unsigned char *sec = s->data[TSYM_DS_RNGLISTS];
    uint64_t size = s->size[TSYM_DS_RNGLISTS], off;
    unsigned osz = e->u->osz, as = e->u->asize;
    if (v->form == FORM_rnglistx) {
        uint64_t b = d->rl_base;
        if (!d->has_rl_base || b > size || v->u > size / osz || v->u * osz > size - b ||
            size - b - v->u * osz < osz) {
            d->bail = 1;
            return 0;
        }
        cur c = {sec + b + v->u * osz, sec + size, s->big_endian, 0};
        off = b + fixed(&c, osz);
    } else if (v->cls == V_SECOFF || v->cls == V_CONST) {
        off = v->u;
    } else {
        d->bail = 1;
        return 0;
    }
    if (off >= size) {
        d->bail = 1;
        return 0;
    }
    cur c = {sec + off, sec + size, s->big_endian, 0};
    uint64_t base = d->base, lo, hi;
    uint32_t n = 0;
    for (;;) {
        unsigned kind = (unsigned)fixed(&c, 1);
        if (c.bad || kind == RLE_end_of_list)
            break;
        switch (kind) {
        case RLE_base_addressx:
            if (!addr_at(d, e, uleb(&c), &base))
                return 0;
            continue;
        case RLE_startx_endx:
            if (!addr_at(d, e, uleb(&c), &lo) || !addr_at(d, e, uleb(&c), &hi))
                return 0;
            break;
        case RLE_startx_length:
            if (!addr_at(d, e, uleb(&c), &lo))
                return 0;
            hi = lo + uleb(&c);
            break;
        case RLE_offset_pair:
            lo = base + uleb(&c);
            hi = base + uleb(&c);
            break;
        case RLE_base_address:
            base = fixed(&c, as);
            continue;
        case RLE_start_end:
            lo = fixed(&c, as);
            hi = fixed(&c, as);
            break;
        case RLE_start_length:
            lo = fixed(&c, as);
            hi = lo + uleb(&c);
            break;
        default:
            c.bad = 1;
            continue;
        }
        if (!c.bad)
            n += (uint32_t)push_range(d, lo, hi);
    }
    if (c.bad)
        d->bail = 1;
    return n;
}

/* DWARF 2-4 range list (.debug_ranges) */
static uint32_t debug_ranges(dstate *d, const die *e, const val *v)
{
    const tsym__dsecs *s = d->s;
    uint64_t size = s->size[TSYM_DS_RANGES];
    if ((v->cls != V_SECOFF && v->cls != V_CONST) || v->u >= size) {
        d->bail = 1;
        return 0;
    }
    unsigned as = e->u->asize;
    uint64_t max = as == 8 ? ~(uint64_t)0 : 0xffffffffu, base = d->base;
    if (d->ranges_add > size - v->u) {
        d->bail = 1;
        return 0;
    }
    cur c = {s->data[TSYM_DS_RANGES] + v->u + d->ranges_add, s->data[TSYM_DS_RANGES] + size,
             s->big_endian, 0};
    uint32_t n = 0;
    for (;;) {
        uint64_t a = fixed(&c, as), b = fixed(&c, as);
        if (c.bad) {
            d->bail = 1;
            return 0;
        }
        if (a == 0 && b == 0)
            break;
        if (a == max)
            base = b;
        else
            n += (uint32_t)push_range(d, base + a, base + b);
    }
    return n;
}

static uint32_t die_ranges(dstate *d, const die *e)
{
    uint64_t lo, hi;
    int lo_const, hi_const;
    if (get_addr(d, e, A_LOW, &lo, &lo_const) && !lo_const) {
        if (!get_addr(d, e, A_HIGH, &hi, &hi_const))
            return 0;
        if (hi_const)
            hi += lo;
        return (uint32_t)push_range(d, lo, hi);
    }
    if (d->bail || !has(e, A_RANGES))
        return 0;
    const val *v = &e->v[A_RANGES];
    if (e->u->version >= 5 || v->form == FORM_rnglistx)
        return rnglists(d, e, v);
    return debug_ranges(d, e, v);
}

/* ---- names (dwarf.c walk_name, die_name) ---- */

static const unit *unit_of(const dstate *d, uint64_t off)
{
    size_t lo = 0, hi = d->n_units;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (d->units[mid].start <= off)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == 0 || off < d->units[lo - 1].die || off >= d->units[lo - 1].end)
        return NULL;
    return &d->units[lo - 1];
}

/* The DIE at section offset off (an abstract origin or specification), every attribute
 * read; 0 when it cannot be read (d->bail set). */
static int load_die(dstate *d, die *e, uint64_t off)
{
    const unit *u = unit_of(d, off);
    const atab *t = &d->tab;
    if (u && u != d->cu) {
        int rc = atab_load(&d->other, d->s, u);
        if (rc == TT_ENOMEM)
            d->nomem = 1;
        t = rc ? NULL : &d->other;
    }
    const unsigned char *info = d->s->data[TSYM_DS_INFO];
    cur c = {info + off, info + (u ? u->end : 0), d->s->big_endian, 0};
    if (!u || !t || tsym__die_parse(e, &c, info, u, t, 1) != 1) {
        d->bail = 1;
        return 0;
    }
    return 1;
}

/* DWARF 5 numbers files from 0, DWARF 2-4 from 1 (spec 5.2.8) */
static uint32_t file_id(const dstate *d, uint64_t raw)
{
    if (d->cu->version < 5) {
        if (raw == 0)
            return TSYM_NONE;
        raw--;
    }
    return raw < d->n_files ? d->files[raw] : TSYM_NONE;
}

static int walk_name(dstate *d, const die *e, name_info *out)
{
    const char *linkage = NULL, *plain = NULL;
    uint64_t dfile = 0, dline = 0;
    int have_file = 0, have_line = 0;
    die buf[2];
    const die *at = e;
    for (int hop = 0; hop <= MAX_ORIGIN_HOPS && !d->bail; hop++) {
        const char *t = NULL;
        int named = linkage != NULL; /* the names come from the chain up to the linkage name */
        if (!named && (get_str(d, at, A_LINKAGE, &t) || get_str(d, at, A_MIPS, &t)))
            linkage = t;
        if (!named && !plain && get_str(d, at, A_NAME, &t)) {
            plain = t;
            out->plain_at = at->off;
        }
        /* each from the first DIE of the chain that has it (llvm-symbolizer's way): a member
         * defined in its class has both only on the declaration its specification points
         * to, one defined outside has its own decl_line but the declaration's decl_file */
        if (!have_file && at->off >= d->cu->start && at->off < d->cu->end &&
            get_udata(d, at, A_DFILE, &dfile))
            have_file = 1;
        if (!have_line && get_udata(d, at, A_DLINE, &dline))
            have_line = 1;
        if (linkage && have_file && have_line)
            break;
        uint64_t ref;
        if (!get_ref(d, at, A_ORIGIN, &ref) && !get_ref(d, at, A_SPEC, &ref))
            break;
        die *next = &buf[hop & 1];
        int bail = d->bail;
        if (!load_die(d, next, ref)) {
            if (linkage) /* only the declaration's line is lost: the name stands */
                d->bail = bail;
            break;
        }
        at = next;
    }
    out->name = TSYM_NONE;
    out->plain = plain;
    out->decl_file = have_file ? file_id(d, dfile) : TSYM_NONE;
    out->decl_line = have_line && dline <= UINT32_MAX ? (uint32_t)dline : 0;
    const char *nm = linkage ? linkage : plain;
    if (nm && !d->bail)
        return tsym__str_intern(&out->name, &d->ix->str, nm, strlen(nm));
    return 0;
}

static int own_linkage(dstate *d, const die *e, name_info *out)
{
    const char *t = NULL;
    if (get_str(d, e, A_LINKAGE, &t) || get_str(d, e, A_MIPS, &t))
        return tsym__str_intern(&out->name, &d->ix->str, t, strlen(t));
    return 0;
}

static int die_name(dstate *d, const die *e, name_info *out)
{
    uint64_t ref;
    if (!get_ref(d, e, A_ORIGIN, &ref))
        return d->bail ? 0 : walk_name(d, e, out);
    uint32_t *slot = tsym__map_slot(&d->names, ref);
    if (!slot)
        return TT_ENOMEM;
    if (*slot != TSYM_NONE) {
        *out = TT_VEC_AT(&d->infos, name_info, *slot);
        return own_linkage(d, e, out);
    }
    die o;
    if (!load_die(d, &o, ref))
        return 0;
    int rc = walk_name(d, &o, out);
    if (rc || d->bail)
        return rc;
    /* the map may have grown: find the slot again */
    slot = tsym__map_slot(&d->names, ref);
    if (!slot)
        return TT_ENOMEM;
    *slot = (uint32_t)d->infos.len;
    return tt_vec_push(&d->infos, out) ? own_linkage(d, e, out) : TT_ENOMEM;
}

/* ---- the walk (dwarf.c make_node, walk_cu) ---- */

static uint32_t make_node(dstate *d, const die *e, uint32_t parent)
{
    tsym__index *ix = d->ix;
    size_t first = ix->ranges.len;
    uint32_t nr = die_ranges(d, e);
    if (nr == 0 || d->bail || d->nomem || ix->nodes.len >= TSYM_NONE - 1)
        return TSYM_NONE;
    name_info ni;
    if (die_name(d, e, &ni)) {
        d->nomem = 1;
        return TSYM_NONE;
    }
    if (d->bail)
        return TSYM_NONE;
    if (d->swift && ni.plain && tsym_swift_mangled(tsym__str(&ix->str, ni.name))) {
        pend p = {ni.name, ni.plain, ni.plain_at};
        if (TSYM_VEC_PUSH(&d->pend, pend, p)) {
            d->nomem = 1;
            return TSYM_NONE;
        }
    }
    tsym__node n = {.parent = parent, .name = ni.name, .decl_file = ni.decl_file,
                    .decl_line = ni.decl_line, .call_file = TSYM_NONE,
                    .first_range = (uint32_t)first, .n_ranges = nr, .subtree_end = TSYM_NONE};
    if (parent != TSYM_NONE) {
        uint64_t v;
        if (get_udata(d, e, A_CFILE, &v))
            n.call_file = file_id(d, v);
        if (get_udata(d, e, A_CLINE, &v) && v <= UINT32_MAX)
            n.call_line = (uint32_t)v;
        if (get_udata(d, e, A_CCOL, &v))
            n.call_col = v > 0xFFFF ? 0xFFFF : (uint16_t)v;
    }
    if (d->bail)
        return TSYM_NONE;
    uint32_t id = tsym__index_add_node(ix, &n);
    if (id == TSYM_NONE)
        d->nomem = 1;
    return id;
}

static int container_tag(unsigned tag)
{
    switch (tag) {
    case TAG_subprogram: case TAG_inlined_subroutine: case TAG_lexical_block:
    case TAG_namespace: case TAG_class_type: case TAG_structure_type: case TAG_union_type:
    case TAG_module: case TAG_try_block: case TAG_catch_block:
        return 1;
    default:
        return 0;
    }
}

/* 1 when the unit DIE cu says DW_LANG_Swift (any other form of the attribute is ignored) */
static int swift_unit(const die *cu)
{
    return has(cu, A_LANG) && cu->v[A_LANG].cls == V_CONST && cu->v[A_LANG].u == LANG_Swift;
}

/* Ends the innermost level; end: the section offset after it */
static void close_level(dstate *d, uint64_t end)
{
    frame *f = &TT_VEC_AT(&d->stack, frame, d->stack.len - 1);
    if (f->own != TSYM_NONE)
        TT_VEC_AT(&d->ix->nodes, tsym__node, f->own).subtree_end = (uint32_t)d->ix->nodes.len;
    if (f->scope != TSYM_NONE) {
        scope *sc = &TT_VEC_AT(&d->scopes, scope, f->scope);
        sc->end = end;
        d->open = sc->parent;
    }
    d->stack.len--;
}

/* Opens the scope of the Swift unit's DIE e (a module, type or namespace with children) */
static uint32_t open_scope(dstate *d, const die *e)
{
    const char *nm = NULL;
    int bail = d->bail;
    if (!get_str(d, e, A_NAME, &nm) || !*nm) {
        d->bail = bail; /* a name it cannot read: the scope is left out, the walk goes on */
        return TSYM_NONE;
    }
    scope sc = {e->off, UINT64_MAX, d->open, nm};
    if (TSYM_VEC_PUSH(&d->scopes, scope, sc)) {
        d->nomem = 1;
        return TSYM_NONE;
    }
    return d->open = (uint32_t)(d->scopes.len - 1);
}

#define MAX_SCOPE_DEPTH 64

/* The qualified names of the Swift unit's functions (spec/ios.md 7): the names of the
 * scopes around the DIE with the function's DW_AT_name, joined with '.', then that name.
 * Built after the walk: a definition may name a declaration further on. A DIE outside the
 * unit, or nested deeper than MAX_SCOPE_DEPTH, keeps the linkage name. */
static void swift_names(dstate *d)
{
    tsym__index *ix = d->ix;
    tt_buf q = {0};
    const scope *sv = d->scopes.data;
    for (size_t i = 0; i < d->pend.len && !d->nomem; i++) {
        const pend *p = &TT_VEC_AT(&d->pend, pend, i);
        if (p->at < d->cu->start || p->at >= d->cu->end)
            continue;
        size_t lo = 0, hi = d->scopes.len; /* the last scope starting before the DIE */
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            if (sv[mid].start < p->at)
                lo = mid + 1;
            else
                hi = mid;
        }
        uint32_t k = lo ? (uint32_t)(lo - 1) : TSYM_NONE;
        while (k != TSYM_NONE && p->at >= sv[k].end)
            k = sv[k].parent;
        const char *parts[MAX_SCOPE_DEPTH];
        size_t n = 0;
        for (; k != TSYM_NONE && n < MAX_SCOPE_DEPTH; k = sv[k].parent)
            parts[n++] = sv[k].name;
        if (k != TSYM_NONE)
            continue;
        q.len = 0;
        int bad = 0;
        while (n > 0 && !bad)
            bad = tt_buf_puts(&q, parts[--n]) || tt_buf_puts(&q, ".");
        uint32_t id = TSYM_NONE, *slot = NULL;
        if (bad || tt_buf_puts(&q, p->plain) ||
            tsym__str_intern(&id, &ix->str, q.data, q.len) ||
            !(slot = tsym__map_slot(&ix->swiftq, p->link)))
            d->nomem = 1;
        else if (*slot == TSYM_NONE)
            *slot = id;
    }
    tt_buf_free(&q);
}

/* One pass over the DIEs after the unit DIE, which end at c. */
static void walk_unit(dstate *d, cur *c, const unsigned char *info)
{
    frame top = {TSYM_NONE, TSYM_NONE, TSYM_NONE, 0};
    d->stack.len = 0;
    d->scopes.len = d->pend.len = 0;
    d->open = TSYM_NONE;
    if (!tt_vec_push(&d->stack, &top)) {
        d->nomem = 1;
        return;
    }
    while (d->stack.len && c->p < c->end && !d->bail && !d->nomem) {
        frame *f = &TT_VEC_AT(&d->stack, frame, d->stack.len - 1);
        die e;
        int r = tsym__die_parse(&e, c, info, d->cu, &d->tab, f->skip ? 0 : d->swift ? -2 : -1);
        if (r < 0) {
            d->bail = 1;
            break;
        }
        if (r == 0) {
            close_level(d, (uint64_t)(c->p - info));
            continue;
        }
        unsigned tag = e.ab->tag;
        frame nf = {TSYM_NONE, TSYM_NONE, TSYM_NONE, 1};
        if (!f->skip) {
            uint32_t ctx = f->ctx, created = TSYM_NONE;
            if (tag == TAG_subprogram)
                created = nf.ctx = make_node(d, &e, TSYM_NONE);
            else if (tag == TAG_inlined_subroutine && ctx != TSYM_NONE)
                created = nf.ctx = make_node(d, &e, ctx);
            else if (tag == TAG_lexical_block || tag == TAG_try_block || tag == TAG_catch_block)
                nf.ctx = ctx;
            nf.own = created;
            /* Swift declares methods in enums too */
            nf.skip = !container_tag(tag) && !(d->swift && tag == TAG_enumeration_type);
            if (d->swift && e.ab->children && tsym__die_scope_tag(tag))
                nf.scope = open_scope(d, &e);
            if (created != TSYM_NONE && !e.ab->children)
                TT_VEC_AT(&d->ix->nodes, tsym__node, created).subtree_end = created + 1;
        }
        if (!e.ab->children)
            continue;
        /* a skipped subtree ends at its DW_AT_sibling when it has a usable one */
        if (nf.skip && has(&e, A_SIBLING) && e.v[A_SIBLING].cls == V_REF &&
            e.v[A_SIBLING].u > (uint64_t)(c->p - info) && e.v[A_SIBLING].u <= d->cu->end) {
            c->p = info + e.v[A_SIBLING].u;
            continue;
        }
        if (TSYM_VEC_PUSH(&d->stack, frame, nf)) {
            if (nf.own != TSYM_NONE)
                TT_VEC_AT(&d->ix->nodes, tsym__node, nf.own).subtree_end = nf.own + 1;
            d->nomem = 1;
        }
    }
    while (d->stack.len)
        close_level(d, d->cu->end);
    if (d->swift && !d->bail && !d->nomem)
        swift_names(d);
}

static void line_rc(dstate *d, int rc)
{
    if (rc == TT_ENOMEM)
        d->nomem = 1;
    else if (rc)
        d->bail = 1; /* libdwarf's walk reports it, in its order */
}

/* ---- split DWARF: the split unit of a skeleton unit (spec 5.2 item 10) ---- */

enum { SPLIT_OK, SPLIT_MISMATCH, SPLIT_BAD };

/* The header size of the DWARF 5 .debug_str_offsets or .debug_rnglists contribution at the
 * start of section k (hdr32: its size in the 32-bit format), 0 when there is none. */
static uint64_t contrib_header(const tsym__dsecs *s, int k, unsigned hdr32)
{
    if (!s->size[k])
        return 0;
    cur c = {s->data[k], s->data[k] + s->size[k], s->big_endian, 0};
    unsigned hdr = hdr32;
    if (fixed(&c, 4) == 0xffffffffu) {
        fixed(&c, 8);
        hdr += 8;
    }
    unsigned ver = (unsigned)fixed(&c, 2);
    return !c.bad && ver == 5 && s->size[k] >= hdr ? hdr : 0;
}

/* The DIE walk of the split unit in ss (the .dwo's sections and the skeleton's .debug_addr
 * and .debug_ranges) for the skeleton whose dwo_id is want; what the unit added is dropped
 * when it cannot be read. SPLIT_OK, SPLIT_MISMATCH (*found: the unit's id) or SPLIT_BAD. */
static int split_walk(dstate *d, const tsym__dsecs *ss, uint64_t want, uint64_t rbase,
                      uint64_t *found)
{
    unit u;
    uint64_t off = 0;
    int have = 0;
    while (!have && off < ss->size[TSYM_DS_INFO] && !tsym__unit_read(&u, ss, off)) {
        have = u.ut == UT_split_compile || u.version < 5;
        off = u.end;
    }
    u.ut = UT_split_compile; /* also GNU's DWARF 4 form: DW_FORM_GNU_str_index is read */
    if (!have || !ss->size[TSYM_DS_ABBREV])
        return SPLIT_BAD;
    tsym__index *ix = d->ix;
    const tsym__dsecs *s0 = d->s;
    unit *units0 = d->units;
    size_t n_units0 = d->n_units;
    const unit *cu0 = d->cu;
    uint64_t str0 = d->str_base, rl0 = d->rl_base;
    int has_str0 = d->has_str_base, has_rl0 = d->has_rl_base;
    size_t funcs = ix->funcs.len, nodes = ix->nodes.len, ranges = ix->ranges.len;
    size_t inlines = ix->n_inlines;
    /* DIE offsets and abbreviation offsets are the .dwo's own from here */
    d->s = ss;
    d->units = &u;
    d->n_units = 1;
    d->cu = &u;
    d->tab.valid = d->other.valid = 0;
    tsym__map_free(&d->names);
    d->infos.len = 0;
    int r = SPLIT_BAD;
    const unsigned char *info = ss->data[TSYM_DS_INFO];
    cur c = {info + u.die, info + u.end, ss->big_endian, 0};
    die cu;
    int rc = atab_load(&d->tab, ss, &u);
    if (rc == TT_ENOMEM)
        d->nomem = 1;
    if (!rc && tsym__die_parse(&cu, &c, info, &u, &d->tab, 1) == 1) {
        uint64_t id = u.dwo_id;
        if (u.version < 5 && !get_udata(d, &cu, A_DWOID, &id))
            d->bail = 1;
        if (!d->bail && id != want) {
            *found = id;
            r = SPLIT_MISMATCH;
        } else if (!d->bail) {
            /* the string offsets and range lists of a .dwo start with their header;
             * GNU's DWARF 4 string offsets have none, its ranges are the skeleton's */
            d->has_str_base = 1;
            d->str_base = u.version >= 5 ? contrib_header(ss, TSYM_DS_STR_OFFSETS, 8) : 0;
            d->rl_base = u.version >= 5 ? contrib_header(ss, TSYM_DS_RNGLISTS, 12) : 0;
            d->has_rl_base = d->rl_base > 0;
            d->ranges_add = u.version < 5 ? rbase : 0;
            d->swift = swift_unit(&cu);
            if (cu.ab->children)
                walk_unit(d, &c, info);
            r = d->bail ? SPLIT_BAD : SPLIT_OK;
        }
    }
    if (r != SPLIT_OK) {
        ix->funcs.len = funcs;
        ix->nodes.len = nodes;
        ix->ranges.len = ranges;
        ix->n_inlines = inlines;
    }
    d->bail = 0;
    d->s = s0;
    d->units = units0;
    d->n_units = n_units0;
    d->cu = cu0;
    d->str_base = str0;
    d->rl_base = rl0;
    d->has_str_base = has_str0;
    d->has_rl_base = has_rl0;
    d->ranges_add = 0;
    d->tab.valid = d->other.valid = 0;
    tsym__map_free(&d->names);
    d->infos.len = 0;
    return r;
}

/* The sections of a split unit: those of f (sliced to a package's contributions by row) with
 * the skeleton's .debug_addr, .debug_line_str and .debug_ranges. */
static void split_secs(tsym__dsecs *ss, const dstate *d, const tsym__dsecs *f,
                       const tsym__dwp_row *row)
{
    *ss = *f;
    static const int from_skeleton[] = {TSYM_DS_ADDR, TSYM_DS_LINE_STR, TSYM_DS_RANGES};
    for (size_t i = 0; i < sizeof from_skeleton / sizeof *from_skeleton; i++) {
        ss->data[from_skeleton[i]] = d->s->data[from_skeleton[i]];
        ss->size[from_skeleton[i]] = d->s->size[from_skeleton[i]];
    }
    static const int sliced[] = {TSYM_DS_INFO, TSYM_DS_ABBREV, TSYM_DS_LINE,
                                 TSYM_DS_STR_OFFSETS, TSYM_DS_RNGLISTS};
    for (size_t i = 0; row && i < sizeof sliced / sizeof *sliced; i++) {
        int k = sliced[i];
        ss->data[k] = row->size[k] ? f->data[k] + row->off[k] : NULL;
        ss->size[k] = (size_t)row->size[k];
    }
}

/* Opens the first .dwp package that exists (once per index build). */
static void open_dwp(dstate *d)
{
    char p[4096];
    d->dwp_state = -1;
    for (size_t i = 0; tsym__dwp_candidate(p, sizeof p, d->ix, i); i++) {
        tt_error e;
        if (!p[0] || !tsym__dwo_is_file(p))
            continue;
        if (!tsym__dsecs_open_dwo(&d->dwp, &d->dwp_index, &d->dwp_index_n, p, &e)) {
            if (d->dwp_index) {
                d->dwp_state = 1;
                snprintf(d->dwp_path, sizeof d->dwp_path, "%s", p);
                return;
            }
            tsym__dsecs_close(&d->dwp);
        }
    }
}

/* The split unit of the skeleton cu: from the .dwp package, else from the first .dwo file
 * of the search order whose dwo_id is the skeleton's; when there is none the module keeps
 * its lines and symbol-table names, and the first such skeleton is noted for the warning. */
static void do_split(dstate *d, const die *cu)
{
    tsym__index *ix = d->ix;
    const char *name = NULL, *comp = NULL;
    uint64_t want = cu->u->dwo_id, rbase = 0, found = 0;
    if (cu->u->version < 5)
        get_udata(d, cu, A_DWOID, &want);
    get_off(d, cu, A_GNU_RBASE, &rbase);
    get_str(d, cu, A_DWONAME, &name);
    get_str(d, cu, A_COMPDIR, &comp);
    if (d->bail || d->nomem)
        return;
    int why = TSYM__DWO_NOT_FOUND;
    char path[4096] = "", first[4096] = "";
    if (!d->dwp_state)
        open_dwp(d);
    tsym__dwp_row row;
    if (d->dwp_state > 0 && tsym__dwp_find(&row, d->dwp_index, d->dwp_index_n,
                                           d->dwp.big_endian, d->dwp.size, want)) {
        tsym__dsecs ss;
        split_secs(&ss, d, &d->dwp, &row);
        int r = split_walk(d, &ss, want, rbase, &found);
        if (r == SPLIT_OK) {
            ix->n_split++;
            return;
        }
        why = r == SPLIT_MISMATCH ? TSYM__DWO_MISMATCH : TSYM__DWO_BAD;
        snprintf(first, sizeof first, "%s", d->dwp_path);
    }
    for (size_t i = 0; name && tsym__dwo_candidate(path, sizeof path, ix, name, comp, i); i++) {
        if (i == 0 && !first[0])
            snprintf(first, sizeof first, "%s", path);
        tsym__dsecs f;
        const unsigned char *cx;
        size_t cxn;
        tt_error e;
        if (!path[0] || !tsym__dwo_is_file(path))
            continue;
        uint64_t id = 0;
        int r = SPLIT_BAD;
        if (!tsym__dsecs_open_dwo(&f, &cx, &cxn, path, &e)) {
            tsym__dsecs ss;
            split_secs(&ss, d, &f, NULL);
            r = split_walk(d, &ss, want, rbase, &id);
            tsym__dsecs_close(&f);
        }
        if (r == SPLIT_OK) {
            ix->n_split++;
            return;
        }
        if (why == TSYM__DWO_NOT_FOUND) { /* the first file found tells why */
            why = r == SPLIT_MISMATCH ? TSYM__DWO_MISMATCH : TSYM__DWO_BAD;
            found = id;
            snprintf(first, sizeof first, "%s", path);
        }
    }
    ix->split_dwarf = 1;
    if (ix->has_dwo_path)
        return;
    ix->dwo_why = why;
    ix->dwo_want = want;
    ix->dwo_found = found;
    if (!first[0])
        snprintf(first, sizeof first, "%s", name ? name : "(no DW_AT_dwo_name)");
    if (tsym__str_intern(&ix->dwo_path, &ix->str, first, strlen(first)))
        d->nomem = 1;
    else
        ix->has_dwo_path = 1;
}

static void do_unit(dstate *d, const unit *u, int have_lines)
{
    int rc = atab_load(&d->tab, d->s, u);
    if (rc) {
        line_rc(d, rc);
        return;
    }
    const unsigned char *info = d->s->data[TSYM_DS_INFO];
    cur c = {info + u->die, info + u->end, d->s->big_endian, 0};
    die cu;
    d->cu = u;
    if (tsym__die_parse(&cu, &c, info, u, &d->tab, 1) != 1 || u->ut == UT_split_compile) {
        d->bail = 1;
        return;
    }
    int skeleton = u->ut == UT_skeleton || has(&cu, A_DWONAME);
    if (!skeleton && has(&cu, A_DWOID)) { /* a dwo_id without a file name: libdwarf decides */
        d->bail = 1;
        return;
    }
    d->ix->n_cus++;
    d->has_addr_base = get_off(d, &cu, A_ADDRBASE, &d->addr_base);
    d->has_str_base = get_off(d, &cu, A_STROFF, &d->str_base);
    d->has_rl_base = get_off(d, &cu, A_RLBASE, &d->rl_base);
    uint64_t lo = 0;
    int is_const = 0;
    d->base = get_addr(d, &cu, A_LOW, &lo, &is_const) && !is_const ? lo : 0;
    /* the line table first: its header names the files decl/call attributes use */
    uint64_t stmt;
    int lines = 0;
    d->n_files = 0;
    if (have_lines && get_off(d, &cu, A_STMT, &stmt) && !d->bail) {
        char msg[200];
        rc = tsym__line_header(&d->lh, d->s, stmt, d->has_str_base ? d->str_base : 0, msg,
                               sizeof msg);
        const char *comp = NULL;
        if (!rc)
            get_str(d, &cu, A_COMPDIR, &comp);
        if (!rc && !d->bail)
            rc = tsym__line_files(&d->files, &d->n_files, d->ix, &d->lh, comp);
        line_rc(d, rc);
        lines = !rc;
    }
    if (d->bail || d->nomem)
        return;
    if (skeleton)
        do_split(d, &cu);
    else if (cu.ab->children) {
        d->swift = swift_unit(&cu);
        walk_unit(d, &c, info);
    }
    if (lines && !d->bail && !d->nomem) {
        char msg[200];
        line_rc(d, tsym__line_rows(d->ix, &d->lh, d->files, d->n_files, msg, sizeof msg));
    }
}

/* The unit headers of .debug_info; 0 or TSYM__DIE_FALLBACK or TT_ENOMEM. */
static int scan_units(dstate *d)
{
    uint64_t n = d->s->size[TSYM_DS_INFO], off = 0;
    size_t cap = 0;
    while (off < n) {
        unit u;
        if (tsym__unit_read(&u, d->s, off) || u.ut == UT_type || u.ut == UT_split_type)
            return TSYM__DIE_FALLBACK;
        if (d->n_units == cap) {
            cap = cap ? cap * 2 : 64;
            unit *nu = realloc(d->units, cap * sizeof *nu);
            if (!nu)
                return TT_ENOMEM;
            d->units = nu;
        }
        d->units[d->n_units++] = u;
        off = u.end;
    }
    return 0;
}

/* ---- the guard of dwarf.c's libdwarf walk ---- */

/* Why the abbreviation code at p does not decode as libdwarf 20210528 reads a ULEB128
 * (at most 24 bytes, no bit beyond 64, ending before end), NULL when it does. */
static const char *code_problem(const unsigned char *p, const unsigned char *end)
{
    for (unsigned i = 0; i < 24 && p + i < end; i++) {
        unsigned b = p[i] & 0x7f, shift = 7 * i;
        if (shift >= 64 ? b != 0 : shift > 57 && b >> (64 - shift))
            return "abbreviation code has more than 64 bits";
        if (!(p[i] & 0x80))
            return NULL;
    }
    return p + 24 < end ? "abbreviation code longer than 24 bytes"
                        : "abbreviation code runs past the end of the unit";
}

/* Index of the first element >= x in the sorted array v. */
static size_t lower_bound(const tt_vec *v, uint64_t x)
{
    size_t lo = 0, hi = v->len;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (TT_VEC_AT(v, uint64_t, mid) < x)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* The DW_AT_sibling targets (pairs: DIE, target) in the unit that are not a DIE of starts. */
static int check_siblings(const unit *u, const tt_vec *starts, const tt_vec *sibs, char *msg,
                          size_t cap)
{
    for (size_t i = 0; i + 1 < sibs->len; i += 2) {
        uint64_t at = TT_VEC_AT(sibs, uint64_t, i), to = TT_VEC_AT(sibs, uint64_t, i + 1);
        if (to < u->start || to >= u->end)
            continue; /* libdwarf checks these itself */
        size_t k = lower_bound(starts, to);
        if (k < starts->len && TT_VEC_AT(starts, uint64_t, k) == to)
            continue;
        snprintf(msg, cap, ".debug_info unit at 0x%llx: DIE at 0x%llx: DW_AT_sibling 0x%llx "
                 "is not the offset of a DIE", (unsigned long long)u->start,
                 (unsigned long long)at, (unsigned long long)to);
        return TT_EFORMAT;
    }
    return 0;
}

/* Why parse_die could not read the DIE at p when its bytes did not run out: a code the
 * table lacks or a form no DWARF version defines (found by fuzz_macho: libdwarf 20210528
 * walks on with a size of its own and leaks the DIE dwarf_child allocates further on);
 * NULL for a defined form die.c does not read (DW_FORM_GNU_str_index outside split units). */
static const char *die_problem(const unsigned char *p, const unsigned char *end, const atab *t)
{
    cur c = {p, end, 0, 0};
    uint64_t code = uleb(&c);
    if (c.bad || code >= t->n_codes || !t->codes[code].known)
        return "its abbreviation code is not in the unit's table";
    const abbrev *a = &t->codes[code];
    for (uint32_t i = 0; i < a->n; i++) {
        uint16_t f = t->specs[a->first + i].form;
        if (!((f >= FORM_addr && f <= FORM_addrx4 && f != 0x02) || f == FORM_GNU_addr_index ||
              f == FORM_GNU_str_index || f == FORM_GNU_ref_alt || f == FORM_GNU_strp_alt))
            return "its abbreviation has a form no DWARF version defines";
    }
    return NULL;
}

/* libdwarf 20210528 reads these forms as 4 bytes, and so finds DIEs where there are none
 * (found by fuzz_macho: a dwarf_child that leaked past the unit) */
#define X3_PROBLEM "DW_FORM_strx3 or DW_FORM_addrx3, which libdwarf reads as 4 bytes"

/* The DIEs of u in order as libdwarf finds them: their starts (null entries included) and
 * the DW_AT_sibling targets dwarf_siblingof_b jumps to; msg when a code does not decode. */
static int scan_codes(const tsym__dsecs *s, const unit *u, const atab *t, tt_vec *starts,
                      tt_vec *sibs, char *msg, size_t cap)
{
    const unsigned char *info = s->data[TSYM_DS_INFO];
    cur c = {info + u->die, info + u->end, s->big_endian, 0};
    unsigned depth = 0;
    while (c.p < c.end) {
        uint64_t at = (uint64_t)(c.p - info);
        const char *why = code_problem(c.p, c.end);
        if (why) {
            snprintf(msg, cap, ".debug_info unit at 0x%llx: DIE at 0x%llx: %s",
                     (unsigned long long)u->start, (unsigned long long)at, why);
            return TT_EFORMAT;
        }
        if (!tt_vec_push(starts, &at))
            return TT_ENOMEM;
        die e;
        int r = tsym__die_parse(&e, &c, info, u, t, 0);
        if (r < 0) { /* dwarf_child and dwarf_siblingof_b leak on broken DIEs too */
            why = c.bad == TSYM__BAD_INDIRECT ? "a DW_FORM_indirect names no form a DIE may use"
                  : c.bad == TSYM__BAD_X3       ? X3_PROBLEM
                  : c.bad                       ? "its attributes run past the end of the unit"
                                                : die_problem(info + at, c.end, t);
            if (!why)
                return TSYM__DIE_FALLBACK; /* a form die.c does not read: libdwarf decides */
            snprintf(msg, cap, ".debug_info unit at 0x%llx: DIE at 0x%llx: %s",
                     (unsigned long long)u->start, (unsigned long long)at, why);
            return TT_EFORMAT;
        }
        if (r == 1 && e.ab->x3) {
            snprintf(msg, cap, ".debug_info unit at 0x%llx: DIE at 0x%llx: %s",
                     (unsigned long long)u->start, (unsigned long long)at, X3_PROBLEM);
            return TT_EFORMAT;
        }
        if (r == 0 || !e.ab->children) {
            if (r == 0 && depth)
                depth--;
            if (!depth)
                break;
            continue;
        }
        depth++;
        if (c.p == c.end) { /* dwarf_child reads a code there */
            snprintf(msg, cap, ".debug_info unit at 0x%llx: DIE at 0x%llx: children expected, "
                     "found the end of the unit", (unsigned long long)u->start,
                     (unsigned long long)at);
            return TT_EFORMAT;
        }
        if (has(&e, A_SIBLING) && e.v[A_SIBLING].cls == V_REF &&
            (!tt_vec_push(sibs, &at) || !tt_vec_push(sibs, &e.v[A_SIBLING].u)))
            return TT_ENOMEM;
    }
    return 0;
}

int tsym__die_check_unit(const tsym__dsecs *s, uint64_t off, char *msg, size_t cap)
{
    unit u;
    if (off >= s->size[TSYM_DS_INFO] || !s->size[TSYM_DS_ABBREV] ||
        tsym__unit_read(&u, s, off) || u.ut == UT_type || u.ut == UT_split_type)
        return 0;
    atab t = {0};
    tt_vec starts, sibs;
    tt_vec_init(&starts, sizeof(uint64_t));
    tt_vec_init(&sibs, sizeof(uint64_t));
    int rc = tsym__atab_read(&t, s, &u, 1);
    if (!rc)
        rc = scan_codes(s, &u, &t, &starts, &sibs, msg, cap);
    if (!rc)
        rc = check_siblings(&u, &starts, &sibs, msg, cap);
    tsym__atab_free(&t);
    tt_vec_free(&starts);
    tt_vec_free(&sibs);
    return rc == TSYM__DIE_FALLBACK ? 0 : rc;
}

int tsym__die_index(tsym__index *ix, const tsym__dsecs *s, int have_lines)
{
    if (!s->size[TSYM_DS_INFO] || !s->size[TSYM_DS_ABBREV])
        return TSYM__DIE_FALLBACK;
    dstate d = {.ix = ix, .s = s};
    tt_vec_init(&d.infos, sizeof(name_info));
    tt_vec_init(&d.stack, sizeof(frame));
    tt_vec_init(&d.scopes, sizeof(scope));
    tt_vec_init(&d.pend, sizeof(pend));
    tsym__lhdr_init(&d.lh);
    int rc = scan_units(&d);
    for (size_t i = 0; i < d.n_units && !rc; i++) {
        do_unit(&d, &d.units[i], have_lines);
        rc = d.nomem ? TT_ENOMEM : d.bail ? TSYM__DIE_FALLBACK : 0;
    }
    if (d.dwp_state > 0)
        tsym__dsecs_close(&d.dwp);
    tsym__lhdr_free(&d.lh);
    tt_vec_free(&d.infos);
    tt_vec_free(&d.stack);
    tt_vec_free(&d.scopes);
    tt_vec_free(&d.pend);
    tsym__map_free(&d.names);
    tsym__atab_free(&d.tab);
    tsym__atab_free(&d.other);
    free(d.files);
    free(d.units);
    return rc;
}
