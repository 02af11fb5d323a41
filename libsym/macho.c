/* Mach-O reader: universal (fat, fat64) and thin little-endian 32/64-bit files, load
 * commands, sections, nlist symbols and function starts (spec/ios.md 4.4, 5, 6.4, 6.5).
 * Every length and offset is checked against the file; errors carry the byte offset. */
#include "tsym_int.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

enum {
    MH_MAGIC = 0xFEEDFACEu,
    MH_MAGIC_64 = 0xFEEDFACFu,
    MH_CIGAM = 0xCEFAEDFEu,
    MH_CIGAM_64 = 0xCFFAEDFEu,
    FAT_MAGIC = 0xCAFEBABEu,
    FAT_MAGIC_64 = 0xCAFEBABFu,
    LC_SEGMENT = 0x1,
    LC_SYMTAB = 0x2,
    LC_UUID = 0x1B,
    LC_SEGMENT_64 = 0x19,
    LC_FUNCTION_STARTS = 0x26,
    LC_VERSION_MIN_MACOSX = 0x24,
    LC_VERSION_MIN_IPHONEOS = 0x25,
    LC_VERSION_MIN_TVOS = 0x2F,
    LC_VERSION_MIN_WATCHOS = 0x30,
    LC_BUILD_VERSION = 0x32,
    N_STAB = 0xE0,
    N_TYPE = 0x0E,
    N_SECT = 0x0E,
    N_EXT = 0x01,
    S_ATTR_PURE_INSTRUCTIONS = 0x80000000u,
    S_ATTR_SOME_INSTRUCTIONS = 0x00000400u,
    MAX_SECTS = 65536,
};

static uint32_t le32(const unsigned char *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t le64(const unsigned char *p) { return le32(p) | (uint64_t)le32(p + 4) << 32; }

static uint32_t be32(const unsigned char *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | (uint32_t)p[3];
}

static uint64_t be64(const unsigned char *p) { return (uint64_t)be32(p) << 32 | be32(p + 4); }

/* spec/ios.md 4.4: architecture names of (cpu_type, cpu_subtype & 0x00FFFFFF) */
static const struct {
    uint32_t type, sub;
    const char *name;
} arch_names[] = {
    {0x0100000C, 0, "arm64"},   {0x0100000C, 1, "arm64v8"}, {0x0100000C, 2, "arm64e"},
    {0x0200000C, 1, "arm64_32"}, {12, 9, "armv7"},           {12, 11, "armv7s"},
    {12, 12, "armv7k"},          {0x01000007, 3, "x86_64"},  {0x01000007, 8, "x86_64h"},
    {7, 3, "i386"},
};

static void arch_name(char *out, size_t cap, uint32_t type, uint32_t sub)
{
    sub &= 0x00FFFFFF;
    for (size_t i = 0; i < sizeof arch_names / sizeof arch_names[0]; i++)
        if (arch_names[i].type == type && arch_names[i].sub == sub) {
            snprintf(out, cap, "%s", arch_names[i].name);
            return;
        }
    snprintf(out, cap, "cpu%u.%u", (unsigned)type, (unsigned)sub);
}

/* The cpu_type of a 4.4 name ("cpuT.S" too); 0 when unknown. */
static uint32_t arch_cputype(const char *name)
{
    for (size_t i = 0; i < sizeof arch_names / sizeof arch_names[0]; i++)
        if (!strcmp(arch_names[i].name, name))
            return arch_names[i].type;
    unsigned t, sub;
    char end;
    return sscanf(name, "cpu%u.%u%c", &t, &sub, &end) == 2 ? (uint32_t)t : 0;
}

int tsym_macho_pick(const tsym_macho_slice *sl, size_t n, const char *arch)
{
    if (!arch || !*arch)
        return -1;
    for (size_t i = 0; i < n; i++)
        if (!strcmp(sl[i].arch, arch))
            return (int)i;
    uint32_t t = arch_cputype(arch);
    for (size_t i = 0; t && i < n; i++)
        if (arch_cputype(sl[i].arch) == t)
            return (int)i;
    return -1;
}

/* A universal header's slice count: 1 to FAT_MAX_SLICES. 0xCAFEBABE also starts a Java
 * class file, whose minor (0) and major version (45 for JDK 1.1, and up) read as a slice
 * count of 45 or more: such a header is not Mach-O. */
#define FAT_MAX_SLICES 44
_Static_assert(FAT_MAX_SLICES <= TSYM_MACHO_MAX_SLICES, "slices[] holds every slice");

static int fat_count_ok(uint32_t n)
{
    return n >= 1 && n <= FAT_MAX_SLICES;
}

int tsym__macho_magic(const unsigned char *p, size_t n)
{
    if (n < 4)
        return 0;
    uint32_t l = le32(p), b = be32(p);
    if (l == MH_MAGIC || l == MH_MAGIC_64 || l == MH_CIGAM || l == MH_CIGAM_64)
        return 1; /* big-endian files are recognised to be refused clearly, short ones too */
    /* a universal magic needs its slice count to tell it from a Java class file; fewer
     * than 8 bytes are a truncated universal header (a class file is longer) */
    return (b == FAT_MAGIC || b == FAT_MAGIC_64) && (n < 8 || fat_count_ok(be32(p + 4)));
}

static int bad(tsym__macho *m, uint64_t off, const char *fmt, const char *a, uint64_t x,
               uint64_t y, tt_error *err)
{
    char msg[300];
    snprintf(msg, sizeof msg, fmt, a, (unsigned long long)x, (unsigned long long)y);
    return tt_error_set(err, TT_EFORMAT, m->label, TT_LOC_OFFSET, off, "%s", msg);
}

static int read_fat(tsym__macho *m, tt_error *err)
{
    const unsigned char *d = m->data;
    int is64 = be32(d) == FAT_MAGIC_64;
    uint32_t nfat = be32(d + 4);
    if (!fat_count_ok(nfat))
        return bad(m, 4, "%snot a Mach-O file: universal header with %llu slices (a Java class "
                   "file?)", "", nfat, 0, err);
    uint64_t esz = is64 ? 32 : 20;
    if (8 + nfat * esz > m->size)
        return bad(m, 8, "%sfat header: %llu slice entries end beyond the file size 0x%llx (truncated, or "
                   "a Java class file)", "",
                   nfat, m->size, err);
    m->fat = 1;
    for (uint32_t i = 0; i < nfat; i++) {
        const unsigned char *e = d + 8 + i * esz;
        tsym__mslice *s = &m->slices[i];
        s->cputype = be32(e);
        s->cpusubtype = be32(e + 4);
        s->offset = is64 ? be64(e + 8) : be32(e + 8);
        s->size = is64 ? be64(e + 16) : be32(e + 12);
        uint32_t align = be32(e + (is64 ? 24 : 16));
        uint64_t off = 8 + i * esz;
        char what[32];
        snprintf(what, sizeof what, "%u", (unsigned)(i + 1));
        if (s->offset > m->size || s->size > m->size - s->offset)
            return bad(m, off, "fat header: slice %s ends at 0x%llx beyond the file size 0x%llx",
                       what, s->offset + s->size, m->size, err);
        if (align > 20 || s->offset < 8 + nfat * esz)
            return bad(m, off, "fat header: slice %s has offset 0x%llx, alignment 2^%llu", what,
                       s->offset, align, err);
        for (uint32_t k = 0; k < i; k++) {
            const tsym__mslice *o = &m->slices[k];
            if (s->offset < o->offset + o->size && o->offset < s->offset + s->size)
                return bad(m, off, "fat header: slice %s (at 0x%llx) overlaps slice %llu", what,
                           s->offset, k + 1, err);
        }
        arch_name(s->arch, sizeof s->arch, s->cputype, s->cpusubtype);
    }
    m->n_slices = nfat;
    return 0;
}

static int read_kind(tsym__macho *m, tt_error *err)
{
    if (m->size < 4)
        return bad(m, 0, "%snot a Mach-O file: %llu bytes", "", m->size, 0, err);
    uint32_t l = le32(m->data), b = be32(m->data);
    if (l == MH_CIGAM || l == MH_CIGAM_64)
        return bad(m, 0, "%sbig-endian Mach-O (magic 0x%llx) is not supported", "", b, 0, err);
    if (b == FAT_MAGIC || b == FAT_MAGIC_64) {
        if (m->size < 8)
            return bad(m, 0, "%struncated universal header: %llu bytes", "", m->size, 0, err);
        return read_fat(m, err);
    }
    if (l != MH_MAGIC && l != MH_MAGIC_64)
        return bad(m, 0, "%snot a Mach-O file: magic 0x%08llx", "", l, 0, err);
    if (m->size < (l == MH_MAGIC ? 28u : 32u))
        return bad(m, 0, "%struncated Mach-O header: %llu bytes", "", m->size, 0, err);
    tsym__mslice *s = &m->slices[0];
    s->cputype = le32(m->data + 4);
    s->cpusubtype = le32(m->data + 8);
    s->offset = 0;
    s->size = m->size;
    arch_name(s->arch, sizeof s->arch, s->cputype, s->cpusubtype);
    m->n_slices = 1;
    return 0;
}

int tsym__macho_open_mem(tsym__macho *m, const unsigned char *d, size_t n, const char *label,
                         tt_error *err)
{
    memset(m, 0, sizeof *m);
    m->data = d;
    m->size = n;
    m->label = label;
    return read_kind(m, err);
}

int tsym__macho_open(tsym__macho *m, const char *path, tt_error *err)
{
    memset(m, 0, sizeof *m);
    m->label = path;
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return tt_error_set(err, errno == ENOENT ? TT_ENOTFOUND : TT_EIO, path, TT_LOC_NONE, 0,
                            "%s", strerror(errno));
    struct stat st;
    if (fstat(fd, &st) || !S_ISREG(st.st_mode)) {
        close(fd);
        return tt_error_set(err, TT_EFORMAT, path, TT_LOC_NONE, 0, "not a regular file");
    }
    if (st.st_size > 0) {
        void *p = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
        if (p == MAP_FAILED) {
            close(fd);
            return tt_error_set(err, TT_EIO, path, TT_LOC_NONE, 0, "%s", strerror(errno));
        }
        m->data = p;
        m->size = (size_t)st.st_size;
        m->mapped = 1;
    }
    close(fd);
    return read_kind(m, err);
}

void tsym__macho_close(tsym__macho *m)
{
    free(m->sects);
    m->sects = NULL;
    if (m->mapped && m->data)
        munmap((void *)m->data, m->size);
    m->data = NULL;
    m->mapped = 0;
}

static int fits(uint64_t off, uint64_t len, uint64_t size)
{
    return off <= size && len <= size - off;
}

static void copy_name(char out[17], const unsigned char *p)
{
    memcpy(out, p, 16);
    out[16] = 0;
}

static int read_segment(tsym__macho *m, const unsigned char *c, uint32_t cmdsize, uint64_t at,
                        tt_error *err)
{
    int is64 = m->is64;
    uint32_t hdr = is64 ? 72 : 56, ssz = is64 ? 80 : 68;
    if (cmdsize < hdr)
        return bad(m, at, "%sLC_SEGMENT: cmdsize %llu < %llu", "", cmdsize, hdr, err);
    char seg[17];
    copy_name(seg, c + 8);
    uint64_t vmaddr = is64 ? le64(c + 24) : le32(c + 24);
    uint64_t vmsize = is64 ? le64(c + 32) : le32(c + 28);
    uint32_t nsects = le32(c + (is64 ? 64 : 48));
    if ((uint64_t)nsects * ssz > cmdsize - hdr)
        return bad(m, at, "%sLC_SEGMENT: %llu sections do not fit in cmdsize %llu", "", nsects,
                   cmdsize, err);
    if (!strcmp(seg, "__TEXT") && !m->has_text) {
        m->has_text = 1;
        m->text_vmaddr = vmaddr;
        m->text_vmsize = vmsize;
    }
    if (m->n_sects + nsects > MAX_SECTS)
        return bad(m, at, "%stoo many sections (%llu)", "", m->n_sects + (uint64_t)nsects, 0, err);
    tsym__msect *ns = realloc(m->sects, (m->n_sects + nsects + 1) * sizeof *ns);
    if (!ns)
        return tt_error_set(err, TT_ENOMEM, m->label, TT_LOC_NONE, 0, "out of memory");
    m->sects = ns;
    for (uint32_t i = 0; i < nsects; i++) {
        const unsigned char *s = c + hdr + (uint64_t)i * ssz;
        tsym__msect *o = &m->sects[m->n_sects++];
        copy_name(o->sect, s);
        copy_name(o->seg, s + 16);
        o->addr = is64 ? le64(s + 32) : le32(s + 32);
        o->size = is64 ? le64(s + 40) : le32(s + 36);
        o->offset = le32(s + (is64 ? 48 : 40));
        o->flags = le32(s + (is64 ? 64 : 56));
        o->hdr_off = at + hdr + (uint64_t)i * ssz;
        if (!strcmp(o->seg, "__DWARF")) {
            if (!fits(o->offset, o->size, m->n))
                return bad(m, o->hdr_off, "section %s: data 0x%llx+0x%llx beyond the slice",
                           o->sect, o->offset, o->size, err);
            if (!strcmp(o->sect, "__debug_info") && o->size)
                m->has_dwarf = 1;
        }
    }
    return 0;
}

static int read_command(tsym__macho *m, const unsigned char *c, uint32_t cmd, uint32_t cmdsize,
                        uint64_t at, tt_error *err)
{
    switch (cmd) {
    case LC_SEGMENT:
    case LC_SEGMENT_64:
        if ((cmd == LC_SEGMENT_64) != m->is64)
            return bad(m, at, "%sload command 0x%llx in a %llu-bit file", "", cmd,
                       m->is64 ? 64 : 32, err);
        return read_segment(m, c, cmdsize, at, err);
    case LC_UUID:
        if (cmdsize < 24)
            return bad(m, at, "%sLC_UUID: cmdsize %llu < 24", "", cmdsize, 0, err);
        for (int i = 0; i < 16; i++)
            snprintf(m->uuid + 2 * i, 3, "%02x", c[8 + i]);
        return 0;
    case LC_SYMTAB:
        if (cmdsize < 24)
            return bad(m, at, "%sLC_SYMTAB: cmdsize %llu < 24", "", cmdsize, 0, err);
        m->symoff = le32(c + 8);
        m->nsyms = le32(c + 12);
        m->stroff = le32(c + 16);
        m->strsize = le32(c + 20);
        if (!fits(m->symoff, (uint64_t)m->nsyms * (m->is64 ? 16 : 12), m->n))
            return bad(m, at + 8, "%sLC_SYMTAB: %llu symbols at 0x%llx beyond the slice", "",
                       m->nsyms, m->symoff, err);
        if (!fits(m->stroff, m->strsize, m->n))
            return bad(m, at + 16, "%sLC_SYMTAB: string table at 0x%llx+0x%llx beyond the slice",
                       "", m->stroff, m->strsize, err);
        m->has_symtab = 1;
        return 0;
    case LC_FUNCTION_STARTS:
        if (cmdsize < 16)
            return bad(m, at, "%sLC_FUNCTION_STARTS: cmdsize %llu < 16", "", cmdsize, 0, err);
        m->fs_off = le32(c + 8);
        m->fs_size = le32(c + 12);
        if (!fits(m->fs_off, m->fs_size, m->n))
            return bad(m, at + 8, "%sLC_FUNCTION_STARTS: data at 0x%llx+0x%llx beyond the slice",
                       "", m->fs_off, m->fs_size, err);
        return 0;
    case LC_BUILD_VERSION: /* platform, minos, sdk, ntools, then ntools x (tool, version) */
        if (cmdsize < 24)
            return bad(m, at, "%sLC_BUILD_VERSION: cmdsize %llu < 24", "", cmdsize, 0, err);
        if (24 + 8 * (uint64_t)le32(c + 20) > cmdsize)
            return bad(m, at + 20, "%sLC_BUILD_VERSION: %llu tools do not fit in cmdsize %llu",
                       "", le32(c + 20), cmdsize, err);
        m->platform = le32(c + 8);
        m->minos = le32(c + 12);
        m->sdk = le32(c + 16);
        return 0;
    case LC_VERSION_MIN_MACOSX:
    case LC_VERSION_MIN_IPHONEOS:
    case LC_VERSION_MIN_TVOS:
    case LC_VERSION_MIN_WATCHOS:
        if (cmdsize < 16)
            return bad(m, at, "%sLC_VERSION_MIN_*: cmdsize %llu < 16", "", cmdsize, 0, err);
        if (m->platform)
            return 0; /* LC_BUILD_VERSION wins */
        m->platform = cmd == LC_VERSION_MIN_MACOSX ? 1 : cmd == LC_VERSION_MIN_IPHONEOS ? 2
                      : cmd == LC_VERSION_MIN_TVOS ? 3 : 4;
        m->minos = le32(c + 8);
        m->sdk = le32(c + 12);
        return 0;
    default:
        return 0;
    }
}

/* PLATFORM_* numbers of <mach-o/loader.h> (LLVM 14's MachO.h), as lowercase names. */
static const char *platform_name(uint32_t p)
{
    static const char *const names[] = {NULL, "macos", "ios", "tvos", "watchos", "bridgeos",
                                        "maccatalyst", "iossimulator", "tvossimulator",
                                        "watchossimulator", "driverkit"};
    return p < sizeof names / sizeof names[0] ? names[p] : NULL;
}

static int put_version(char *out, size_t cap, uint32_t v)
{
    if (v & 0xff)
        return snprintf(out, cap, "%u.%u.%u", v >> 16, (v >> 8) & 0xff, v & 0xff);
    return snprintf(out, cap, "%u.%u", v >> 16, (v >> 8) & 0xff);
}

void tsym__macho_platform(char *out, size_t cap, const tsym__macho *m)
{
    out[0] = 0;
    if (!m->platform || cap < 32)
        return;
    const char *n = platform_name(m->platform);
    char mv[16], sv[16];
    put_version(mv, sizeof mv, m->minos);
    put_version(sv, sizeof sv, m->sdk);
    if (n)
        snprintf(out, cap, "%s %s sdk %s", n, mv, sv);
    else
        snprintf(out, cap, "platform %u %s sdk %s", m->platform, mv, sv);
}

int tsym__macho_select(tsym__macho *m, size_t i, tt_error *err)
{
    const tsym__mslice *s = &m->slices[i];
    free(m->sects);
    m->sects = NULL;
    m->n_sects = 0;
    m->has_text = m->has_symtab = m->has_dwarf = 0;
    m->platform = m->minos = m->sdk = 0;
    m->uuid[0] = 0;
    m->fs_size = 0;
    m->p = m->data + s->offset;
    m->n = s->size;
    m->slice_off = s->offset;
    snprintf(m->arch, sizeof m->arch, "%s", s->arch);
    uint64_t base = s->offset;
    if (m->n < 28)
        return bad(m, base, "%struncated Mach-O header: %llu bytes", "", m->n, 0, err);
    uint32_t magic = le32(m->p);
    if (magic == MH_CIGAM || magic == MH_CIGAM_64)
        return bad(m, base, "%sbig-endian Mach-O (magic 0x%llx) is not supported", "",
                   be32(m->p), 0, err);
    if (magic != MH_MAGIC && magic != MH_MAGIC_64)
        return bad(m, base, "%snot a Mach-O slice: magic 0x%08llx", "", magic, 0, err);
    m->is64 = magic == MH_MAGIC_64;
    uint32_t hsz = m->is64 ? 32 : 28;
    if (m->n < hsz)
        return bad(m, base, "%struncated Mach-O header: %llu bytes", "", m->n, 0, err);
    m->cputype = le32(m->p + 4);
    m->cpusubtype = le32(m->p + 8);
    m->filetype = le32(m->p + 12);
    uint32_t ncmds = le32(m->p + 16), sizeofcmds = le32(m->p + 20);
    if (!fits(hsz, sizeofcmds, m->n))
        return bad(m, base + 20, "%ssizeofcmds 0x%llx beyond the slice size 0x%llx", "",
                   sizeofcmds, m->n, err);
    uint64_t off = hsz, end = hsz + (uint64_t)sizeofcmds;
    for (uint32_t k = 0; k < ncmds; k++) {
        if (end - off < 8)
            return bad(m, base + off, "%sload command %llu beyond sizeofcmds 0x%llx", "", k + 1,
                       sizeofcmds, err);
        uint32_t cmd = le32(m->p + off), cmdsize = le32(m->p + off + 4);
        if (cmdsize < 8 || cmdsize % (m->is64 ? 8 : 4) || cmdsize > end - off)
            return bad(m, base + off, "%sload command %llu: bad cmdsize 0x%llx", "", k + 1,
                       cmdsize, err);
        int rc = read_command(m, m->p + off, cmd & ~0x80000000u, cmdsize, base + off, err);
        if (rc)
            return rc;
        off += cmdsize;
    }
    m->selected = 1;
    return 0;
}

int tsym__macho_find(const tsym__macho *m, const char *arch, const char *uuid)
{
    for (size_t i = 0; i < m->n_slices; i++) {
        if (arch && !strcmp(m->slices[i].arch, arch))
            return (int)i;
        if (uuid) {
            tsym__macho tmp = *m;
            tmp.sects = NULL;
            tt_error e;
            int ok = tsym__macho_select(&tmp, i, &e) == 0 && !strcmp(tmp.uuid, uuid);
            free(tmp.sects);
            if (ok)
                return (int)i;
        }
    }
    return -1;
}

int tsym__macho_text_load(tsym__index *ix, const tsym__macho *m)
{
    if (!m->has_text)
        return 0;
    tsym__load l = {.vaddr = m->text_vmaddr, .memsz = m->text_vmsize, .offset = 0,
                    .filesz = m->text_vmsize, .exec = 1};
    return tt_vec_push(&ix->loads, &l) ? 0 : TT_ENOMEM;
}

static int code_section(const tsym__macho *m, uint8_t n_sect)
{
    if (n_sect == 0 || n_sect > m->n_sects)
        return 0;
    const tsym__msect *s = &m->sects[n_sect - 1];
    return !strcmp(s->seg, "__TEXT") &&
           ((s->flags & (S_ATTR_PURE_INSTRUCTIONS | S_ATTR_SOME_INSTRUCTIONS)) ||
            !strcmp(s->sect, "__text"));
}

/* assembler-local labels (spec/ios.md 6.5) */
static int local_label(const char *n)
{
    return !strncmp(n, "ltmp", 4) || !strncmp(n, "l_", 2) || n[0] == 'L';
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* LC_FUNCTION_STARTS into ix->fstarts (sorted), for images without symbols (spec 6.5) */
static int function_starts(tsym__index *ix, const tsym__macho *m)
{
    if (!m->fs_size || !m->has_text || ix->fstarts.len)
        return 0;
    const unsigned char *p = m->p + m->fs_off, *end = p + m->fs_size;
    uint64_t a = m->text_vmaddr;
    while (p < end) {
        uint64_t delta = 0;
        unsigned shift = 0;
        while (p < end && shift < 64) {
            delta |= (uint64_t)(*p & 0x7f) << shift;
            shift += 7;
            if (!(*p++ & 0x80))
                break;
        }
        if (delta == 0)
            break;
        a += delta;
        if (!tt_vec_push(&ix->fstarts, &a))
            return TT_ENOMEM;
    }
    if (ix->fstarts.len)
        qsort(ix->fstarts.data, ix->fstarts.len, sizeof(uint64_t), cmp_u64);
    return 0;
}

/* Sorted function starts: symbol addresses, LC_FUNCTION_STARTS (ix->fstarts), section
 * ends. */
static int bounds(tt_vec *v, const tsym__macho *m, const tsym__index *ix, size_t first)
{
    const tsym__sym *s = ix->syms.data;
    for (size_t i = first; i < ix->syms.len; i++)
        if (!tt_vec_push(v, &s[i].lo))
            return TT_ENOMEM;
    for (uint32_t i = 0; i < m->n_sects; i++) {
        uint64_t e = m->sects[i].addr + m->sects[i].size;
        if (!strcmp(m->sects[i].seg, "__TEXT") && !tt_vec_push(v, &e))
            return TT_ENOMEM;
    }
    for (size_t i = 0; i < ix->fstarts.len; i++)
        if (!tt_vec_push(v, &TT_VEC_AT(&ix->fstarts, uint64_t, i)))
            return TT_ENOMEM;
    if (v->len)
        qsort(v->data, v->len, sizeof(uint64_t), cmp_u64);
    return 0;
}

int tsym__macho_syms(tsym__index *ix, const tsym__macho *m, tt_error *err)
{
    if (!m->has_symtab)
        return function_starts(ix, m) ? tt_error_set(err, TT_ENOMEM, m->label, TT_LOC_NONE, 0,
                                                     "out of memory")
                                      : 0;
    size_t first = ix->syms.len, esz = m->is64 ? 16 : 12;
    const char *strs = (const char *)m->p + m->stroff;
    for (uint32_t i = 0; i < m->nsyms; i++) {
        const unsigned char *e = m->p + m->symoff + (size_t)i * esz;
        uint32_t strx = le32(e);
        uint8_t type = e[4], sect = e[5];
        if ((type & N_STAB) || (type & N_TYPE) != N_SECT || !code_section(m, sect) ||
            strx >= m->strsize)
            continue;
        const char *name = strs + strx;
        size_t len = strnlen(name, m->strsize - strx);
        if (len == m->strsize - strx || len == 0)
            continue; /* unterminated or empty */
        if (name[0] == '_' && len > 1) { /* spec 6.4: one leading underscore */
            name++;
            len--;
        }
        if (local_label(name))
            continue;
        tsym__sym s = {.lo = m->is64 ? le64(e + 8) : le32(e + 8), .file = TSYM_NONE,
                       .global = (type & N_EXT) != 0, .name_len = (uint32_t)len};
        if (m->cputype == 12)
            s.lo &= ~(uint64_t)1; /* 32-bit ARM: the Thumb bit */
        const tsym__msect *sec = &m->sects[sect - 1];
        if (s.lo < sec->addr || s.lo - sec->addr >= sec->size)
            continue; /* outside its section: __mh_execute_header (the Mach-O header) */
        if (tsym__str_intern(&s.name, &ix->str, name, len) || !tt_vec_push(&ix->syms, &s))
            return tt_error_set(err, TT_ENOMEM, m->label, TT_LOC_NONE, 0, "out of memory");
    }
    /* Mach-O symbols have no size: up to the next function start (spec 5.4) */
    tt_vec b;
    tt_vec_init(&b, sizeof(uint64_t));
    if (function_starts(ix, m) || bounds(&b, m, ix, first)) {
        tt_vec_free(&b);
        return tt_error_set(err, TT_ENOMEM, m->label, TT_LOC_NONE, 0, "out of memory");
    }
    tsym__sym *s = ix->syms.data;
    for (size_t i = first; i < ix->syms.len; i++) {
        size_t k = tsym__count_le(b.data, b.len, sizeof(uint64_t), s[i].lo);
        s[i].size = k < b.len ? TT_VEC_AT(&b, uint64_t, k) - s[i].lo : 1;
    }
    tt_vec_free(&b);
    return 0;
}

/* Mach-O section names to the ELF names libdwarf looks for (spec/ios.md 6.2) */
static const char *const dwarf_names[][2] = {
    {"__debug_abbrev", ".debug_abbrev"},     {"__debug_aranges", ".debug_aranges"},
    {"__debug_info", ".debug_info"},         {"__debug_line", ".debug_line"},
    {"__debug_str", ".debug_str"},           {"__debug_loc", ".debug_loc"},
    {"__debug_ranges", ".debug_ranges"},     {"__debug_frame", ".debug_frame"},
    {"__debug_macinfo", ".debug_macinfo"},   {"__debug_macro", ".debug_macro"},
    {"__debug_pubnames", ".debug_pubnames"}, {"__debug_pubtypes", ".debug_pubtypes"},
    {"__debug_addr", ".debug_addr"},         {"__debug_str_offs", ".debug_str_offsets"},
    {"__debug_line_str", ".debug_line_str"}, {"__debug_rnglists", ".debug_rnglists"},
    {"__debug_loclists", ".debug_loclists"}, {"__debug_names", ".debug_names"},
};

/* .debug_rnglists / .debug_loclists unit headers (DWARF 5, 7.28-7.29) all inside the
 * section. libdwarf 20210528 frees memory twice when it meets a bad header while loading
 * them (found by fuzz_macho), so such a section is not handed over. */
static int lists_ok(const unsigned char *p, uint64_t n)
{
    uint64_t off = 0;
    while (off < n) {
        if (n - off < 12)
            return 0;
        uint64_t len = le32(p + off), hdr = 4;
        if (len == 0xffffffffu) {
            if (n - off < 20)
                return 0;
            len = le64(p + off + 4);
            hdr = 12;
        } else if (len >= 0xfffffff0u) {
            return 0;
        }
        unsigned osz = hdr == 4 ? 4 : 8;
        if (len < 8 || len > n - off - hdr)
            return 0;
        const unsigned char *h = p + off + hdr;
        uint32_t version = (uint32_t)h[0] | (uint32_t)h[1] << 8, count = le32(h + 4);
        if (version != 5 || (h[2] != 4 && h[2] != 8) || h[3] != 0 ||
            (uint64_t)count * osz > len - 8)
            return 0;
        off += hdr + len;
    }
    return 1;
}

int tsym__macho_dwarf(tsym__index *ix, const tsym__macho *m, tt_error *err)
{
    size_t nn = sizeof dwarf_names / sizeof dwarf_names[0];
    tsym__osect secs[sizeof dwarf_names / sizeof dwarf_names[0]];
    size_t n = 0;
    for (uint32_t i = 0; i < m->n_sects; i++) {
        const tsym__msect *s = &m->sects[i];
        if (strcmp(s->seg, "__DWARF"))
            continue;
        for (size_t k = 0; k < nn; k++) {
            if (strncmp(s->sect, dwarf_names[k][0], 16))
                continue;
            int dup = 0;
            for (size_t j = 0; j < n; j++)
                dup |= secs[j].name == dwarf_names[k][1];
            int lists = !strcmp(s->sect, "__debug_rnglists") || !strcmp(s->sect, "__debug_loclists");
            if (lists && !lists_ok(m->p + s->offset, s->size))
                dup = 1; /* left out: ranges and locations of this file are lost */
            if (!dup && n < nn)
                secs[n++] = (tsym__osect){dwarf_names[k][1], s->addr, s->size, m->p + s->offset};
        }
    }
    return tsym__dwarf_load_sections(ix, secs, n, m->is64 ? 8 : 4, m->label, err);
}

int tsym_macho_slices(tsym_macho_slice *out, size_t cap, size_t *n, const char *path,
                      tt_error *err)
{
    *n = 0;
    tsym__macho m;
    int rc = tsym__macho_open(&m, path, err);
    for (size_t i = 0; !rc && i < m.n_slices; i++) {
        if ((rc = tsym__macho_select(&m, i, err)))
            break;
        if (i < cap) {
            tsym_macho_slice *s = &out[i];
            snprintf(s->arch, sizeof s->arch, "%s", m.arch);
            snprintf(s->uuid, sizeof s->uuid, "%s", m.uuid);
            s->filetype = m.filetype;
            s->has_dwarf = m.has_dwarf;
            tsym__macho_platform(s->platform, sizeof s->platform, &m);
            s->offset = m.slice_off;
            s->size = m.n;
        }
        *n = i + 1;
    }
    tsym__macho_close(&m);
    return rc;
}

void tsym_macho_slice_list(char *out, size_t cap, const tsym_macho_slice *sl, size_t n)
{
    size_t k = 0;
    out[0] = 0;
    for (size_t i = 0; i < n && k < cap; i++) {
        const char *pf = sl[i].platform;
        int r = snprintf(out + k, cap - k, "%s%s%s%s%s", i ? ", " : "", sl[i].arch,
                         pf[0] ? " (" : "", pf, pf[0] ? ")" : "");
        if (r < 0)
            break;
        k += (size_t)r;
    }
}

int tsym_dsym_file(char *out, size_t cap, const char *path)
{
    struct stat st;
    if (stat(path, &st))
        return TT_ENOTFOUND;
    if (!S_ISDIR(st.st_mode)) {
        snprintf(out, cap, "%s", path);
        return 0;
    }
    char dir[4096];
    int r = snprintf(dir, sizeof dir, "%s/Contents/Resources/DWARF", path);
    if (r < 0 || (size_t)r >= sizeof dir)
        return TT_ENOTFOUND;
    DIR *d = opendir(dir);
    if (!d)
        return TT_ENOTFOUND;
    struct dirent *de;
    char best[256] = "";
    while ((de = readdir(d)))
        if (de->d_name[0] != '.' && (!best[0] || strcmp(de->d_name, best) < 0))
            snprintf(best, sizeof best, "%s", de->d_name);
    closedir(d);
    if (!best[0])
        return TT_ENOTFOUND;
    r = snprintf(out, cap, "%s/%s", dir, best);
    return r < 0 || (size_t)r >= cap ? TT_ENOTFOUND : 0;
}

int tsym__macho_file(const char *path)
{
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return 0;
    unsigned char b[8];
    ssize_t n = read(fd, b, sizeof b);
    close(fd);
    return n > 0 && tsym__macho_magic(b, (size_t)n);
}

int tsym__macho_split(char *file, size_t fcap, char *arch, size_t acap, const char *path)
{
    arch[0] = 0;
    char f[4096];
    if (!tsym_dsym_file(f, sizeof f, path) && tsym__macho_file(f)) {
        snprintf(file, fcap, "%s", f);
        return 1;
    }
    const char *c = strrchr(path, ':');
    if (!c || c == path || !c[1] || strchr(c, '/'))
        return 0;
    /* FILE:ARCH or BUNDLE.dSYM:ARCH (the bundle's DWARF file) */
    int r = snprintf(f, sizeof f, "%.*s", (int)(c - path), path);
    if (r < 0 || (size_t)r >= sizeof f || tsym_dsym_file(file, fcap, f))
        return 0;
    /* an existing file with an architecture name after it is meant as Mach-O: opening it
     * names its defect (too short, not Mach-O), never "no such file" */
    struct stat st;
    if (!tsym__macho_file(file) && (stat(file, &st) || !S_ISREG(st.st_mode) ||
                                    !arch_cputype(c + 1)))
        return 0;
    snprintf(arch, acap, "%s", c + 1);
    return 1;
}
