/* The binary images of a KSCrash / Matrix iOS report (spec/ios.md 2.3, 4.1): read from
 * jansson, from the fast path, or from the frames when binary_images is absent; sorted by
 * load address and looked up by pc. */
#include "kscrash_build_int.h"

#include <stdlib.h>

static const char *base_name(const char *p)
{
    const char *s = strrchr(p, '/');
    return s ? s + 1 : p;
}

/* ---- images (2.3, 4.1) ---- */

static int cmp_image(const void *x, const void *y)
{
    const tt_ks_image *a = x, *b = y;
    return a->addr < b->addr ? -1 : a->addr > b->addr;
}

/* One binary_images element, from jansson or from the fast path; strings borrowed. */
typedef struct img_in {
    int ok;                      /* an object with usable image_addr and image_size */
    uint64_t addr, size, vmaddr;
    const char *path, *uuid, *ci[4];
    int64_t cpu_type, cpu_subtype;
} img_in;

static int add_image(bctx *c, const img_in *in, const char *uuid)
{
    if (!in->ok) {
        tt_stats_add(c->r->stats, "kscrash_bad_image", c->r->file, TT_SEV_WARN, 1,
                     "a binary image without image_addr or image_size was ignored");
        return 0;
    }
    tt_ks_image *g = tt_vec_push(&c->r->images, NULL);
    if (!g)
        return TT_ENOMEM;
    g->addr = in->addr;
    g->size = in->size;
    g->vmaddr = in->vmaddr;
    g->path = in->path ? in->path : "";
    g->name = base_name(g->path);
    if (!(g->uuid = uuid ? uuid : tt_ks__norm_uuid(c, in->uuid)))
        return TT_ENOMEM;
    g->cpu_type = in->cpu_type;
    g->cpu_subtype = in->cpu_subtype;
    g->arch = tt_ks_arch_name(g->cpu_type, g->cpu_subtype);
    memcpy(g->crash_info, in->ci, sizeof g->crash_info);
    return 0;
}

typedef struct img_key {
    uint64_t addr;
    size_t i;
} img_key;

/* Stable bottom-up merge sort by address (equal ones keep input order); the result is in
 * a or in tmp, returned. */
static img_key *sort_keys(img_key *a, img_key *tmp, size_t n)
{
    for (size_t w = 1; w < n; w *= 2) {
        for (size_t lo = 0; lo < n; lo += 2 * w) {
            size_t mid = lo + w < n ? lo + w : n, hi = lo + 2 * w < n ? lo + 2 * w : n;
            size_t i = lo, j = mid, k = lo;
            while (i < mid && j < hi) { /* branch-free: the order of addresses is random */
                int t = a[j].addr < a[i].addr;
                tmp[k++] = a[t ? j : i];
                j += (size_t)t;
                i += (size_t)!t;
            }
            while (i < mid)
                tmp[k++] = a[i++];
            while (j < hi)
                tmp[k++] = a[j++];
        }
        img_key *x = a;
        a = tmp;
        tmp = x;
    }
    return a;
}

/* By load address, equal ones in input order; keys are sorted, not the large structs. */
static int sort_images(bctx *c)
{
    size_t n = c->r->images.len;
    tt_ks_image *a = c->r->images.data;
    if (n < 2)
        return 0;
    img_key *k = malloc(2 * n * sizeof *k);
    tt_ks_image *t = malloc(n * sizeof *t);
    if (!k || !t) {
        free(k);
        free(t);
        return TT_ENOMEM;
    }
    for (size_t i = 0; i < n; i++)
        k[i] = (img_key){a[i].addr, i};
    const img_key *s = sort_keys(k, k + n, n);
    for (size_t i = 0; i < n; i++)
        t[i] = a[s[i].i];
    memcpy(a, t, n * sizeof *a);
    free(k);
    free(t);
    return 0;
}

int tt_ks__read_images(bctx *c, const void *arr)
{
    jit it;
    for (const void *im = jfirst(c, &it, arr); im; im = jnext(c, &it)) {
        img_in in = {0};
        in.ok = jtype(c, im) == JSON_OBJECT && ju64(c, im, "image_addr", &in.addr) &&
                ju64(c, im, "image_size", &in.size);
        if (in.ok) {
            ju64(c, im, "image_vmaddr", &in.vmaddr);
            in.path = jstr(c, im, "name");
            in.uuid = jstr(c, im, "uuid");
            jint(c, im, "cpu_type", &in.cpu_type);
            jint(c, im, "cpu_subtype", &in.cpu_subtype);
            static const char *const ci[4] = {"crash_info_message", "crash_info_message2",
                                              "crash_info_backtrace", "crash_info_signature"};
            for (int k = 0; k < 4; k++)
                in.ci[k] = jstr(c, im, ci[k]);
        }
        int rc = add_image(c, &in, NULL);
        if (rc)
            return rc;
    }
    return sort_images(c);
}

/* The images tt_ks__scan_images read (the fast path of I10). */
int tt_ks__read_fast_images(bctx *c)
{
    const tt_ks_fimg *fs = c->r->fimgs.data;
    size_t n = c->r->fimgs.len, m = 0;
    if (!n)
        return 0;
    img_key *k = malloc(2 * n * sizeof *k);
    if (!k)
        return TT_ENOMEM;
    int rc = 0;
    for (size_t i = 0; i < n && !rc; i++) { /* bad ones counted in input order */
        if (fs[i].has_addr && fs[i].has_size)
            k[m++] = (img_key){fs[i].addr, i};
        else
            rc = add_image(c, &(img_in){0}, NULL);
    }
    const img_key *sk = rc ? NULL : sort_keys(k, k + m, m); /* then added in order */
    for (size_t j = 0; j < m && !rc; j++) {
        const tt_ks_fimg *f = &fs[sk[j].i];
        int oom = 0;
        const char *uuid = NULL;
        img_in in = {.ok = 1, .addr = f->addr, .size = f->size};
        in.vmaddr = f->has_vmaddr ? f->vmaddr : 0;
        in.path = tt_ks__span_str(c, &f->path, &oom);
        if (f->uuid.esc)
            uuid = tt_ks__norm_uuid(c, tt_ks__span_str(c, &f->uuid, &oom));
        else
            uuid = tt_ks__norm_uuid_n(c, f->uuid.set ? c->r->fast_text + f->uuid.off : NULL,
                                      f->uuid.len);
        in.cpu_type = f->has_cpu_type ? f->cpu_type : 0;
        in.cpu_subtype = f->has_cpu_subtype ? f->cpu_subtype : 0;
        for (int x = 0; x < 4; x++)
            in.ci[x] = tt_ks__span_str(c, &f->ci[x], &oom);
        rc = oom || !uuid ? TT_ENOMEM : add_image(c, &in, uuid);
    }
    free(k);
    return rc;
}

/* 4.1 without binary_images (KSCrash omitBinaryImages): images from the frames' object_addr
 * and object_name; no UUID, no vmaddr, each ends where the next begins. */
int tt_ks__images_from_frames(bctx *c, const void *threads)
{
    jit ti, fi;
    for (const void *t = jfirst(c, &ti, threads); t; t = jnext(c, &ti)) {
        const void *bt = jget(c, jget(c, t, "backtrace"), "contents");
        for (const void *fo = jfirst(c, &fi, bt); fo; fo = jnext(c, &fi)) {
            uint64_t addr;
            const char *name = jstr(c, fo, "object_name");
            if (!name || !ju64(c, fo, "object_addr", &addr))
                continue;
            int seen = 0;
            for (size_t k = 0; k < c->r->images.len && !seen; k++)
                seen = ((tt_ks_image *)c->r->images.data)[k].addr == addr;
            if (seen)
                continue;
            tt_ks_image *g = tt_vec_push(&c->r->images, NULL);
            if (!g)
                return TT_ENOMEM;
            g->addr = addr;
            g->path = g->name = name;
            g->uuid = "";
        }
    }
    tt_ks_image *a = c->r->images.data;
    size_t n = c->r->images.len;
    if (n > 1)
        qsort(a, n, sizeof *a, cmp_image);
    for (size_t k = 0; k < n; k++)
        a[k].size = k + 1 < n ? a[k + 1].addr - a[k].addr : UINT64_C(0x100000000);
    if (n)
        tt_stats_add(c->r->stats, "sym_unverified_module", c->r->file, TT_SEV_WARN, (int64_t)n,
                     "no binary_images: images taken from the frames' object_addr and "
                     "object_name, without UUIDs");
    return 0;
}

int32_t tt_ks__find_image(bctx *c, uint64_t pc)
{
    const tt_ks_image *a = c->r->images.data;
    size_t lo = 0, hi = c->r->images.len;
    while (lo < hi) { /* first image with addr > pc */
        size_t m = lo + (hi - lo) / 2;
        if (a[m].addr <= pc)
            lo = m + 1;
        else
            hi = m;
    }
    if (lo && pc - a[lo - 1].addr < a[lo - 1].size)
        return (int32_t)(lo - 1);
    return -1;
}

int32_t tt_ks__frame_image(bctx *c, const void *fo, uint64_t pc, uint64_t mask, int *pac)
{
    uint64_t addr;
    *pac = 0;
    if (!ju64(c, fo, "object_addr", &addr))
        return -1;
    int32_t i = tt_ks__find_image(c, addr);
    const tt_ks_image *g = i >= 0 ? &((const tt_ks_image *)c->r->images.data)[i] : NULL;
    if (!g || g->addr != addr)
        return -1;
    if (pc - addr < g->size)
        return i;
    if ((pc & mask) != pc && (pc & mask) - addr < g->size) {
        *pac = 1;
        return i;
    }
    return -1;
}

/* App images (9.4 default): app_uuid, CFBundleExecutable, or a path inside ".app/". */
void tt_ks__mark_app(tt_ks_report *rep)
{
    for (size_t i = 0; i < rep->n_images; i++) {
        tt_ks_image *g = &rep->images[i];
        g->is_app = (rep->app_uuid[0] && !strcmp(g->uuid, rep->app_uuid)) ||
                    (rep->bundle_exec && !strcmp(g->name, rep->bundle_exec)) ||
                    strstr(g->path, ".app/") != NULL;
    }
}
