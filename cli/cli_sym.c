/* Symbol options and the tt_resolver adapter over libsym (spec/symbolication.md 4.2, 10). */
#include "cli_sym.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cli_swift.h"

struct cli_sym {
    tsym_store *store;
    tsym_module *exes[CLI_SYM_MAX];
    size_t n_exes;
    unsigned flags;
    char *env_copy;
    cli_swift *swift;
    int swift_keys;
    char why[TT_ERRMSG_MAX + 300];
    const char *const *dsyms; /* the --dsym arguments (borrowed from the options) */
    const tsym_dsym *dsym_recs[CLI_SYM_MAX]; /* each opened once, by the store */
    size_t n_dsyms;
    tt_intern *seen;          /* image UUIDs of the inputs (cli_sym_saw_uuid, resolve) */
    const tsym_dsym *fats[CLI_SYM_MAX * 2]; /* universal -e files, NAME=PATH without :ARCH
                                         * (fat_module; borrowed from the store) */
    char fat_names[CLI_SYM_MAX * 2][256]; /* their image names (a bundle's DWARF file name) */
    int fat_dsym[CLI_SYM_MAX * 2];     /* given as --dsym NAME=PATH (fat_names: NAME) */
    tsym_module *fat_mods[CLI_SYM_MAX * 2]; /* the slice last chosen, or NULL */
    int fat_warned[CLI_SYM_MAX * 2];
    size_t n_fats;
    tt_stats *stats;
};

/* A symbol store that does not exist is an error: a typo would otherwise resolve nothing
 * without a word (issue 12). */
static int check_dir(const char *dir, int from_option)
{
    struct stat st;
    const char *src = from_option ? "--symbols" : "TRACETOOL_SYMBOL_PATH";
    if (stat(dir, &st)) {
        if (errno == ENOENT)
            cli_errorf("%s %s: no such directory", src, dir);
        else
            cli_errorf("%s %s: cannot access: %s", src, dir, strerror(errno));
        return -1;
    }
    if (!S_ISDIR(st.st_mode)) {
        cli_errorf("%s %s: not a directory", src, dir);
        return -1;
    }
    return 0;
}

int cli_sym_opt(cli_sym_opts *o, int c, const char *arg)
{
    if (c == 'e') {
        if (o->n_exes == CLI_SYM_MAX) {
            cli_errorf("too many -e options (at most %d)", CLI_SYM_MAX);
            return -1;
        }
        if (!cli_is_dsym(arg) && cli_input_path(arg))
            return -1;
        o->exes[o->n_exes++] = arg;
        return 1;
    }
    if (c == CLI_SYM_O_SYMBOLS) {
        if (o->n_dirs == CLI_SYM_MAX) {
            cli_errorf("too many --symbols options (at most %d)", CLI_SYM_MAX);
            return -1;
        }
        if (check_dir(arg, 1))
            return -1;
        o->dirs[o->n_dirs++] = arg;
        return 1;
    }
    if (c == CLI_SYM_O_SWIFT) {
        if (!*arg) {
            cli_errorf("--swift-demangler: expected a command, found an empty string");
            return -1;
        }
        o->swift = arg;
        return 1;
    }
    if (c == CLI_SYM_O_DSYM) {
        if (o->n_dsyms == CLI_SYM_MAX) {
            cli_errorf("too many --dsym options (at most %d)", CLI_SYM_MAX);
            return -1;
        }
        o->dsyms[o->n_dsyms++] = arg;
        return 1;
    }
    return 0;
}

static const char *base_name(const char *p)
{
    const char *s = strrchr(p, '/');
    return s ? s + 1 : p;
}

static void module_warnings(const tsym_module *m, const char *label)
{
    const tsym_module_info *i = tsym_module_info_get(m);
    if (i->warning[0])
        cli_stderrf("tracetool: %s: warning: %s\n", label, i->warning);
    /* the rule of the sym_no_debug_info count: a split DWARF module's warning above says
     * its names come from the symbol table */
    if (tsym_module_no_debug_info(i))
        cli_stderrf(
                "tracetool: %s: warning: no usable DWARF debug information: function names from the "
                "symbol table, no inline frames%s\n",
                label, i->n_syms ? "" : " (and no symbol table either)");
    if (!i->build_id[0])
        cli_stderrf("tracetool: %s: warning: module has no build id: unverified\n", label);
}

int cli_sym_open(cli_sym **out, const cli_sym_opts *o, cli_ctx *ctx)
{
    *out = NULL;
    tsym_init();
    cli_sym *s = calloc(1, sizeof *s);
    if (!s) {
        cli_errorf("out of memory");
        return CLI_BAD;
    }
    s->flags = o->flags;
    s->dsyms = o->dsyms;
    s->n_dsyms = o->n_dsyms;
    s->stats = ctx->stats;
    if (!(s->swift = cli_swift_new(o->swift ? o->swift : getenv("TRACETOOL_SWIFT_DEMANGLE"),
                                   ctx->stats))) {
        free(s);
        cli_errorf("out of memory");
        return CLI_BAD;
    }
    const char *dirs[CLI_SYM_MAX * 2];
    size_t nd = 0;
    for (size_t i = 0; i < o->n_dirs; i++)
        dirs[nd++] = o->dirs[i];
    const char *env = getenv("TRACETOOL_SYMBOL_PATH");
    if (env && *env && (s->env_copy = strdup(env))) {
        char *save = NULL;
        for (char *d = strtok_r(s->env_copy, ":", &save); d && nd < CLI_SYM_MAX * 2;
             d = strtok_r(NULL, ":", &save))
            dirs[nd++] = d;
    }
    for (size_t i = o->n_dirs; i < nd; i++) /* --symbols were checked by cli_sym_opt */
        if (check_dir(dirs[i], 0)) {
            cli_sym_close(s);
            return CLI_BAD;
        }
    tt_error err = {0};
    if (tsym_store_new(&s->store, dirs, nd, ctx->stats, &err)) {
        cli_sym_close(s);
        return cli_err(&err);
    }
    for (size_t i = 0; i < o->n_dsyms; i++) {
        const tsym_dsym *d = NULL;
        tsym_dsym *copy = NULL;
        if (o->opened[i]) { /* opened once for the run: a copy for this store, no file read */
            if (tsym_dsym_dup(&copy, o->opened[i])) {
                cli_sym_close(s);
                cli_errorf("out of memory");
                return CLI_BAD;
            }
            if (tsym_store_add_dsym_opened(s->store, copy, &err)) {
                cli_sym_close(s);
                return cli_err(&err);
            }
            d = copy;
        } else if (tsym_store_add_dsym(&d, s->store, o->dsyms[i], &err)) {
            cli_sym_close(s);
            return cli_err(&err);
        }
        s->dsym_recs[i] = d;
        /* a universal NAME=PATH: images NAME without UUID get the slice of their
         * architecture (ios.md 4.4), as for a universal -e file */
        if (d->name && !d->arch[0] && d->n_slices > 1) {
            snprintf(s->fat_names[s->n_fats], sizeof s->fat_names[0], "%.255s", d->name);
            s->fat_dsym[s->n_fats] = 1;
            s->fats[s->n_fats++] = d;
        }
    }
    for (size_t i = 0; i < o->n_exes; i++) {
        int fresh;
        tsym_module *m;
        tsym_dsym *d = NULL;
        tt_error derr = {0}; /* not a universal file: tsym_store_get says why it fails */
        if (!tsym_dsym_open(&d, o->exes[i], &derr) && !d->name && d->n_slices > 1) {
            /* no slice named: the UUIDs of the input's images choose (ios.md 4.4), as for
             * --dsym; an input without them hears "choose an architecture" when it asks */
            if (tsym_store_add_dsym_opened(s->store, d, &err)) {
                cli_sym_close(s);
                return cli_err(&err);
            }
            /* images without UUID: the slice of their architecture */
            snprintf(s->fat_names[s->n_fats], sizeof s->fat_names[0], "%.255s",
                     base_name(d->file));
            s->fats[s->n_fats++] = d;
            continue;
        }
        tsym_dsym_free(d);
        if (tsym_store_get(&m, &fresh, s->store, o->exes[i], NULL, &err)) {
            cli_sym_close(s);
            return cli_err(&err);
        }
        if (fresh)
            module_warnings(m, o->exes[i]);
        s->exes[s->n_exes++] = m;
    }
    *out = s;
    return 0;
}

void cli_sym_close(cli_sym *s)
{
    if (!s)
        return;
    tsym_store_free(s->store);
    tt_intern_free(s->seen);
    cli_swift_free(s->swift);
    free(s->env_copy);
    free(s);
}

tsym_module *cli_sym_module(cli_sym *s, const char *path, const char *build_id, unsigned flags,
                            const char **why)
{
    int fatal = flags & CLI_SYM_FATAL;
    if (why)
        *why = NULL;
    int have_bid = build_id && *build_id;
    for (size_t i = 0; i < s->n_exes; i++) {
        const tsym_module_info *mi = tsym_module_info_get(s->exes[i]);
        if (have_bid && !strcmp(mi->build_id, build_id))
            return s->exes[i];
    }
    for (size_t i = 0; i < s->n_exes && path; i++) {
        const tsym_module_info *mi = tsym_module_info_get(s->exes[i]);
        if (mi->path && !strcmp(base_name(mi->path), base_name(path))) {
            if (have_bid && mi->build_id[0])
                break; /* same name, other build: search the stores by build id */
            return s->exes[i];
        }
    }
    tsym_module *m = NULL;
    int fresh = 0;
    tt_error err = {0};
    const char *label = path ? path : build_id;
    int rc = flags & CLI_SYM_DEVICE && path
                     ? tsym_store_get_device(&m, &fresh, s->store, path,
                                             have_bid ? build_id : NULL, &err)
                     : tsym_store_get(&m, &fresh, s->store, path, have_bid ? build_id : NULL, &err);
    if (rc) {
        snprintf(s->why, sizeof s->why, "%s", err.msg);
        if (fresh)
            cli_stderrf("tracetool: %s: %s%s\n", label, fatal ? "" : "warning: ", err.msg);
        if (why)
            *why = s->why;
        return NULL;
    }
    if (fresh)
        module_warnings(m, label);
    return m;
}

/* The universal -e file for an image named like path (index), else s->n_fats. */
static size_t fat_bound(const cli_sym *s, const char *path)
{
    size_t i = 0;
    while (path && i < s->n_fats && strcmp(s->fat_names[i], base_name(path)))
        i++;
    return path ? i : s->n_fats;
}

/* A module given by the user for this name: -e FILE with that file name, --dsym NAME=PATH. */
static int bound(const cli_sym *s, const char *path)
{
    for (size_t i = 0; i < s->n_exes && path; i++) {
        const tsym_module_info *mi = tsym_module_info_get(s->exes[i]);
        if (mi->path && !strcmp(base_name(mi->path), base_name(path)))
            return 1;
    }
    if (fat_bound(s, path) < s->n_fats)
        return 1;
    return path && tsym_store_bound(s->store, path);
}

/* A universal -e file named like an image without UUID: the slice of the image's
 * architecture (spec/ios.md 4.4); without one, a warning naming the file and its slices
 * (once per file) and NULL with s->why set. */
static tsym_module *fat_module(cli_sym *s, size_t i, const tt_native_loc *loc)
{
    /* the slices read when the file was opened (tsym_dsym_open) */
    const tsym_macho_slice *sl = s->fats[i]->slices;
    size_t n = s->fats[i]->n_slices, len = 0;
    const char *fat = s->fats[i]->path;
    char list[64 * 24] = "";
    tt_error err = {0};
    int k = tsym_macho_pick(sl, n, loc->arch);
    if (k < 0) {
        for (size_t j = 0; j < n && len < sizeof list; j++)
            len += (size_t)snprintf(list + len, sizeof list - len, "%s%s", j ? ", " : "",
                                    sl[j].arch);
        char give[300];
        if (s->fat_dsym[i])
            snprintf(give, sizeof give, "--dsym %s=", s->fat_names[i]);
        else
            snprintf(give, sizeof give, "-e ");
        if (loc->arch && *loc->arch)
            snprintf(s->why, sizeof s->why,
                     "universal file without a slice for the report's architecture %s (slices: "
                     "%.300s), and image %s has no UUID to choose one by: give %s%s:ARCH",
                     loc->arch, list, base_name(loc->module), give, fat);
        else
            snprintf(s->why, sizeof s->why,
                     "universal file (slices: %.300s), and image %s has no UUID nor the report an "
                     "architecture to choose one by: give %s%s:ARCH",
                     list, base_name(loc->module), give, fat);
        if (!s->fat_warned[i]) {
            s->fat_warned[i] = 1;
            /* printed once, by the run's warning summary (its first example is this
             * message); directly only without a stats sink */
            if (s->stats)
                tt_stats_add(s->stats, "macho_no_slice", fat, TT_SEV_WARN, 1, s->why);
            else
                cli_stderrf("tracetool: %s: warning: %s\n", fat, s->why);
        }
        return NULL;
    }
    char spec[4200];
    snprintf(spec, sizeof spec, "%s:%s", fat, sl[k].arch);
    tsym_module *m = NULL;
    int fresh = 0;
    if (tsym_store_get(&m, &fresh, s->store, spec, NULL, &err)) {
        snprintf(s->why, sizeof s->why, "%s", err.msg);
        if (fresh)
            cli_stderrf("tracetool: %s: warning: %s\n", spec, err.msg);
        return NULL;
    }
    s->fat_mods[i] = m;
    if (fresh) {
        module_warnings(m, spec);
        cli_stderrf("tracetool: %s: warning: image %s has no UUID: slice %s chosen by the "
                    "report's architecture %s, unverified\n",
                    fat, base_name(loc->module), sl[k].arch, loc->arch);
    }
    return m;
}

void cli_sym_saw_uuid(cli_sym *s, const char *uuid)
{
    uint32_t id;
    if (!s || !uuid || !*uuid || (!s->seen && !(s->seen = tt_intern_new())))
        return;
    tt_intern_get(s->seen, uuid, strlen(uuid), &id); /* out of memory: a spurious warning */
}

/* One plain --dsym file or bundle (d, opened from arg): a warning when none of its slices'
 * UUIDs is in seen. */
static void dsym_unmatched(tt_intern *seen, tt_stats *stats, const char *arg, const tsym_dsym *d)
{
    if (d->name || !d->file)
        return; /* NAME=PATH (bound by name), a directory of many (a store), not Mach-O */
    size_t n = d->n_slices < 16 ? d->n_slices : 16;
    const tsym_macho_slice *sl = d->slices;
    char list[16 * 56] = "";
    size_t len = 0;
    for (size_t i = 0; i < n; i++) {
        uint32_t id;
        if (seen && sl[i].uuid[0] && !tt_intern_find(seen, sl[i].uuid, 32, &id))
            return;
        len += (size_t)snprintf(list + len, sizeof list - len, "%s%s (%s)", i ? ", " : "",
                                sl[i].uuid[0] ? sl[i].uuid : "no UUID", sl[i].arch);
    }
    char msg[sizeof list + 4200];
    snprintf(msg, sizeof msg, "dSYM %s has UUID%s %s; no image of the reports has %s: not used",
             d->file, n > 1 ? "s" : "", list, n > 1 ? "any of them" : "that UUID");
    /* printed once, by the run's warning summary (its first example is this message) */
    if (stats)
        tt_stats_add(stats, "macho_dsym_unmatched", arg, TT_SEV_WARN, 1, msg);
    else
        cli_stderrf("tracetool: --dsym %s: warning: %s\n", arg, msg);
}

void cli_sym_dsym_unmatched(cli_sym *s)
{
    for (size_t i = 0; s && i < s->n_dsyms; i++)
        dsym_unmatched(s->seen, s->stats, s->dsyms[i], s->dsym_recs[i]);
}

void cli_sym_dsyms_unmatched(const cli_sym_opts *o, tt_intern *seen, tt_stats *stats)
{
    for (size_t i = 0; i < o->n_dsyms; i++) {
        tsym_dsym *d = NULL;
        tt_error err = {0}; /* an argument that does not open was refused by cli_sym_open */
        if (o->opened[i])
            dsym_unmatched(seen, stats, o->dsyms[i], o->opened[i]);
        else if (!tsym_dsym_open(&d, o->dsyms[i], &err))
            dsym_unmatched(seen, stats, o->dsyms[i], d);
        tsym_dsym_free(d);
    }
}

void cli_sym_dsyms_open(cli_sym_opts *o)
{
    for (size_t i = 0; i < o->n_dsyms; i++) {
        tt_error err = {0}; /* said by each cli_sym_open, which opens it again */
        if (!o->opened[i] && tsym_dsym_open(&o->opened[i], o->dsyms[i], &err))
            o->opened[i] = NULL;
    }
}

void cli_sym_dsyms_close(cli_sym_opts *o)
{
    for (size_t i = 0; i < o->n_dsyms; i++) {
        tsym_dsym_free(o->opened[i]);
        o->opened[i] = NULL;
    }
}

static int resolve(void *ctx, tt_native_frame *frames, size_t cap, const tt_native_loc *loc,
                   tt_error *err)
{
    cli_sym *s = ctx;
    const char *why;
    cli_sym_saw_uuid(s, loc->build_id);
    if (loc->bound_only && !bound(s, loc->module))
        return tt_error_set(err, TT_ENOTFOUND, loc->module, TT_LOC_NONE, 0,
                            "no UUID to find its debug information by: bind a dSYM with "
                            "--dsym NAME=PATH");
    tsym_module *m = NULL;
    size_t fat = !loc->build_id || !*loc->build_id ? fat_bound(s, loc->module) : s->n_fats;
    if (fat < s->n_fats) {
        if (!(m = fat_module(s, fat, loc)))
            return tt_error_set(err, TT_ENOTFOUND, loc->module, TT_LOC_NONE, 0, "%s", s->why);
    } else {
        m = cli_sym_module(s, loc->module, loc->build_id, 0, &why);
    }
    if (!m)
        return tt_error_set(err, TT_ENOTFOUND, loc->module, TT_LOC_NONE, 0, "%s",
                            why ? why : "module not found");
    uint64_t a = loc->addr_kind == TT_NADDR_OFFSET ? tsym_module_offset_to_vaddr(m, loc->addr)
                                                   : loc->addr;
    uint64_t delta = a - loc->addr; /* vaddr - loc's address space */
    if (loc->return_address && a > 0)
        a--;
    tsym_result r;
    tsym_module_lookup(&r, m, a, s->flags | TSYM_F_DEMANGLE);
    if (!r.found && !r.frames[0].file) {
        if (!loc->want_start || !r.has_start || !cap)
            return 0;
        /* no name, a function start (LC_FUNCTION_STARTS, spec/ios.md 6.5) */
        frames[0] = (tt_native_frame){.has_start = 1, .start = r.start_addr - delta};
        return 1;
    }
    size_t n = r.n_frames < cap ? r.n_frames : cap;
    for (size_t i = 0; i < n; i++) {
        /* keep the outermost frames when cap is smaller than the chain */
        const tsym_frame *f = &r.frames[r.n_frames - n + i];
        int inlined = r.n_frames - n + i + 1 < r.n_frames;
        frames[i] = (tt_native_frame){f->function, f->file, f->line, f->column, inlined,
                                      r.has_start, r.has_start ? r.start_addr - delta : 0,
                                      r.approximate, f->start_file, f->start_line,
                                      f->discriminator, inlined ? NULL : r.symbol};
        cli_swift_hint(s->swift, f->function, f->qualified);
        if (!s->swift_keys)
            frames[i].function = cli_swift_name(s->swift, f->function);
    }
    return (int)n;
}

const char *cli_sym_debug_file(cli_sym *s, const char *path, const char *build_id)
{
    if (!s || ((!build_id || !*build_id) && !bound(s, path)))
        return NULL;
    size_t fat = !build_id || !*build_id ? fat_bound(s, path) : s->n_fats;
    tsym_module *m = fat < s->n_fats ? s->fat_mods[fat] : cli_sym_module(s, path, build_id && *build_id ? build_id : NULL, 0, NULL);
    const tsym_module_info *mi = m ? tsym_module_info_get(m) : NULL;
    return mi ? (mi->debug_path ? mi->debug_path : mi->path) : NULL;
}

struct cli_swift *cli_sym_swift(cli_sym *s)
{
    return s ? s->swift : NULL;
}

void cli_sym_swift_keys(cli_sym *s, int keys)
{
    if (s)
        s->swift_keys = keys;
}

void cli_sym_swift_result(cli_sym *s, tsym_result *r)
{
    size_t k = 0; /* the first Swift name: mostly none */
    while (s && k < r->n_frames && !tsym_swift_mangled(r->frames[k].function))
        k++;
    if (!s || k == r->n_frames)
        return;
    const char *names[TSYM_MAX_FRAMES];
    for (size_t i = 0; i < r->n_frames; i++) {
        names[i] = r->frames[i].function;
        cli_swift_hint(s->swift, names[i], r->frames[i].qualified);
    }
    cli_swift_batch(s->swift, names, r->n_frames);
    for (size_t i = 0; i < r->n_frames; i++)
        r->frames[i].function = cli_swift_name(s->swift, r->frames[i].function);
}

void cli_sym_resolver(tt_resolver *r, cli_sym *s)
{
    r->fn = resolve;
    r->ctx = s;
}
