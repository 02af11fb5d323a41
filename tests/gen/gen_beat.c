/* gen_beat: deterministic generator of method-beat buffers and mapping files
 * (spec/method-beat.md sections 1-4), for samples/, golden tests and bench.
 *
 * usage:
 *   gen_beat encode [OUTOPTS] WORD...        records given on the command line; WORD is
 *                                            I:ID:T (entry), O:ID:T (exit) or 0 (zero slot),
 *                                            ID may be D for the dispatch id 1048574
 *   gen_beat buffer --records N [--ids K] [--seed S] [OUTOPTS]
 *                                            N records of random main-thread dispatches over
 *                                            method ids 1..K-1 (default K 60000): nested
 *                                            calls, merging leaf loops, exceptions that skip
 *                                            exits, 5 ms clock quantisation
 *   gen_beat mapping -n N [--seed S] [-o FILE]
 *                                            a synthetic methodMapping.txt of N lines: ids
 *                                            1..N-1, then the 1048574 dispatch line
 *   gen_beat sample [OUTOPTS]                the sample slice of samples/ (see below)
 *   gen_beat samples DIR                     writes every sample file into DIR:
 *                                            methodMapping.txt, ignoreMethodMapping.txt,
 *                                            mapping.txt, methodMapping-obfuscated.txt,
 *                                            beat.bin, beat.txt
 * OUTOPTS: --format bin|text (default bin: little-endian int64), --text-form
 *   signed|unsigned|hex|mixed (default signed, as Java's Long.toString prints), --ring-next K
 *   (write the records as a raw ring dump whose next write slot is K, i.e. rotated so that
 *   `tracetool beat --ring-next K` restores the order), -o FILE (default standard output).
 *
 * The sample app is tests/gen/beat_app.h. The sample slice: three stray exits of the
 * previous message, a 1200 ms main-thread dispatch launching MainActivity (inflation,
 * custom views, a config load whose DiskCache.readEntry throws so its exit is missing, a
 * loop of FeatureFlags.parseFlag leaf calls that merge, a synchronous catalog load with a
 * main-thread network request), a short LiveData dispatch, and a RecyclerView layout
 * dispatch whose frames are still open at the end of the slice. Times follow Matrix's
 * cached clock: exact at dispatch begin/end, otherwise refreshed every 5 ms.
 * Everything is a pure function of the arguments (splitmix64 PRNG), so outputs are
 * byte-for-byte reproducible. */
#include <errno.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../libtrace/tt.h"
#include "beat_app.h"

#define D TT_BEAT_DISPATCH

static void die(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("gen_beat: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    exit(2);
}

static void *xrealloc(void *p, size_t n)
{
    p = realloc(p, n ? n : 1);
    if (!p)
        die("out of memory");
    return p;
}

/* ---- PRNG (splitmix64) ---- */
static uint64_t rng_state;
static uint64_t rnd(void)
{
    uint64_t z = (rng_state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}
static uint32_t rndn(uint32_t n) { return n ? (uint32_t)(rnd() % n) : 0; }

/* ---- record list and writers ---- */
typedef struct recs {
    uint64_t *w;
    size_t n, cap;
} recs;

static void rec_put(recs *r, uint64_t w)
{
    if (r->n == r->cap) {
        r->cap = r->cap ? r->cap * 2 : 1024;
        r->w = xrealloc(r->w, r->cap * sizeof *r->w);
    }
    r->w[r->n++] = w;
}

enum { FORM_SIGNED, FORM_UNSIGNED, FORM_HEX, FORM_MIXED };

typedef struct outopts {
    int text;
    int form;
    int64_t ring_next; /* -1: plain order */
    const char *path;
    const char *comment; /* text only: first line, after "# " */
} outopts;

static FILE *open_out(const char *path)
{
    if (!path || !strcmp(path, "-"))
        return stdout;
    FILE *f = fopen(path, "wb");
    if (!f)
        die("%s: %s", path, strerror(errno));
    return f;
}

static void close_out(FILE *f, const char *path)
{
    if (ferror(f) || (f != stdout ? fclose(f) : fflush(f)))
        die("%s: write error", path ? path : "stdout");
}

static void write_word(FILE *f, const outopts *o, uint64_t w, size_t i)
{
    int form = o->form == FORM_MIXED ? (int)(i % 3) : o->form;
    if (!o->text) {
        unsigned char b[8];
        for (int k = 0; k < 8; k++)
            b[k] = (unsigned char)(w >> (8 * k));
        fwrite(b, 1, 8, f);
    } else if (form == FORM_SIGNED) {
        /* two's complement reinterpretation without implementation-defined casts */
        if (w >> 63)
            fprintf(f, "-%llu\n", (unsigned long long)(~w + 1));
        else
            fprintf(f, "%llu\n", (unsigned long long)w);
    } else if (form == FORM_UNSIGNED) {
        fprintf(f, "%llu\n", (unsigned long long)w);
    } else {
        fprintf(f, "0x%016llx\n", (unsigned long long)w);
    }
}

static void write_recs(const recs *r, const outopts *o)
{
    FILE *f = open_out(o->path);
    if (o->text && o->comment)
        fprintf(f, "# %s\n", o->comment);
    size_t n = r->n;
    size_t k = o->ring_next >= 0 ? (size_t)o->ring_next : 0;
    if (k > n)
        die("--ring-next %zu is beyond the %zu records", k, n);
    /* ring with next slot k: slots k..n-1 hold the oldest records, 0..k-1 the newest */
    for (size_t slot = 0; slot < n; slot++) {
        size_t c = slot >= k ? slot - k : n - k + slot;
        write_word(f, o, r->w[c], slot);
    }
    close_out(f, o->path);
}

/* ---- the sample app model ---- */
typedef struct amethod {
    int cls;
    char kind; /* m k i n */
    uint32_t flags, id;
    const char *name, *desc; /* desc NULL for natives */
    const char *obf;         /* obfuscated name */
    int line_c, line_d;      /* original source lines */
} amethod;

typedef struct aclass {
    const char *name, *obf; /* obf == name when kept */
    int kept;
    int first, n;           /* methods */
} aclass;

static aclass *classes;
static int nclasses;
static amethod *methods;
static int nmethods;
static uint32_t napp_ids; /* largest id */

static char *xstrndup(const char *s, size_t n)
{
    char *p = xrealloc(NULL, n + 1);
    memcpy(p, s, n);
    p[n] = 0;
    return p;
}

static char *xasprintf(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    char *p = xrealloc(NULL, (size_t)n + 1);
    va_start(ap, fmt);
    vsnprintf(p, (size_t)n + 1, fmt, ap);
    va_end(ap);
    return p;
}

/* a, b, ..., z, aa, ab, ... */
static char *letters(int i)
{
    char tmp[8];
    int n = 0;
    do {
        tmp[n++] = (char)('a' + i % 26);
        i = i / 26 - 1;
    } while (i >= 0 && n < 7);
    char *s = xrealloc(NULL, (size_t)n + 1);
    for (int k = 0; k < n; k++)
        s[k] = tmp[n - 1 - k];
    s[n] = 0;
    return s;
}

static const char *params_of(const char *desc, size_t *n)
{
    const char *e = strchr(desc, ')');
    *n = (size_t)(e - desc);
    return desc;
}

static void app_load(void)
{
    if (classes)
        return;
    int cap = 0;
    for (int i = 0; beat_app[i]; i++)
        cap++;
    classes = xrealloc(NULL, (size_t)cap * sizeof *classes);
    methods = xrealloc(NULL, (size_t)cap * sizeof *methods);
    char **pkgs = xrealloc(NULL, (size_t)cap * sizeof *pkgs);
    int *pkgn = xrealloc(NULL, (size_t)cap * sizeof *pkgn);
    int npkgs = 0;
    uint32_t id = 0;
    for (int i = 0; beat_app[i]; i++) {
        const char *l = beat_app[i];
        if (l[0] == 'C' || l[0] == 'K') {
            aclass *c = &classes[nclasses++];
            c->name = l + 2;
            c->kept = l[0] == 'K';
            c->first = nmethods;
            c->n = 0;
            c->obf = c->name;
            if (!c->kept) {
                /* R8-style: each package becomes one letter, classes a, b, ... in it */
                const char *dot = strrchr(c->name, '.');
                char *pkg = xstrndup(c->name, (size_t)(dot - c->name));
                int p = 0;
                while (p < npkgs && strcmp(pkgs[p], pkg))
                    p++;
                if (p == npkgs) {
                    pkgs[npkgs] = pkg;
                    pkgn[npkgs++] = 0;
                } else {
                    free(pkg);
                }
                char *pl = letters(p), *cl = letters(pkgn[p]++);
                c->obf = xasprintf("%s.%s", pl, cl);
                free(pl);
                free(cl);
            }
            continue;
        }
        aclass *c = &classes[nclasses - 1];
        amethod *m = &methods[nmethods++];
        memset(m, 0, sizeof *m);
        m->cls = nclasses - 1;
        m->kind = l[0];
        char *end;
        m->flags = (uint32_t)strtoul(l + 2, &end, 10);
        const char *nm = end + 1;
        const char *sp = strchr(nm, ' ');
        m->name = sp ? xstrndup(nm, (size_t)(sp - nm)) : nm;
        m->desc = sp ? sp + 1 : NULL;
        if (m->kind != 'i')
            m->id = ++id;
        c->n++;
        /* original source lines: methods follow each other in the file */
        int start = c->n == 1 ? 18 : methods[nmethods - 2].line_d + 3;
        m->line_c = start;
        m->line_d = start + 1 + (int)(strlen(m->name) % 7);
        m->obf = m->name;
        if (m->kind == 'm') {
            /* R8 reuses a name for methods whose parameter lists differ */
            size_t pn;
            const char *pp = params_of(m->desc, &pn);
            for (int k = 0;; k++) {
                char *cand = letters(k);
                int clash = 0;
                for (int j = c->first; j < nmethods - 1 && !clash; j++) {
                    size_t qn;
                    const char *qp = methods[j].desc ? params_of(methods[j].desc, &qn) : "";
                    if (!methods[j].desc)
                        qn = 0;
                    if (!strcmp(methods[j].obf, cand) && qn == pn && !memcmp(qp, pp, pn))
                        clash = 1;
                    if (methods[j].kind != 'm' && !strcmp(methods[j].name, cand))
                        clash = 1;
                }
                if (!clash) {
                    m->obf = cand;
                    break;
                }
                free(cand);
            }
        }
    }
    napp_ids = id;
    for (int p = 0; p < npkgs; p++)
        free(pkgs[p]);
    free(pkgs);
    free(pkgn);
}

/* "Simple.method" or "Simple.method/N" (N-th overload, 1-based) -> method */
static const amethod *app_find(const char *spec)
{
    const char *dot = strrchr(spec, '.');
    const char *slash = strchr(spec, '/');
    if (!dot)
        die("bad method reference %s", spec);
    size_t cl = (size_t)(dot - spec);
    size_t ml = slash ? (size_t)(slash - dot - 1) : strlen(dot + 1);
    int want = slash ? atoi(slash + 1) : 1;
    for (int c = 0; c < nclasses; c++) {
        const char *cn = classes[c].name;
        size_t n = strlen(cn);
        if (n < cl || memcmp(cn + n - cl, spec, cl) || (n > cl && cn[n - cl - 1] != '.'))
            continue;
        int seen = 0;
        for (int i = classes[c].first; i < classes[c].first + classes[c].n; i++)
            if (strlen(methods[i].name) == ml && !memcmp(methods[i].name, dot + 1, ml) &&
                ++seen == want) {
                if (!methods[i].id)
                    die("%s is not instrumented", spec);
                return &methods[i];
            }
    }
    die("no method %s in the sample app", spec);
    return NULL;
}

/* ---- mapping writers ---- */
static void put_desc(FILE *f, const char *desc, int obf)
{
    for (const char *q = desc; *q;) {
        if (*q != 'L') {
            fputc(*q++, f);
            continue;
        }
        const char *e = strchr(q, ';');
        const char *name = q + 1;
        size_t n = (size_t)(e - name);
        const char *out = NULL;
        for (int c = 0; obf && c < nclasses && !out; c++)
            if (strlen(classes[c].name) == n && !memcmp(classes[c].name, name, n))
                out = classes[c].obf;
        if (out)
            fprintf(f, "L%s;", out);
        else
            fprintf(f, "L%.*s;", (int)n, name);
        q = e + 1;
    }
}

static void write_method_mapping(const char *path, int obf)
{
    app_load();
    FILE *f = open_out(path);
    for (int i = 0; i < nmethods; i++) {
        const amethod *m = &methods[i];
        if (!m->id)
            continue;
        const aclass *c = &classes[m->cls];
        fprintf(f, "%u,%u,%s %s", m->id, m->flags, obf ? c->obf : c->name,
                obf ? m->obf : m->name);
        if (m->desc) {
            fputc(' ', f);
            put_desc(f, m->desc, obf);
        }
        fputc('\n', f);
    }
    fprintf(f, "%u,1,android.os.Handler dispatchMessage (Landroid.os.Message;)V\n", D);
    close_out(f, path);
}

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

static void write_ignore(const char *path)
{
    app_load();
    char **lines = xrealloc(NULL, (size_t)nmethods * sizeof *lines);
    int n = 0;
    for (int i = 0; i < nmethods; i++)
        if (methods[i].kind == 'i')
            lines[n++] = xasprintf("%s %s %s", classes[methods[i].cls].name, methods[i].name,
                                   methods[i].desc);
    qsort(lines, (size_t)n, sizeof *lines, cmp_str);
    FILE *f = open_out(path);
    fputs("ignore methods:\n", f);
    for (int i = 0; i < n; i++) {
        fprintf(f, "%s\n", lines[i]);
        free(lines[i]);
    }
    free(lines);
    close_out(f, path);
}

/* One descriptor type in Java source form; advances *pp. */
static void put_java_type(FILE *f, const char **pp)
{
    const char *p = *pp;
    int dims = 0;
    while (*p == '[') {
        dims++;
        p++;
    }
    static const char *const prim = "BbyteCcharDdoubleFfloatIintJlongSshortZbooleanVvoid";
    if (*p == 'L') {
        const char *e = strchr(p, ';');
        fprintf(f, "%.*s", (int)(e - p - 1), p + 1);
        p = e + 1;
    } else {
        const char *q = strchr(prim, *p);
        const char *e = q + 1;
        while (*e >= 'a' && *e <= 'z')
            e++;
        fprintf(f, "%.*s", (int)(e - q - 1), q + 1);
        p++;
    }
    for (int i = 0; i < dims; i++)
        fputs("[]", f);
    *pp = p;
}

static void put_java_sig(FILE *f, const char *prefix, const char *name, const char *desc)
{
    const char *r = strchr(desc, ')') + 1;
    put_java_type(f, &r);
    fprintf(f, " %s%s(", prefix, name);
    const char *p = desc + 1;
    for (int first = 1; *p != ')'; first = 0) {
        if (!first)
            fputc(',', f);
        put_java_type(f, &p);
    }
    fputc(')', f);
}

static void write_proguard(const char *path)
{
    app_load();
    FILE *f = open_out(path);
    fputs("# compiler: R8\n"
          "# compiler_version: 8.1.56\n"
          "# min_api: 24\n"
          "# common_typos_disable\n"
          "# {\"id\":\"com.android.tools.r8.mapping\",\"version\":\"2.2\"}\n"
          "# pg_map_id: 7c1e0a4\n",
          f);
    for (int ci = 0; ci < nclasses; ci++) {
        const aclass *c = &classes[ci];
        if (strncmp(c->name, "com.northwind.", 14))
            continue; /* library classes keep every name; R8 lists nothing to retrace */
        fprintf(f, "%s -> %s:\n", c->name, c->obf);
        const char *simple = strrchr(c->name, '.') + 1;
        const char *dollar = strchr(simple, '$');
        fprintf(f, "# {\"id\":\"sourceFile\",\"fileName\":\"%.*s.%s\"}\n",
                (int)(dollar ? dollar - simple : (ptrdiff_t)strlen(simple)), simple,
                ci % 3 ? "java" : "kt");
        /* one field per class whose constructor takes an object */
        for (int i = c->first; i < c->first + c->n; i++) {
            const amethod *m = &methods[i];
            if (strcmp(m->name, "<init>") || strncmp(m->desc, "(L", 2))
                continue;
            const char *e = strchr(m->desc, ';');
            const char *s = m->desc + 2;
            const char *sd = s;
            for (const char *q = s; q < e; q++)
                if (*q == '.' || *q == '$')
                    sd = q + 1;
            fprintf(f, "    %.*s %c%.*s -> a\n", (int)(e - s), s,
                    sd[0] >= 'A' && sd[0] <= 'Z' ? sd[0] - 'A' + 'a' : sd[0], (int)(e - sd - 1),
                    sd + 1);
            break;
        }
        for (int i = c->first; i < c->first + c->n; i++) {
            const amethod *m = &methods[i];
            if (!m->desc)
                continue; /* natives keep their names and have no lines */
            int len = m->line_d - m->line_c + 1;
            if (!strcmp(m->name, "getString") && !strcmp(simple, "ConfigRepository")) {
                /* an inlined call from another class (4.6): innermost frame first */
                fputs("    1:1:boolean com.northwind.market.util.Strings.isBlank("
                      "java.lang.CharSequence):31:31 -> ",
                      f);
                fprintf(f, "%s\n    1:1:", m->obf);
                put_java_sig(f, "", m->name, m->desc);
                fprintf(f, ":%d -> %s\n", m->line_c, m->obf);
                fprintf(f, "    2:%d:", len);
                put_java_sig(f, "", m->name, m->desc);
                fprintf(f, ":%d:%d -> %s\n", m->line_c + 1, m->line_d, m->obf);
                continue;
            }
            fprintf(f, "    1:%d:", len);
            put_java_sig(f, "", m->name, m->desc);
            fprintf(f, ":%d:%d -> %s\n", m->line_c, m->line_d, m->obf);
        }
    }
    close_out(f, path);
}

/* ---- simulated main thread (Matrix's recorder, method-beat.md 1.3) ---- */
typedef struct sim {
    recs r;
    int64_t now_us;      /* true uptime relative to the time base, microseconds */
    int64_t cached_ms;   /* AppMethodBeat's cached clock */
    int64_t disp_ms;     /* start of the current dispatch */
    int in_dispatch;
    uint32_t stack[256];
    int sp;
} sim;

static int64_t clock_ms(sim *s)
{
    if (s->in_dispatch) {
        /* the refresh thread updates the clock every 5 ms while a message runs */
        int64_t t = s->now_us / 1000;
        s->cached_ms = s->disp_ms + (t - s->disp_ms) / 5 * 5;
    }
    return s->cached_ms;
}

static void sim_work(sim *s, int64_t us) { s->now_us += us; }

static void sim_enter_id(sim *s, uint32_t id)
{
    if (s->sp == 256)
        die("simulated stack too deep");
    s->stack[s->sp++] = id;
    rec_put(&s->r, tt_beat_encode(1, id, clock_ms(s)));
}

static void sim_exit(sim *s)
{
    if (s->sp == 0)
        die("simulated exit without entry");
    rec_put(&s->r, tt_beat_encode(0, s->stack[--s->sp], clock_ms(s)));
}

/* an exception propagates: the method has no exit record */
static void sim_unwind(sim *s)
{
    if (s->sp == 0)
        die("simulated unwind without entry");
    s->sp--;
}

static void sim_dispatch_begin(sim *s)
{
    s->in_dispatch = 1;
    s->disp_ms = s->cached_ms = s->now_us / 1000;
    s->stack[s->sp++] = D;
    rec_put(&s->r, tt_beat_encode(1, D, s->cached_ms));
}

static void sim_dispatch_end(sim *s)
{
    if (s->sp != 1 || s->stack[0] != D)
        die("dispatch end with open frames");
    s->sp = 0;
    s->cached_ms = s->now_us / 1000;
    rec_put(&s->r, tt_beat_encode(0, D, s->cached_ms));
    s->in_dispatch = 0;
}

/* ---- the sample slice ---- */
static void in(sim *s, const char *m) { sim_enter_id(s, app_find(m)->id); }
static void out(sim *s) { sim_exit(s); }
static void leaf(sim *s, const char *m, int64_t us)
{
    in(s, m);
    sim_work(s, us);
    out(s);
}

static void sample_inflate_main(sim *s)
{
    in(s, "ActivityMainBinding.inflate");
    in(s, "ActivityMainBinding.inflate/2");
    sim_work(s, 21000); /* LayoutInflater itself is framework code, not instrumented */
    in(s, "BannerView.<init>/2");
    in(s, "BannerView.<init>/3");
    in(s, "BannerView.init");
    for (int i = 0; i < 3; i++)
        leaf(s, "ContextCompat.getDrawable", 2400);
    out(s);
    out(s);
    out(s);
    sim_work(s, 6000);
    in(s, "CategoryChipGroup.<init>");
    sim_work(s, 3000);
    out(s);
    in(s, "BottomNavigationView.<init>");
    sim_work(s, 9000);
    leaf(s, "BottomNavigationView.inflateMenu", 17500);
    out(s);
    sim_work(s, 4000);
    in(s, "ActivityMainBinding.bind");
    leaf(s, "ActivityMainBinding.<init>", 300);
    out(s);
    out(s);
    out(s);
}

static void sample_config(sim *s)
{
    in(s, "ConfigRepository.load");
    in(s, "ConfigRepository.loadFromDisk");
    in(s, "DiskCache.readEntry");
    leaf(s, "DiskCache.keyToFileName", 200);
    leaf(s, "DiskCache.openFile", 7800);
    /* checkJournal throws IOException itself (exit recorded before athrow); readEntry does
     * not catch it, so readEntry has no exit; loadFromDisk catches and returns false */
    leaf(s, "DiskCache.checkJournal", 12300);
    sim_unwind(s);
    sim_work(s, 2600);
    out(s);
    in(s, "ConfigRepository.loadDefaults");
    leaf(s, "JsonUtils.parse", 55000);
    in(s, "ConfigRepository.applyFlags");
    leaf(s, "FeatureFlags.<clinit>", 1200);
    for (int i = 0; i < 180; i++)
        leaf(s, "FeatureFlags.parseFlag", 330);
    out(s);
    out(s);
    out(s);
}

static void sample_catalog(sim *s)
{
    in(s, "MainViewModel.loadHome");
    in(s, "ProductRepository.loadCatalog");
    leaf(s, "ProductRepository.isStale", 150);
    in(s, "ProductRepository.loadFromCache");
    in(s, "ProductDao_Impl.queryAll");
    sim_work(s, 110000);
    for (int i = 0; i < 64; i++)
        leaf(s, "ProductDao_Impl.readEntity", 1600);
    out(s);
    for (int i = 0; i < 64; i++) {
        in(s, "Product.fromEntity");
        leaf(s, "Converters.fromTags", 420);
        leaf(s, "Product.<init>", 60);
        out(s);
    }
    out(s);
    in(s, "ProductRepository.loadFromNetwork");
    in(s, "ApiService.fetchCatalog");
    in(s, "ApiClient.get");
    in(s, "ApiClient.execute");
    leaf(s, "OkHttpClient.newCall", 900);
    in(s, "AuthInterceptor.intercept");
    leaf(s, "AuthInterceptor.addHeaders", 400);
    in(s, "UserSession.token");
    leaf(s, "UserSession.decryptToken", 24600);
    out(s);
    sim_work(s, 238000); /* blocking socket I/O on the main thread */
    out(s);
    leaf(s, "ApiClient.checkResponse", 300);
    out(s);
    out(s);
    out(s);
    in(s, "ProductRepository.parseCatalog");
    leaf(s, "JsonUtils.parse", 45000);
    for (int i = 0; i < 48; i++) {
        in(s, "Product.fromJson");
        leaf(s, "JsonUtils.optString", 90);
        leaf(s, "JsonUtils.optLong", 40);
        leaf(s, "JsonUtils.optString", 80);
        leaf(s, "JsonUtils.optFloat", 40);
        leaf(s, "JsonUtils.toList", 350);
        leaf(s, "Product.<init>", 50);
        out(s);
    }
    out(s);
    out(s);
    in(s, "ProductRepository.saveToDb");
    leaf(s, "ProductDao_Impl.insertAll", 120000);
    out(s);
    out(s);
    in(s, "MainViewModel.handleResult");
    leaf(s, "MainViewModel.buildSections", 7600);
    leaf(s, "LiveData.setValue", 300);
    out(s);
    out(s);
}

static void sample_launch(sim *s)
{
    sim_dispatch_begin(s);
    sim_work(s, 1800);
    in(s, "MainActivity.onCreate");
    in(s, "BaseActivity.onCreate");
    in(s, "ThemeManager.apply");
    leaf(s, "ThemeManager.isDarkMode", 700);
    leaf(s, "ThemeManager.loadPalette", 12000);
    out(s);
    leaf(s, "BaseActivity.applyTheme", 1900);
    sim_work(s, 24000); /* AppCompatActivity.onCreate, framework */
    out(s);
    sample_inflate_main(s);
    in(s, "AppCompatActivity.setContentView");
    in(s, "AppCompatDelegateImpl.setContentView");
    in(s, "AppCompatDelegateImpl.ensureSubDecor");
    leaf(s, "AppCompatDelegateImpl.createSubDecor", 70000);
    out(s);
    out(s);
    out(s);
    in(s, "MainActivity.initViews");
    leaf(s, "BaseActivity.setupToolbar", 3800);
    in(s, "MainActivity.setupBottomNav");
    leaf(s, "MainActivity$2.<init>", 20);
    leaf(s, "BottomNavigationView.setOnItemSelectedListener", 300);
    out(s);
    in(s, "MainActivity.setupRecycler");
    in(s, "ImageLoader.getInstance");
    in(s, "ImageLoader.<init>");
    leaf(s, "MemoryCache.<init>", 600);
    leaf(s, "DiskCache.<init>", 9200);
    out(s);
    out(s);
    leaf(s, "HomeAdapter.<init>", 200);
    leaf(s, "RecyclerView.setLayoutManager", 1300);
    leaf(s, "RecyclerView.setAdapter", 2100);
    out(s);
    out(s);
    sample_config(s);
    in(s, "MainActivity.observeViewModel");
    in(s, "ServiceLocator.productRepository");
    in(s, "ServiceLocator.database");
    in(s, "MarketDatabase.getInstance");
    in(s, "MarketDatabase.build");
    leaf(s, "MarketDatabase_Impl.<init>", 2100);
    leaf(s, "MarketDatabase_Impl.createOpenHelper", 15800);
    in(s, "MarketDatabase_Impl$1.onOpen");
    sim_work(s, 75000); /* opening and validating the database */
    out(s);
    out(s);
    out(s);
    out(s);
    leaf(s, "ProductRepository.<init>", 400);
    out(s);
    leaf(s, "MainViewModel.<init>", 300);
    leaf(s, "MainActivity$1.<init>", 20);
    leaf(s, "LiveData.observe", 900);
    sample_catalog(s);
    out(s);
    out(s); /* MainActivity.onCreate */
    sim_work(s, 3000);
    in(s, "MainActivity.onStart");
    in(s, "BaseActivity.onStart");
    leaf(s, "AppCompatActivity.onStart", 6100);
    out(s);
    out(s);
    in(s, "MainActivity.onResume");
    in(s, "BaseActivity.onResume");
    in(s, "Analytics.screen");
    leaf(s, "Analytics.enqueue", 4400);
    out(s);
    in(s, "Analytics.track");
    leaf(s, "Analytics.enqueue", 29000);
    out(s);
    out(s);
    out(s);
    sim_work(s, 2200);
    sim_dispatch_end(s);
}

static void sample_bind_item(sim *s, int image_done)
{
    in(s, "RecyclerView$Recycler.tryBindViewHolderByDeadline");
    in(s, "RecyclerView$Adapter.bindViewHolder");
    in(s, "HomeAdapter.onBindViewHolder");
    in(s, "ProductViewHolder.bind");
    in(s, "ProductViewHolder.bindPrice");
    in(s, "PriceTextView.setPrice");
    leaf(s, "PriceTextView.formatPrice", 700);
    out(s);
    out(s);
    in(s, "ProductViewHolder.bindRating");
    leaf(s, "RatingBarView.setRating", 250);
    out(s);
    in(s, "ProductViewHolder.bindImage");
    leaf(s, "ImageLoader.load", 120);
    leaf(s, "ImageRequest.resize", 30);
    in(s, "ImageRequest.into");
    leaf(s, "ImageRequest.key", 60);
    leaf(s, "ImageLoader.fromMemory", 100);
    in(s, "ImageLoader.fromDisk");
    in(s, "BitmapUtils.decodeSampled");
    leaf(s, "BitmapUtils.calculateInSampleSize", 40);
    if (!image_done) {
        sim_work(s, 9000); /* still decoding when the slice is copied */
        return;
    }
    sim_work(s, 16500);
    for (int i = 0; i < 8; i++)
        out(s);
}

static void sample_layout(sim *s)
{
    sim_dispatch_begin(s);
    in(s, "RecyclerView.onLayout");
    in(s, "RecyclerView.dispatchLayout");
    leaf(s, "RecyclerView.dispatchLayoutStep1", 800);
    in(s, "RecyclerView.dispatchLayoutStep2");
    in(s, "LinearLayoutManager.onLayoutChildren");
    in(s, "LinearLayoutManager.fill");
    for (int item = 0; item < 5; item++) {
        in(s, "LinearLayoutManager.layoutChunk");
        in(s, "RecyclerView$Recycler.getViewForPosition");
        in(s, "RecyclerView$Recycler.tryGetViewHolderForPositionByDeadline");
        in(s, "RecyclerView$Adapter.createViewHolder");
        in(s, "HomeAdapter.onCreateViewHolder");
        in(s, "ItemProductBinding.inflate");
        sim_work(s, 7000);
        in(s, "RatingBarView.<init>");
        leaf(s, "RatingBarView.loadStarDrawables", item == 0 ? 11000 : 400);
        out(s);
        leaf(s, "PriceTextView.<init>", 900);
        in(s, "ItemProductBinding.bind");
        leaf(s, "ItemProductBinding.<init>", 50);
        out(s);
        out(s);
        leaf(s, "ProductViewHolder.<init>", 80);
        out(s);
        out(s);
        sample_bind_item(s, item < 4);
        if (item == 4)
            return; /* frames still open at the end of the slice */
        out(s);
        out(s);
        out(s);
    }
}

static void build_sample(recs *r)
{
    app_load();
    sim s = {0};
    /* the end of the previous message: exits whose entries precede the slice */
    s.now_us = 5230400;
    s.cached_ms = 5198;
    in(&s, "SplashActivity.onCreate");
    in(&s, "SplashActivity.routeNext");
    in(&s, "SplashActivity.isFirstLaunch");
    s.r.n = 0;
    out(&s);
    out(&s);
    out(&s);
    sample_launch(&s);
    /* LiveData delivers the home state in the next message */
    sim_work(&s, 16800);
    sim_dispatch_begin(&s);
    in(&s, "MainActivity$1.onChanged");
    in(&s, "MainActivity.renderHome");
    in(&s, "HomeAdapter.submit");
    in(&s, "HomeAdapter.diff");
    leaf(&s, "DiffUtil.calculateDiff", 13800);
    out(&s);
    leaf(&s, "RecyclerView$Adapter.notifyDataSetChanged", 600);
    out(&s);
    in(&s, "BannerView.setBanners");
    leaf(&s, "BannerView.startAutoScroll", 500);
    out(&s);
    out(&s);
    out(&s);
    sim_work(&s, 900);
    sim_dispatch_end(&s);
    sim_work(&s, 4100);
    sample_layout(&s);
    *r = s.r;
}

/* ---- random buffers for bench and fuzz seeds ---- */
static uint32_t pick_id(uint32_t ids)
{
    /* a hot set of 1000 methods takes most calls, as in real apps */
    uint32_t max = ids > 1 ? ids - 1 : 1;
    if (rndn(4))
        return 1 + rndn(max < 1000 ? max : 1000);
    return 1 + rndn(max);
}

static void random_call(sim *s, size_t limit, uint32_t ids, int depth)
{
    sim_enter_id(s, pick_id(ids));
    int kids = depth > 12 ? 0 : (int)rndn(depth < 3 ? 6 : 4);
    for (int i = 0; i < kids && s->r.n < limit; i++) {
        if (rndn(5) == 0) {
            /* a loop of leaf calls that merge */
            uint32_t id = pick_id(ids);
            int n = 2 + (int)rndn(30);
            for (int k = 0; k < n && s->r.n + 1 < limit; k++) {
                sim_enter_id(s, id);
                sim_work(s, rndn(800));
                sim_exit(s);
            }
        } else {
            random_call(s, limit, ids, depth + 1);
        }
        sim_work(s, rndn(3000));
    }
    if (s->r.n >= limit)
        return;
    sim_work(s, rndn(2000));
    if (rndn(97) == 0)
        sim_unwind(s); /* exception: no exit */
    else
        sim_exit(s);
}

static void build_random(recs *r, size_t n, uint32_t ids)
{
    sim s = {0};
    s.now_us = 1000000 + (int64_t)rndn(100000000);
    while (s.r.n < n) {
        sim_dispatch_begin(&s);
        int calls = 1 + (int)rndn(5);
        for (int i = 0; i < calls && s.r.n < n; i++)
            random_call(&s, n, ids, 1);
        if (s.r.n >= n)
            break;
        sim_dispatch_end(&s);
        sim_work(&s, rndn(50000));
    }
    s.r.n = n < s.r.n ? n : s.r.n;
    *r = s.r;
}

/* ---- synthetic mapping ---- */
static const char *const pkg_words[] = {"app", "ui", "data", "net", "feed", "media", "pay",
                                        "auth", "chat", "map", "core", "util", "store", "video",
                                        "push", "ads", "search", "profile", "cart", "sync"};
static const char *const cls_words[] = {"Product", "Cart", "User", "Feed", "Order", "Image",
                                        "Message", "Video", "Search", "Session", "Config",
                                        "Payment", "Location", "Story", "Comment", "Banner"};
static const char *const cls_suffix[] = {"Activity", "Fragment", "Adapter", "ViewModel",
                                         "Repository", "Manager", "Helper", "Presenter",
                                         "View", "Holder", "Service", "Cache", "Parser",
                                         "Impl", "Dao_Impl", "$1"};
static const char *const verbs[] = {"load", "get", "update", "bind", "parse", "on", "handle",
                                    "init", "create", "fetch", "render", "compute", "apply",
                                    "check", "save", "notify"};
static const char *const types[] = {"I", "J", "Z", "F", "Ljava.lang.String;",
                                    "Landroid.os.Bundle;", "Landroid.view.View;",
                                    "Ljava.util.List;", "[B", "Landroid.content.Context;",
                                    "Lorg.json.JSONObject;", "[I"};
#define NW(a) ((uint32_t)(sizeof(a) / sizeof((a)[0])))

static void write_synth_mapping(const char *path, uint32_t n)
{
    if (n < 1 || n > D)
        die("-n must be in 1..%u", D);
    FILE *f = open_out(path);
    uint32_t id = 1;
    uint32_t cls = 0;
    while (id < n) {
        char cname[160];
        snprintf(cname, sizeof cname, "com.example.%s.%s.%s%s%u", pkg_words[rndn(NW(pkg_words))],
                 pkg_words[rndn(NW(pkg_words))], cls_words[rndn(NW(cls_words))],
                 cls_suffix[rndn(NW(cls_suffix))], cls++);
        uint32_t k = 1 + rndn(12);
        for (uint32_t j = 0; j < k && id < n; j++, id++) {
            uint32_t r = rndn(100);
            uint32_t flags = r < 40 ? 1 : r < 60 ? 2 : r < 70 ? 4 : r < 80 ? 9 : r < 85 ? 17
                           : r < 90 ? 131073 : r < 93 ? 4104 : r < 96 ? 10 : 257;
            if (flags == 257) {
                fprintf(f, "%u,257,%s native%s%u\n", id, cname, cls_words[rndn(NW(cls_words))],
                        j);
                continue;
            }
            if (j == 0) {
                fprintf(f, "%u,1,%s <init> ()V\n", id, cname);
                continue;
            }
            fprintf(f, "%u,%u,%s %s%s%u (", id, flags, cname, verbs[rndn(NW(verbs))],
                    cls_words[rndn(NW(cls_words))], j);
            uint32_t np = rndn(4);
            for (uint32_t p = 0; p < np; p++)
                fputs(types[rndn(NW(types))], f);
            fprintf(f, ")%s\n", rndn(3) ? "V" : types[rndn(NW(types))]);
        }
    }
    fprintf(f, "%u,1,android.os.Handler dispatchMessage (Landroid.os.Message;)V\n", D);
    close_out(f, path);
}

/* ---- command line ---- */
static int64_t num(const char *opt, const char *v)
{
    char *end;
    errno = 0;
    long long x = strtoll(v, &end, 0);
    if (errno || end == v || *end || x < 0)
        die("%s: expected a non-negative number, got \"%s\"", opt, v);
    return (int64_t)x;
}

static uint64_t parse_word(const char *w)
{
    if (!strcmp(w, "0"))
        return 0;
    char kind;
    char idbuf[32];
    long long t;
    if (sscanf(w, "%c:%31[^:]:%lld", &kind, idbuf, &t) != 3 || (kind != 'I' && kind != 'O'))
        die("bad record \"%s\": expected I:ID:T, O:ID:T or 0", w);
    uint32_t id = !strcmp(idbuf, "D") ? D : (uint32_t)num("ID", idbuf);
    return tt_beat_encode(kind == 'I', id, (int64_t)t);
}

static void usage(void)
{
    fputs("usage: gen_beat encode|buffer|mapping|sample|samples ... (see tests/gen/gen_beat.c)\n",
          stderr);
    exit(2);
}

int main(int argc, char **argv)
{
    if (argc < 2)
        usage();
    const char *cmd = argv[1];
    outopts o = {0, FORM_SIGNED, -1, NULL, NULL};
    int64_t nrec = -1, ids = 60000, nmap = -1;
    uint64_t seed = 1;
    recs r = {0};
    int i = 2;
    for (; i < argc && argv[i][0] == '-' && argv[i][1]; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--")) {
            i++;
            break;
        }
        if (!v)
            die("%s needs a value", a);
        i++;
        if (!strcmp(a, "-o"))
            o.path = v;
        else if (!strcmp(a, "--format")) {
            if (strcmp(v, "bin") && strcmp(v, "text"))
                die("--format: bin or text");
            o.text = !strcmp(v, "text");
        } else if (!strcmp(a, "--text-form")) {
            static const char *const forms[] = {"signed", "unsigned", "hex", "mixed"};
            int k = 0;
            while (k < 4 && strcmp(v, forms[k]))
                k++;
            if (k == 4)
                die("--text-form: signed, unsigned, hex or mixed");
            o.form = k;
        } else if (!strcmp(a, "--ring-next"))
            o.ring_next = num(a, v);
        else if (!strcmp(a, "--records"))
            nrec = num(a, v);
        else if (!strcmp(a, "--ids"))
            ids = num(a, v);
        else if (!strcmp(a, "-n"))
            nmap = num(a, v);
        else if (!strcmp(a, "--seed"))
            seed = (uint64_t)num(a, v);
        else
            die("unknown option %s", a);
    }
    rng_state = seed;
    if (!strcmp(cmd, "encode")) {
        for (; i < argc; i++)
            rec_put(&r, parse_word(argv[i]));
        write_recs(&r, &o);
    } else if (!strcmp(cmd, "buffer")) {
        if (nrec < 0 || i != argc)
            usage();
        if (ids < 2 || ids > D)
            die("--ids must be in 2..%u", D);
        build_random(&r, (size_t)nrec, (uint32_t)ids);
        write_recs(&r, &o);
    } else if (!strcmp(cmd, "mapping")) {
        if (nmap < 0 || i != argc)
            usage();
        write_synth_mapping(o.path, (uint32_t)nmap);
    } else if (!strcmp(cmd, "sample")) {
        if (i != argc)
            usage();
        build_sample(&r);
        o.comment = "tracetool sample slice: written by `gen_beat sample --format text` "
                    "(tests/gen/gen_beat.c)";
        write_recs(&r, &o);
    } else if (!strcmp(cmd, "samples")) {
        if (i + 1 != argc)
            usage();
        const char *dir = argv[i];
        char p[4096];
#define PATH(name) (snprintf(p, sizeof p, "%s/%s", dir, name), p)
        write_method_mapping(PATH("methodMapping.txt"), 0);
        write_method_mapping(PATH("methodMapping-obfuscated.txt"), 1);
        write_ignore(PATH("ignoreMethodMapping.txt"));
        write_proguard(PATH("mapping.txt"));
        build_sample(&r);
        o.path = PATH("beat.bin");
        write_recs(&r, &o);
        o.text = 1;
        o.comment = "tracetool sample slice: written by `gen_beat sample --format text` "
                    "(tests/gen/gen_beat.c)";
        o.path = PATH("beat.txt");
        write_recs(&r, &o);
#undef PATH
    } else {
        usage();
    }
    free(r.w);
    return 0;
}
