/* Values of KSCrash / Matrix iOS reports shared by the reader, the fast-path scanner and the
 * report builder (spec/ios.md 2.2-2.4): dump type and architecture names, address fields. */
#include "tt_kscrash.h"

#include <jansson.h>
#include <stdlib.h>

#include "kscrash_int.h"

/* ---- names ---- */

static const struct {
    int64_t v;
    const char *name;
    int lag;
} dump_types[] = {
    {2000, "Unlag", 0},          {2001, "MainThreadBlock", 1}, {2002, "BackgroundMainThreadBlock", 1},
    {2003, "CPUBlock", 0},       {2004, "FrameDropBlock", 0},  {2005, "SelfDefinedDump", 0},
    {2006, "B2FBlock", 0},       {2007, "LaunchBlock", 1},     {2008, "CPUIntervalHigh", 0},
    {2009, "BlockThreadTooMuch", 1}, {2010, "BlockAndBeKilled", 1}, {2011, "PowerConsume", 0},
    {2013, "DiskIO", 0},         {2014, "FPS", 0},             {10000, "Test", 0},
};

const char *tt_ks_dump_type_name(int64_t t)
{
    for (size_t i = 0; i < sizeof dump_types / sizeof dump_types[0]; i++)
        if (dump_types[i].v == t)
            return dump_types[i].name;
    return NULL;
}

int tt_ks_dump_type_is_lag(int64_t t)
{
    for (size_t i = 0; i < sizeof dump_types / sizeof dump_types[0]; i++)
        if (dump_types[i].v == t)
            return dump_types[i].lag;
    return 0;
}

const char *tt_ks_arch_name(int64_t cpu_type, int64_t cpu_subtype)
{
    int64_t sub = cpu_subtype & 0x00FFFFFF;
    switch (cpu_type) {
    case 0x0100000C: return sub == 0 ? "arm64" : sub == 1 ? "arm64v8" : sub == 2 ? "arm64e" : NULL;
    case 0x0200000C: return sub == 1 ? "arm64_32" : NULL;
    case 12: return sub == 9 ? "armv7" : sub == 11 ? "armv7s" : sub == 12 ? "armv7k" : NULL;
    case 0x01000007: return sub == 3 ? "x86_64" : sub == 8 ? "x86_64h" : NULL;
    case 7: return sub == 3 ? "i386" : NULL;
    default: return NULL;
    }
}

/* ---- JSON helpers ---- */

/* An address or unsigned field: an integer (bit pattern kept), "0x..." or decimal text. */
int tt_ks__u64(const json_t *v, uint64_t *out)
{
    if (json_is_integer(v)) {
        *out = (uint64_t)json_integer_value(v);
        return 1;
    }
    return json_is_string(v) && tt_ks__u64_str(json_string_value(v), out);
}

int tt_ks__u64_str(const char *s, uint64_t *out)
{
    char *end;
    int hex = s[0] == '0' && (s[1] == 'x' || s[1] == 'X');
    if (!*s || (!hex && (*s < '0' || *s > '9')))
        return 0;
    unsigned long long x = strtoull(s, &end, hex ? 16 : 10);
    if (*end || (hex && !s[2]))
        return 0;
    *out = (uint64_t)x;
    return 1;
}
