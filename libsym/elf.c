/* ELF facts with libelf: build id, program headers, debug sections, .gnu_debuglink and
 * the function symbol table (spec/symbolication.md sections 3.2, 4.1, 4.4, 5.2 step 11). */
#include "tsym_int.h"

#include <errno.h>
#include <fcntl.h>
#include <gelf.h>
#include <libelf.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zstd.h>

#ifndef ELFCOMPRESS_ZSTD
#define ELFCOMPRESS_ZSTD 2 /* not in bookworm's <elf.h> (spec 4.4) */
#endif

/* Section and program header tables must lie inside the file (truncated downloads). */
static int check_tables(const GElf_Ehdr *eh, uint64_t size, const char *path, tt_error *err)
{
    uint64_t sh_end = eh->e_shoff + (uint64_t)eh->e_shnum * eh->e_shentsize;
    uint64_t ph_end = eh->e_phoff + (uint64_t)eh->e_phnum * eh->e_phentsize;
    if ((eh->e_shoff && sh_end > size) || (eh->e_phoff && ph_end > size))
        return tt_error_set(err, TT_EFORMAT, path, TT_LOC_OFFSET,
                            sh_end > size ? eh->e_shoff : eh->e_phoff,
                            "truncated ELF file: header tables end at 0x%llx, file size 0x%llx",
                            (unsigned long long)(sh_end > size ? sh_end : ph_end),
                            (unsigned long long)size);
    return 0;
}

/* Whether the bytes of section sh lie inside a file of fsize bytes (SHT_NOBITS and empty
 * sections have none in the file). A section that does not is never read: the others are. */
static int scn_fits(const GElf_Shdr *sh, uint64_t fsize)
{
    return sh->sh_type == SHT_NOBITS || !sh->sh_size ||
           (sh->sh_offset <= fsize && sh->sh_size <= fsize - sh->sh_offset);
}

/* Whether section index i exists and fits (a symbol table's string table, sh_link) */
static int link_fits(Elf *elf, size_t i, uint64_t fsize)
{
    GElf_Shdr sh;
    Elf_Scn *scn = i && i < SHN_LORESERVE ? elf_getscn(elf, i) : NULL;
    return scn && gelf_getshdr(scn, &sh) && scn_fits(&sh, fsize);
}

/* Appends "PATH:0xOFF: section N (NAME) of 0xS bytes runs past the end of the file (0xF
 * bytes): not read" to e->bad_secs (what does not fit is cut, never half a path); the
 * first BAD_SECS_NAMED of a file are named, the others counted */
#define BAD_SECS_NAMED 3
static void note_bad_section(tsym__elf *e, const char *path, size_t ndx, const char *name,
                             const GElf_Shdr *sh, uint64_t fsize)
{
    size_t n = strlen(e->bad_secs);
    char one[sizeof e->bad_secs];
    int k = snprintf(one, sizeof one,
                     "%s%s:0x%llx: section %zu%s%.64s%s of 0x%llx bytes runs past the end "
                     "of the file (0x%llx bytes): not read", n ? "; " : "", path,
                     (unsigned long long)sh->sh_offset, ndx, name && *name ? " (" : "",
                     name ? name : "", name && *name ? ")" : "",
                     (unsigned long long)sh->sh_size, (unsigned long long)fsize);
    if (k > 0 && (size_t)k < sizeof e->bad_secs - n)
        memcpy(e->bad_secs + n, one, (size_t)k + 1);
    else if (n >= 5 && n + 6 < sizeof e->bad_secs && strcmp(e->bad_secs + n - 5, "; ..."))
        memcpy(e->bad_secs + n, "; ...", 6); /* more than fits */
}

static int open_elf(Elf **out, int *fd, const char *path, tt_error *err)
{
    if (elf_version(EV_CURRENT) == EV_NONE)
        return tt_error_set(err, TT_EIO, path, TT_LOC_NONE, 0, "libelf initialisation failed");
    *fd = open(path, O_RDONLY | O_CLOEXEC);
    if (*fd < 0)
        return tt_error_set(err, errno == ENOENT ? TT_ENOTFOUND : TT_EIO, path, TT_LOC_NONE, 0,
                            "%s", strerror(errno));
    struct stat st;
    if (fstat(*fd, &st) || !S_ISREG(st.st_mode)) {
        close(*fd);
        return tt_error_set(err, TT_EFORMAT, path, TT_LOC_NONE, 0, "not a regular file");
    }
    unsigned char head[4096];
    ssize_t k = pread(*fd, head, sizeof head, 0);
    /* the ELF header: 52 bytes (ELFCLASS32), 64 (ELFCLASS64) */
    uint64_t need = k > EI_CLASS && head[EI_CLASS] == ELFCLASS64 ? 64 : 52;
    if (k >= 4 && !memcmp(head, "\177ELF", 4) && (uint64_t)st.st_size < need) {
        close(*fd);
        return tt_error_set(err, TT_EFORMAT, path, TT_LOC_OFFSET, 0,
                            "truncated ELF file: expected a %llu-byte ELF header, the file "
                            "ends at 0x%llx", (unsigned long long)need,
                            (unsigned long long)st.st_size);
    }
    if (k >= 3 && !memcmp(head, "\x1f\x8b\x08", 3)) { /* libelf maps the file as it is */
        close(*fd);
        return tt_error_set(err, TT_EFORMAT, path, TT_LOC_OFFSET, 0,
                            "a gzip-compressed file, not an ELF or Mach-O file: decompress it "
                            "first");
    }
    if (k < 4 || memcmp(head, "\177ELF", 4)) {
        close(*fd);
        const char *what = k > 0 ? tt_detect_foreign(head, (size_t)k) : NULL;
        return tt_error_set(err, TT_EFORMAT, path, TT_LOC_OFFSET, 0,
                            "not an ELF or Mach-O file%s%s", what ? ": " : "", what ? what : "");
    }
    *out = elf_begin(*fd, ELF_C_READ_MMAP, NULL);
    if (!*out || elf_kind(*out) != ELF_K_ELF) {
        if (*out)
            elf_end(*out);
        close(*fd);
        return tt_error_set(err, TT_EFORMAT, path, TT_LOC_OFFSET, 0, "bad ELF file: %s",
                            elf_errmsg(-1));
    }
    return 0;
}

static void hex_encode(char *dst, size_t cap, const unsigned char *p, size_t n)
{
    static const char digits[] = "0123456789abcdef";
    size_t j = 0;
    for (size_t i = 0; i < n && j + 2 < cap; i++) {
        dst[j++] = digits[p[i] >> 4];
        dst[j++] = digits[p[i] & 15];
    }
    dst[j] = 0;
}

/* NT_GNU_BUILD_ID (type 3, owner "GNU") in one note data block */
static int note_build_id(char *hex, size_t cap, Elf_Data *d)
{
    GElf_Nhdr nh;
    size_t off = 0, name_off, desc_off, next;
    while (d && off < d->d_size && (next = gelf_getnote(d, off, &nh, &name_off, &desc_off)) > 0) {
        if (nh.n_type == NT_GNU_BUILD_ID && nh.n_namesz == 4 && nh.n_descsz > 0 &&
            nh.n_descsz <= 64 && !memcmp((const char *)d->d_buf + name_off, "GNU", 4)) {
            hex_encode(hex, cap, (const unsigned char *)d->d_buf + desc_off, nh.n_descsz);
            return 1;
        }
        off = next;
    }
    return 0;
}

/* .gnu_debugaltlink (dwz -m): the supplementary file's name, NUL, its build id bytes */
static void read_altlink(tsym__elf *e, Elf_Scn *scn)
{
    Elf_Data *d = elf_rawdata(scn, NULL);
    if (!d || !d->d_buf || d->d_size < 2)
        return;
    const unsigned char *p = d->d_buf;
    size_t n = strnlen((const char *)p, d->d_size);
    if (n == 0 || n >= sizeof e->altlink || n + 1 >= d->d_size)
        return;
    memcpy(e->altlink, p, n);
    e->altlink[n] = 0;
    size_t k = 0;
    for (size_t i = n + 1; i < d->d_size && k + 2 < sizeof e->alt_build_id; i++, k += 2)
        snprintf(e->alt_build_id + k, 3, "%02x", p[i]);
    e->alt_build_id[k] = 0;
}

static void read_debuglink(tsym__elf *e, Elf_Scn *scn, int big_endian)
{
    Elf_Data *d = elf_rawdata(scn, NULL);
    if (!d || !d->d_buf || d->d_size < 8)
        return;
    const unsigned char *p = d->d_buf;
    size_t n = strnlen((const char *)p, d->d_size);
    size_t crc_off = (n + 4) & ~(size_t)3;
    if (n == 0 || n >= sizeof e->debuglink || crc_off + 4 > d->d_size)
        return;
    memcpy(e->debuglink, p, n);
    e->debuglink[n] = 0;
    const unsigned char *c = p + crc_off;
    e->debuglink_crc = big_endian ? (uint32_t)c[0] << 24 | (uint32_t)c[1] << 16 |
                                        (uint32_t)c[2] << 8 | c[3]
                                  : (uint32_t)c[3] << 24 | (uint32_t)c[2] << 16 |
                                        (uint32_t)c[1] << 8 | c[0];
}

/* AArch64/ARM mapping symbols ($x, $d, $a, $t, with optional ".suffix") */
static int mapping_symbol(const char *n)
{
    return n[0] == '$' && strchr("xdat", n[1]) && n[1] && (n[2] == 0 || n[2] == '.');
}

/* The bytes from a to the end of section shndx when a lies inside it, else 0 (unknown):
 * how far a function symbol of size 0 may extend at most */
static uint64_t section_room(Elf *elf, size_t shndx, uint64_t a)
{
    GElf_Shdr sh;
    Elf_Scn *scn = shndx && shndx < SHN_LORESERVE ? elf_getscn(elf, shndx) : NULL;
    if (!scn || !gelf_getshdr(scn, &sh) || a < sh.sh_addr || a - sh.sh_addr >= sh.sh_size)
        return 0;
    return sh.sh_size - (a - sh.sh_addr);
}

static int read_symbols(tsym__index *ix, Elf *elf, Elf_Scn *scn, int arm)
{
    GElf_Shdr sh;
    if (!gelf_getshdr(scn, &sh) || sh.sh_entsize == 0)
        return 0;
    Elf_Data *d = elf_getdata(scn, NULL);
    if (!d)
        return 0;
    size_t n = sh.sh_size / sh.sh_entsize;
    uint32_t file = TSYM_NONE;
    for (size_t i = 0; i < n; i++) {
        GElf_Sym s;
        if (!gelf_getsym(d, (int)i, &s))
            break;
        int type = GELF_ST_TYPE(s.st_info);
        if (type == STT_FILE) {
            /* local symbols follow the STT_FILE of their object file */
            const char *fn = elf_strptr(elf, sh.sh_link, s.st_name);
            file = TSYM_NONE;
            if (fn && *fn && tsym__str_intern(&file, &ix->str, fn, strlen(fn)))
                return TT_ENOMEM;
            continue;
        }
        int label = type == STT_NOTYPE;
        if ((type != STT_FUNC && type != STT_GNU_IFUNC && !label) || s.st_shndx == SHN_UNDEF)
            continue;
        const char *name = elf_strptr(elf, sh.sh_link, s.st_name);
        if (!name || !*name || mapping_symbol(name))
            continue;
        if (label) { /* for --nearest-symbol only; st_size is the symbol-table order here */
            tsym__sym l = {.lo = s.st_value, .size = i, .file = TSYM_NONE,
                           .global = GELF_ST_BIND(s.st_info) != STB_LOCAL,
                           .shndx = (uint16_t)s.st_shndx};
            l.name_len = (uint32_t)strlen(name);
            if (section_room(elf, s.st_shndx, l.lo) &&
                (tsym__str_intern(&l.name, &ix->str, name, l.name_len) ||
                 !tt_vec_push(&ix->nsyms, &l)))
                return TT_ENOMEM;
            continue;
        }
        tsym__sym sym = {.lo = s.st_value, .size = s.st_size,
                         .shndx = s.st_shndx < SHN_LORESERVE ? (uint16_t)s.st_shndx : 0,
                         .global = GELF_ST_BIND(s.st_info) != STB_LOCAL};
        sym.file = sym.global ? TSYM_NONE : file;
        if (arm)
            sym.lo &= ~(uint64_t)1; /* Thumb bit */
        if (s.st_size == 0) {
            sym.unsized = 1;
            sym.size = section_room(elf, s.st_shndx, sym.lo);
        }
        sym.name_len = (uint32_t)strlen(name);
        if (tsym__str_intern(&sym.name, &ix->str, name, sym.name_len) ||
            !tt_vec_push(&ix->syms, &sym))
            return TT_ENOMEM;
    }
    return 0;
}

static int read_loads(tsym__index *ix, Elf *elf)
{
    size_t n;
    if (elf_getphdrnum(elf, &n))
        return 0;
    for (size_t i = 0; i < n; i++) {
        GElf_Phdr ph;
        if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_LOAD)
            continue;
        tsym__load l = {.vaddr = ph.p_vaddr, .memsz = ph.p_memsz, .offset = ph.p_offset,
                        .filesz = ph.p_filesz, .exec = (ph.p_flags & PF_X) != 0};
        if (!tt_vec_push(&ix->loads, &l))
            return TT_ENOMEM;
    }
    return 0;
}

static void build_id_from_phdrs(tsym__elf *e, Elf *elf)
{
    size_t n;
    if (elf_getphdrnum(elf, &n))
        return;
    for (size_t i = 0; i < n && !e->build_id[0]; i++) {
        GElf_Phdr ph;
        if (!gelf_getphdr(elf, (int)i, &ph) || ph.p_type != PT_NOTE)
            continue;
        Elf_Data *d = elf_getdata_rawchunk(elf, (int64_t)ph.p_offset, ph.p_filesz, ELF_T_NHDR);
        note_build_id(e->build_id, sizeof e->build_id, d);
    }
}

static int is_debug_name(const char *n)
{
    return !strncmp(n, ".debug_", 7) || !strncmp(n, ".zdebug_", 8);
}

/* The code sections of a relocatable object seen so far (the first CODE_SECS_MAX) */
#define CODE_SECS_MAX 64
typedef struct code_secs {
    uint64_t lo[CODE_SECS_MAX], hi[CODE_SECS_MAX];
    char name[CODE_SECS_MAX][48];
    size_t n;
} code_secs;

/* Notes in e->rel_overlap the first two code sections that share an address: in a
 * relocatable object every section starts at its own address 0, so with several code
 * sections (-ffunction-sections, .text.startup, COMDAT groups) an address names no one
 * function and its line could be another section's. */
static void code_overlap(tsym__elf *e, code_secs *cs, const GElf_Shdr *sh, const char *name)
{
    if (!(sh->sh_flags & SHF_EXECINSTR) || sh->sh_type == SHT_NOBITS || !sh->sh_size ||
        sh->sh_addr > UINT64_MAX - sh->sh_size)
        return;
    uint64_t lo = sh->sh_addr, hi = sh->sh_addr + sh->sh_size;
    for (size_t i = 0; i < cs->n && !e->rel_overlap[0]; i++)
        if (lo < cs->hi[i] && cs->lo[i] < hi)
            snprintf(e->rel_overlap, sizeof e->rel_overlap,
                     "sections %.48s and %.48s both hold address 0x%llx", cs->name[i],
                     name ? name : "?", (unsigned long long)(lo > cs->lo[i] ? lo : cs->lo[i]));
    if (cs->n < CODE_SECS_MAX) {
        cs->lo[cs->n] = lo;
        cs->hi[cs->n] = hi;
        snprintf(cs->name[cs->n], sizeof cs->name[0], "%s", name ? name : "?");
        cs->n++;
    }
}

int tsym__elf_read(tsym__elf *e, tsym__index *ix, int want_syms, const char *path,
                   tt_error *err)
{
    memset(e, 0, sizeof *e);
    Elf *elf = NULL;
    int fd = -1, rc = 0;
    if ((rc = open_elf(&elf, &fd, path, err)))
        return rc;
    GElf_Ehdr eh;
    if (!gelf_getehdr(elf, &eh)) {
        rc = tt_error_set(err, TT_EFORMAT, path, TT_LOC_OFFSET, 0, "bad ELF header: %s",
                          elf_errmsg(-1));
        goto out;
    }
    struct stat st;
    if (fstat(fd, &st) || (rc = check_tables(&eh, (uint64_t)st.st_size, path, err)))
        goto out;
    e->elf_class = eh.e_ident[EI_CLASS] == ELFCLASS32 ? 32 : 64;
    e->big_endian = eh.e_ident[EI_DATA] == ELFDATA2MSB;
    e->elf_type = eh.e_type;
    size_t shstrndx = 0;
    int have_shstr = elf_getshdrstrndx(elf, &shstrndx) == 0;
    Elf_Scn *scn = NULL, *symtab = NULL, *dynsym = NULL;
    code_secs cs = {0};
    uint64_t fsize = (uint64_t)st.st_size;
    size_t n_bad = 0;
    while ((scn = elf_nextscn(elf, scn))) {
        GElf_Shdr sh;
        if (!gelf_getshdr(scn, &sh))
            continue;
        const char *name = have_shstr ? elf_strptr(elf, shstrndx, sh.sh_name) : NULL;
        if (eh.e_type == ET_REL)
            code_overlap(e, &cs, &sh, name);
        else if (ix && want_syms && (sh.sh_flags & SHF_ALLOC) && sh.sh_size &&
                 sh.sh_addr <= UINT64_MAX - sh.sh_size) {
            tsym__sec r = {sh.sh_addr, sh.sh_addr + sh.sh_size, 0, (uint32_t)elf_ndxscn(scn)};
            if (!tt_vec_push(&ix->secs, &r)) {
                rc = TT_ENOMEM;
                goto nomem;
            }
        }
        if (!scn_fits(&sh, fsize)) { /* named once, left out; the other sections are used */
            if (++n_bad <= BAD_SECS_NAMED)
                note_bad_section(e, path, elf_ndxscn(scn), name, &sh, fsize);
            continue;
        }
        if (sh.sh_type == SHT_NOTE && !e->build_id[0])
            note_build_id(e->build_id, sizeof e->build_id, elf_getdata(scn, NULL));
        else if (sh.sh_type == SHT_SYMTAB && link_fits(elf, sh.sh_link, fsize))
            symtab = scn;
        else if (sh.sh_type == SHT_DYNSYM && link_fits(elf, sh.sh_link, fsize))
            dynsym = scn;
        if (!name)
            continue;
        if (!strcmp(name, ".debug_cu_index") || !strcmp(name, ".debug_tu_index"))
            e->split_kind = 2;
        else if (!strcmp(name, ".debug_info.dwo") && !e->split_kind)
            e->split_kind = 1;
        if (!strcmp(name, ".gnu_debuglink"))
            read_debuglink(e, scn, e->big_endian);
        if (!strcmp(name, ".gnu_debugaltlink"))
            read_altlink(e, scn);
        if ((!strcmp(name, ".debug_info") || !strcmp(name, ".zdebug_info")) &&
            sh.sh_type != SHT_NOBITS && sh.sh_size > 0)
            e->has_debug_info = 1;
        if (is_debug_name(name) && (sh.sh_flags & SHF_COMPRESSED) && sh.sh_type != SHT_NOBITS) {
            GElf_Chdr ch;
            if (gelf_getchdr(scn, &ch) && ch.ch_type == ELFCOMPRESS_ZSTD)
                e->zstd = 1;
        }
    }
    size_t bn = strlen(e->bad_secs);
    if (n_bad > BAD_SECS_NAMED) /* a corrupt section table: the first ones say enough */
        snprintf(e->bad_secs + bn, sizeof e->bad_secs - bn,
                 "; %zu more sections run past the end of the file: not read",
                 n_bad - BAD_SECS_NAMED);
    if (!e->build_id[0])
        build_id_from_phdrs(e, elf);
    e->has_symtab = symtab != NULL;
    if (ix && ix->loads.len == 0 && (rc = read_loads(ix, elf)))
        goto nomem;
    if (ix && want_syms && (symtab || dynsym) &&
        (rc = read_symbols(ix, elf, symtab ? symtab : dynsym, eh.e_machine == EM_ARM)))
        goto nomem;
    goto out;
nomem:
    rc = tt_error_set(err, rc, path, TT_LOC_NONE, 0, "out of memory");
out:
    elf_end(elf);
    close(fd);
    return rc;
}

int tsym_elf_build_id(char *hex, size_t cap, const char *path, tt_error *err)
{
    tsym__elf e;
    int rc = tsym__elf_read(&e, NULL, 0, path, err);
    if (rc)
        return rc;
    if (!e.build_id[0])
        return tt_error_set(err, TT_ENOTFOUND, path, TT_LOC_NONE, 0, "no GNU build id note");
    snprintf(hex, cap, "%s", e.build_id);
    return 0;
}

int tsym_elf_has_debug_info(const char *path, tt_error *err)
{
    tsym__elf e;
    int rc = tsym__elf_read(&e, NULL, 0, path, err);
    return rc ? rc : e.has_debug_info;
}

/* ---- raw DWARF sections for the line-table decoder (spec 4.4, 5.2 step 8) ---- */

static const char *const dsec_names[TSYM_DS_N] = {"line", "line_str", "str", "str_offsets",
                                                  "info", "abbrev", "addr", "rnglists",
                                                  "ranges"};

/* Size in bytes of an absolute data relocation (S + A), 0 for other types. Only these
 * occur in the debug sections of relocatable objects. */
static unsigned reloc_size(unsigned machine, unsigned type)
{
    switch (machine) {
    case EM_X86_64: return type == R_X86_64_64 ? 8 : type == R_X86_64_32 ? 4 : 0;
    case EM_386: return type == R_386_32 ? 4 : 0;
    case EM_AARCH64: return type == R_AARCH64_ABS64 ? 8 : type == R_AARCH64_ABS32 ? 4 : 0;
    case EM_ARM: return type == R_ARM_ABS32 ? 4 : 0;
    case EM_S390: return type == R_390_64 ? 8 : type == R_390_32 ? 4 : 0;
    case EM_PPC64: return type == R_PPC64_ADDR64 ? 8 : type == R_PPC64_ADDR32 ? 4 : 0;
    case EM_PPC: return type == R_PPC_ADDR32 ? 4 : 0;
    case EM_RISCV: return type == R_RISCV_64 ? 8 : type == R_RISCV_32 ? 4 : 0;
    default: return 0;
    }
}

static uint64_t get_uint(const unsigned char *p, unsigned n, int be)
{
    uint64_t v = 0;
    for (unsigned i = 0; i < n; i++)
        v |= (uint64_t)p[be ? i : n - 1 - i] << (8 * (n - 1 - i));
    return v;
}

static void put_uint(unsigned char *p, unsigned n, int be, uint64_t v)
{
    for (unsigned i = 0; i < n; i++)
        p[be ? n - 1 - i : i] = (unsigned char)(v >> (8 * i));
}

/* Applies the SHT_REL / SHT_RELA section rel to the copy of the section it targets
 * (relocatable objects: DW_LNE_set_address operands and string offsets are relocated). */
static void apply_relocs(tsym__dsecs *s, Elf *elf, Elf_Scn *rel, const GElf_Shdr *rsh, int k,
                         unsigned machine)
{
    Elf_Scn *symscn = elf_getscn(elf, rsh->sh_link);
    Elf_Data *rd = elf_getdata(rel, NULL), *sd = symscn ? elf_getdata(symscn, NULL) : NULL;
    if (!rd || !sd || rsh->sh_entsize == 0)
        return;
    unsigned char *buf = s->owned_[k];
    size_t n = rsh->sh_size / rsh->sh_entsize;
    for (size_t i = 0; i < n; i++) {
        uint64_t off, info;
        int64_t addend = 0;
        if (rsh->sh_type == SHT_RELA) {
            GElf_Rela r;
            if (!gelf_getrela(rd, (int)i, &r))
                break;
            off = r.r_offset, info = r.r_info, addend = r.r_addend;
        } else {
            GElf_Rel r;
            if (!gelf_getrel(rd, (int)i, &r))
                break;
            off = r.r_offset, info = r.r_info;
        }
        int is64 = gelf_getclass(elf) == ELFCLASS64;
        unsigned type = is64 ? (unsigned)GELF_R_TYPE(info) : (unsigned)ELF32_R_TYPE(info);
        size_t symi = is64 ? (size_t)GELF_R_SYM(info) : (size_t)ELF32_R_SYM(info);
        unsigned size = reloc_size(machine, type);
        GElf_Sym sym;
        if (!size || off > s->size[k] || s->size[k] - off < size || !gelf_getsym(sd, (int)symi, &sym))
            continue;
        if (rsh->sh_type == SHT_REL)
            addend = (int64_t)get_uint(buf + off, size, s->big_endian);
        put_uint(buf + off, size, s->big_endian, sym.st_value + (uint64_t)addend);
    }
}

/* The most a section may claim to expand to per compressed byte (zstd's run-length blocks
 * reach 1:32768, DWARF reaches about 1:10): a header claiming more is refused before the
 * buffer is allocated. */
#define ZSTD_MAX_RATIO 1024

/* A zstd section (SHF_COMPRESSED, ch_type ELFCOMPRESS_ZSTD: binutils 2.40 objcopy
 * --compress-debug-sections=zstd, gcc 13 -gz=zstd), which libelf 0.188 and libdwarf 20210528
 * cannot decompress (spec 4.4): decompressed here into a buffer s owns. */
static int zstd_bytes(tsym__dsecs *s, int k, Elf_Scn *scn, const GElf_Shdr *sh,
                      const char *path, tt_error *err)
{
    GElf_Chdr ch;
    Elf_Data *raw = elf_rawdata(scn, NULL);
    size_t hdr = gelf_getclass(s->elf_) == ELFCLASS32 ? sizeof(Elf32_Chdr) : sizeof(Elf64_Chdr);
    if (!raw || !raw->d_buf || raw->d_size < hdr || !gelf_getchdr(scn, &ch))
        return tt_error_set(err, TT_EFORMAT, path, TT_LOC_OFFSET, sh->sh_offset,
                            "section .debug_%s: truncated compression header", dsec_names[k]);
    size_t in = raw->d_size - hdr;
    if (ch.ch_size / ZSTD_MAX_RATIO > in || ch.ch_size > SIZE_MAX)
        return tt_error_set(err, TT_EFORMAT, path, TT_LOC_OFFSET, sh->sh_offset,
                            "section .debug_%s: %zu zstd-compressed bytes cannot hold the %llu "
                            "bytes its header claims", dsec_names[k], in,
                            (unsigned long long)ch.ch_size);
    unsigned char *out = malloc(ch.ch_size ? (size_t)ch.ch_size : 1);
    if (!out) /* a corrupt size: the module's warning, not the end of the run */
        return tt_error_set(err, TT_EFORMAT, path, TT_LOC_OFFSET, sh->sh_offset,
                            "section .debug_%s: no memory for the %llu bytes its header claims",
                            dsec_names[k], (unsigned long long)ch.ch_size);
    /* A damaged frame (its header or its blocks) is zstd's error; a frame of another size
     * than the section header's (objcopy records the size in both) says both sizes. */
    const char *frame = (const char *)raw->d_buf + hdr;
    size_t got = ZSTD_decompress(out, (size_t)ch.ch_size, frame, in);
    if (ZSTD_isError(got) || got != ch.ch_size) {
        free(out);
        unsigned long long fsize = ZSTD_getFrameContentSize(frame, in);
        char sizes[128] = "";
        if (fsize != ZSTD_CONTENTSIZE_UNKNOWN && fsize != ZSTD_CONTENTSIZE_ERROR &&
            fsize != ch.ch_size)
            snprintf(sizes, sizeof sizes, " (its zstd frame header gives %llu bytes, the section "
                     "header %llu)", fsize, (unsigned long long)ch.ch_size);
        else if (!ZSTD_isError(got))
            snprintf(sizes, sizeof sizes, " (%zu bytes, the section header claims %llu)", got,
                     (unsigned long long)ch.ch_size);
        return tt_error_set(err, TT_EFORMAT, path, TT_LOC_OFFSET, sh->sh_offset,
                            "section .debug_%s: cannot decompress (zstd): %s%s", dsec_names[k],
                            ZSTD_isError(got) ? ZSTD_getErrorName(got)
                                              : "shorter than its header says",
                            sizes);
    }
    s->owned_[k] = out;
    s->data[k] = out;
    s->size[k] = got;
    s->zstd = 1;
    return 0;
}

static int is_zstd(Elf_Scn *scn)
{
    GElf_Shdr sh;
    GElf_Chdr ch;
    return gelf_getshdr(scn, &sh) && (sh.sh_flags & SHF_COMPRESSED) && sh.sh_type != SHT_NOBITS &&
           gelf_getchdr(scn, &ch) && ch.ch_type == ELFCOMPRESS_ZSTD;
}

/* Decompressed bytes of one section: SHF_COMPRESSED (zlib, zstd) or a legacy .zdebug_ one */
static int section_bytes(tsym__dsecs *s, int k, Elf_Scn *scn, int gnu, const char *path,
                         tt_error *err)
{
    GElf_Shdr sh;
    if (!gelf_getshdr(scn, &sh) || sh.sh_type == SHT_NOBITS)
        return 0;
    int bad = 0;
    if (is_zstd(scn))
        return zstd_bytes(s, k, scn, &sh, path, err);
    int packed = 0; /* decompressed by libelf: its data, else the bytes as in the file */
    if (sh.sh_flags & SHF_COMPRESSED) {
        bad = elf_compress(scn, 0, 0) < 0;
        packed = 1;
    } else if (gnu) {
        Elf_Data *raw = elf_rawdata(scn, NULL);
        if (raw && raw->d_size >= 4 && !memcmp(raw->d_buf, "ZLIB", 4)) {
            bad = elf_compress_gnu(scn, 0, 0) < 0;
            packed = 1;
        }
    }
    /* raw: libelf translates a section of another type (a .debug_rnglists of type SHT_REL,
     * found by fuzz_elf) or refuses it, where libdwarf reads the bytes */
    Elf_Data *d = bad ? NULL : packed ? elf_getdata(scn, NULL) : elf_rawdata(scn, NULL);
    if (!d)
        return tt_error_set(err, TT_EFORMAT, path, TT_LOC_OFFSET, sh.sh_offset,
                            "cannot read section .debug_%s: %s", dsec_names[k], elf_errmsg(-1));
    s->data[k] = d->d_buf;
    s->size[k] = d->d_buf ? d->d_size : 0;
    return 0;
}

/* Whether a relocation section applies to one of the debug sections found */
static int debug_relocated(Elf *elf, Elf_Scn *const found[TSYM_DS_N])
{
    for (Elf_Scn *scn = NULL; (scn = elf_nextscn(elf, scn));) {
        GElf_Shdr sh;
        if (!gelf_getshdr(scn, &sh) || (sh.sh_type != SHT_REL && sh.sh_type != SHT_RELA))
            continue;
        for (int k = 0; k < TSYM_DS_N; k++)
            if (found[k] && elf_ndxscn(found[k]) == sh.sh_info)
                return 1;
    }
    return 0;
}

/* Finds the sections and, in relocatable objects, applies their relocations to copies. */
static int dsecs_load(tsym__dsecs *s, Elf *elf, const GElf_Ehdr *eh, uint64_t fsize,
                      const char *path, tt_error *err)
{
    size_t shstrndx;
    if (elf_getshdrstrndx(elf, &shstrndx))
        return 0;
    Elf_Scn *scn = NULL, *found[TSYM_DS_N] = {0};
    int gnu[TSYM_DS_N] = {0};
    while ((scn = elf_nextscn(elf, scn))) {
        GElf_Shdr sh;
        const char *name = gelf_getshdr(scn, &sh) ? elf_strptr(elf, shstrndx, sh.sh_name) : NULL;
        int z = name && !strncmp(name, ".zdebug_", 8);
        if (!name || (strncmp(name, ".debug_", 7) && !z) || !scn_fits(&sh, fsize))
            continue; /* one past the end of the file is missing (tsym__elf.bad_secs) */
        for (int k = 0; k < TSYM_DS_N; k++)
            if (!found[k] && !strcmp(name + (z ? 8 : 7), dsec_names[k])) {
                found[k] = scn;
                gnu[k] = z;
            }
    }
    int rc;
    for (int k = 0; k < TSYM_DS_N; k++) {
        int line = k <= TSYM_DS_STR_OFFSETS;
        tt_error serr;
        if (!found[k] || !(rc = section_bytes(s, k, found[k], gnu[k], path, &serr)))
            continue;
        /* libdwarf reads the file instead and reports, except a zstd section it cannot read */
        if (line || is_zstd(found[k])) {
            if (err)
                *err = serr;
            s->unfit = is_zstd(found[k]);
            return rc;
        }
        s->no_die = 1;
        s->rl_unread |= k == TSYM_DS_RNGLISTS; /* the guards cannot check it */
    }
    if (eh->e_type != ET_REL)
        return 0;
    /* libdwarf relocates the sections of a relocatable object only when it reads the file
     * itself, which it cannot with zstd sections; without relocations of debug sections (a
     * dwz -m common file) the object-access route reads them as they are */
    if (s->zstd && debug_relocated(elf, found) && (s->unfit = 1))
        return tt_error_set(err, TT_EUNSUPPORTED, path, TT_LOC_NONE, 0,
                            "zstd-compressed debug sections in a relocatable object are not "
                            "supported; run objcopy --decompress-debug-sections");
    s->no_die = 1; /* die.c leaves relocatable objects to libdwarf: line.c's are relocated */
    while ((scn = elf_nextscn(elf, scn))) {
        GElf_Shdr sh;
        if (!gelf_getshdr(scn, &sh) || (sh.sh_type != SHT_REL && sh.sh_type != SHT_RELA))
            continue;
        for (int k = 0; k <= TSYM_DS_STR_OFFSETS; k++) {
            if (!found[k] || elf_ndxscn(found[k]) != sh.sh_info || !s->size[k])
                continue;
            if (!s->owned_[k]) {
                if (!(s->owned_[k] = malloc(s->size[k])))
                    return tt_error_set(err, TT_ENOMEM, path, TT_LOC_NONE, 0, "out of memory");
                memcpy(s->owned_[k], s->data[k], s->size[k]);
                s->data[k] = s->owned_[k];
            }
            apply_relocs(s, elf, scn, &sh, k, eh->e_machine);
        }
    }
    return 0;
}

/* The sections whose bytes do not lie inside the file (a truncated download, a corrupt
 * header): *n_bad of them. libdwarf's own ELF reader (dwarf_init_path) allocates what a
 * section header claims before comparing it with the file (a group section of 800 GiB,
 * found by fuzz_elf): a file with such a section is never given to it, and the section is
 * left out where the others are read (scn_fits). */
static int sections_fit(size_t *n_bad, uint64_t *fsize, Elf *elf, int fd, const char *path,
                        tt_error *err)
{
    *n_bad = 0;
    struct stat st;
    if (fstat(fd, &st))
        return tt_error_set(err, TT_EIO, path, TT_LOC_NONE, 0, "%s", strerror(errno));
    *fsize = (uint64_t)st.st_size;
    size_t shnum = 0;
    if (elf_getshdrnum(elf, &shnum))
        return tt_error_set(err, TT_EFORMAT, path, TT_LOC_OFFSET, 0, "bad ELF section table: %s",
                            elf_errmsg(-1));
    for (Elf_Scn *scn = NULL; (scn = elf_nextscn(elf, scn));) {
        GElf_Shdr sh;
        if (!gelf_getshdr(scn, &sh))
            return tt_error_set(err, TT_EFORMAT, path, TT_LOC_OFFSET, 0,
                                "bad ELF section header: %s", elf_errmsg(-1));
        *n_bad += !scn_fits(&sh, (uint64_t)st.st_size);
    }
    return 0;
}

int tsym__dsecs_open(tsym__dsecs *s, const char *path, tt_error *err)
{
    memset(s, 0, sizeof *s);
    s->fd_ = -1;
    Elf *elf;
    int rc = open_elf(&elf, &s->fd_, path, err);
    if (rc)
        return rc;
    s->elf_ = elf;
    GElf_Ehdr eh;
    if (!gelf_getehdr(elf, &eh)) {
        tsym__dsecs_close(s);
        return tt_error_set(err, TT_EFORMAT, path, TT_LOC_OFFSET, 0, "bad ELF header: %s",
                            elf_errmsg(-1));
    }
    s->big_endian = eh.e_ident[EI_DATA] == ELFDATA2MSB;
    s->ptr_size = eh.e_ident[EI_CLASS] == ELFCLASS32 ? 4 : 8;
    size_t n_bad = 0;
    uint64_t fsize = 0;
    if ((rc = sections_fit(&n_bad, &fsize, elf, s->fd_, path, err))) {
        tsym__dsecs_close(s);
        s->unfit = 1;
        return rc;
    }
    s->bad_secs = n_bad > 0;
    if ((rc = dsecs_load(s, elf, &eh, fsize, path, err))) {
        int unfit = s->unfit || n_bad; /* libdwarf's reader must not read it */
        tsym__dsecs_close(s);
        s->unfit = unfit;
    }
    return rc;
}

void tsym__dsecs_close(tsym__dsecs *s)
{
    for (int k = 0; k < TSYM_DS_N; k++)
        free(s->owned_[k]);
    if (s->elf_)
        elf_end(s->elf_);
    if (s->fd_ >= 0)
        close(s->fd_);
    memset(s, 0, sizeof *s);
    s->fd_ = -1;
}

/* Does the .debug_info section data hold DWARF 5 type units only? */
static int type_units_only(const unsigned char *p, size_t n, int be)
{
    size_t off = 0;
    while (p && off < n && n - off >= 4) {
        uint64_t len = get_uint(p + off, 4, be);
        size_t at = 4;
        if (len == 0xffffffffu) {
            if (n - off < 12)
                return 0;
            len = get_uint(p + off + 4, 8, be);
            at = 12;
        }
        if (n - off - at < 3 || len > n - off - at || get_uint(p + off + at, 2, be) != 5)
            return 0;
        unsigned ut = p[off + at + 2];
        if (ut != 2 && ut != 6)
            return 0;
        off += at + (size_t)len;
    }
    return off > 0;
}

int tsym__dsecs_open_dwo(tsym__dsecs *s, const unsigned char **cu_index, size_t *cu_index_size,
                         const char *path, tt_error *err)
{
    *cu_index = NULL;
    *cu_index_size = 0;
    memset(s, 0, sizeof *s);
    s->fd_ = -1;
    Elf *elf;
    int rc = open_elf(&elf, &s->fd_, path, err);
    if (rc)
        return rc;
    s->elf_ = elf;
    GElf_Ehdr eh;
    size_t shstrndx;
    if (!gelf_getehdr(elf, &eh) || elf_getshdrstrndx(elf, &shstrndx)) {
        tsym__dsecs_close(s);
        return tt_error_set(err, TT_EFORMAT, path, TT_LOC_OFFSET, 0, "bad ELF header: %s",
                            elf_errmsg(-1));
    }
    s->big_endian = eh.e_ident[EI_DATA] == ELFDATA2MSB;
    size_t n_bad = 0;
    uint64_t fsize = 0;
    if ((rc = sections_fit(&n_bad, &fsize, elf, s->fd_, path, err))) {
        tsym__dsecs_close(s);
        s->unfit = 1;
        return rc;
    }
    s->bad_secs = n_bad > 0;
    /* .debug_X.dwo for the sections a split unit has; .debug_addr, .debug_line_str and
     * .debug_ranges stay in the skeleton's file */
    for (Elf_Scn *scn = NULL; (scn = elf_nextscn(elf, scn));) {
        GElf_Shdr sh;
        const char *name = gelf_getshdr(scn, &sh) ? elf_strptr(elf, shstrndx, sh.sh_name) : NULL;
        if (!name || strncmp(name, ".debug_", 7) || !scn_fits(&sh, fsize))
            continue;
        if (!strcmp(name, ".debug_cu_index") && sh.sh_type != SHT_NOBITS &&
            !(sh.sh_flags & SHF_COMPRESSED)) {
            Elf_Data *d = elf_getdata(scn, NULL);
            if (d && d->d_buf) {
                *cu_index = d->d_buf;
                *cu_index_size = d->d_size;
            }
            continue;
        }
        size_t n = strlen(name);
        if (n < 11 || strcmp(name + n - 4, ".dwo"))
            continue;
        for (int k = 0; k < TSYM_DS_N; k++) {
            if (k == TSYM_DS_ADDR || k == TSYM_DS_LINE_STR || k == TSYM_DS_RANGES ||
                s->data[k] || strlen(dsec_names[k]) != n - 11 ||
                strncmp(name + 7, dsec_names[k], n - 11))
                continue;
            if ((rc = section_bytes(s, k, scn, 0, path, err))) {
                tsym__dsecs_close(s);
                return rc;
            }
            /* gcc gives each type unit a .debug_info.dwo of its own: the split unit's is
             * the one with more than type units */
            if (k == TSYM_DS_INFO && type_units_only(s->data[k], s->size[k], s->big_endian)) {
                free(s->owned_[k]); /* a zstd section's decompressed copy */
                s->owned_[k] = NULL;
                s->data[k] = NULL;
                s->size[k] = 0;
            }
        }
    }
    return 0;
}
