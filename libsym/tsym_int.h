/* libsym internal declarations, shared by libsym's .c files only (spec 5.1 data layout). */
#ifndef TSYM_INT_H
#define TSYM_INT_H

#include "tsym.h"

#define TSYM_NONE 0xFFFFFFFFu

/* Appends x to v, whose elements are of type T, with a typed store (tt_vec_push copies a
 * size known only at run time: a call to memcpy per element of the index build's hot
 * arrays). 0, or TT_ENOMEM. */
#define TSYM_VEC_PUSH(v, T, x)                                                               \
    ((v)->len < (v)->cap || !tt_vec_reserve((v), (v)->len + 1)                               \
         ? (((T *)(v)->data)[(v)->len++] = (x), 0)                                           \
         : TT_ENOMEM)

/* interned strings: ids are byte offsets into one buffer (stable after the build) */
typedef struct tsym__strtab {
    tt_buf bytes;
    uint32_t *slots; /* open addressing, id + 1, 0 = empty */
    size_t cap, count;
} tsym__strtab;
int tsym__str_intern(uint32_t *id, tsym__strtab *t, const char *s, size_t n);
static inline const char *tsym__str(const tsym__strtab *t, uint32_t id)
{
    return id == TSYM_NONE ? NULL : t->bytes.data + id;
}
void tsym__str_free(tsym__strtab *t);

/* u64 -> u32 hash map (DIE offset -> cache entry, string id -> demangled name) */
typedef struct tsym__map {
    uint64_t *keys;
    uint32_t *vals; /* TSYM_NONE = empty */
    size_t cap, count;
} tsym__map;
/* Returns a pointer to the value slot (TSYM_NONE when new), NULL on out of memory. */
uint32_t *tsym__map_slot(tsym__map *m, uint64_t key);
const uint32_t *tsym__map_find(const tsym__map *m, uint64_t key);
void tsym__map_free(tsym__map *m);

typedef struct tsym__func {
    uint64_t lo, hi;
    uint32_t node;
    uint32_t part; /* 1 + the funcs entry (set by tsym__index_finish; 0: not yet) whose lo
                    * starts the part of node holding this range: its ranges that overlap or
                    * abut, joined */
} tsym__func;

typedef struct tsym__node {
    uint32_t parent, name, decl_file, decl_line, call_file, call_line;
    uint32_t first_range, n_ranges, subtree_end;
    uint32_t kids; /* index into kheads (set by tsym__index_finish), TSYM_NONE: none */
    uint16_t call_col;
} tsym__node;

/* A node with many direct children (a large function with inlined code) gets its children's
 * ranges sorted by address, so a lookup does not try them one by one (index.c). */
#define TSYM_KIDS_MIN 8
typedef struct tsym__kid {
    uint64_t lo, hi;
    uint64_t maxhi; /* the largest hi of this entry and those before it */
    uint32_t node;
} tsym__kid;
typedef struct tsym__khead {
    uint32_t first, n; /* entries in kids */
} tsym__khead;

typedef struct tsym__range {
    uint64_t lo, hi;
} tsym__range;

typedef struct tsym__sec {
    uint64_t lo, hi;
    uint64_t maxhi; /* the largest hi of this entry and those before it (sorted by lo) */
    uint32_t shndx; /* ELF section index */
} tsym__sec;

enum { TSYM_ROW_END = 1 };
typedef struct tsym__row {
    uint64_t addr;
    uint32_t line, file, discr;
    uint16_t col;
    uint8_t flags;
} tsym__row;

/* Rows stay in line-table order; lookups go through blocks of at most TSYM_RBLOCK_ROWS
 * rows whose concatenation (in block order) is the rows sorted by address, end-sequence
 * rows first at one address, else in input order (index.c). */
#define TSYM_RBLOCK_ROWS 64
typedef struct tsym__rblock {
    uint64_t lo; /* address of the block's first row */
    uint32_t first, n;
} tsym__rblock;

typedef struct tsym__sym {
    uint64_t lo, size;
    uint32_t name, name_len;
    uint32_t file; /* STT_FILE before a local symbol (e.g. crtstuff.c), or TSYM_NONE */
    uint8_t global;
    uint8_t unsized; /* ELF st_size 0: size is then the room left in its section (0: unknown)
                      * until tsym__index_finish caps it at the next symbol */
    uint16_t shndx;  /* ELF section index (0: unknown, Mach-O) */
} tsym__sym;

typedef struct tsym__load {
    uint64_t vaddr, memsz, offset, filesz;
    int exec;
} tsym__load;

/* The per-module index: everything a lookup needs; libdwarf is closed after the build. */
typedef struct tsym__index {
    tsym__strtab str;
    tt_vec funcs, nodes, ranges, rows, rblocks, syms, loads; /* see the typedefs above */
    tt_vec kids, kheads; /* tsym__kid, tsym__khead */
    tt_vec nsyms;   /* tsym__sym, for --nearest-symbol only: the STT_NOTYPE symbols (labels such
                     * as data_start, __bss_start) that lie in their section, sorted; the
                     * first in symbol-table order kept at one address (GNU addr2line's) */
    tt_vec fstarts; /* uint64_t, sorted: Mach-O LC_FUNCTION_STARTS vmaddrs (spec/ios.md 6.5) */
    tt_vec secs;    /* tsym__sec: the ELF SHF_ALLOC sections of the symbol file (not ET_REL),
                     * sorted by lo (tsym__index_finish): the nearest symbol is one of the
                     * address's section */
    tsym__map swiftq; /* Swift linkage name id -> its qualified DW_AT_name (spec/ios.md 7) */
    size_t n_cus, n_inlines;
    int split_dwarf;
    uint32_t dwo_path; /* with split_dwarf and has_dwo_path: the first skeleton's .dwo file */
    int has_dwo_path;
    const char *sup_path; /* input of the DWARF load: the verified dwz supplementary file
                           * (.gnu_debugaltlink) or NULL; borrowed during the load only */
    /* split DWARF (die.c, dwo.c); the inputs are borrowed during the load only */
    const char *split_module;      /* the module file: <module>.dwp, .dwo files beside it */
    const char *split_debug;       /* the debug file loaded: the same for it */
    char *const *split_dirs;       /* symbol store directories searched for .dwo files */
    size_t n_split_dirs;
    int dwo_why;                   /* with split_dwarf: TSYM__DWO_* for dwo_path */
    uint64_t dwo_want, dwo_found;  /* TSYM__DWO_MISMATCH: the skeleton's and the file's id */
    size_t n_split;                /* split units indexed */
} tsym__index;

/* Why a skeleton unit's split unit was not read (tsym__index.dwo_why) */
enum { TSYM__DWO_UNREAD, TSYM__DWO_NOT_FOUND, TSYM__DWO_MISMATCH, TSYM__DWO_BAD };

/* ELF facts read with libelf (elf.c) */
typedef struct tsym__elf {
    char build_id[TSYM_BUILD_ID_HEX_MAX];
    int elf_class, big_endian, elf_type;
    int has_debug_info;   /* .debug_info / .zdebug_info with contents */
    int zstd;             /* a debug section is zstd-compressed */
    int has_symtab;
    char debuglink[256];  /* .gnu_debuglink file name, "" when none */
    uint32_t debuglink_crc;
    char altlink[256];    /* .gnu_debugaltlink: dwz supplementary file name, "" when none */
    char alt_build_id[TSYM_BUILD_ID_HEX_MAX]; /* and its build id, lowercase hex */
    /* a relocatable object whose code sections share addresses (each starts at 0, e.g.
     * -ffunction-sections): "sections A and B both hold address 0x0", else "" */
    char rel_overlap[200];
    /* the sections whose bytes run past the end of the file (a truncated or corrupt file),
     * each "PATH:0xOFF: section N (NAME) of 0xS bytes runs past ...: not read", "; "
     * between them, "" when none: nothing reads them, the other sections are used */
    char bad_secs[640];
    int split_kind;       /* a split DWARF file: 1 a .dwo (.debug_info.dwo), 2 a .dwp package
                           * (.debug_cu_index); 0 otherwise */
} tsym__elf;

/* Reads identity and section facts; with ix != NULL also the PT_LOAD list (when ix has
 * none yet) and the function symbols (when want_syms). */
int tsym__elf_read(tsym__elf *e, tsym__index *ix, int want_syms, const char *path,
                   tt_error *err);

/* Raw bytes of the DWARF sections the line-table decoder and the DIE reader read (elf.c),
 * .debug_rnglists also for the guards in dwarf_range.c: zlib and zstd sections (SHF_COMPRESSED
 * and legacy .zdebug_) decompressed; in relocatable objects (rel) the line-table sections relocated.
 * A missing section has size 0. */
enum { TSYM_DS_LINE, TSYM_DS_LINE_STR, TSYM_DS_STR, TSYM_DS_STR_OFFSETS, TSYM_DS_INFO,
       TSYM_DS_ABBREV, TSYM_DS_ADDR, TSYM_DS_RNGLISTS, TSYM_DS_RANGES, TSYM_DS_N };
typedef struct tsym__dsecs {
    const unsigned char *data[TSYM_DS_N];
    size_t size[TSYM_DS_N];
    int big_endian;
    int no_die;                        /* die.c cannot read these: ET_REL (its sections are
                                        * not relocated here) or a section failed to read */
    int unfit;                         /* a zstd section cannot be read, or a section failed
                                        * to read in a file with bad_secs: nothing may read
                                        * the file, libdwarf included (set when open fails) */
    int bad_secs;                      /* sections lie past the end of the file: they are
                                        * left out (missing), and libdwarf's own ELF reader,
                                        * which allocates what a header claims, never reads
                                        * the file: the sections in memory are given instead */
    void *elf_;                        /* Elf *, open while data is in use */
    int fd_;
    unsigned char *owned_[TSYM_DS_N];  /* relocated copies, zstd sections decompressed */
    int zstd;                          /* a section was zstd-compressed: libdwarf's own ELF
                                        * reader cannot read this file */
    unsigned ptr_size;                 /* 4 (ELFCLASS32) or 8 */
    int rl_unread;                     /* .debug_rnglists exists but could not be read: the
                                        * guards cannot check it for libdwarf */
} tsym__dsecs;
/* Opens path and finds the sections; data is borrowed, valid until tsym__dsecs_close
 * (which accepts a zeroed or failed s). */
int tsym__dsecs_open(tsym__dsecs *s, const char *path, tt_error *err);
void tsym__dsecs_close(tsym__dsecs *s);
/* The same for a split-DWARF .dwo file or .dwp package (elf.c): its .debug_X.dwo sections
 * in the slots of .debug_X (.debug_addr, .debug_line_str and .debug_ranges stay empty: they
 * are the skeleton's); *cu_index: the .debug_cu_index of a package (NULL when none). */
int tsym__dsecs_open_dwo(tsym__dsecs *s, const unsigned char **cu_index, size_t *cu_index_size,
                         const char *path, tt_error *err);

/* ---- split DWARF (dwo.c; spec/symbolication.md 5.2 item 10) ---- */
/* A unit's contributions in a .dwp package, by TSYM_DS_* slot (info, abbrev, line,
 * str_offsets, rnglists). */
typedef struct tsym__dwp_row {
    uint64_t off[TSYM_DS_N], size[TSYM_DS_N];
    unsigned version; /* of the index: 5 (DWARF 5) or 2 (GNU DWARF 4) */
} tsym__dwp_row;
/* Looks dwo_id up in a .debug_cu_index of n bytes: 1 found (row filled, every contribution
 * inside sec_size[slot] bytes of its section), 0 not there or a corrupt index. */
int tsym__dwp_find(tsym__dwp_row *row, const unsigned char *idx, size_t n, int big_endian,
                   const size_t *sec_size, uint64_t dwo_id);
/* The i-th file to try for the split unit of a skeleton whose DW_AT_dwo_name is name (with
 * DW_AT_comp_dir comp_dir, may be NULL): 1 with out set ("" when the i-th place does not
 * apply), 0 when there are no more. Order: the name as it is (an absolute path) or under
 * comp_dir, then its base name beside the module file, beside the debug file, in each
 * symbol store directory. */
int tsym__dwo_candidate(char *out, size_t cap, const tsym__index *ix, const char *name,
                        const char *comp_dir, size_t i);
/* 1 when path names a regular file. */
int tsym__dwo_is_file(const char *path);
/* The i-th .dwp package to try (<module>.dwp, <debug file>.dwp): as tsym__dwo_candidate. */
int tsym__dwp_candidate(char *out, size_t cap, const tsym__index *ix, size_t i);

/* Bounds-checked reads of DWARF section bytes with a sticky error flag (line.c, die.c) */
typedef struct tsym__cur {
    const unsigned char *p, *end;
    int be, bad; /* bad: 1 when the bytes ran out, TSYM__BAD_INDIRECT or TSYM__BAD_X3 */
} tsym__cur;
#define TSYM__BAD_INDIRECT 2 /* a DW_FORM_indirect that names no form a DIE may use */
#define TSYM__BAD_X3 3       /* a DW_FORM_indirect that names DW_FORM_strx3 or addrx3 */

static inline uint64_t tsym__cur_fixed(tsym__cur *c, unsigned n)
{
    if (c->bad || (size_t)(c->end - c->p) < n) {
        c->bad = 1;
        return 0;
    }
    uint64_t v = 0;
    for (unsigned i = 0; i < n; i++)
        v |= (uint64_t)c->p[c->be ? i : n - 1 - i] << (8 * (n - 1 - i));
    c->p += n;
    return v;
}

static inline void tsym__cur_skip(tsym__cur *c, uint64_t n)
{
    if (c->bad || (uint64_t)(c->end - c->p) < n)
        c->bad = 1;
    else
        c->p += n;
}

/* LEB128; bits beyond 64 are dropped */
static inline uint64_t tsym__cur_leb(tsym__cur *c, int sign)
{
    uint64_t v = 0;
    unsigned shift = 0;
    while (c->p < c->end) {
        unsigned char b = *c->p++;
        if (shift < 64)
            v |= (uint64_t)(b & 0x7f) << shift;
        shift += 7;
        if (!(b & 0x80)) {
            if (sign && shift < 64 && (b & 0x40))
                v |= ~(uint64_t)0 << shift;
            return v;
        }
    }
    c->bad = 1;
    return 0;
}

/* One line-number program header (line.c; DWARF 2-5, 32- and 64-bit). */
typedef struct tsym__lfile {
    const char *name; /* NULL when its string cannot be resolved (strx without a base) */
    uint64_t dir;
} tsym__lfile;
typedef struct tsym__lhdr {
    unsigned version, offset_size;
    int big_endian;
    uint8_t min_inst, max_ops, line_range, opcode_base;
    int8_t line_base;
    const unsigned char *std_lens;     /* opcode_base - 1 operand counts */
    const unsigned char *prog, *end;   /* the line-number program */
    uint64_t off;                      /* section offset of the unit (messages) */
    tt_vec dirs;                       /* const char * (NULL: unresolvable) */
    tt_vec files;                      /* tsym__lfile */
} tsym__lhdr;
void tsym__lhdr_init(tsym__lhdr *h);
void tsym__lhdr_free(tsym__lhdr *h);
/* Decodes the header of the unit at off in .debug_line. str_offsets_base: the CU's
 * DW_AT_str_offsets_base for DW_FORM_strx* paths (0 when unknown: such paths stay NULL).
 * Returns 0, or TT_EFORMAT with a message (cap bytes) on corrupt or unsupported input. */
int tsym__line_header(tsym__lhdr *h, const tsym__dsecs *s, uint64_t off,
                      uint64_t str_offsets_base, char *msg, size_t cap);
/* Interns the full paths of h's files (directory and comp_dir joined as dwarf_srcfiles
 * does) into ix->str; (*files)[i] is the id of file entry i (TSYM_NONE when nameless).
 * *files is realloc'ed. 0 or TT_ENOMEM. */
int tsym__line_files(uint32_t **files, size_t *n_files, tsym__index *ix, const tsym__lhdr *h,
                     const char *comp_dir);
/* Runs the program and appends its rows to ix->rows (spec 5.1): end_sequence rows, rows at
 * the end address of their sequence dropped, dead sequences (outside every executable
 * segment) dropped, an unterminated last sequence dropped. File numbers are mapped through
 * files (1-based before DWARF 5). On corrupt input no row of the unit is kept and
 * TT_EFORMAT comes back with a message; TT_ENOMEM when out of memory. */
int tsym__line_rows(tsym__index *ix, const tsym__lhdr *h, const uint32_t *files,
                    size_t n_files, char *msg, size_t cap);

/* Builds funcs/nodes/ranges/rows from the DIEs and line tables in s without libdwarf
 * (die.c), as dwarf.c's walk does. Returns 0, TT_ENOMEM, or TSYM__DIE_FALLBACK when the
 * input has something it does not handle (type units in .debug_info, unusual forms, any
 * corruption): the caller then drops what was added and indexes with libdwarf. have_lines:
 * decode the line tables (.debug_line is there). Skeleton units get their split unit from
 * the .dwo file or .dwp package ix->split_* lead to (dwo.c); when there is none the unit
 * keeps its lines and ix->split_dwarf, dwo_why and dwo_path say why. */
#define TSYM__DIE_FALLBACK 1
int tsym__die_index(tsym__index *ix, const tsym__dsecs *s, int have_lines);
/* Checks the unit at section offset off of .debug_info before dwarf.c walks it with
 * libdwarf 20210528, which leaks the DIE dwarf_child or dwarf_siblingof_b allocated when
 * the next DIE's abbreviation code does not decode: every DIE's code decodes inside the
 * unit and every DW_AT_sibling inside it is a DIE's offset. Returns 0 (also when die.c
 * cannot read the unit: libdwarf reports that), TT_EFORMAT with a message (cap bytes), or
 * TT_ENOMEM. */
int tsym__die_check_unit(const tsym__dsecs *s, uint64_t off, char *msg, size_t cap);

/* Builds funcs/nodes/ranges/rows from the DWARF of path (dwarf.c). Returns 0 (also for
 * files without DWARF: n_cus == 0), or an error with libdwarf's message; on error the
 * DWARF parts of ix are emptied. */
int tsym__dwarf_load(tsym__index *ix, const char *path, tt_error *err);
/* The same; use_die 0 skips die.c (the unit tests compare both walks). */
int tsym__dwarf_load_with(tsym__index *ix, const char *path, int use_die, tt_error *err);

/* 1 when name starts as C++ or Rust mangled names do ("_Z", "_R", "__Z"): the only names
 * tsym_demangle changes (demangle.c). */
static inline int tsym__maybe_mangled(const char *name)
{
    return name && name[0] == '_' &&
           (name[1] == 'Z' || name[1] == 'R' || (name[1] == '_' && name[2] == 'Z'));
}

/* Sorting and de-duplication after loading (index.c). 0 or TT_ENOMEM. */
int tsym__index_finish(tsym__index *ix);
/* How many leading elements of the array (n elements of size bytes, each starting with
 * its uint64_t key, sorted by it) have a key <= a. */
size_t tsym__count_le(const void *base, size_t n, size_t size, uint64_t a);
/* The same, starting from *hint (a previous answer for a smaller or equal key; 0: none):
 * a few steps forward, else a search of the rest. *hint becomes the answer. */
size_t tsym__count_le_from(const void *base, size_t n, size_t size, uint64_t a, size_t *hint);
/* Appends [lo, hi) to ix->ranges when it is live code: 1, 0 (not live) or TT_ENOMEM. */
int tsym__index_add_range(tsym__index *ix, uint64_t lo, uint64_t hi);
/* Appends node n (its ranges are the last n->n_ranges of ix->ranges, from first_range):
 * a root (parent TSYM_NONE) gets a funcs entry per range, an inline node is counted.
 * Returns its id, TSYM_NONE when out of memory. */
uint32_t tsym__index_add_node(tsym__index *ix, const tsym__node *n);
/* Does one of n's ranges contain a? */
int tsym__node_has(const tsym__index *ix, const tsym__node *n, uint64_t a);
/* The first direct child of node p (in node order) with a range containing a, or
 * TSYM_NONE (spec 5.3 inline chain). Needs tsym__index_finish. */
uint32_t tsym__index_child(const tsym__index *ix, uint32_t p, uint64_t a);
/* The same from a cursor over the children's ranges (*khead: 1 + the node's kheads entry
 * the hint *kid belongs to, 0: none; both updated). */
uint32_t tsym__index_child_at(const tsym__index *ix, uint32_t p, uint64_t a, size_t *khead,
                              size_t *kid);
/* The last row at or below a in address order, NULL when there is none or it ends a
 * sequence (the address has no line). Needs tsym__index_finish. */
const tsym__row *tsym__index_row(const tsym__index *ix, uint64_t a);
/* The same from a cursor (block and row of a previous answer, 0: none; updated). */
const tsym__row *tsym__index_row_at(const tsym__index *ix, uint64_t a, size_t *block,
                                    size_t *row);
void tsym__index_free(tsym__index *ix);
/* Is [lo, hi) a live code range (spec 5.2 step 5)? */
int tsym__index_live(const tsym__index *ix, uint64_t lo, uint64_t hi);

/* ---- Mach-O (macho.c; spec/ios.md 5, 6) ---- */
typedef struct tsym__msect {
    char seg[17], sect[17];
    uint64_t addr, size;
    uint32_t offset, flags;
    uint64_t hdr_off; /* file offset of the section header (messages) */
} tsym__msect;

typedef struct tsym__mslice {
    uint32_t cputype, cpusubtype;
    uint64_t offset, size; /* in the file */
    char arch[16];
} tsym__mslice;

#define TSYM_MACHO_MAX_SLICES 64

/* A mapped Mach-O or universal file and, after tsym__macho_select, one parsed slice. */
typedef struct tsym__macho {
    const unsigned char *data; /* the whole file (read-only mapping) */
    size_t size;
    const char *label;         /* file name for messages (borrowed) */
    tsym__mslice slices[TSYM_MACHO_MAX_SLICES];
    size_t n_slices;
    int fat, mapped;
    /* the selected slice */
    const unsigned char *p;
    uint64_t n, slice_off;
    int is64, selected;
    uint32_t cputype, cpusubtype, filetype;
    char arch[16];
    char uuid[33];             /* "" when the slice has no LC_UUID */
    uint64_t text_vmaddr, text_vmsize;
    tsym__msect *sects;        /* malloc'ed */
    uint32_t n_sects;
    uint32_t symoff, nsyms, stroff, strsize;
    uint32_t fs_off, fs_size;  /* LC_FUNCTION_STARTS */
    int has_text, has_symtab, has_dwarf;
    /* LC_BUILD_VERSION or LC_VERSION_MIN_* (platform 0: neither); versions xxxx.yy.zz */
    uint32_t platform, minos, sdk;
} tsym__macho;

/* 1 when p (n bytes read from the start of a file) starts like a thin Mach-O (4 bytes of
 * magic are enough: a shorter file is a truncated header) or a universal file. */
int tsym__macho_magic(const unsigned char *p, size_t n);
/* Puts note in front of module m's warning ("note; warning"), truncated to fit. */
void tsym__module_note(tsym_module *m, const char *note);
/* tsym_module_open, also looking for .dwo files in the directories dirs (symbol stores). */
int tsym__module_open_dirs(tsym_module **out, const char *path, const char *debug_path,
                           char *const *dirs, size_t n_dirs, tt_error *err);
/* 1 when the file at path starts like Mach-O (regular files only). */
int tsym__macho_file(const char *path);
/* 1 when path is a Mach-O file or .dSYM bundle (arch "") or "FILE:ARCH" with FILE a Mach-O
 * file or a .dSYM bundle (file: its DWARF file), or FILE any regular file and ARCH a known
 * architecture name (spec/ios.md 4.4): opening it then says what is wrong with it. */
int tsym__macho_split(char *file, size_t fcap, char *arch, size_t acap, const char *path);
/* Opens a Mach-O module (lookup.c); uuid (may be NULL) selects the slices when no arch
 * is given. */
int tsym__module_open_macho(tsym_module **out, const char *path, const char *arch,
                            const char *debug_path, const char *uuid, tt_error *err);
/* Maps path and reads its slice list. TT_EFORMAT with the byte offset for files that are
 * not (well-formed) Mach-O. Close with tsym__macho_close (accepts a failed m). */
int tsym__macho_open(tsym__macho *m, const char *path, tt_error *err);
/* The same over memory (borrowed, must outlive m). */
int tsym__macho_open_mem(tsym__macho *m, const unsigned char *d, size_t n, const char *label,
                         tt_error *err);
void tsym__macho_close(tsym__macho *m);
/* Parses slice i's header and load commands. */
int tsym__macho_select(tsym__macho *m, size_t i, tt_error *err);
/* Index of the slice named arch, or of the slice whose UUID is uuid (either may be NULL);
 * -1 when none. */
int tsym__macho_find(const tsym__macho *m, const char *arch, const char *uuid);
/* Function symbols of the selected slice (spec/ios.md 5.4, 6.4, 6.5), sized to the next
 * function start; the __TEXT segment as the only executable load. */
int tsym__macho_syms(tsym__index *ix, const tsym__macho *m, tt_error *err);
int tsym__macho_text_load(tsym__index *ix, const tsym__macho *m);
/* The selected slice's platform as "ios 14.0 sdk 16.4", or "" without one. */
void tsym__macho_platform(char *out, size_t cap, const tsym__macho *m);
/* DWARF of the selected slice through libdwarf's object-access interface (dwarf.c). */
int tsym__macho_dwarf(tsym__index *ix, const tsym__macho *m, tt_error *err);

/* A DWARF section handed to libdwarf by name (dwarf.c's object-access provider). */
typedef struct tsym__osect {
    const char *name; /* ELF-style, ".debug_info" */
    uint64_t addr, size;
    const unsigned char *data;
} tsym__osect;
int tsym__dwarf_load_sections(tsym__index *ix, const tsym__osect *secs, size_t n,
                              unsigned ptr_size, const char *label, tt_error *err);

#endif
