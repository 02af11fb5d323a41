/* Split DWARF (spec/symbolication.md 5.2 item 10): where the split unit of a skeleton unit
 * is looked for, and the unit index of a .dwp package (DWARF 5 section 7.3.5; GNU's
 * version 2 for DWARF 4 has the same layout with a 4-byte version and other section ids).
 * die.c reads the units. */
#include "tsym_int.h"

#include <string.h>
#include <sys/stat.h>

int tsym__dwo_is_file(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

static uint64_t get(const unsigned char *p, unsigned n, int be)
{
    tsym__cur c = {p, p + n, be, 0};
    return tsym__cur_fixed(&c, n);
}

/* The TSYM_DS_* slot of a DW_SECT_* id, -1 for sections the index does not read. */
static int sect_slot(uint32_t id, unsigned version)
{
    switch (id) {
    case 1: return TSYM_DS_INFO;
    case 3: return TSYM_DS_ABBREV;
    case 4: return TSYM_DS_LINE;
    case 6: return TSYM_DS_STR_OFFSETS;
    case 8: return version == 5 ? TSYM_DS_RNGLISTS : -1; /* 8 is DW_SECT_MACRO in version 2 */
    default: return -1;
    }
}

int tsym__dwp_find(tsym__dwp_row *row, const unsigned char *idx, size_t n, int big_endian,
                   const size_t *sec_size, uint64_t dwo_id)
{
    memset(row, 0, sizeof *row);
    if (!idx || n < 16)
        return 0;
    unsigned version = get(idx, 4, big_endian) == 2 ? 2 : (unsigned)get(idx, 2, big_endian);
    if (version != 2 && version != 5)
        return 0;
    uint64_t ncols = get(idx + 4, 4, big_endian), nunits = get(idx + 8, 4, big_endian);
    uint64_t nslots = get(idx + 12, 4, big_endian), rest = n - 16;
    if (nslots > rest / 12 || ncols == 0 || ncols > 64 || nunits > rest / 8 / ncols ||
        12 * nslots + 4 * ncols + 8 * nunits * ncols > rest)
        return 0;
    const unsigned char *sigs = idx + 16, *rows = sigs + 8 * nslots;
    const unsigned char *ids = rows + 4 * nslots, *offs = ids + 4 * ncols;
    const unsigned char *sizes = offs + 4 * ncols * nunits;
    uint64_t r = 0;
    /* the hash probe of section 7.3.5.3 when the table size allows it, else every slot */
    int pow2 = nslots && !(nslots & (nslots - 1));
    uint64_t mask = nslots - 1, h = pow2 ? dwo_id & mask : 0;
    uint64_t step = pow2 ? ((dwo_id >> 32) & mask) | 1 : 1;
    for (uint64_t i = 0; i < nslots && !r; i++, h = (h + step) & (pow2 ? mask : ~(uint64_t)0)) {
        uint64_t sig = get(sigs + 8 * h, 8, big_endian);
        uint64_t at = get(rows + 4 * h, 4, big_endian);
        if (at && sig == dwo_id)
            r = at;
        else if (pow2 && !at && !sig)
            break;
    }
    if (!r || r > nunits)
        return 0;
    row->version = version;
    for (uint64_t c = 0; c < ncols; c++) {
        int k = sect_slot((uint32_t)get(ids + 4 * c, 4, big_endian), version);
        if (k < 0)
            continue;
        uint64_t o = get(offs + 4 * ((r - 1) * ncols + c), 4, big_endian);
        uint64_t z = get(sizes + 4 * ((r - 1) * ncols + c), 4, big_endian);
        if (o > sec_size[k] || z > sec_size[k] - o)
            return 0;
        row->off[k] = o;
        row->size[k] = z;
    }
    return row->size[TSYM_DS_INFO] > 0;
}

static const char *base_name(const char *p)
{
    const char *s = strrchr(p, '/');
    return s ? s + 1 : p;
}

/* dir(file)/name into out; "" when it does not fit */
static void beside(char *out, size_t cap, const char *file, const char *name)
{
    const char *s = strrchr(file, '/');
    int n = s ? snprintf(out, cap, "%.*s/%s", (int)(s - file), file, name)
              : snprintf(out, cap, "%s", name);
    if (n < 0 || (size_t)n >= cap)
        out[0] = 0;
}

int tsym__dwo_candidate(char *out, size_t cap, const tsym__index *ix, const char *name,
                        const char *comp_dir, size_t i)
{
    out[0] = 0;
    const char *base = base_name(name);
    int n = 0;
    switch (i) {
    case 0:
        n = name[0] != '/' && comp_dir && comp_dir[0]
                ? snprintf(out, cap, "%s/%s", comp_dir, name)
                : snprintf(out, cap, "%s", name);
        break;
    case 1:
        if (ix->split_module)
            beside(out, cap, ix->split_module, base);
        break;
    case 2:
        if (ix->split_debug && (!ix->split_module || strcmp(ix->split_debug, ix->split_module)))
            beside(out, cap, ix->split_debug, base);
        break;
    default:
        if (i - 3 >= ix->n_split_dirs)
            return 0;
        n = snprintf(out, cap, "%s/%s", ix->split_dirs[i - 3], base);
    }
    if (n < 0 || (size_t)n >= cap)
        out[0] = 0;
    return 1;
}

int tsym__dwp_candidate(char *out, size_t cap, const tsym__index *ix, size_t i)
{
    const char *f = i == 0 ? ix->split_module : i == 1 ? ix->split_debug : NULL;
    out[0] = 0;
    if (i > 1)
        return 0;
    if (!f || (i == 1 && ix->split_module && !strcmp(f, ix->split_module)))
        return 1;
    int n = snprintf(out, cap, "%s.dwp", f);
    if (n < 0 || (size_t)n >= cap)
        out[0] = 0;
    return 1;
}
