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
    if (i->symtab_only)
        cli_stderrf(
                "tracetool: %s: warning: no usable DWARF debug information: function names from the "
                "symbol table, no inline frames%s\n",
                label, i->n_syms ? "" : " (and no symbol table either)");
    if (!i->build_id[0])
        cli_stderrf("tracetool: %s: warning: module has no build id: unverified\n", label);
}

/* 1 for a universal (fat) Mach-O file or .dSYM bundle given without :ARCH. */
static int universal(const char *path)
{
    char file[4096];
    tsym_macho_slice sl[2];
    size_t n = 0;
    tt_error err = {0};
    return !tsym_dsym_file(file, sizeof file, path) &&
           !tsym_macho_slices(sl, 2, &n, file, &err) && n > 1;
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
    for (size_t i = 0; i < o->n_dsyms; i++)
        if (tsym_store_add_dsym(s->store, o->dsyms[i], &err)) {
            cli_sym_close(s);
            return cli_err(&err);
        }
    for (size_t i = 0; i < o->n_exes; i++) {
        int fresh;
        tsym_module *m;
        if (universal(o->exes[i])) {
            /* no slice named: the UUIDs of the input's images choose (ios.md 4.4), as for
             * --dsym; an input without them hears "choose an architecture" when it asks */
            if (tsym_store_add_dsym(s->store, o->exes[i], &err)) {
                cli_sym_close(s);
                return cli_err(&err);
            }
            continue;
        }
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
    cli_swift_free(s->swift);
    free(s->env_copy);
    free(s);
}

tsym_module *cli_sym_module(cli_sym *s, const char *path, const char *build_id, int fatal,
                            const char **why)
{
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
    if (tsym_store_get(&m, &fresh, s->store, path, have_bid ? build_id : NULL, &err)) {
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

/* A module given by the user for this name: -e FILE with that file name, --dsym NAME=PATH. */
static int bound(const cli_sym *s, const char *path)
{
    for (size_t i = 0; i < s->n_exes && path; i++) {
        const tsym_module_info *mi = tsym_module_info_get(s->exes[i]);
        if (mi->path && !strcmp(base_name(mi->path), base_name(path)))
            return 1;
    }
    return path && tsym_store_bound(s->store, path);
}

static int resolve(void *ctx, tt_native_frame *frames, size_t cap, const tt_native_loc *loc,
                   tt_error *err)
{
    cli_sym *s = ctx;
    const char *why;
    if (loc->bound_only && !bound(s, loc->module))
        return tt_error_set(err, TT_ENOTFOUND, loc->module, TT_LOC_NONE, 0,
                            "no UUID to find its debug information by: bind a dSYM with "
                            "--dsym NAME=PATH");
    tsym_module *m = cli_sym_module(s, loc->module, loc->build_id, 0, &why);
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
        frames[i] = (tt_native_frame){f->function, f->file, f->line, f->column,
                                      r.n_frames - n + i + 1 < r.n_frames, r.has_start,
                                      r.has_start ? r.start_addr - delta : 0, r.approximate};
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
    tsym_module *m = cli_sym_module(s, path, build_id && *build_id ? build_id : NULL, 0, NULL);
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
