/* libsym public API: native symbolication of ELF modules with libelf + libdwarf
 * (spec/symbolication.md). Libraries never print; errors come back through tt_error. */
#ifndef TSYM_H
#define TSYM_H

#include <stddef.h>
#include <stdint.h>

#include "../libtrace/tt.h"

/* Process-wide set-up, call once before opening modules (idempotent). Switches off
 * libdwarf's bookkeeping of every allocation with dwarf_set_de_alloc_flag(0) (spec 5.2:
 * 2-3x faster indexing, less memory); libsym then frees every libdwarf object itself.
 * This is the one process-wide switch of tracetool (STYLE.md section 5). */
int tsym_init(void);

#define TSYM_BUILD_ID_HEX_MAX 129 /* 64 bytes as hex + NUL */
#define TSYM_MAX_FRAMES 64        /* inline chains deeper than this keep the outermost frames */

/* ---- modules: one ELF file and its interval index (spec 5) ---- */
typedef struct tsym_module tsym_module;

typedef struct tsym_module_info {
    const char *path;       /* module file as given (may be NULL when only a debug file) */
    const char *debug_path; /* file the DWARF came from, NULL when none */
    char build_id[TSYM_BUILD_ID_HEX_MAX]; /* lowercase hex; "" when the module has none */
    int elf_class;          /* 32 or 64 */
    int big_endian;
    int elf_type;           /* ET_EXEC, ET_DYN, ... */
    uint64_t load_bias_vaddr; /* L.p_vaddr - L.p_offset of the first PT_LOAD (spec 3.2) */
    size_t n_cus, n_funcs, n_inlines, n_rows, n_syms;
    int symtab_only;        /* no usable DWARF: names from .symtab/.dynsym (R5) */
    int split_dwarf;        /* skeleton units whose split unit (.dwo, .dwp) was not found or
                             * not readable: their functions from the symbol table */
    char warning[TT_ERRMSG_MAX]; /* non-fatal per-module problem (DWARF error, ...) or "" */
    int macho;              /* a Mach-O image (spec/ios.md): build_id is its LC_UUID */
    char arch[16];          /* Mach-O slice architecture (arm64, x86_64, ...), "" for ELF */
    uint64_t text_vmaddr;   /* Mach-O: __TEXT vmaddr (module offset 0) */
    char platform[64];      /* Mach-O LC_BUILD_VERSION / LC_VERSION_MIN_*: "ios 14.0 sdk
                             * 16.4", "" when absent (display only, spec/ios.md 5.3) */
} tsym_module_info;

/* Opens a module and builds its index. path is the module file (identity, program
 * headers, symbol table; may be NULL), debug_path the file with DWARF (NULL: use path).
 * When both have build ids they must be equal (TT_EFORMAT otherwise). A file without
 * DWARF is not an error: lookups fall back to the symbol table; nor is unreadable DWARF
 * (tsym_module_info.warning says why). Owned by the caller, free with tsym_module_free. */
int tsym_module_open(tsym_module **out, const char *path, const char *debug_path,
                     tt_error *err);
/* Mach-O (spec/ios.md 5, 6): path and debug_path may be thin or universal Mach-O files or
 * .dSYM bundles; path may also be "FILE:ARCH". arch (NULL: from path or the only slice)
 * selects the slice of path; the debug file's slice is the one with the same LC_UUID
 * (TT_EFORMAT naming both UUIDs otherwise). A universal file without an arch is TT_EINVAL
 * with the slice list in the message. tsym_module_open calls this for Mach-O files. */
int tsym_module_open_arch(tsym_module **out, const char *path, const char *arch,
                          const char *debug_path, tt_error *err);
void tsym_module_free(tsym_module *m);
/* Borrowed, valid until tsym_module_free. */
const tsym_module_info *tsym_module_info_get(const tsym_module *m);
/* 1 when the module's DWARF answers lookups: function entries or line rows (a module whose
 * line table does without function entries, clang -gline-tables-only or assembly, gives
 * file:line: 1). The database's module.has_debug_info (schema(5)). */
int tsym_module_has_debug_info(const tsym_module_info *i);
/* 1 when no DWARF of m answers (the sym_no_debug_info warning, spec 10): not
 * tsym_module_has_debug_info, and not a split DWARF module, whose warning already says its
 * names come from the symbol table (counted sym_split_dwarf). */
int tsym_module_no_debug_info(const tsym_module_info *i);

/* Module offset (libfoo.so+0x1234) -> ELF virtual address (spec 3.2). */
uint64_t tsym_module_offset_to_vaddr(const tsym_module *m, uint64_t offset);
/* Runtime address in a mapping [start, ...) of file offset pgoff -> vaddr (spec 3.2).
 * Returns TT_ENOTFOUND when no PT_LOAD segment contains pgoff. */
int tsym_module_map_to_vaddr(uint64_t *vaddr, const tsym_module *m, uint64_t addr,
                             uint64_t map_start, uint64_t pgoff);
/* A perf frame address without a mapping line: a runtime address when it lies in an
 * executable segment of an ET_EXEC module (bias 0), else a map-relative address (the file
 * offset recent perf versions print) when a PT_LOAD segment's file range contains it.
 * TT_ENOTFOUND otherwise (a runtime address of a position-independent module). */
int tsym_module_guess_vaddr(uint64_t *vaddr, const tsym_module *m, uint64_t addr);

/* ---- lookup (spec 5.3) ---- */
enum {
    TSYM_F_DEMANGLE = 1u,     /* demangle C++/Rust names (libiberty) */
    TSYM_F_NEAREST = 2u,      /* padding: name the preceding ELF symbol (addr2line's way) */
    TSYM_F_SYMBOL_NAMES = 4u, /* outermost name from the ELF symbol (llvm-symbolizer's way) */
};

typedef struct tsym_frame {
    const char *function;   /* display name; NULL when unknown (printed "??") */
    const char *qualified;  /* function is a Swift linkage name: its qualified DW_AT_name
                             * (MyApp.View.load, spec/ios.md 7), else NULL */
    const char *file;       /* NULL when unknown */
    const char *start_file; /* DW_AT_decl_file of the function, NULL when unknown */
    uint32_t line;          /* 0 when unknown */
    uint32_t column;
    uint32_t discriminator;
    uint32_t start_line;    /* (48 bytes: batches keep tens of thousands of frames) */
} tsym_frame;

typedef struct tsym_result {
    tsym_frame frames[TSYM_MAX_FRAMES]; /* innermost first; the last is out-of-line */
    size_t n_frames;                    /* >= 1 */
    int found;              /* a function (DWARF or symbol) covers the address */
    int approximate;        /* the name came from the symbol table only */
    int has_start;
    uint64_t start_addr;    /* low address of the out-of-line function; with found 0, the
                             * LC_FUNCTION_STARTS entry of a Mach-O image without symbols */
    const char *symbol;     /* ELF symbol containing the address (clone suffix kept), or NULL */
    uint64_t symbol_addr;
} tsym_result;

/* Resolves one ELF virtual address. Strings are borrowed, valid until tsym_module_free.
 * With TSYM_F_DEMANGLE the demangled names are memoised in the module, so concurrent
 * lookups on one module need external locking. */
void tsym_module_lookup(tsym_result *out, tsym_module *m, uint64_t vaddr, unsigned flags);
/* Where the previous lookup of a batch ended (zero it before the first): addresses looked
 * up in ascending order are found by walking forward from there, not by a search over the
 * whole index. Any order gives the same results; one cursor per module and thread. */
typedef struct tsym_cursor {
    size_t block, row, func, sym; /* counts as tsym__count_le returns them; 0: none */
    size_t khead, kid;            /* the outermost function's children (index.c) */
} tsym_cursor;
void tsym_module_lookup_at(tsym_result *out, tsym_module *m, uint64_t vaddr, unsigned flags,
                           tsym_cursor *c);

/* Demangles a C++ (Itanium) or Rust (legacy, v0) name. Returns a malloc'ed string owned by
 * the caller (free()), or NULL when name is not mangled or libiberty is unavailable. */
char *tsym_demangle(const char *name);
/* 1 when tracetool was built with libiberty. */
int tsym_demangle_available(void);
/* 1 when name starts with a Swift mangling prefix ($s, $S, $e, _T0, _T<F|T|W|M|Z|v>, each
 * with or without the extra Mach-O underscore; spec/ios.md 7). libiberty does not demangle
 * them. */
int tsym_swift_mangled(const char *name);

/* ---- ELF identity helpers (elf.c) ---- */
/* Reads the GNU build id of an ELF file as lowercase hex into hex (cap bytes). Returns 0,
 * TT_ENOTFOUND (ELF without build id), TT_EFORMAT (not ELF) or TT_EIO. */
int tsym_elf_build_id(char *hex, size_t cap, const char *path, tt_error *err);
/* 1 when the ELF file has a non-empty .debug_info (or .zdebug_info), 0 when not; negative
 * TT_EFORMAT (not ELF) or TT_EIO. */
int tsym_elf_has_debug_info(const char *path, tt_error *err);

/* ---- Mach-O identity helpers (macho.c) ---- */
typedef struct tsym_macho_slice {
    char arch[16];
    char uuid[33];          /* lowercase hex, "" without LC_UUID */
    uint32_t filetype;      /* MH_EXECUTE 2, MH_DYLIB 6, MH_DSYM 0xA, ... */
    int has_dwarf;          /* a __DWARF,__debug_info section with contents */
    uint64_t offset, size;  /* the slice in the file */
    char platform[64];      /* as tsym_module_info.platform */
} tsym_macho_slice;
/* Lists the slices of a Mach-O file (one for a thin file; at most cap are stored, *n is the
 * number found). TT_EFORMAT with the byte offset when the file is not (valid) Mach-O. */
int tsym_macho_slices(tsym_macho_slice *out, size_t cap, size_t *n, const char *path,
                      tt_error *err);
/* The slice of n for an image of architecture arch (a spec/ios.md 4.4 name such as
 * "arm64e"): the same name, else the first with the same cpu_type (an arm64 slice for an
 * arm64e device); -1 when none or arch is NULL/"". */
int tsym_macho_pick(const tsym_macho_slice *sl, size_t n, const char *arch);
/* The DWARF file of a .dSYM bundle (X.dSYM/Contents/Resources/DWARF/<first file>) into out,
 * or path itself when it is not a directory. 0, or TT_ENOTFOUND. */
int tsym_dsym_file(char *out, size_t cap, const char *path);

/* One --dsym argument [NAME=]PATH[:ARCH] (spec/ios.md 8.2, 4.1), opened and its slices read
 * once by tsym_dsym_open; the store and the CLI use this record, never the argument again. */
typedef struct tsym_dsym {
    char *name;             /* NAME of NAME=PATH (the argument itself names no file), or NULL */
    char *path;             /* PATH without "NAME=" and ":ARCH" */
    char arch[32];          /* ARCH of NAME=PATH:ARCH (a slice of file), else "" */
    char *file;             /* the Mach-O file of PATH (a .dSYM bundle's DWARF file), or NULL:
                             * PATH is a directory searched for them */
    int dir;                /* PATH is searched as a directory (no file of its own) */
    tsym_macho_slice *slices; /* file's slices, n_slices of them (0 without file) */
    size_t n_slices;
} tsym_dsym;
/* Opens arg: "NAME=" is split off when arg itself names no file, ":ARCH" after it when
 * PATH:ARCH names none; PATH must exist (TT_ENOTFOUND); the slices of its file (a bundle's
 * DWARF file) are read (TT_EFORMAT with the byte offset of its defect, also for a file that
 * is not Mach-O or too short to be) and ARCH must name one of them
 * (TT_ENOTFOUND listing them). Owned by the caller, free with tsym_dsym_free. */
int tsym_dsym_open(tsym_dsym **out, const char *arg, tt_error *err);
/* A copy of d without opening anything (a store owns the record it is given, and a record
 * opened once serves several stores). 0 or TT_ENOMEM. */
int tsym_dsym_dup(tsym_dsym **out, const tsym_dsym *d);
void tsym_dsym_free(tsym_dsym *d);
/* "x86_64 (iossimulator 14.0 sdk 14.0), arm64": the slices for messages, into out. */
void tsym_macho_slice_list(char *out, size_t cap, const tsym_macho_slice *sl, size_t n);

/* ---- symbol stores and the module cache (spec 4.2, 4.3, 5.5) ---- */
typedef struct tsym_store tsym_store;

/* dirs: symbol store directories searched in order (copied). stats (may be NULL, borrowed)
 * receives the sym_* counters of spec 10. Owned by the caller, free with tsym_store_free. */
int tsym_store_new(tsym_store **out, const char *const *dirs, size_t n_dirs, tt_stats *stats,
                   tt_error *err);
void tsym_store_free(tsym_store *s);

/* Finds the debug information of a module (spec 4.3) and returns its index, built once
 * and cached by build id (or path when there is none). path: module path or bare name
 * (may not exist locally); build_id: lowercase hex or NULL/"" when unknown. *fresh is
 * set to 1 when this call did the search (so the caller reports a per-module error once).
 * The module is borrowed, valid until tsym_store_free. A failed search is cached too
 * and returns the same error. Errors: TT_ENOTFOUND (no file), TT_EFORMAT (build id
 * mismatch, not ELF), TT_EIO. */
int tsym_store_get(tsym_module **out, int *fresh, tsym_store *s, const char *path,
                   const char *build_id, tt_error *err);
/* tsym_store_get for a module named by a device's backtrace (Android tombstones): its path is
 * the device's, and a relative one (the library inside an APK, base.apk!libfoo.so) is a name
 * only, never a file of the current directory (spec 4.3). */
int tsym_store_get_device(tsym_module **out, int *fresh, tsym_store *s, const char *path,
                          const char *build_id, tt_error *err);

/* --dsym PATH (spec/ios.md 8.2): a .dSYM bundle, its DWARF file or a directory of them,
 * searched before the stores for Mach-O UUIDs. "NAME=PATH" also binds the file to modules
 * named NAME asked for without a build id (spec/ios.md 4.1; counted sym_unverified_module).
 * Opens arg with tsym_dsym_open (its errors; a defective Mach-O file is also counted as
 * macho_bad_header or macho_bad_load_command). *out (may be NULL) receives the record,
 * borrowed until tsym_store_free. */
int tsym_store_add_dsym(const tsym_dsym **out, tsym_store *s, const char *arg, tt_error *err);
/* The same for a record already opened: the store owns d from this call on (freed on
 * error too). */
int tsym_store_add_dsym_opened(tsym_store *s, tsym_dsym *d, tt_error *err);
/* 1 when --dsym NAME=PATH bound a file to the module named like path's file name. */
int tsym_store_bound(const tsym_store *s, const char *path);
/* The store file of a Mach-O slice: DIR/uuid/<aa>/<rest>.macho. 0 or TT_EINVAL. */
int tsym_store_macho_path(char *dest, size_t cap, const char *dir, const char *uuid);

/* Copies (or hard-links) an ELF file into DIR/.build-id/xx/rest[.debug] (spec 4.2); the
 * ".debug" name is used for files with DWARF. dest (cap bytes) receives the path. A Mach-O
 * file or .dSYM bundle is written slice by slice to tsym_store_macho_path (once per UUID;
 * dest is the first slice's path). */
int tsym_store_add(char *dest, size_t cap, const char *dir, const char *file, tt_error *err);
/* The split DWARF package FILE.dwp beside an ELF file tsym_store_add stored as stored:
 * copied (or hard-linked) to stored.dwp, where lookups find it (DEBUG.dwp beside the debug
 * file, spec 4.2). 0 with dest set, 1 when there is no FILE.dwp, else TT_EFORMAT (not a
 * package) or TT_EIO. */
int tsym_store_add_dwp(char *dest, size_t cap, const char *stored, const char *file,
                       tt_error *err);

/* ---- input line parsers (parse_tombstone.c, parse_addr.c; spec 7) ---- */
typedef struct tsym_tomb_frame {
    uint32_t frame;         /* #NN */
    uint64_t pc;            /* already a vaddr (spec 3.2) */
    const char *map;        /* map name (points into the line), map_len bytes */
    size_t map_len;
    const char *lib;        /* library name: after '!' for base.apk!libfoo.so, else map */
    size_t lib_len;
    const char *function;   /* device's "function+off" name (without +off), or NULL */
    size_t function_len;
    uint64_t function_off;
    char build_id[TSYM_BUILD_ID_HEX_MAX]; /* "" when absent */
    int has_offset;
    uint64_t apk_offset;    /* (offset 0x...) */
    int deleted;
    int symbolicatable;     /* 0 for anonymous, JIT, .oat/.odex/.vdex/.dex maps */
    size_t prefix_len;      /* bytes before '#' (logcat prefix and indentation) */
} tsym_tomb_frame;
/* Parses an Android tombstone / logcat / ANR backtrace line ("#00 pc HEX  MAP (...)").
 * Returns 0 on a frame line, TT_ENOTFOUND otherwise. Pointers point into line. */
int tsym_tombstone_parse(tsym_tomb_frame *out, const char *line, size_t n);

/* Parses one hexadecimal address ("4f2a4", "0x4f2a4"). 0 on success. */
int tsym_addr_parse(uint64_t *out, const char *s, size_t n);

typedef struct tsym_modoff {
    const char *module;     /* points into the input */
    size_t module_len;
    uint64_t offset;
    size_t start, end;      /* token position in the line */
} tsym_modoff;
/* Finds the next "module+0xOFF" or "module!0xOFF" token at or after *pos; advances *pos.
 * Returns 0 when found, TT_ENOTFOUND otherwise. */
int tsym_modoff_next(tsym_modoff *out, const char *line, size_t n, size_t *pos);

typedef struct tsym_perf_frame {
    uint64_t addr;          /* runtime address */
    const char *symbol;     /* perf's symbol ("[unknown]" included), symbol_len bytes */
    size_t symbol_len;
    const char *dso;        /* in the balanced parentheses that end the line */
    size_t dso_len;         /* without perf's " (deleted)" suffix */
    size_t indent;          /* leading blanks */
    int deleted;            /* the dso had the " (deleted)" suffix */
    int header;             /* the frame is on a sample header line (perf record without -g:
                             * "comm pid time: period event: ip sym (dso)"); indent: the
                             * line's leading blanks */
} tsym_perf_frame;
/* Parses a perf script callchain line ("\t  7f12ab sym+0x1c (/lib/x.so)"), or the frame of
 * a one-line sample (header). 0 on success. */
int tsym_perf_frame_parse(tsym_perf_frame *out, const char *line, size_t n);

/* PERF_RECORD_MMAP lines: tt_perf_mmap_parse (libtrace). */

#endif
