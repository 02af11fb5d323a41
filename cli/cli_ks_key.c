/* iOS frame names, app images and the top-app-frame group key (spec/ios.md 9.4). */
#include "cli_kscrash.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* --dsym [NAME=]PATH: a dSYM bundle or Mach-O file goes to libsym's UUID lookup (searched
 * first, NAME= binds it to images without UUID); another file (an ELF with debug information)
 * is a module given directly; a directory is a symbol store searched before --symbols. */
static int dsym_opt(cli_ks_opts *o, const char *arg)
{
    const char *path = arg, *eq = strchr(arg, '='), *slash = strchr(arg, '/');
    if (eq && (!slash || eq < slash))
        path = eq + 1;
    struct stat st;
    if (stat(path, &st))
        return cli_sym_opt(&o->sym, CLI_SYM_O_DSYM, arg); /* reported where it is used */
    if (S_ISREG(st.st_mode)) {
        unsigned char m[4] = {0};
        FILE *f = fopen(path, "rb");
        size_t n = f ? fread(m, 1, 4, f) : 0;
        if (f)
            fclose(f);
        int macho = n == 4 && ((m[0] == 0xcf || m[0] == 0xce) && m[1] == 0xfa && m[2] == 0xed &&
                               m[3] == 0xfe);
        int fat = n == 4 && m[0] == 0xca && m[1] == 0xfe && m[2] == 0xba &&
                  (m[3] == 0xbe || m[3] == 0xbf);
        if (macho || fat)
            return cli_sym_opt(&o->sym, CLI_SYM_O_DSYM, arg);
        return cli_sym_opt(&o->sym, 'e', path);
    }
    if (cli_is_dsym(path))
        return cli_sym_opt(&o->sym, CLI_SYM_O_DSYM, arg);
    /* a directory (of dSYM bundles, Mach-O or ELF files): a store searched first; its Mach-O
     * files are found by UUID like a --dsym directory's */
    if (o->sym.n_dirs == CLI_SYM_MAX) {
        cli_errorf("too many --dsym/--symbols options (at most %d)", CLI_SYM_MAX);
        return -1;
    }
    memmove(o->sym.dirs + 1, o->sym.dirs, o->sym.n_dirs * sizeof o->sym.dirs[0]);
    o->sym.dirs[0] = path;
    o->sym.n_dirs++;
    return 1;
}

int cli_ks_opt(cli_ks_opts *o, int c, const char *arg)
{
    switch (c) {
    case CLI_KS_O_DSYM: return dsym_opt(o, arg);
    case CLI_KS_O_THREADS: {
        static const char *const t[] = {"point", "main", "all", NULL};
        int v = cli_opt_enum("--threads", arg, t);
        if (v < 0)
            return -1;
        o->threads = v + 1;
        return 1;
    }
    case CLI_KS_O_SKIP:
        if (o->n_skip == CLI_KS_MAX_RE) {
            cli_errorf("too many --skip-frame options (at most %d)", CLI_KS_MAX_RE);
            return -1;
        }
        o->skip[o->n_skip++] = arg;
        return 1;
    case CLI_KS_O_APP: o->app_image = arg; return 1;
    case CLI_KS_O_INTERVAL: {
        int v;
        if (cli_opt_int("--interval-ms", arg, 1, 1000000, &v))
            return -1;
        o->interval_ms = v;
        return 1;
    }
    case CLI_KS_O_NOADJ: o->no_adjust = 1; return 1;
    case CLI_KS_O_DEVNAMES: o->show_device_names = 1; return 1;
    case CLI_KS_O_FULLPATH: o->full_path = 1; return 1;
    default: return cli_sym_opt(&o->sym, c, arg);
    }
}

static int compile(regex_t *re, const char *opt, const char *s)
{
    int rc = regcomp(re, s, REG_EXTENDED | REG_NOSUB);
    if (rc) {
        char msg[256];
        regerror(rc, re, msg, sizeof msg);
        cli_errorf("option %s: bad regular expression \"%s\": %s", opt, s, msg);
        return -1;
    }
    return 0;
}

int cli_ks_names_init(cli_ks_names *n, const cli_ks_opts *o)
{
    memset(n, 0, sizeof *n);
    n->show_device_names = o->show_device_names;
    n->full_path = o->full_path;
    if (o->app_image) {
        if (compile(&n->app, "--app-image", o->app_image))
            return CLI_BAD;
        n->have_app = 1;
    }
    for (size_t i = 0; i < o->n_skip; i++) {
        if (compile(&n->skip[i], "--skip-frame", o->skip[i])) {
            cli_ks_names_free(n);
            return CLI_BAD;
        }
        n->n_skip++;
    }
    return 0;
}

void cli_ks_names_free(cli_ks_names *n)
{
    if (n->have_app)
        regfree(&n->app);
    for (size_t i = 0; i < n->n_skip; i++)
        regfree(&n->skip[i]);
    n->have_app = 0;
    n->n_skip = 0;
    tt_buf_free(&n->tmp);
}

void cli_ks_mark_app(cli_ks_names *n, tt_ks_report *rep)
{
    if (!n->have_app)
        return;
    for (size_t i = 0; i < rep->n_images; i++) {
        tt_ks_image *g = &rep->images[i];
        g->is_app = !regexec(&n->app, g->path, 0, NULL, 0) ||
                    !regexec(&n->app, g->name, 0, NULL, 0);
    }
}

const char *cli_ks_function(const tt_ks_report *rep, const tt_ks_frame *f)
{
    if (!f->n_sym)
        return NULL;
    const char *fn = rep->syms[f->sym + f->n_sym - 1].function;
    return fn && *fn ? fn : NULL;
}

/* An on-device name usable for a system image: present and not "<redacted>". */
const char *cli_ks_device_name(const tt_ks_report *rep, const tt_ks_frame *f)
{
    if (!f->device_name || !*f->device_name || !strcmp(f->device_name, "<redacted>"))
        return NULL;
    if (f->image >= 0 && rep->images[f->image].is_app)
        return NULL; /* never trusted for app images (I2, Matrix #423) */
    return f->device_name;
}

int cli_ks_fstart(const tt_ks_report *rep, const tt_ks_frame *f, uint64_t *vmaddr)
{
    if (f->image < 0 || f->n_sym || !f->has_fstart || f->offset < f->fstart)
        return 0;
    *vmaddr = f->fstart + rep->images[f->image].vmaddr;
    return 1;
}

/* A frame without a name: "image!+0x<function start>", "image+0x<offset>" or "0x<pc>". */
static void addr_name(tt_buf *out, const tt_ks_report *rep, const tt_ks_frame *f)
{
    uint64_t start;
    if (cli_ks_fstart(rep, f, &start))
        tt_buf_printf(out, "%s!+0x%llx", rep->images[f->image].name, (unsigned long long)start);
    else if (f->image >= 0)
        tt_buf_printf(out, "%s+0x%llx", rep->images[f->image].name,
                      (unsigned long long)f->offset);
    else
        tt_buf_printf(out, "0x%llx", (unsigned long long)f->pc);
}

void cli_ks_short_name(tt_buf *out, const tt_ks_report *rep, const tt_ks_frame *f)
{
    const char *fn = cli_ks_function(rep, f);
    if (!fn)
        fn = cli_ks_device_name(rep, f);
    if (fn)
        tt_buf_puts(out, fn);
    else
        addr_name(out, rep, f);
}

const char *cli_ks_class(const tt_ks_report *rep)
{
    if (rep->has_dump_type)
        return rep->is_lag ? "lag" : rep->dump_name;
    return rep->error_type ? rep->error_type : "crash";
}

static int key_thread(const tt_ks_report *rep)
{
    if (rep->point_thread >= 0 && rep->threads[rep->point_thread].n_frames)
        return rep->point_thread;
    if (rep->main_thread >= 0 && rep->threads[rep->main_thread].n_frames)
        return rep->main_thread;
    int best = -1;
    for (size_t i = 0; i < rep->n_threads; i++)
        if (rep->threads[i].has_cpu && rep->threads[i].n_frames &&
            (best < 0 || rep->threads[i].cpu > rep->threads[best].cpu))
            best = (int)i;
    if (best >= 0)
        return best;
    if (rep->crashed_thread >= 0 && rep->threads[rep->crashed_thread].n_frames)
        return rep->crashed_thread;
    return -1;
}

static int skipped(cli_ks_names *n, const char *name)
{
    for (size_t i = 0; i < n->n_skip; i++)
        if (!regexec(&n->skip[i], name, 0, NULL, 0))
            return 1;
    return 0;
}

void cli_ks_key_compute(cli_ks_key *k, cli_ks_names *n, const tt_ks_report *rep)
{
    k->thread = key_thread(rep);
    k->frame = -1;
    k->key[0] = k->raw[0] = k->top[0] = 0;
    k->path.len = 0;
    if (k->thread < 0 && !rep->n_nodes)
        return;
    /* the key stack, innermost first: a thread, or the heaviest chain of the profile */
    uint32_t *idx = malloc((rep->n_frames + 1) * sizeof *idx);
    uint32_t count = 0;
    if (!idx)
        return;
    if (k->thread >= 0) {
        for (uint32_t i = 0; i < rep->threads[k->thread].n_frames; i++)
            idx[count++] = rep->threads[k->thread].frame + i;
    } else {
        size_t nd = 0; /* pre-order: the first child follows its parent */
        for (;;) {
            idx[count++] = rep->nodes[nd].frame;
            if (!rep->nodes[nd].n_children || nd + 1 >= rep->n_nodes)
                break;
            nd++;
        }
        for (uint32_t i = 0; i < count / 2; i++) {
            uint32_t t = idx[i];
            idx[i] = idx[count - 1 - i];
            idx[count - 1 - i] = t;
        }
    }
    for (uint32_t i = 0; i < count; i++) {
        const tt_ks_frame *f = &rep->frames[idx[i]];
        if (f->image < 0 || !rep->images[f->image].is_app)
            continue;
        n->tmp.len = 0;
        cli_ks_short_name(&n->tmp, rep, f);
        tt_buf_put(&n->tmp, "", 1);
        if (skipped(n, n->tmp.data))
            continue;
        k->frame = (int)idx[i];
        const tt_ks_image *g = &rep->images[f->image];
        const char *fn = cli_ks_function(rep, f);
        /* without a name the short name is the address's (app images have no trusted
         * device names): image!+0x<function start> (6.5) or image+0x<offset> */
        if (fn)
            snprintf(k->key, sizeof k->key, "%s!%s", g->name, fn);
        else
            snprintf(k->key, sizeof k->key, "%s", n->tmp.data);
        snprintf(k->raw, sizeof k->raw, "%s+0x%llx", g->name, (unsigned long long)f->offset);
        snprintf(k->top, sizeof k->top, "%s", k->key);
        for (uint32_t j = count; j-- > i;) {
            cli_ks_short_name(&k->path, rep, &rep->frames[idx[j]]);
            if (j > i)
                tt_buf_puts(&k->path, ";");
        }
        free(idx);
        return;
    }
    if (count) { /* no app frame: the innermost frame */
        const tt_ks_frame *f = &rep->frames[idx[0]];
        n->tmp.len = 0;
        cli_ks_short_name(&n->tmp, rep, f);
        tt_buf_put(&n->tmp, "", 1);
        if (cli_ks_function(rep, f) || cli_ks_device_name(rep, f))
            snprintf(k->key, sizeof k->key, "system:%s!%s",
                     f->image >= 0 ? rep->images[f->image].name : "?", n->tmp.data);
        else /* the short name already says image!+0x<start>, image+0x<offset> or 0x<pc> */
            snprintf(k->key, sizeof k->key, "system:%s", n->tmp.data);
        for (uint32_t j = count; j-- > 0;) {
            cli_ks_short_name(&k->path, rep, &rep->frames[idx[j]]);
            if (j)
                tt_buf_puts(&k->path, ";");
        }
    }
    free(idx);
}

void cli_ks_key_free(cli_ks_key *k) { tt_buf_free(&k->path); }
