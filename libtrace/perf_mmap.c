/* perf script side-band memory maps (spec/symbolication.md 7.4, samples.md 2.2 rule 1):
 * the PERF_RECORD_MMAP/MMAP2 lines `perf script --show-mmap-events` prints, and a table
 * that finds the mapping of a runtime address by process, path and address. Used by the
 * perf reader (frames get a file offset that libsym turns into an ELF vaddr) and by
 * tracetool symbolicate. */
#include "tt.h"

#include <stdlib.h>
#include <string.h>

#include "tt_int.h"

static int is_blank(char c) { return c == ' ' || c == '\t'; }

int tt_hex_digit(char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

size_t tt_hex_run(uint64_t *v, const char *p, size_t n)
{
    size_t i = 0;
    uint64_t x = 0; /* in a register: stores through v could change p's bytes */
    int d;
    while (i < n && (d = tt_hex_digit(p[i])) >= 0) {
        if (i == 16)
            break;
        x = x << 4 | (uint64_t)d;
        i++;
    }
    *v = x;
    return i == 16 && i < n && tt_hex_digit(p[i]) >= 0 ? 0 : i;
}

static size_t after_lit(const char *p, size_t n, size_t i, const char *lit)
{
    size_t l = strlen(lit);
    return i + l <= n && !memcmp(p + i, lit, l) ? i + l : 0;
}

/* "... PERF_RECORD_MMAP2 <pid>/<tid>: [0x<start>(0x<len>) @ 0x<pgoff> <maj>:<min> <ino>
 * <gen>]: <prot> <path>" and the MMAP form "[0x<start>(0x<len>) @ <pgoff>]: <x|r> <path>" */
int tt_perf_mmap_parse(tt_perf_mmap *out, const char *line, size_t n)
{
    memset(out, 0, sizeof *out);
    const char *tag = tt__memmem(line, n, "PERF_RECORD_MMAP", 16);
    if (!tag)
        return TT_ENOTFOUND;
    size_t i = (size_t)(tag - line) + 16;
    if (i < n && line[i] == '2')
        i++;
    while (i < n && is_blank(line[i]))
        i++;
    uint64_t pid = 0;
    int neg = i < n && line[i] == '-';
    if (neg)
        i++;
    size_t d = i;
    while (i < n && line[i] >= '0' && line[i] <= '9' && pid < 0xFFFFFFFFu)
        pid = pid * 10 + (uint64_t)(line[i++] - '0');
    out->pid = neg || i == d ? -1 : (int64_t)pid; /* -1: the kernel's maps */
    const char *br = memchr(line + i, '[', n - i);
    if (!br)
        return TT_ENOTFOUND;
    i = (size_t)(br - line) + 1;
    size_t h;
    if (!(i = after_lit(line, n, i, "0x")) || !(h = tt_hex_run(&out->start, line + i, n - i)))
        return TT_ENOTFOUND;
    i += h;
    if (!(i = after_lit(line, n, i, "(0x")) || !(h = tt_hex_run(&out->len, line + i, n - i)))
        return TT_ENOTFOUND;
    i += h;
    if (!(i = after_lit(line, n, i, ") @ ")))
        return TT_ENOTFOUND;
    if (i + 2 <= n && line[i] == '0' && line[i + 1] == 'x')
        i += 2;
    if (!(h = tt_hex_run(&out->pgoff, line + i, n - i)))
        return TT_ENOTFOUND;
    i += h;
    const char *close = memchr(line + i, ']', n - i);
    if (!close)
        return TT_ENOTFOUND;
    i = (size_t)(close - line) + 1;
    if (i < n && line[i] == ':')
        i++;
    while (i < n && is_blank(line[i]))
        i++;
    size_t ps = i;
    while (i < n && !is_blank(line[i]))
        i++;
    out->executable = memchr(line + ps, 'x', i - ps) != NULL;
    while (i < n && is_blank(line[i]))
        i++;
    size_t e = n;
    while (e > i && (is_blank(line[e - 1]) || line[e - 1] == '\r'))
        e--;
    if (e - i > 10 && !memcmp(line + e - 10, " (deleted)", 10)) {
        e -= 10;
        out->deleted = 1;
    }
    if (e <= i)
        return TT_ENOTFOUND;
    out->path = line + i;
    out->path_len = e - i;
    return 0;
}

typedef struct pmap {
    tt_perf_map m;
    uint32_t next; /* older mapping of the same path, TT_NONE at the end */
} pmap;

struct tt_perf_maps {
    tt_intern *paths;
    tt_vec maps;  /* pmap */
    tt_vec heads; /* uint32_t per path id: newest mapping */
};

int tt_perf_maps_new(tt_perf_maps **out)
{
    tt_perf_maps *t = calloc(1, sizeof *t);
    if (!t || !(t->paths = tt_intern_new())) {
        free(t);
        *out = NULL;
        return TT_ENOMEM;
    }
    tt_vec_init(&t->maps, sizeof(pmap));
    tt_vec_init(&t->heads, sizeof(uint32_t));
    *out = t;
    return 0;
}

void tt_perf_maps_free(tt_perf_maps *t)
{
    if (!t)
        return;
    tt_intern_free(t->paths);
    tt_vec_free(&t->maps);
    tt_vec_free(&t->heads);
    free(t);
}

int tt_perf_maps_add(tt_perf_maps *t, const tt_perf_mmap *mm)
{
    uint32_t id;
    if (!mm->executable || mm->len == 0)
        return 0;
    if (t->maps.len >= TT_NONE - 1)
        return TT_ELIMIT;
    if (tt_intern_get(t->paths, mm->path, mm->path_len, &id))
        return TT_ENOMEM;
    uint32_t none = TT_NONE;
    while (t->heads.len <= id)
        if (!tt_vec_push(&t->heads, &none))
            return TT_ENOMEM;
    uint32_t *head = &TT_VEC_AT(&t->heads, uint32_t, id);
    pmap p = {.m = {.pid = mm->pid, .start = mm->start, .len = mm->len, .pgoff = mm->pgoff,
                    .path = tt_intern_str(t->paths, id, NULL)},
              .next = *head};
    if (!tt_vec_push(&t->maps, &p))
        return TT_ENOMEM;
    *head = (uint32_t)(t->maps.len - 1);
    return 0;
}

const tt_perf_map *tt_perf_maps_find(const tt_perf_maps *t, int64_t pid, const char *path,
                                     size_t path_len, uint64_t addr, uint64_t *file_off)
{
    uint32_t id;
    if (!t || tt_intern_find(t->paths, path, path_len, &id) || id >= t->heads.len)
        return NULL;
    const tt_perf_map *other = NULL, *rel = NULL;
    uint32_t head = TT_VEC_AT(&t->heads, uint32_t, id);
    for (uint32_t i = head; i != TT_NONE;) {
        const pmap *p = &TT_VEC_AT(&t->maps, pmap, i);
        i = p->next;
        if (addr >= p->m.start && addr - p->m.start < p->m.len) {
            if (p->m.pid == pid || pid < 0 || p->m.pid < 0) {
                *file_off = addr - p->m.start + p->m.pgoff;
                return &p->m;
            }
            if (!other)
                other = &p->m; /* same file at the same address in another process */
        } else if (!rel && addr >= p->m.pgoff && addr - p->m.pgoff < p->m.len) {
            rel = &p->m;
        }
    }
    if (other) {
        *file_off = addr - other->start + other->pgoff;
        return other;
    }
    if (rel)
        *file_off = addr; /* perf printed the map-relative address (the file offset) */
    return rel;
}
