/* libsym internal declarations, shared by libsym's .c files only (spec 5.1 data layout). */
#ifndef TSYM_INT_H
#define TSYM_INT_H

#include "tsym.h"

#define TSYM_NONE 0xFFFFFFFFu

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
} tsym__func;

typedef struct tsym__node {
    uint32_t parent, name, decl_file, decl_line, call_file, call_line;
    uint32_t first_range, n_ranges, subtree_end;
    uint16_t call_col;
} tsym__node;

typedef struct tsym__range {
    uint64_t lo, hi;
} tsym__range;

enum { TSYM_ROW_END = 1 };
typedef struct tsym__row {
    uint64_t addr;
    uint32_t line, file, discr, ord;
    uint16_t col;
    uint8_t flags;
} tsym__row;

typedef struct tsym__sym {
    uint64_t lo, size;
    uint32_t name, name_len;
    uint32_t file; /* STT_FILE before a local symbol (e.g. crtstuff.c), or TSYM_NONE */
    uint8_t global;
} tsym__sym;

typedef struct tsym__load {
    uint64_t vaddr, memsz, offset, filesz;
    int exec;
} tsym__load;

/* The per-module index: everything a lookup needs; libdwarf is closed after the build. */
typedef struct tsym__index {
    tsym__strtab str;
    tt_vec funcs, nodes, ranges, rows, syms, loads; /* see the typedefs above */
    size_t n_cus, n_inlines;
    int split_dwarf;
} tsym__index;

/* ELF facts read with libelf (elf.c) */
typedef struct tsym__elf {
    char build_id[TSYM_BUILD_ID_HEX_MAX];
    int elf_class, big_endian, elf_type;
    int has_debug_info;   /* .debug_info / .zdebug_info with contents */
    int zstd;             /* a debug section is zstd-compressed */
    int has_symtab;
    char debuglink[256];  /* .gnu_debuglink file name, "" when none */
    uint32_t debuglink_crc;
} tsym__elf;

/* Reads identity and section facts; with ix != NULL also the PT_LOAD list (when ix has
 * none yet) and the function symbols (when want_syms). */
int tsym__elf_read(tsym__elf *e, tsym__index *ix, int want_syms, const char *path,
                   tt_error *err);

/* Builds funcs/nodes/ranges/rows from the DWARF of path (dwarf.c). Returns 0 (also for
 * files without DWARF: n_cus == 0), or an error with libdwarf's message; on error the
 * DWARF parts of ix are emptied. */
int tsym__dwarf_load(tsym__index *ix, const char *path, tt_error *err);

/* Sorting and de-duplication after loading (index.c). */
int tsym__index_finish(tsym__index *ix);
void tsym__index_free(tsym__index *ix);
/* Is [lo, hi) a live code range (spec 5.2 step 5)? */
int tsym__index_live(const tsym__index *ix, uint64_t lo, uint64_t hi);

#endif
