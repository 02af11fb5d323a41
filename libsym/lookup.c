/* Modules (open, address conversions) and the lookup of one address: binary searches over
 * the index, inline chain, symbol-table fallback (spec/symbolication.md 3.2, 5.3, 5.4). */
#include "tsym_int.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

struct tsym_module {
    tsym__index ix;
    tsym_module_info info;
    char *path, *debug_path;
    tsym__map demangled; /* string id (or 1 << 32 | id of a name without its clone suffix)
                          * -> index into dnames */
    tsym__map unclone;   /* symbol name id -> index into dnames: the name without its clone
                          * suffix */
    tt_vec dnames;       /* const char *: demangled name or NULL (not mangled); the names
                          * unclone points to */
    tt_arena *arena;
};

static char *dup_str(const char *s)
{
    if (!s)
        return NULL;
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d)
        memcpy(d, s, n);
    return d;
}

void tsym_module_free(tsym_module *m)
{
    if (!m)
        return;
    tsym__index_free(&m->ix);
    tsym__map_free(&m->demangled);
    tsym__map_free(&m->unclone);
    tt_vec_free(&m->dnames);
    tt_arena_free(m->arena);
    free(m->path);
    free(m->debug_path);
    free(m);
}

const tsym_module_info *tsym_module_info_get(const tsym_module *m) { return &m->info; }

void tsym__module_note(tsym_module *m, const char *note)
{
    char old[sizeof m->info.warning];
    memcpy(old, m->info.warning, sizeof old);
    size_t n = strlen(note) < sizeof old - 1 ? strlen(note) : sizeof old - 1;
    memcpy(m->info.warning, note, n);
    m->info.warning[n] = 0;
    if (old[0] && n + 2 < sizeof old) {
        memcpy(m->info.warning + n, "; ", 3);
        strncat(m->info.warning, old, sizeof old - n - 3);
    }
}

static int load_debug(tsym_module *m, const char *dbg, const tsym__elf *de)
{
    tt_error derr = {0};
    int rc = tsym__dwarf_load(&m->ix, dbg, &derr);
    if (rc == TT_ENOMEM)
        return rc;
    if (rc)
        snprintf(m->info.warning, sizeof m->info.warning, "%s", derr.msg);
    (void)de;
    return 0;
}

static tsym_module *module_new(void)
{
    tsym_module *m = calloc(1, sizeof *m);
    if (!m || !(m->arena = tt_arena_new())) {
        free(m);
        return NULL;
    }
    tt_vec_init(&m->ix.funcs, sizeof(tsym__func));
    tt_vec_init(&m->ix.nodes, sizeof(tsym__node));
    tt_vec_init(&m->ix.ranges, sizeof(tsym__range));
    tt_vec_init(&m->ix.rows, sizeof(tsym__row));
    tt_vec_init(&m->ix.rblocks, sizeof(tsym__rblock));
    tt_vec_init(&m->ix.syms, sizeof(tsym__sym));
    tt_vec_init(&m->ix.loads, sizeof(tsym__load));
    tt_vec_init(&m->ix.fstarts, sizeof(uint64_t));
    tt_vec_init(&m->ix.secs, sizeof(tsym__sec));
    tt_vec_init(&m->ix.nsyms, sizeof(tsym__sym));
    tt_vec_init(&m->ix.kids, sizeof(tsym__kid));
    tt_vec_init(&m->ix.kheads, sizeof(tsym__khead));
    tt_vec_init(&m->dnames, sizeof(const char *));
    return m;
}

static int macho_arch_path(const char *path)
{
    char file[4096], arch[32];
    return tsym__macho_split(file, sizeof file, arch, sizeof arch, path);
}

/* The dwz supplementary file of debug file dbg (.gnu_debugaltlink: an absolute path, or
 * one relative to dbg's directory) into out: 1 when it exists and has the build id the link
 * names, else 0 with a warning, as the strings and DIEs it holds are then missing. */
static int find_sup(char *out, size_t cap, char *warn, size_t wcap, const char *dbg,
                    const tsym__elf *de)
{
    const char *slash = strrchr(dbg, '/');
    int dl = de->altlink[0] == '/' || !slash ? 0 : (int)(slash - dbg + 1);
    int n = snprintf(out, cap, "%.*s%s", dl, dbg, de->altlink);
    tsym__elf se;
    if (n < 0 || (size_t)n >= cap || access(out, R_OK) != 0 ||
        tsym__elf_read(&se, NULL, 0, out, NULL)) {
        snprintf(warn, wcap,
                 "debug info refers to a dwz supplementary file that was not found: %.200s; "
                 "names kept there are missing",
                 de->altlink);
        return 0;
    }
    if (de->alt_build_id[0] && strcmp(se.build_id, de->alt_build_id)) {
        snprintf(warn, wcap,
                 "dwz supplementary file %.200s has build id %.64s, expected %.64s; names kept "
                 "there are missing",
                 out, se.build_id, de->alt_build_id);
        return 0;
    }
    return 1;
}

/* The warning of a module whose functions are in split DWARF that could not be read: which
 * file should hold them and why it was not used (not found, another build's, unreadable). */
static void split_warning(char *buf, size_t cap, const tsym__index *ix)
{
    static const char tail[] = "function names come from the symbol table, no inline frames";
    const char *dwo = ix->has_dwo_path ? tsym__str(&ix->str, ix->dwo_path) : NULL;
    switch (dwo ? ix->dwo_why : TSYM__DWO_UNREAD) {
    case TSYM__DWO_NOT_FOUND:
        snprintf(buf, cap, "debug info is in a .dwo file that was not found: %.200s; %s", dwo,
                 tail);
        break;
    case TSYM__DWO_MISMATCH:
        snprintf(buf, cap,
                 "split DWARF file %.200s is another build (dwo_id 0x%016llx, expected "
                 "0x%016llx); %s",
                 dwo, (unsigned long long)ix->dwo_found, (unsigned long long)ix->dwo_want, tail);
        break;
    case TSYM__DWO_BAD:
        snprintf(buf, cap, "split DWARF file %.200s cannot be read; %s", dwo, tail);
        break;
    default:
        snprintf(buf, cap, "split DWARF (.dwo files, e.g. %.200s) could not be read; %s",
                 dwo ? dwo : "?", tail);
    }
}

int tsym_module_open(tsym_module **out, const char *path, const char *debug_path,
                     tt_error *err)
{
    return tsym__module_open_dirs(out, path, debug_path, NULL, 0, err);
}

int tsym__module_open_dirs(tsym_module **out, const char *path, const char *debug_path,
                           char *const *dirs, size_t n_dirs, tt_error *err)
{
    *out = NULL;
    if (!path && !debug_path)
        return tt_error_set(err, TT_EINVAL, NULL, TT_LOC_NONE, 0, "no module file given");
    if ((path && (tsym__macho_file(path) || macho_arch_path(path))) ||
        (!path && tsym__macho_file(debug_path)))
        return tsym__module_open_macho(out, path, NULL, debug_path, NULL, err);
    tsym_module *m = module_new();
    if (!m)
        return tt_error_set(err, TT_ENOMEM, path, TT_LOC_NONE, 0, "out of memory");
    tsym__elf pe = {0}, de = {0};
    const char *dbg = debug_path ? debug_path : path;
    int rc = 0;
    if (path && (rc = tsym__elf_read(&pe, &m->ix, 0, path, err)))
        goto fail;
    if (debug_path && (rc = tsym__elf_read(&de, &m->ix, 0, debug_path, err)))
        goto fail;
    if (!debug_path)
        de = pe;
    if (!path)
        pe = de;
    const tsym__elf *ov = pe.rel_overlap[0] ? &pe : de.rel_overlap[0] ? &de : NULL;
    if (ov) { /* function and line could come from two sections: refuse (spec 3.1) */
        rc = tt_error_set(err, TT_EFORMAT, ov == &pe ? path : dbg, TT_LOC_NONE, 0,
                          "relocatable object whose code sections overlap (%s): its addresses "
                          "are ambiguous; symbolicate the linked executable or shared object",
                          ov->rel_overlap);
        goto fail;
    }
        if (pe.build_id[0] && de.build_id[0] && strcmp(pe.build_id, de.build_id)) {
        rc = tt_error_set(err, TT_EFORMAT, path, TT_LOC_NONE, 0,
                          "debug file %s has build id %s, module has %s", debug_path,
                          de.build_id, pe.build_id);
        goto fail;
    }
    /* symbols: the debug file's .symtab (kept by --only-keep-debug), else the module's
     * .symtab or .dynsym */
    const char *symfile = de.has_symtab || !path ? dbg : path;
    tsym__elf tmp;
    if ((rc = tsym__elf_read(&tmp, &m->ix, 1, symfile, err)))
        goto fail;
    char sup[TT_ERRMSG_MAX / 2];
    if (de.altlink[0] && find_sup(sup, sizeof sup, m->info.warning, sizeof m->info.warning,
                                  dbg, &de))
        m->ix.sup_path = sup;
    m->ix.split_module = path ? path : dbg;
    m->ix.split_dirs = dirs;
    m->ix.n_split_dirs = n_dirs;
    if (de.has_debug_info && (rc = load_debug(m, dbg, &de)))
        goto nomem;
    m->ix.sup_path = NULL;
    m->ix.split_module = NULL;
    m->ix.split_dirs = NULL;
    m->ix.n_split_dirs = 0;
    if (tsym__index_finish(&m->ix))
        goto nomem;
    if (!(m->path = dup_str(path)) && path)
        goto nomem;
    if (m->ix.n_cus && !(m->debug_path = dup_str(dbg)))
        goto nomem;
    tsym_module_info *i = &m->info;
    i->path = m->path;
    i->debug_path = m->debug_path;
    snprintf(i->build_id, sizeof i->build_id, "%s", pe.build_id[0] ? pe.build_id : de.build_id);
    i->elf_class = pe.elf_class;
    i->big_endian = pe.big_endian;
    i->elf_type = pe.elf_type;
    i->load_bias_vaddr = tsym_module_offset_to_vaddr(m, 0);
    i->n_cus = m->ix.n_cus;
    i->n_funcs = m->ix.funcs.len;
    i->n_inlines = m->ix.n_inlines;
    i->n_rows = m->ix.rows.len;
    i->n_syms = m->ix.syms.len;
    i->symtab_only = m->ix.funcs.len == 0;
    i->split_dwarf = m->ix.split_dwarf;
    if (i->split_dwarf && !i->warning[0])
        split_warning(i->warning, sizeof i->warning, &m->ix);
    /* sections past the end of the file were left out, the others used: each named once */
    if (debug_path && path && de.bad_secs[0] && strcmp(debug_path, path))
        tsym__module_note(m, de.bad_secs);
    if (pe.bad_secs[0])
        tsym__module_note(m, pe.bad_secs);
    *out = m;
    return 0;
nomem:
    rc = tt_error_set(err, TT_ENOMEM, dbg, TT_LOC_NONE, 0, "out of memory");
fail:
    tsym_module_free(m);
    return rc;
}

/* ---- Mach-O modules (spec/ios.md 6) ---- */

/* "arm64 (ios 14.0 sdk 16.4), x86_64 (...)": the platform tells device from simulator */
static void slice_list(char *out, size_t cap, const tsym__macho *mo)
{
    tsym_macho_slice sl[TSYM_MACHO_MAX_SLICES];
    size_t n = 0;
    for (; n < mo->n_slices && n < TSYM_MACHO_MAX_SLICES; n++) {
        tsym__macho tmp = *mo;
        tmp.sects = NULL;
        tt_error e;
        snprintf(sl[n].arch, sizeof sl[n].arch, "%s", mo->slices[n].arch);
        sl[n].platform[0] = 0;
        if (!tsym__macho_select(&tmp, n, &e))
            tsym__macho_platform(sl[n].platform, sizeof sl[n].platform, &tmp);
        free(tmp.sects);
    }
    tsym_macho_slice_list(out, cap, sl, n);
}

/* Opens file (a .dSYM bundle is resolved) and selects the slice named arch or with uuid. */
static int macho_pick(tsym__macho *mo, char *file, size_t cap, const char *path,
                      const char *arch, const char *uuid, const char *what, tt_error *err)
{
    if (tsym_dsym_file(file, cap, path))
        return tt_error_set(err, TT_ENOTFOUND, path, TT_LOC_NONE, 0,
                            "no such file (or a .dSYM bundle without Contents/Resources/DWARF/)");
    int rc = tsym__macho_open(mo, file, err);
    if (rc)
        return rc;
    char list[400];
    slice_list(list, sizeof list, mo);
    int i = mo->n_slices == 1 && !arch && !uuid ? 0 : tsym__macho_find(mo, arch, uuid);
    if (i < 0 && uuid) {
        /* name the UUID of the slice of the same arch (or the only one) in the message */
        int j = tsym__macho_find(mo, arch, NULL);
        if (j < 0 && mo->n_slices == 1)
            j = 0;
        if (j >= 0 && !tsym__macho_select(mo, (size_t)j, err))
            return tt_error_set(err, TT_EFORMAT, file, TT_LOC_NONE, 0,
                                "%s%s has UUID %s, %s %s", what, file,
                                mo->uuid[0] ? mo->uuid : "(none)",
                                what[0] ? "image has" : "expected", uuid);
        return tt_error_set(err, TT_EFORMAT, file, TT_LOC_NONE, 0,
                            "no slice with UUID %s (slices: %s)", uuid, list);
    }
    if (i < 0 && arch)
        return tt_error_set(err, TT_ENOTFOUND, file, TT_LOC_NONE, 0,
                            "no slice for architecture %s (slices: %s)", arch, list);
    if (i < 0)
        return tt_error_set(err, TT_EINVAL, file, TT_LOC_NONE, 0,
                            "universal file: choose an architecture with %s:ARCH (slices: %s)",
                            file, list);
    return tsym__macho_select(mo, (size_t)i, err);
}

static int macho_index(tsym_module *m, const tsym__macho *img, const tsym__macho *dbg,
                       tt_error *err)
{
    const tsym__macho *text = dbg && dbg->has_text ? dbg : img;
    if (!text) /* a dSYM alone, without the segment its addresses are relative to */
        return tt_error_set(err, TT_EFORMAT, dbg ? dbg->label : NULL, TT_LOC_NONE, 0,
                            "%s: no __TEXT segment in the load commands: the DWARF's "
                            "addresses cannot be placed (give the image too)",
                            dbg && dbg->label ? dbg->label : "dSYM");
    if (tsym__macho_text_load(&m->ix, text))
        return tt_error_set(err, TT_ENOMEM, NULL, TT_LOC_NONE, 0, "out of memory");
    const tsym__macho *symsrc = dbg && dbg->has_symtab && dbg->nsyms ? dbg : img;
    int rc = symsrc ? tsym__macho_syms(&m->ix, symsrc, err) : 0;
    if (rc)
        return rc;
    const tsym__macho *dw = dbg && dbg->has_dwarf ? dbg : img && img->has_dwarf ? img : NULL;
    if (dw) {
        tt_error derr = {0};
        rc = tsym__macho_dwarf(&m->ix, dw, &derr);
        if (rc == TT_ENOMEM)
            return tt_error_set(err, rc, dw->label, TT_LOC_NONE, 0, "out of memory");
        if (rc)
            snprintf(m->info.warning, sizeof m->info.warning, "%s", derr.msg);
        if (m->ix.n_cus && !(m->debug_path = dup_str(dw->label)))
            return tt_error_set(err, TT_ENOMEM, NULL, TT_LOC_NONE, 0, "out of memory");
    }
    return tsym__index_finish(&m->ix)
               ? tt_error_set(err, TT_ENOMEM, NULL, TT_LOC_NONE, 0, "out of memory")
               : 0;
}

int tsym__module_open_macho(tsym_module **out, const char *path, const char *arch,
                            const char *debug_path, const char *uuid, tt_error *err)
{
    *out = NULL;
    char file[4096] = "", dfile[4096] = "", archbuf[32] = "";
    if (path && !arch && tsym__macho_split(file, sizeof file, archbuf, sizeof archbuf, path)) {
        /* the ARCH as given (after the last ':'), whole: archbuf cuts a long one */
        arch = archbuf[0] ? strrchr(path, ':') + 1 : NULL;
        path = file;
    }
    tsym__macho img = {0}, dbg = {0};
    int rc = 0;
    tsym_module *m = module_new();
    if (!m)
        return tt_error_set(err, TT_ENOMEM, path, TT_LOC_NONE, 0, "out of memory");
    char ifile[4096];
    if (path && (rc = macho_pick(&img, ifile, sizeof ifile, path, arch, arch ? NULL : uuid, "", err)))
        goto done;
    if (path && uuid && img.uuid[0] && strcmp(uuid, img.uuid)) {
        rc = tt_error_set(err, TT_EFORMAT, ifile, TT_LOC_NONE, 0, "image has UUID %s, expected %s",
                          img.uuid, uuid);
        goto done;
    }
    if (debug_path &&
        (rc = macho_pick(&dbg, dfile, sizeof dfile, debug_path, path || uuid ? NULL : arch,
                         path && img.uuid[0] ? img.uuid : uuid, "dSYM ", err)))
        goto done;
    if (path && debug_path && !img.uuid[0] && dbg.uuid[0] && strcmp(img.arch, dbg.arch)) {
        rc = tt_error_set(err, TT_EFORMAT, dfile, TT_LOC_NONE, 0,
                          "dSYM slice is %s, image is %s", dbg.arch, img.arch);
        goto done;
    }
    if ((rc = macho_index(m, path ? &img : NULL, debug_path ? &dbg : NULL, err)))
        goto done;
    const tsym__macho *id = path ? &img : &dbg;
    if ((path && !(m->path = dup_str(path))) || (!path && !(m->path = dup_str(dfile)))) {
        rc = tt_error_set(err, TT_ENOMEM, path, TT_LOC_NONE, 0, "out of memory");
        goto done;
    }
    tsym_module_info *i = &m->info;
    i->path = m->path;
    i->debug_path = m->debug_path;
    i->macho = 1;
    snprintf(i->build_id, sizeof i->build_id, "%s", id->uuid);
    snprintf(i->arch, sizeof i->arch, "%s", id->arch);
    tsym__macho_platform(i->platform, sizeof i->platform, id->platform ? id : &dbg);
    i->text_vmaddr = (debug_path && dbg.has_text ? &dbg : id)->text_vmaddr;
    i->elf_class = id->is64 ? 64 : 32;
    i->load_bias_vaddr = i->text_vmaddr;
    i->n_cus = m->ix.n_cus;
    i->n_funcs = m->ix.funcs.len;
    i->n_inlines = m->ix.n_inlines;
    i->n_rows = m->ix.rows.len;
    i->n_syms = m->ix.syms.len;
    i->symtab_only = m->ix.funcs.len == 0;
done:
    tsym__macho_close(&img);
    tsym__macho_close(&dbg);
    if (rc)
        tsym_module_free(m);
    else
        *out = m;
    return rc;
}

int tsym_module_open_arch(tsym_module **out, const char *path, const char *arch,
                          const char *debug_path, tt_error *err)
{
    return tsym__module_open_macho(out, path, arch, debug_path, NULL, err);
}

int tsym_module_has_debug_info(const tsym_module_info *i)
{
    return !i->symtab_only || i->n_rows > 0;
}

int tsym_module_no_debug_info(const tsym_module_info *i)
{
    return !tsym_module_has_debug_info(i) && !i->split_dwarf;
}

uint64_t tsym_module_offset_to_vaddr(const tsym_module *m, uint64_t offset)
{
    const tsym__load *l = m->ix.loads.data, *first = NULL;
    for (size_t i = 0; i < m->ix.loads.len; i++)
        if (!first || l[i].vaddr < first->vaddr)
            first = &l[i];
    return first ? offset + (first->vaddr - first->offset) : offset;
}

int tsym_module_map_to_vaddr(uint64_t *vaddr, const tsym_module *m, uint64_t addr,
                             uint64_t map_start, uint64_t pgoff)
{
    const tsym__load *l = m->ix.loads.data;
    for (size_t i = 0; i < m->ix.loads.len; i++) {
        /* page-aligned mappings start at or before the segment's file offset */
        uint64_t seg_page = l[i].offset & ~(uint64_t)0xfff;
        if (pgoff >= seg_page && pgoff < l[i].offset + (l[i].filesz ? l[i].filesz : 1)) {
            *vaddr = addr - map_start + pgoff - (l[i].offset - l[i].vaddr);
            return 0;
        }
    }
    return TT_ENOTFOUND;
}

int tsym_module_guess_vaddr(uint64_t *vaddr, const tsym_module *m, uint64_t addr)
{
    const tsym__load *l = m->ix.loads.data;
    if (m->info.elf_type == 2 /* ET_EXEC */)
        for (size_t i = 0; i < m->ix.loads.len; i++)
            if (l[i].exec && addr >= l[i].vaddr && addr - l[i].vaddr < l[i].memsz) {
                *vaddr = addr;
                return 0;
            }
    return tsym_module_map_to_vaddr(vaddr, m, addr, addr, addr);
}

/* ---- lookup ---- */

static const tsym__func *find_func(const tsym__index *ix, uint64_t a, size_t *hint)
{
    const tsym__func *f = ix->funcs.data;
    size_t lo = tsym__count_le_from(f, ix->funcs.len, sizeof *f, a, hint);
    /* ranges of distinct functions do not overlap in sane DWARF; look back a little for
     * a containing one when a tiny range follows a larger one */
    for (size_t k = 0; k < 4 && lo > k; k++)
        if (a < f[lo - 1 - k].hi)
            return &f[lo - 1 - k];
    return NULL;
}

/* The ELF section holding a (the first in the section table if several do, as GNU
 * addr2line's) in *sec: 1, or 0 when the sections are known and none holds a. Without known
 * sections (Mach-O, ET_REL) every address counts as in one section starting at 0. */
static int section_of(const tsym__index *ix, uint64_t a, tsym__sec *sec)
{
    const tsym__sec *r = ix->secs.data;
    int found = !ix->secs.len;
    memset(sec, 0, sizeof *sec);
    /* sections holding a start at or before it, and after the last whose running maximum
     * of hi is <= a (sections rarely overlap: .tbss) */
    for (size_t i = tsym__count_le(r, ix->secs.len, sizeof *r, a); i-- > 0 && r[i].maxhi > a;)
        if (a < r[i].hi && (!found || r[i].shndx < sec->shndx)) {
            *sec = r[i];
            found = 1;
        }
    return found;
}

/* The last of the n symbols s (sorted) at or below a in section sec, looking back a few */
static const tsym__sym *last_in(const tsym__sym *s, size_t n, uint64_t a, const tsym__sec *sec)
{
    for (size_t k = tsym__count_le(s, n, sizeof *s, a), j = 0; k > 0 && j < 4; k--, j++)
        if (s[k - 1].lo < sec->lo)
            return NULL;
        else if (!sec->shndx || !s[k - 1].shndx || s[k - 1].shndx == sec->shndx)
            return &s[k - 1];
    return NULL;
}

/* sized symbol containing a, or (nearest) the last symbol at or below a in a's section; an
 * address in no section has none (GNU addr2line gives ?? there) */
static const tsym__sym *find_sym(const tsym__index *ix, uint64_t a, int nearest, size_t *hint)
{
    const tsym__sym *s = ix->syms.data;
    if (nearest) { /* the preceding symbol of the same section, as GNU addr2line's: a
                    * function, or a label (data_start) after it; the function at a tie */
        tsym__sec sec;
        if (!section_of(ix, a, &sec))
            return NULL;
        const tsym__sym *f = last_in(s, ix->syms.len, a, &sec);
        const tsym__sym *l = last_in(ix->nsyms.data, ix->nsyms.len, a, &sec);
        return l && (!f || l->lo > f->lo) ? l : f;
    }
    size_t lo = tsym__count_le_from(s, ix->syms.len, sizeof *s, a, hint);
    if (lo == 0)
        return NULL;
    for (size_t k = 0; k < 4 && lo > k; k++)
        if (s[lo - 1 - k].size && a - s[lo - 1 - k].lo < s[lo - 1 - k].size)
            return &s[lo - 1 - k];
    return NULL;
}

/* s as shown with flags: demangled once per key (memoised in the module's arena). */
static const char *display_key(tsym_module *m, uint64_t key, const char *s, unsigned flags)
{
    if (!(flags & TSYM_F_DEMANGLE) || !tsym__maybe_mangled(s)) /* C names: no memo lookup */
        return s;
    uint32_t *slot = tsym__map_slot(&m->demangled, key);
    if (!slot)
        return s;
    if (*slot == TSYM_NONE) {
        char *d = tsym_demangle(s);
        const char *keep = NULL;
        if (d) {
            keep = tt_arena_strndup(m->arena, d, strlen(d));
            free(d);
        }
        if (!tt_vec_push(&m->dnames, &keep))
            return keep ? keep : s;
        *slot = (uint32_t)(m->dnames.len - 1);
    }
    const char *d = TT_VEC_AT(&m->dnames, const char *, *slot);
    return d ? d : s;
}

static const char *display(tsym_module *m, uint32_t id, unsigned flags)
{
    return display_key(m, id, tsym__str(&m->ix.str, id), flags);
}

static void set_row(tsym_frame *f, const tsym__index *ix, const tsym__row *row)
{
    if (!row)
        return;
    f->file = tsym__str(&ix->str, row->file);
    f->line = row->line;
    f->column = row->col;
    f->discriminator = row->discr;
}

/* Length of a mangled name without its gcc clone suffixes (".isra.0", ".cold", ...). */
static size_t unclone_len(const char *s)
{
    static const char *const kinds[] = {"isra", "part", "constprop", "cold", "lto_priv",
                                        "localalias"};
    size_t n = strlen(s);
    for (;;) {
        size_t k = n;
        while (k > 0 && s[k - 1] >= '0' && s[k - 1] <= '9')
            k--;
        if (k < n && k > 0 && s[k - 1] == '.') { /* a ".N" number */
            n = k - 1;
            continue;
        }
        int cut = 0;
        for (size_t i = 0; i < sizeof kinds / sizeof kinds[0] && !cut; i++) {
            size_t l = strlen(kinds[i]);
            if (n > l + 1 && s[n - l - 1] == '.' && !memcmp(s + n - l, kinds[i], l)) {
                n -= l + 1;
                cut = 1;
            }
        }
        if (!cut)
            return n;
    }
}

/* Itanium operator encodings (C++ ABI 5.1.5.3) of the operators a bare DW_AT_name can
 * carry: gcc names a lambda's call operator only "operator()". Longest spelling first. */
static const char *const op_codes[][2] = {
    {"()", "cl"}, {"[]", "ix"}, {"->", "pt"}, {"<<=", "lS"}, {">>=", "rS"}, {"<<", "ls"},
    {">>", "rs"},  {"<=", "le"}, {">=", "ge"}, {"==", "eq"}, {"!=", "ne"}, {"+=", "pL"},
    {"-=", "mI"},  {"*=", "mL"}, {"=", "aS"},  {"<", "lt"},  {">", "gt"},  {"+", "pl"},
    {"-", "mi"},   {"*", "ml"},  {"/", "dv"},  {"!", "nt"},  {"&", "an"},  {"|", "or"}};

/* Whether a destructor of class id (idl bytes) is the mangled ms (n bytes): the class name
 * with its length prefix, then (after template arguments) the destructor's D0, D1, D2, D4 or
 * D5 ending the nested name (C++ ABI 5.1.4: <ctor-dtor-name>). The bare DWARF name "~V"
 * itself is not in the mangled name. */
static int mentions_dtor(const char *ms, size_t n, const char *id, size_t idl)
{
    for (size_t i = 1; idl && i + idl <= n; i++) {
        if (memcmp(ms + i, id, idl) || ms[i - 1] < '0' || ms[i - 1] > '9')
            continue;
        for (size_t j = i + idl; j + 2 < n; j++)
            if (ms[j] == 'D' && ms[j + 1] && strchr("01245", ms[j + 1]) && (ms[j + 2] == 'E' || ms[j + 2] == 'B'))
                return 1;
    }
    return 0;
}

/* Whether the first n bytes of the mangled ms contain the identifier of the bare name plain
 * (for an operator: its encoding followed by E or I, the end of a nested or template name;
 * for a destructor "~X": X and a destructor encoding). */
static int mentions(const char *ms, size_t n, const char *plain)
{
    char code[4] = "";
    const char *id = plain;
    size_t idl = strcspn(plain, "<( ");
    if (plain[0] == '~')
        return mentions_dtor(ms, n, plain + 1, strcspn(plain + 1, "<( "));
    if (!strncmp(plain, "operator", 8)) {
        for (size_t k = 0; k < sizeof op_codes / sizeof op_codes[0] && !code[0]; k++)
            if (!strncmp(plain + 8, op_codes[k][0], strlen(op_codes[k][0])))
                memcpy(code, op_codes[k][1], 3);
        if (code[0]) {
            id = code;
            idl = 2;
        }
    }
    if (idl == 0 || idl > n)
        return 0;
    for (size_t i = 0; i + idl <= n; i++)
        if (!memcmp(ms + i, id, idl) &&
            (id != code || (i + 2 < n && (ms[i + 2] == 'E' || ms[i + 2] == 'I'))))
            return 1;
    return 0;
}

/* gcc gives some template instances (those over lambdas, say) no DW_AT_linkage_name: their
 * DWARF name is then the bare, unqualified one. The ELF symbol of the same function names it
 * fully; it is used when it is mangled, starts inside the function and mentions the bare
 * name's identifier. The symbol's clone suffix is dropped (spec R3). NULL: keep. The name
 * without the suffix is kept in the module's arena (once per symbol name), never added to
 * the string table: that would move the strings earlier results borrow. */
static const char *qualified_name(tsym_module *m, const tsym__node *root, const tsym__sym *sym,
                                  unsigned flags)
{
    const char *plain = tsym__str(&m->ix.str, root->name);
    const char *ms = tsym__str(&m->ix.str, sym->name);
    if (!plain || !ms || !plain[0] || (plain[0] == '_' && (plain[1] == 'Z' || plain[1] == 'R')) ||
        ms[0] != '_' || (ms[1] != 'Z' && ms[1] != 'R') || !tsym__node_has(&m->ix, root, sym->lo))
        return NULL;
    size_t n = unclone_len(ms);
    if (!mentions(ms, n, plain))
        return NULL;
    if (!ms[n])
        return display(m, sym->name, flags);
    uint64_t key = (uint64_t)1 << 32 | sym->name; /* string ids are 32-bit */
    uint32_t *slot = tsym__map_slot(&m->unclone, key);
    if (!slot)
        return NULL;
    if (*slot == TSYM_NONE) {
        const char *keep = tt_arena_strndup(m->arena, ms, n);
        if (!keep || !tt_vec_push(&m->dnames, &keep))
            return NULL;
        *slot = (uint32_t)(m->dnames.len - 1);
    }
    return display_key(m, key, TT_VEC_AT(&m->dnames, const char *, *slot), flags);
}

/* The low address of the part of the function that holds vaddr, in funcs entry fn: of a
 * hot/cold split function (DW_AT_ranges) the cold part's for an address in it, as
 * llvm-symbolizer's StartAddress (the ELF symbol work.cold); ranges that overlap or abut
 * count as one part (joined by tsym__index_finish). */
static uint64_t part_start(const tsym__index *ix, const tsym__func *fn)
{
    return fn->part && fn->part <= ix->funcs.len
               ? TT_VEC_AT(&ix->funcs, tsym__func, fn->part - 1).lo
               : fn->lo;
}

void tsym_module_lookup(tsym_result *out, tsym_module *m, uint64_t vaddr, unsigned flags)
{
    tsym_cursor c = {0, 0, 0, 0, 0, 0};
    tsym_module_lookup_at(out, m, vaddr, flags, &c);
}

void tsym_module_lookup_at(tsym_result *out, tsym_module *m, uint64_t vaddr, unsigned flags,
                           tsym_cursor *c)
{
    const tsym__index *ix = &m->ix;
    memset(&out->frames[0], 0, sizeof out->frames[0]);
    out->n_frames = 1;
    out->found = out->approximate = out->has_start = 0;
    out->start_addr = out->symbol_addr = 0;
    out->symbol = NULL;
    const tsym__row *row = tsym__index_row_at(ix, vaddr, &c->block, &c->row);
    const tsym__sym *sym = find_sym(ix, vaddr, 0, &c->sym);
    const tsym__func *fn = find_func(ix, vaddr, &c->func);
    if (sym) {
        out->symbol = display(m, sym->name, flags);
        out->symbol_addr = sym->lo;
    }
    if (!fn) {
        const tsym__sym *s = sym                       ? sym
                             : (flags & TSYM_F_NEAREST) ? find_sym(ix, vaddr, 1, &c->sym)
                                                        : NULL;
        set_row(&out->frames[0], ix, row);
        if (s) {
            out->frames[0].function = display(m, s->name, flags);
            if (!out->frames[0].file)
                out->frames[0].file = tsym__str(&ix->str, s->file);
            out->found = 1;
            out->approximate = 1;
            out->has_start = 1;
            out->start_addr = s->lo;
        } else if (ix->fstarts.len && tsym__index_live(ix, vaddr, vaddr + 1)) {
            /* Mach-O without a symbol here: the function start from LC_FUNCTION_STARTS
             * (spec/ios.md 6.5), found stays 0 */
            size_t k = tsym__count_le(ix->fstarts.data, ix->fstarts.len, sizeof(uint64_t), vaddr);
            if (k) {
                out->has_start = 1;
                out->start_addr = TT_VEC_AT(&ix->fstarts, uint64_t, k - 1);
            }
        }
        return;
    }
    const tsym__node *nodes = ix->nodes.data;
    uint32_t chain[TSYM_MAX_FRAMES];
    size_t len = 0;
    chain[len++] = fn->node;
    while (len < TSYM_MAX_FRAMES) {
        uint32_t found = len == 1 ? tsym__index_child_at(ix, chain[0], vaddr, &c->khead, &c->kid)
                                  : tsym__index_child(ix, chain[len - 1], vaddr);
        if (found == TSYM_NONE)
            break;
        chain[len++] = found;
    }
    /* a chain deeper than TSYM_MAX_FRAMES keeps its outermost frames: the innermost kept
     * one is at the call site of its dropped child, not at the line-table row */
    uint32_t dropped = len == TSYM_MAX_FRAMES ? tsym__index_child(ix, chain[len - 1], vaddr)
                                              : TSYM_NONE;
    out->found = 1;
    out->n_frames = len;
    for (size_t j = 0; j < len; j++) {
        const tsym__node *n = &nodes[chain[len - 1 - j]];
        tsym_frame *f = &out->frames[j];
        memset(f, 0, sizeof *f);
        f->function = display(m, n->name, flags);
        if (ix->swiftq.count) {
            const uint32_t *q = tsym__map_find(&ix->swiftq, n->name);
            f->qualified = q ? tsym__str(&ix->str, *q) : NULL;
        }
        f->start_file = tsym__str(&ix->str, n->decl_file);
        f->start_line = n->decl_line;
        if (j == 0 && dropped == TSYM_NONE) {
            set_row(f, ix, row);
        } else {
            const tsym__node *inner = &nodes[j ? chain[len - j] : dropped];
            f->file = tsym__str(&ix->str, inner->call_file);
            f->line = inner->call_line;
            f->column = inner->call_col;
        }
    }
    const tsym__node *root = &nodes[fn->node];
    out->has_start = 1;
    out->start_addr = part_start(ix, fn);
    if ((flags & TSYM_F_SYMBOL_NAMES) && sym)
        out->frames[len - 1].function = out->symbol;
    else if (sym) {
        const char *q = qualified_name(m, root, sym, flags);
        if (q)
            out->frames[len - 1].function = q;
        else if (!out->frames[len - 1].function) /* its DWARF name is unreadable (dwz) */
            out->frames[len - 1].function = out->symbol;
    }
}
