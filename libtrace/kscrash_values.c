/* Values of KSCrash / Matrix iOS reports shared by the reader, the fast-path scanner and the
 * report builder (spec/ios.md 2.2-2.4): dump type and architecture names, address fields. */
#include "tt_kscrash.h"

#include <jansson.h>
#include <stdlib.h>
#include <string.h>

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

/* ---- report.timestamp as text (KSCrashReportFixer) ---- */

/* n decimal digits at s into *v; 1 when all are digits. */
static int digits(const char *s, int n, int *v)
{
    *v = 0;
    for (int i = 0; i < n; i++) {
        if (s[i] < '0' || s[i] > '9')
            return 0;
        *v = *v * 10 + (s[i] - '0');
    }
    return 1;
}

/* Days from 1970-01-01 to y-m-d of the proleptic Gregorian calendar. */
static int64_t days_from_civil(int64_t y, int m, int d)
{
    y -= m <= 2;
    int64_t era = (y >= 0 ? y : y - 399) / 400;
    int64_t yoe = y - era * 400;
    int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + doe - 719468;
}

int tt_ks_rfc3339_ms(const char *s, int64_t *out)
{
    static const int mdays[12] = {31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    int y, mo, d, h, mi, se, oh = 0, om = 0;
    size_t n = s ? strlen(s) : 0;
    if (n < 20 || !digits(s, 4, &y) || s[4] != '-' || !digits(s + 5, 2, &mo) || s[7] != '-' ||
        !digits(s + 8, 2, &d) || (s[10] != 'T' && s[10] != 't' && s[10] != ' ') ||
        !digits(s + 11, 2, &h) || s[13] != ':' || !digits(s + 14, 2, &mi) || s[16] != ':' ||
        !digits(s + 17, 2, &se))
        return 0;
    if (mo < 1 || mo > 12 || d < 1 || d > mdays[mo - 1] ||
        (mo == 2 && d == 29 && (y % 4 || (y % 100 == 0 && y % 400))) || h > 23 || mi > 59 ||
        se > 60)
        return 0;
    const char *p = s + 19;
    int ms = 0, k = 0;
    if (*p == '.') {
        for (p++; *p >= '0' && *p <= '9'; p++, k++)
            if (k < 3)
                ms = ms * 10 + (*p - '0');
        if (!k)
            return 0;
        for (; k < 3; k++)
            ms *= 10;
    }
    int sign = 0;
    if ((*p == 'Z' || *p == 'z') && !p[1])
        sign = 0;
    else if ((*p == '+' || *p == '-') && digits(p + 1, 2, &oh) && p[3] == ':' &&
             digits(p + 4, 2, &om) && !p[6] && oh <= 23 && om <= 59)
        sign = *p == '+' ? 1 : -1;
    else
        return 0;
    int64_t secs = days_from_civil(y, mo, d) * 86400 + h * 3600 + mi * 60 + se -
                   sign * (oh * 3600 + om * 60);
    *out = secs * 1000 + ms;
    return 1;
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
