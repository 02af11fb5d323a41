/* gen_macho: Mach-O containers from raw section blobs for the tests (spec/ios.md 12.2).
 *
 *   gen_macho dsym OUT UUID TEXT_VMADDR TEXT_VMSIZE [NAME=FILE]...
 *       MH_DSYM, 64-bit little-endian, arm64: LC_UUID, LC_SEGMENT_64 __TEXT (no file
 *       data) and LC_SEGMENT_64 __DWARF with one section __debug_NAME per blob (the
 *       16-character Mach-O names for str_offsets, line_str, rnglists, loclists)
 *   gen_macho fat OUT [--fat64] [--align LOG2] SLICE...
 *       a universal file around the given thin files
 *   gen_macho hostile DIR
 *       the broken and unusual containers of ios.md 12.2 (see the list in hostile())
 *
 * UUID: 32 hex digits, dashes allowed. Numbers: C syntax (0x...). */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct buf {
    unsigned char *p;
    size_t n, cap;
} buf;

static void grow(buf *b, size_t need)
{
    if (b->n + need <= b->cap)
        return;
    size_t c = b->cap ? b->cap * 2 : 4096;
    while (c < b->n + need)
        c *= 2;
    b->p = realloc(b->p, c);
    if (!b->p) {
        fprintf(stderr, "gen_macho: out of memory\n");
        exit(2);
    }
    b->cap = c;
}

static void put(buf *b, const void *d, size_t n)
{
    grow(b, n);
    memcpy(b->p + b->n, d, n);
    b->n += n;
}

static void zeros(buf *b, size_t n)
{
    grow(b, n);
    memset(b->p + b->n, 0, n);
    b->n += n;
}

static void le32(buf *b, uint32_t v)
{
    unsigned char x[4] = {(unsigned char)v, (unsigned char)(v >> 8), (unsigned char)(v >> 16),
                          (unsigned char)(v >> 24)};
    put(b, x, 4);
}

static void le64(buf *b, uint64_t v)
{
    le32(b, (uint32_t)v);
    le32(b, (uint32_t)(v >> 32));
}

static void be32(buf *b, uint32_t v)
{
    unsigned char x[4] = {(unsigned char)(v >> 24), (unsigned char)(v >> 16),
                          (unsigned char)(v >> 8), (unsigned char)v};
    put(b, x, 4);
}

static void be64(buf *b, uint64_t v)
{
    be32(b, (uint32_t)(v >> 32));
    be32(b, (uint32_t)v);
}

static void name16(buf *b, const char *s)
{
    char n[16] = {0};
    memcpy(n, s, strlen(s) < 16 ? strlen(s) : 16);
    put(b, n, 16);
}

static void set32(buf *b, size_t at, uint32_t v)
{
    b->p[at] = (unsigned char)v;
    b->p[at + 1] = (unsigned char)(v >> 8);
    b->p[at + 2] = (unsigned char)(v >> 16);
    b->p[at + 3] = (unsigned char)(v >> 24);
}

static void write_file(const char *path, const buf *b)
{
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(b->p, 1, b->n, f) != b->n || fclose(f)) {
        fprintf(stderr, "gen_macho: cannot write %s\n", path);
        exit(2);
    }
}

static void read_file(buf *b, const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "gen_macho: cannot read %s\n", path);
        exit(2);
    }
    unsigned char tmp[65536];
    size_t n;
    while ((n = fread(tmp, 1, sizeof tmp, f)) > 0)
        put(b, tmp, n);
    fclose(f);
}

static void parse_uuid(unsigned char out[16], const char *s)
{
    int k = 0;
    for (; *s && k < 32; s++) {
        if (*s == '-')
            continue;
        int v = *s >= '0' && *s <= '9' ? *s - '0' : (*s | 32) - 'a' + 10;
        if (v < 0 || v > 15) {
            fprintf(stderr, "gen_macho: bad UUID\n");
            exit(2);
        }
        out[k / 2] = (unsigned char)(k % 2 ? out[k / 2] | v : v << 4);
        k++;
    }
    if (k != 32) {
        fprintf(stderr, "gen_macho: bad UUID\n");
        exit(2);
    }
}

typedef struct blob {
    char name[17];
    buf data;
} blob;

static const char *macho_name(const char *n)
{
    static char out[32];
    static const char *const longn[][2] = {{"str_offsets", "__debug_str_offs"},
                                           {"line_str", "__debug_line_str"},
                                           {"rnglists", "__debug_rnglists"},
                                           {"loclists", "__debug_loclists"}};
    for (size_t i = 0; i < 4; i++)
        if (!strcmp(n, longn[i][0]))
            return longn[i][1];
    snprintf(out, sizeof out, "__debug_%s", n);
    return out;
}

/* A thin 64-bit MH_DSYM image. */
static void make_dsym(buf *o, const unsigned char uuid[16], uint64_t vmaddr, uint64_t vmsize,
                      blob *bl, size_t nb)
{
    uint32_t sizeofcmds = 24 + 72 + 72 + 80 * (uint32_t)nb;
    le32(o, 0xFEEDFACF);
    le32(o, 0x0100000C); /* arm64 */
    le32(o, 0);
    le32(o, 0xA); /* MH_DSYM */
    le32(o, 3);
    le32(o, sizeofcmds);
    le32(o, 0);
    le32(o, 0);
    le32(o, 0x1B); /* LC_UUID */
    le32(o, 24);
    put(o, uuid, 16);
    le32(o, 0x19); /* __TEXT, no file data */
    le32(o, 72);
    name16(o, "__TEXT");
    le64(o, vmaddr);
    le64(o, vmsize);
    le64(o, 0);
    le64(o, 0);
    le32(o, 5);
    le32(o, 5);
    le32(o, 0);
    le32(o, 0);
    uint64_t off = 32 + sizeofcmds, total = 0;
    for (size_t i = 0; i < nb; i++)
        total += bl[i].data.n;
    le32(o, 0x19);
    le32(o, 72 + 80 * (uint32_t)nb);
    name16(o, "__DWARF");
    le64(o, 0);
    le64(o, total);
    le64(o, off);
    le64(o, total);
    le32(o, 7);
    le32(o, 3);
    le32(o, (uint32_t)nb);
    le32(o, 0);
    uint64_t at = off;
    for (size_t i = 0; i < nb; i++) {
        name16(o, macho_name(bl[i].name));
        name16(o, "__DWARF");
        le64(o, 0);
        le64(o, bl[i].data.n);
        le32(o, (uint32_t)at);
        le32(o, 0);
        le32(o, 0);
        le32(o, 0);
        le32(o, 0);
        le32(o, 0);
        le32(o, 0);
        le32(o, 0);
        at += bl[i].data.n;
    }
    for (size_t i = 0; i < nb; i++)
        put(o, bl[i].data.p, bl[i].data.n);
}

static uint32_t rd32(const buf *b, size_t at)
{
    return at + 4 <= b->n ? (uint32_t)b->p[at] | (uint32_t)b->p[at + 1] << 8 |
                                (uint32_t)b->p[at + 2] << 16 | (uint32_t)b->p[at + 3] << 24
                          : 0;
}

static void make_fat(buf *o, buf *slices, size_t n, int fat64, unsigned align)
{
    uint64_t a = (uint64_t)1 << align;
    be32(o, fat64 ? 0xCAFEBABF : 0xCAFEBABE);
    be32(o, (uint32_t)n);
    uint64_t off = 8 + (fat64 ? 32 : 20) * (uint64_t)n;
    uint64_t *offs = calloc(n ? n : 1, sizeof *offs);
    for (size_t i = 0; i < n; i++) {
        off = (off + a - 1) & ~(a - 1);
        offs[i] = off;
        off += slices[i].n;
        be32(o, rd32(&slices[i], 4));
        be32(o, rd32(&slices[i], 8));
        if (fat64) {
            be64(o, offs[i]);
            be64(o, slices[i].n);
            be32(o, align);
            be32(o, 0);
        } else {
            be32(o, (uint32_t)offs[i]);
            be32(o, (uint32_t)slices[i].n);
            be32(o, align);
        }
    }
    for (size_t i = 0; i < n; i++) {
        zeros(o, offs[i] - o->n);
        put(o, slices[i].p, slices[i].n);
    }
    free(offs);
}

/* A small 64-bit MH_EXECUTE with __TEXT,__text, LC_UUID and a two-symbol table (n0 external
 * at the start of __text, n1 local at +0x20); ver 1 adds LC_BUILD_VERSION (iOS 14.0, SDK
 * 16.4, one tool), ver 2 LC_VERSION_MIN_IPHONEOS (12.1, SDK 16.4). */
static void make_exe_v(buf *o, unsigned char uuid_last, uint32_t cputype, const char *n0,
                       const char *n1, int ver)
{
    uint32_t vsize = ver == 1 ? 32 : ver == 2 ? 16 : 0;
    uint32_t sizeofcmds = 24 + 72 + 80 + 24 + vsize;
    le32(o, 0xFEEDFACF);
    le32(o, cputype);
    le32(o, cputype == 0x01000007 ? 3 : 0);
    le32(o, 2);
    le32(o, ver ? 4 : 3);
    le32(o, sizeofcmds);
    le32(o, 0);
    le32(o, 0);
    unsigned char uuid[16] = {0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x47, 0x88,
                              0x99, 0xaa, 0xbb, 0xcc, 0xdd, 0xee, 0xff, uuid_last};
    le32(o, 0x1B);
    le32(o, 24);
    put(o, uuid, 16);
    uint32_t text_off = 32 + sizeofcmds;
    le32(o, 0x19);
    le32(o, 72 + 80);
    name16(o, "__TEXT");
    le64(o, 0x100000000);
    le64(o, 0x1000);
    le64(o, 0);
    le64(o, 0x1000);
    le32(o, 5);
    le32(o, 5);
    le32(o, 1);
    le32(o, 0);
    name16(o, "__text");
    name16(o, "__TEXT");
    le64(o, 0x100000000 + text_off);
    le64(o, 0x40);
    le32(o, text_off);
    le32(o, 2);
    le32(o, 0);
    le32(o, 0);
    le32(o, 0x80000400);
    le32(o, 0);
    le32(o, 0);
    le32(o, 0);
    size_t l0 = strlen(n0), l1 = strlen(n1);
    uint32_t strsize = (uint32_t)((1 + l0 + 1 + l1 + 1 + 7) & ~(size_t)7);
    uint32_t symoff = text_off + 0x40, stroff = symoff + 2 * 16;
    le32(o, 0x2); /* LC_SYMTAB */
    le32(o, 24);
    le32(o, symoff);
    le32(o, 2);
    le32(o, stroff);
    le32(o, strsize);
    if (ver == 1) {
        le32(o, 0x32); /* LC_BUILD_VERSION */
        le32(o, 32);
        le32(o, 2);          /* PLATFORM_IOS */
        le32(o, 0x000E0000); /* minos 14.0 */
        le32(o, 0x00100400); /* sdk 16.4 */
        le32(o, 1);
        le32(o, 3);          /* TOOL_LD */
        le32(o, 0x02000000);
    } else if (ver == 2) {
        le32(o, 0x25); /* LC_VERSION_MIN_IPHONEOS */
        le32(o, 16);
        le32(o, 0x000C0100); /* 12.1 */
        le32(o, 0x00100400);
    }
    zeros(o, 0x40);
    le32(o, 1); /* n0, external */
    put(o, (unsigned char[]){0x0f, 1}, 2);
    put(o, (unsigned char[]){0, 0}, 2);
    le64(o, 0x100000000 + text_off);
    le32(o, (uint32_t)(2 + l0)); /* n1, local */
    put(o, (unsigned char[]){0x0e, 1}, 2);
    put(o, (unsigned char[]){0, 0}, 2);
    le64(o, 0x100000000 + text_off + 0x20);
    size_t at = o->n;
    zeros(o, strsize);
    memcpy(o->p + at + 1, n0, l0);
    memcpy(o->p + at + 2 + l0, n1, l1);
}

static void make_exe(buf *o, unsigned char uuid_last, uint32_t cputype)
{
    make_exe_v(o, uuid_last, cputype, "_alpha", "_beta", 0);
}

static void save(const char *dir, const char *name, const buf *b)
{
    char p[4096];
    snprintf(p, sizeof p, "%s/%s", dir, name);
    write_file(p, b);
}

/* hostile-*.macho: each must give exit 2 with a byte offset, never a crash */
static void hostile(const char *dir)
{
    char cmd[4200];
    snprintf(cmd, sizeof cmd, "mkdir -p '%s'", dir);
    if (system(cmd)) {
        fprintf(stderr, "gen_macho: cannot create %s\n", dir);
        exit(2);
    }
    buf a = {0}, x = {0}, b = {0};
    make_exe(&a, 0x01, 0x0100000C);
    make_exe(&x, 0x02, 0x01000007);
    save(dir, "mini-arm64.macho", &a);
    /* Swift symbol names (ios.md 7) and the platform load commands (ios.md 5.3) */
    buf sw = {0}, vm = {0};
    make_exe_v(&sw, 0x03, 0x0100000C, "_$s5MyApp4ViewC4loadyyF", "_$s5MyApp5ModelV4saveyyF", 1);
    save(dir, "mini-swift.macho", &sw);
    buf sw2 = {0}; /* the next build: same functions, another UUID */
    make_exe_v(&sw2, 0x05, 0x0100000C, "_$s5MyApp4ViewC4loadyyF", "_$s5MyApp5ModelV4saveyyF", 1);
    save(dir, "mini-swift2.macho", &sw2);
    free(sw2.p);
    make_exe_v(&vm, 0x04, 0x0100000C, "_alpha", "_beta", 2);
    save(dir, "mini-vmin.macho", &vm);
    /* LC_BUILD_VERSION whose cmdsize cannot hold its tools */
    buf bv = {0};
    put(&bv, sw.p, sw.n);
    set32(&bv, 32 + 24 + 152 + 24 + 20, 9); /* ntools 9 in a 32-byte command */
    save(dir, "hostile-buildversion.macho", &bv);
    free(sw.p);
    free(vm.p);
    free(bv.p);
    buf sl[2] = {a, x};
    /* a good fat64 file (generated: lipo writes fat64 only when needed) */
    make_fat(&b, sl, 2, 1, 12);
    save(dir, "mini-fat64.macho", &b);
    /* fat: second slice ends beyond the file */
    b.n = 0;
    make_fat(&b, sl, 2, 0, 12);
    buf t = b;
    t.n = b.n - 0x100;
    save(dir, "hostile-fat-trunc.macho", &t);
    /* fat: the second slice overlaps the first */
    buf ov = {0};
    put(&ov, b.p, b.n);
    ov.p[8 + 20 + 8] = ov.p[8 + 8];
    ov.p[8 + 20 + 9] = ov.p[8 + 9];
    ov.p[8 + 20 + 10] = ov.p[8 + 10];
    ov.p[8 + 20 + 11] = (unsigned char)(ov.p[8 + 11] + 0x10);
    save(dir, "hostile-fat-overlap.macho", &ov);
    free(ov.p);
    /* a truncated fat header: 2 slices announced, 1 entry present */
    t.n = 8 + 20;
    save(dir, "hostile-fat-header.macho", &t);
    /* Java class file: CAFEBABE + minor/major version */
    buf j = {0};
    be32(&j, 0xCAFEBABE);
    be32(&j, 0x00000034);
    zeros(&j, 32);
    save(dir, "hostile-java.class", &j);
    /* load command with cmdsize 0 */
    buf c = {0};
    put(&c, a.p, a.n);
    set32(&c, 32 + 4, 0);
    save(dir, "hostile-cmdsize.macho", &c);
    /* load commands overrunning sizeofcmds */
    c.n = 0;
    put(&c, a.p, a.n);
    set32(&c, 20, 40);
    save(dir, "hostile-sizeofcmds.macho", &c);
    /* symbol table beyond the end of the file */
    c.n = 0;
    put(&c, a.p, a.n);
    set32(&c, 32 + 24 + 152 + 8, 0x7fffff00);
    save(dir, "hostile-symoff.macho", &c);
    /* big-endian (PowerPC) Mach-O */
    buf be = {0};
    be32(&be, 0xFEEDFACE);
    be32(&be, 18);
    zeros(&be, 40);
    save(dir, "hostile-bigendian.macho", &be);
    /* a header cut short */
    t = a;
    t.n = 20;
    save(dir, "hostile-short.macho", &t);
    /* a 32-bit armv7 MH_DSYM with a UUID and no DWARF */
    buf m = {0};
    le32(&m, 0xFEEDFACE);
    le32(&m, 12);
    le32(&m, 9);
    le32(&m, 0xA);
    le32(&m, 2);
    le32(&m, 24 + 56);
    le32(&m, 0);
    le32(&m, 0x1B);
    le32(&m, 24);
    unsigned char u32[16] = {0x32, 0x32, 0x32, 0x32, 0, 0, 0x40, 0, 0x80, 0, 0, 0, 0, 0, 0, 0x32};
    put(&m, u32, 16);
    le32(&m, 0x1);
    le32(&m, 56);
    name16(&m, "__TEXT");
    le32(&m, 0x4000);
    le32(&m, 0x1000);
    le32(&m, 0);
    le32(&m, 0);
    le32(&m, 5);
    le32(&m, 5);
    le32(&m, 0);
    le32(&m, 0);
    save(dir, "armv7-dsym.macho", &m);
    free(a.p);
    free(x.p);
    free(b.p);
    free(j.p);
    free(c.p);
    free(be.p);
    free(m.p);
}

int main(int argc, char **argv)
{
    if (argc >= 6 && !strcmp(argv[1], "dsym")) {
        unsigned char uuid[16];
        parse_uuid(uuid, argv[3]);
        size_t nb = (size_t)argc - 6;
        blob *bl = calloc(nb ? nb : 1, sizeof *bl);
        for (size_t i = 0; i < nb; i++) {
            const char *eq = strchr(argv[6 + i], '=');
            if (!eq || eq - argv[6 + i] > 16) {
                fprintf(stderr, "gen_macho: expected NAME=FILE, got %s\n", argv[6 + i]);
                return 2;
            }
            memcpy(bl[i].name, argv[6 + i], (size_t)(eq - argv[6 + i]));
            read_file(&bl[i].data, eq + 1);
        }
        buf o = {0};
        make_dsym(&o, uuid, strtoull(argv[4], NULL, 0), strtoull(argv[5], NULL, 0), bl, nb);
        write_file(argv[2], &o);
        for (size_t i = 0; i < nb; i++)
            free(bl[i].data.p);
        free(bl);
        free(o.p);
        return 0;
    }
    if (argc >= 4 && !strcmp(argv[1], "fat")) {
        int fat64 = 0, i = 3;
        unsigned align = 14;
        for (; i < argc && argv[i][0] == '-'; i++) {
            if (!strcmp(argv[i], "--fat64"))
                fat64 = 1;
            else if (!strcmp(argv[i], "--align") && i + 1 < argc)
                align = (unsigned)atoi(argv[++i]);
        }
        size_t n = (size_t)(argc - i);
        buf *sl = calloc(n ? n : 1, sizeof *sl);
        for (size_t k = 0; k < n; k++)
            read_file(&sl[k], argv[i + (int)k]);
        buf o = {0};
        make_fat(&o, sl, n, fat64, align);
        write_file(argv[2], &o);
        for (size_t k = 0; k < n; k++)
            free(sl[k].p);
        free(sl);
        free(o.p);
        return 0;
    }
    if (argc == 3 && !strcmp(argv[1], "hostile")) {
        hostile(argv[2]);
        return 0;
    }
    fprintf(stderr, "usage: gen_macho dsym OUT UUID TEXT_VMADDR TEXT_VMSIZE [NAME=FILE]...\n"
                    "       gen_macho fat OUT [--fat64] [--align LOG2] SLICE...\n"
                    "       gen_macho hostile DIR\n");
    return 2;
}
