/* Frame interning and the callstack prefix tree (spec/samples.md section 4): frames are
 * interned by identity (4.1), stacks become (parent, frame) callsites with dense ids (4.2). */
#include "tt.h"

#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tt_int.h"

static const char *const type_names[TT_ST_COUNT] = {
    "cpu", "custom", "alloc", "jni", "binder", "wait", "park",
    "monitor", "mutex", "gc", "load_library", "io", "wake", "other"};

const char *tt_sample_type_name(int type)
{
    return type >= 0 && type < TT_ST_COUNT ? type_names[type] : "other";
}

int tt_sample_type_parse(const char *s, size_t n)
{
    for (int i = 0; i < TT_ST_COUNT; i++)
        if (strlen(type_names[i]) == n && !memcmp(type_names[i], s, n))
            return i;
    return -1;
}

int tt_sample_type_blocking(int type)
{
    switch (type) {
    case TT_ST_BINDER: case TT_ST_WAIT: case TT_ST_PARK: case TT_ST_MONITOR:
    case TT_ST_MUTEX: case TT_ST_GC: case TT_ST_IO:
        return 1;
    default:
        return 0;
    }
}

const char *tt_frame_kind_name(int kind)
{
    static const char *const k[] = {"java", "native", "kernel", "js", "synthetic"};
    return kind >= 0 && kind <= TT_FRAME_SYNTHETIC ? k[kind] : "native";
}

const char *tt_counter_name(int i)
{
    static const char *const c[] = {"alloc_objects", "alloc_bytes", "maj_flt", "nv_csw",
                                    "niv_csw"};
    return i >= 0 && i < TT_CTR_COUNT ? c[i] : "?";
}

const tt_callsite *tt_profile_callsite(const tt_profile *p, uint32_t id)
{
    return &TT_VEC_AT(&p->callsites, tt_callsite, id);
}

/* The bytes as they are, valid UTF-8 or not (tracetool(1) OUTPUT): text outputs write an
 * invalid byte as \xNN, JSON as U+FFFD, and the database keeps it, as for frames and beat
 * names; replacing it here made 0xE9 and 0xFF the same name. */
const char *tt_profile_str(tt_profile *p, const char *s, size_t n)
{
    return tt_arena_strndup(p->arena, s ? s : "", s ? n : 0);
}

static int streq0(const char *a, const char *b)
{
    if (!a || !b)
        return a == b;
    return !strcmp(a, b);
}

static int by_address(int identity, const tt_stack_frame *f)
{
    return (identity == TT_IDENT_ADDRESS ||
            (identity == TT_IDENT_NAME_UNNAMED_ADDRESS && f->is_unnamed)) &&
           (f->has_rel_pc || f->has_addr || f->has_file_off);
}

/* the address an unnamed frame is known by: its vaddr, its file offset in a mapped file
 * (the same code at any load address), else its runtime address */
static uint64_t identity_addr(const tt_stack_frame *f, int *kind)
{
    *kind = f->has_rel_pc ? 1 + 3 * !!f->rel_pc_is_offset : f->has_file_off ? 2 : 3;
    return f->has_rel_pc ? f->rel_pc : f->has_file_off ? f->file_off : f->addr;
}

static uint64_t frame_hash(int identity, const tt_stack_frame *f)
{
    uint64_t h = f->module ? tt__hash(f->module, strlen(f->module), 1) : 7;
    int kind;
    if (by_address(identity, f))
        return tt__mix64(h ^ identity_addr(f, &kind) ^ (uint64_t)(0x55 * kind) ^
                         (uint64_t)(f->return_address != 0) << 63);
    return tt__hash(f->name, strlen(f->name), h);
}

typedef struct fkey {
    const tt_stack_frame *f;
    int identity;
} fkey;

static int frame_eq(const void *ctx, uint32_t id, const void *key)
{
    const tt_profile *p = ctx;
    const fkey *k = key;
    const tt_stack_frame *a = &TT_VEC_AT(&p->frames, tt_stack_frame, id), *b = k->f;
    if (!streq0(a->module, b->module))
        return 0;
    if (by_address(k->identity, b)) {
        int ka, kb;
        return by_address(k->identity, a) && identity_addr(a, &ka) == identity_addr(b, &kb) &&
               ka == kb && streq0(a->module_path, b->module_path) &&
               !a->return_address == !b->return_address;
    }
    if (by_address(k->identity, a))
        return 0;
    return !strcmp(a->name, b->name);
}

static const char *dup0(tt_profile *p, const char *s)
{
    return s ? tt_profile_str(p, s, strlen(s)) : NULL;
}

static int rebuild_ftab(tt_profile *p);

/* Interns f, or appends it without looking for an equal frame when !merge. */
static int frame_put(tt_profile *p, uint32_t *id, const tt_stack_frame *f, int merge)
{
    if (p->ftab_stale && rebuild_ftab(p))
        return TT_ENOMEM;
    tt_stack_frame key = *f; /* names are kept byte for byte (tt_profile_str) */
    fkey k = {&key, p->identity};
    uint64_t h = frame_hash(p->identity, &key);
    uint32_t found = merge ? tt__idtab_find(&p->ftab, h, frame_eq, p, &k) : TT_NONE;
    int rc = 0;
    if (found != TT_NONE) {
        *id = found;
        /* the smallest module path of the frame's occurrences, whatever their order */
        tt_stack_frame *g = &TT_VEC_AT(&p->frames, tt_stack_frame, found);
        if (f->module_file && (!g->module_file || strcmp(f->module_file, g->module_file) < 0) &&
            !(g->module_file = dup0(p, f->module_file)))
            rc = TT_ENOMEM;
        /* likewise the smallest source position (file, then line) of the occurrences that
         * give one: a frame given once bare and once with file and line keeps them */
        int c = f->file && g->file ? strcmp(f->file, g->file) : 0;
        if (!rc && f->file &&
            (!g->file || c < 0 || (!c && f->line > 0 && (g->line <= 0 || f->line < g->line)))) {
            if (!(g->file = dup0(p, f->file)))
                rc = TT_ENOMEM;
            g->line = f->line;
        }
        goto out;
    }
    if (p->frames.len >= TT_NONE - 1) {
        rc = TT_ELIMIT;
        goto out;
    }
    tt_stack_frame nf = key;
    nf.name = dup0(p, key.name);
    nf.raw_name = dup0(p, f->raw_name);
    nf.module = dup0(p, f->module);
    nf.file = dup0(p, f->file);
    nf.module_path = dup0(p, f->module_path);
    nf.module_file = dup0(p, f->module_file);
    nf.build_id = dup0(p, f->build_id);
    if ((f->build_id && !nf.build_id) || !nf.name || (f->raw_name && !nf.raw_name) || (f->module && !nf.module) ||
        (f->file && !nf.file) || (f->module_path && !nf.module_path) ||
        (f->module_file && !nf.module_file) || !tt_vec_push(&p->frames, &nf) ||
        tt__idtab_add(&p->ftab, h, (uint32_t)(p->frames.len - 1))) {
        rc = TT_ENOMEM;
        goto out;
    }
    *id = (uint32_t)(p->frames.len - 1);
out:
    return rc;
}

int tt_frame_intern(tt_profile *p, uint32_t *id, const tt_stack_frame *f)
{
    return frame_put(p, id, f, 1);
}

int tt_frame_add(tt_profile *p, uint32_t *id, const tt_stack_frame *f)
{
    return frame_put(p, id, f, 0);
}

int tt__frame_simple(tt_profile *p, uint32_t *id, const char *name, size_t n, int kind,
                     const char *module)
{
    char small[512];
    char *s = n < sizeof small ? small : malloc(n + 1);
    if (!s)
        return TT_ENOMEM;
    memcpy(s, name, n);
    s[n] = 0;
    tt_stack_frame f = {.name = s, .kind = kind, .module = module};
    int rc = tt_frame_intern(p, id, &f);
    if (s != small)
        free(s);
    return rc;
}

int tt_frame_set_name(tt_profile *p, uint32_t id, const char *name)
{
    if (id >= p->frames.len)
        return TT_EINVAL;
    const char *s = dup0(p, name);
    if (!s)
        return TT_ENOMEM;
    tt_stack_frame *f = &TT_VEC_AT(&p->frames, tt_stack_frame, id);
    f->name = s;
    f->is_unnamed = 0;
    /* the name changed: the identity table is rebuilt once, at the next intern */
    p->ftab_stale = 1;
    return 0;
}

int tt_frame_set_rel_pc(tt_profile *p, uint32_t id, uint64_t rel_pc)
{
    if (id >= p->frames.len)
        return TT_EINVAL;
    tt_stack_frame *f = &TT_VEC_AT(&p->frames, tt_stack_frame, id);
    if (f->has_rel_pc && !f->rel_pc_is_offset)
        return 0;
    f->has_rel_pc = 1;
    f->rel_pc = rel_pc;
    f->rel_pc_is_offset = 0;
    p->ftab_stale = 1; /* the address identity changed */
    return 0;
}

/* Samples and fixed slices to new callsite ids cmap (and frame ids fmap, unless NULL) */
static void remap(tt_profile *p, const uint32_t *cmap, const uint32_t *fmap)
{
    for (size_t i = 0; i < p->samples.len; i++) {
        tt_sample *sm = &TT_VEC_AT(&p->samples, tt_sample, i);
        if (sm->callsite != TT_NONE)
            sm->callsite = cmap[sm->callsite];
    }
    for (size_t t = 0; t < p->nfixed; t++)
        for (size_t i = 0; i < p->fixed[t].len; i++) {
            tt_slice *sl = &TT_VEC_AT(&p->fixed[t], tt_slice, i);
            if (fmap && sl->frame != TT_NONE)
                sl->frame = fmap[sl->frame];
            if (sl->callsite != TT_NONE)
                sl->callsite = cmap[sl->callsite];
        }
}

static int rebuild_ftab(tt_profile *p)
{
    tt__idtab_free(&p->ftab);
    for (size_t i = 0; i < p->frames.len; i++)
        if (tt__idtab_add(&p->ftab, frame_hash(p->identity,
                                              &TT_VEC_AT(&p->frames, tt_stack_frame, i)),
                          (uint32_t)i))
            return TT_ENOMEM;
    p->ftab_stale = 0;
    return 0;
}

int tt_profile_merge_frames(tt_profile *p)
{
    size_t nf = p->frames.len, nc = p->callsites.len;
    uint32_t *fmap = malloc((nf ? nf : 1) * sizeof *fmap);
    uint32_t *cmap = malloc((nc ? nc : 1) * sizeof *cmap);
    if (!fmap || !cmap) {
        free(fmap);
        free(cmap);
        return TT_ENOMEM;
    }
    /* frames: compact in place, the first of equal identities kept; frames left unnamed
     * merge per name again */
    if (p->identity == TT_IDENT_NAME_UNNAMED_ADDRESS)
        p->identity = TT_IDENT_NAME;
    tt__idtab_free(&p->ftab);
    size_t kept = 0;
    int rc = 0;
    for (size_t i = 0; i < nf && !rc; i++) {
        tt_stack_frame f = TT_VEC_AT(&p->frames, tt_stack_frame, i);
        fkey k = {&f, p->identity};
        uint64_t h = frame_hash(p->identity, &f);
        uint32_t found = tt__idtab_find(&p->ftab, h, frame_eq, p, &k);
        if (found != TT_NONE) {
            fmap[i] = found;
            continue;
        }
        TT_VEC_AT(&p->frames, tt_stack_frame, kept) = f;
        fmap[i] = (uint32_t)kept;
        rc = tt__idtab_add(&p->ftab, h, (uint32_t)kept++) ? TT_ENOMEM : 0;
    }
    p->frames.len = kept;
    p->ftab_stale = 0;
    /* callsites: parents come first, so one pass re-interns them in order */
    tt__map_free(&p->csmap);
    memset(&p->csmap, 0, sizeof p->csmap);
    free(p->cs_hint);
    p->cs_hint = NULL;
    p->cs_hint_n = 0;
    kept = 0;
    for (size_t i = 0; i < nc && !rc; i++) {
        tt_callsite c = TT_VEC_AT(&p->callsites, tt_callsite, i);
        if (c.parent != TT_NONE)
            c.parent = cmap[c.parent];
        c.frame = fmap[c.frame];
        uint64_t key = ((uint64_t)c.parent << 32) | c.frame;
        if (tt__map_get(&p->csmap, key, &cmap[i]))
            continue;
        TT_VEC_AT(&p->callsites, tt_callsite, kept) = c;
        cmap[i] = (uint32_t)kept;
        rc = tt__map_put(&p->csmap, key, (uint32_t)kept++) ? TT_ENOMEM : 0;
    }
    if (!rc) {
        p->callsites.len = kept;
        remap(p, cmap, fmap);
        free(p->cs_rec);
        p->cs_rec = NULL;
        p->cs_rec_n = 0;
    }
    free(fmap);
    free(cmap);
    return rc;
}

/* a frame native symbolication looks up by address (cli_samples.c frame_loc) */
static int addressed(const tt_stack_frame *f)
{
    return f->is_unnamed && f->kind == TT_FRAME_NATIVE && f->module &&
           (f->has_rel_pc || f->has_addr || f->has_file_off);
}

/* A kernel frame called from a user frame: a sample taken in the kernel (an interrupt, a
 * system call) whose user part starts with the interrupted program counter, no return
 * address (symbolication.md 3.3) */
static int enters_kernel(const tt_profile *p, uint32_t caller, uint32_t callee)
{
    return TT_VEC_AT(&p->frames, tt_stack_frame, callee).kind == TT_FRAME_KERNEL &&
           TT_VEC_AT(&p->frames, tt_stack_frame, caller).kind != TT_FRAME_KERNEL;
}

/* Callsites again: each old callsite c becomes callers[c] (its frame's return-address twin,
 * for its children) and leafs[c] (its own frame, for the samples ending there); the two are
 * one callsite unless the frame was split. */
static int resplit_callsites(tt_profile *p, const uint32_t *twin, const uint8_t *leafcs,
                             const uint8_t *haschild)
{
    size_t nc = p->callsites.len;
    tt_callsite *old = malloc((nc ? nc : 1) * sizeof *old);
    uint32_t *callers = malloc((nc ? nc : 1) * sizeof *callers);
    uint32_t *leafs = malloc((nc ? nc : 1) * sizeof *leafs);
    int rc = old && callers && leafs ? 0 : TT_ENOMEM;
    if (!rc) {
        memcpy(old, p->callsites.data, nc * sizeof *old);
        p->callsites.len = 0;
        tt__map_free(&p->csmap);
        memset(&p->csmap, 0, sizeof p->csmap);
        free(p->cs_hint);
        p->cs_hint = NULL;
        p->cs_hint_n = 0;
        free(p->cs_rec);
        p->cs_rec = NULL;
        p->cs_rec_n = 0;
    }
    for (size_t c = 0; c < nc && !rc; c++) {
        uint32_t op = old[c].parent;
        /* kernel frames under a user frame hang from its program-counter twin */
        uint32_t par = op == TT_NONE                                   ? TT_NONE
                       : enters_kernel(p, old[op].frame, old[c].frame) ? leafs[op]
                                                                       : callers[op];
        callers[c] = leafs[c] = TT_NONE;
        if (haschild[c])
            rc = tt__callsite_child(p, &callers[c], par, twin[old[c].frame], old[c].depth);
        if (!rc && (leafcs[c] || !haschild[c]))
            rc = tt__callsite_child(p, &leafs[c], par, old[c].frame, old[c].depth);
        if (leafs[c] == TT_NONE)
            leafs[c] = callers[c];
    }
    if (!rc)
        remap(p, leafs, NULL);
    free(old);
    free(callers);
    free(leafs);
    return rc;
}

int tt_profile_split_return_frames(tt_profile *p)
{
    size_t nf = p->frames.len, nc = p->callsites.len;
    uint8_t *role = calloc(nf ? nf : 1, 1); /* 1: some sample's leaf, 2: a caller */
    uint8_t *leafcs = calloc(nc ? nc : 1, 1), *haschild = calloc(nc ? nc : 1, 1);
    uint32_t *twin = malloc((nf ? nf : 1) * sizeof *twin);
    int rc = role && leafcs && haschild && twin ? 0 : TT_ENOMEM;
    for (size_t i = 0; i < p->samples.len && !rc; i++) {
        uint32_t cs = TT_VEC_AT(&p->samples, tt_sample, i).callsite;
        if (cs != TT_NONE)
            leafcs[cs] = 1;
    }
    for (size_t t = 0; t < p->nfixed && !rc; t++)
        for (size_t i = 0; i < p->fixed[t].len; i++) {
            uint32_t cs = TT_VEC_AT(&p->fixed[t], tt_slice, i).callsite;
            if (cs != TT_NONE)
                leafcs[cs] = 1;
        }
    for (size_t c = 0; c < nc && !rc; c++) {
        const tt_callsite *cs = &TT_VEC_AT(&p->callsites, tt_callsite, c);
        if (cs->parent == TT_NONE)
            continue;
        /* a user frame whose callee is a kernel frame holds the interrupted pc */
        if (enters_kernel(p, TT_VEC_AT(&p->callsites, tt_callsite, cs->parent).frame, cs->frame))
            leafcs[cs->parent] = 1;
        else
            haschild[cs->parent] = 1;
    }
    for (size_t c = 0; c < nc && !rc; c++) {
        uint32_t f = TT_VEC_AT(&p->callsites, tt_callsite, c).frame;
        role[f] |= (uint8_t)((leafcs[c] || !haschild[c] ? 1 : 0) | (haschild[c] ? 2 : 0));
    }
    int split = 0;
    for (size_t f = 0; f < nf && !rc; f++) {
        twin[f] = (uint32_t)f;
        tt_stack_frame *fr = &TT_VEC_AT(&p->frames, tt_stack_frame, f);
        if (!addressed(fr) || fr->return_address || !(role[f] & 2))
            continue;
        p->ftab_stale = 1; /* the address identity changes */
        if (role[f] == 2) {
            fr->return_address = 1;
            continue;
        }
        tt_stack_frame copy = *fr;
        copy.return_address = 1;
        rc = frame_put(p, &twin[f], &copy, 0);
        split = 1;
    }
    if (!rc && split)
        rc = resplit_callsites(p, twin, leafcs, haschild);
    free(role);
    free(leafcs);
    free(haschild);
    free(twin);
    return rc;
}

int tt__profile_drop_frames(tt_profile *p, const unsigned char *drop, size_t n)
{
    size_t nf = p->frames.len, nc = p->callsites.len;
    if (n > nf)
        n = nf;
    unsigned char *gone = malloc(n ? n : 1);
    if (!gone)
        return TT_ENOMEM;
    size_t ngone = 0;
    for (size_t i = 0; i < n; i++)
        ngone += gone[i] = drop[i] != 0;
    for (size_t i = 0; i < nc && ngone; i++) {
        uint32_t f = TT_VEC_AT(&p->callsites, tt_callsite, i).frame;
        if (f < n && gone[f]) {
            gone[f] = 0;
            ngone--;
        }
    }
    for (size_t t = 0; t < p->nfixed && ngone; t++)
        for (size_t i = 0; i < p->fixed[t].len; i++) {
            uint32_t f = TT_VEC_AT(&p->fixed[t], tt_slice, i).frame;
            if (f != TT_NONE && f < n && gone[f]) {
                gone[f] = 0;
                ngone--;
            }
        }
    if (!ngone) {
        free(gone);
        return 0;
    }
    uint32_t *fmap = malloc(nf * sizeof *fmap);
    if (!fmap) {
        free(gone);
        return TT_ENOMEM;
    }
    size_t kept = 0;
    for (size_t i = 0; i < nf; i++) {
        fmap[i] = (uint32_t)kept;
        if (i < n && gone[i])
            continue;
        TT_VEC_AT(&p->frames, tt_stack_frame, kept++) = TT_VEC_AT(&p->frames, tt_stack_frame, i);
    }
    p->frames.len = kept;
    p->ftab_stale = 1; /* the identity table is rebuilt at the next intern */
    /* callsites keep their ids; their keys (parent << 32 | frame) and hints name frames */
    tt__map_free(&p->csmap);
    memset(&p->csmap, 0, sizeof p->csmap);
    free(p->cs_hint);
    p->cs_hint = NULL;
    p->cs_hint_n = 0;
    int rc = 0;
    for (size_t i = 0; i < nc && !rc; i++) {
        tt_callsite *c = &TT_VEC_AT(&p->callsites, tt_callsite, i);
        c->frame = fmap[c->frame];
        rc = tt__map_put(&p->csmap, ((uint64_t)c->parent << 32) | c->frame, (uint32_t)i)
                 ? TT_ENOMEM : 0;
    }
    for (size_t t = 0; t < p->nfixed; t++)
        for (size_t i = 0; i < p->fixed[t].len; i++) {
            tt_slice *sl = &TT_VEC_AT(&p->fixed[t], tt_slice, i);
            if (sl->frame != TT_NONE)
                sl->frame = fmap[sl->frame];
        }
    free(fmap);
    free(gone);
    return rc;
}

/* The child a callsite had last: (frame << 32 | child) per parent, so that the stacks of one
 * program, which take the same few paths again and again, rarely need the hash table. */
static void hint_set(tt_profile *p, uint32_t parent, uint32_t frame, uint32_t child)
{
    if (parent >= p->cs_hint_n) {
        size_t n = p->cs_hint_n ? p->cs_hint_n : 1024;
        while (n <= parent)
            n *= 2;
        uint64_t *h = realloc(p->cs_hint, n * sizeof *h);
        if (!h)
            return; /* only a hint */
        memset(h + p->cs_hint_n, 0xff, (n - p->cs_hint_n) * sizeof *h);
        p->cs_hint = h;
        p->cs_hint_n = n;
    }
    p->cs_hint[parent] = (uint64_t)frame << 32 | child;
}

int tt__callsite_child(tt_profile *p, uint32_t *node, uint32_t parent, uint32_t frame,
                       uint32_t depth)
{
    if (parent < p->cs_hint_n && p->cs_hint[parent] >> 32 == frame) {
        *node = (uint32_t)p->cs_hint[parent];
        return 0;
    }
    uint64_t key = ((uint64_t)parent << 32) | frame;
    if (!tt__map_get(&p->csmap, key, node)) {
        if (p->callsites.len >= TT_NONE - 1)
            return TT_ELIMIT;
        tt_callsite c = {parent, frame, depth};
        if (!tt_vec_push(&p->callsites, &c))
            return TT_ENOMEM;
        *node = (uint32_t)(p->callsites.len - 1);
        if (tt__map_put(&p->csmap, key, *node))
            return TT_ENOMEM;
    }
    if (parent != TT_NONE)
        hint_set(p, parent, frame, *node);
    return 0;
}

static int intern_from(tt_profile *p, uint32_t *leaf, uint32_t parent, size_t from,
                       const uint32_t *frames, size_t n, uint32_t *path)
{
    for (size_t i = from; i < n; i++) {
        int rc = tt__callsite_child(p, &parent, parent, frames[i], (uint32_t)i);
        if (rc)
            return rc;
        if (path)
            path[i] = parent;
    }
    *leaf = parent;
    return 0;
}

int tt_callsite_intern(tt_profile *p, uint32_t *leaf, const uint32_t *frames, size_t n)
{
    if (n == 0 || n > TT_MAX_STACK_DEPTH)
        return TT_EINVAL;
    return intern_from(p, leaf, TT_NONE, 0, frames, n, NULL);
}

int tt__stack_truncate(tt_profile *p, uint32_t *f, size_t *n, size_t depth)
{
    if (depth <= TT_MAX_STACK_DEPTH)
        return 0;
    assert(*n >= TT_MAX_STACK_DEPTH);
    uint32_t id;
    if (tt__frame_simple(p, &id, TT_TRUNCATED_FRAME, strlen(TT_TRUNCATED_FRAME),
                         TT_FRAME_SYNTHETIC, NULL))
        return TT_ENOMEM;
    f[TT_MAX_STACK_DEPTH - 1] = id;
    *n = TT_MAX_STACK_DEPTH;
    return 0;
}

void tt__stack_truncated_note(tt_stats *stats, const char *file, uint64_t line, size_t n)
{
    char ex[200];
    snprintf(ex, sizeof ex, "%s:%llu: stack of %zu frames truncated to the %d outermost and a "
             "\"%s\" leaf", file, (unsigned long long)line, n, TT_MAX_STACK_DEPTH - 1,
             TT_TRUNCATED_FRAME);
    tt_stats_add(stats, "stack_too_deep", file, TT_SEV_DATA_LOSS, 1, ex);
}

int tt_callsite_child(tt_profile *p, uint32_t *id, uint32_t parent, uint32_t frame)
{
    if (frame >= p->frames.len || (parent != TT_NONE && parent >= p->callsites.len))
        return TT_EINVAL;
    uint32_t depth =
        parent == TT_NONE ? 0 : TT_VEC_AT(&p->callsites, tt_callsite, parent).depth + 1;
    uint64_t key = ((uint64_t)parent << 32) | frame;
    if (tt__map_get(&p->csmap, key, id))
        return 0;
    if (p->callsites.len >= TT_NONE - 1)
        return TT_ELIMIT;
    tt_callsite c = {parent, frame, depth};
    if (!tt_vec_push(&p->callsites, &c))
        return TT_ENOMEM;
    *id = (uint32_t)(p->callsites.len - 1);
    return tt__map_put(&p->csmap, key, *id) ? TT_ENOMEM : 0;
}

int tt__callsite_intern_cached(tt_profile *p, uint32_t *leaf, const uint32_t *frames, size_t n,
                               tt__cscache *cache)
{
    if (n == 0 || n > TT_MAX_STACK_DEPTH)
        return TT_EINVAL;
    size_t k = 0;
    while (k < n && k < cache->n && cache->frames[k] == frames[k])
        k++;
    if (k == n) {
        *leaf = cache->path[n - 1];
        cache->n = n;
        return 0;
    }
    memcpy(cache->frames + k, frames + k, (n - k) * sizeof *frames);
    cache->n = 0; /* valid again only after success */
    int rc = intern_from(p, leaf, k ? cache->path[k - 1] : TT_NONE, k, frames, n, cache->path);
    if (!rc)
        cache->n = n;
    return rc;
}

size_t tt_callsite_frames(const tt_profile *p, uint32_t callsite, uint32_t *out, size_t cap)
{
    const tt_callsite *cs = tt_profile_callsite(p, callsite);
    size_t n = (size_t)cs->depth + 1;
    if (n > cap)
        return 0;
    uint32_t c = callsite;
    for (size_t i = n; i-- > 0;) {
        cs = tt_profile_callsite(p, c);
        out[i] = cs->frame;
        c = cs->parent;
    }
    return n;
}
