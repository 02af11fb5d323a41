/* Flame graph colours, spec/visual.md sections 4 and 5.2: categories, hash-stable shades
 * (FNV-1a, integers only), ColorBrewer Set3 by module or package, the red/blue diff scale. */
#include "tt.h"

#include <math.h>
#include <string.h>

static const char *const cat_names[TT_FCAT_COUNT] = {
    "synthetic", "elided", "kernel", "js", "java_platform", "java_app", "cpp", "native"};

const char *tt_flame_cat_name(int cat)
{
    return cat >= 0 && cat < TT_FCAT_COUNT ? cat_names[cat] : "native";
}

static const char *const platform[] = {
    "android.", "androidx.", "com.android.", "com.google.android.", "dalvik.", "java.",
    "javax.", "jdk.", "kotlin.", "kotlinx.", "libcore.", "sun.", "org.apache.harmony.",
    "org.json.", "org.w3c.", "org.xml.", NULL};

static int has_prefix(const char *s, const char *p)
{
    return !strncmp(s, p, strlen(p));
}

int tt_flame_category(int kind, const char *name, const char *module,
                      const char *const *app, size_t napp)
{
    size_t n = strlen(name);
    if (kind == TT_FRAME_SYNTHETIC || has_prefix(name, "[unknown]"))
        return TT_FCAT_SYNTHETIC;
    if (kind == TT_FRAME_KERNEL || (n >= 4 && !strcmp(name + n - 4, "_[k]")) ||
        (module && !strcmp(module, "[kernel.kallsyms]")))
        return TT_FCAT_KERNEL;
    if (kind == TT_FRAME_JS)
        return TT_FCAT_JS;
    if (kind == TT_FRAME_JAVA) {
        if (napp) {
            for (size_t i = 0; i < napp; i++)
                if (has_prefix(name, app[i]))
                    return TT_FCAT_JAVA_APP;
            return TT_FCAT_JAVA_PLATFORM;
        }
        for (size_t i = 0; platform[i]; i++)
            if (has_prefix(name, platform[i]))
                return TT_FCAT_JAVA_PLATFORM;
        return TT_FCAT_JAVA_APP;
    }
    return strstr(name, "::") ? TT_FCAT_CPP : TT_FCAT_NATIVE;
}

/* low RGB and span per category (4.1) */
static const unsigned char family[TT_FCAT_COUNT][6] = {
    {190, 190, 190, 30, 30, 30}, {217, 217, 217, 0, 0, 0},   {220, 120, 0, 35, 60, 40},
    {205, 130, 215, 45, 50, 40}, {80, 185, 185, 50, 45, 45}, {80, 200, 80, 50, 50, 50},
    {190, 190, 60, 45, 45, 30},  {230, 110, 100, 25, 60, 60}};
static const uint32_t set3[12] = {0x8dd3c7, 0xffffb3, 0xbebada, 0xfb8072, 0x80b1d3, 0xfdb462,
                                  0xb3de69, 0xfccde5, 0xd9d9d9, 0xbc80bd, 0xccebc5, 0xffed6f};

static uint32_t shade(const unsigned char *fam, uint64_t h)
{
    uint64_t f = h >> 40;
    uint32_t rgb = 0;
    for (int i = 0; i < 3; i++)
        rgb = rgb << 8 | (uint32_t)(fam[i] + ((fam[3 + i] * f) >> 24));
    return rgb;
}

/* Java package or C++ namespace of a name (module scheme: two package parts). */
static size_t key_len(const char *name, size_t len, int parts)
{
    const char *p = memchr(name, '(', len);
    size_t end = p ? (size_t)(p - name) : len;
    const char *ns = NULL;
    for (size_t i = 0; i + 1 < end; i++)
        if (name[i] == ':' && name[i + 1] == ':') {
            ns = name + i;
            break;
        }
    if (ns)
        return (size_t)(ns - name);
    size_t dots = 0, cut = 0;
    for (size_t i = 0; i < end; i++)
        if (name[i] == '.') {
            dots++;
            if (parts && dots == (size_t)parts)
                return i;
            cut = i;
        }
    if (parts)
        return end;
    /* package: drop Class.method */
    size_t last = cut;
    for (size_t i = last; i-- > 0;)
        if (name[i] == '.')
            return i;
    return dots ? last : end;
}

const char *tt_flame_color_key(int scheme, int cat, const char *name, size_t len,
                               const char *module, size_t *n)
{
    int java = cat == TT_FCAT_JAVA_APP || cat == TT_FCAT_JAVA_PLATFORM;
    if (scheme == TT_COLORS_MODULE && module) {
        const char *b = strrchr(module, '/');
        module = b ? b + 1 : module;
        *n = strlen(module);
        return module;
    }
    if (scheme == TT_COLORS_PACKAGE && !java && !strstr(name, "::") && module) {
        *n = strlen(module);
        return module;
    }
    *n = key_len(name, len, scheme == TT_COLORS_MODULE ? 2 : 0);
    return name;
}

uint32_t tt_flame_color(int scheme, int cat, const char *name, size_t len, const char *module)
{
    if (cat == TT_FCAT_ELIDED)
        return 0xd9d9d9;
    if (scheme == TT_COLORS_MONO)
        return 0xd2d2d2;
    if (scheme == TT_COLORS_HOT) {
        static const unsigned char hot[6] = {230, 100, 0, 25, 130, 55};
        return shade(hot, tt_fnv1a64(name, len));
    }
    if (scheme == TT_COLORS_MODULE || scheme == TT_COLORS_PACKAGE) {
        size_t n;
        const char *k = tt_flame_color_key(scheme, cat, name, len, module, &n);
        return set3[tt_fnv1a64(k, n) % 12];
    }
    const char *p = memchr(name, '(', len); /* overloads share a shade */
    return shade(family[cat >= 0 && cat < TT_FCAT_COUNT ? cat : TT_FCAT_NATIVE],
                 tt_fnv1a64(name, p && p > name ? (size_t)(p - name) : len));
}

uint32_t tt_flame_diff_color(int64_t delta, int64_t m, int dead)
{
    if (!delta || dead)
        return 0xfafafa;
    if (m < 1)
        m = 1;
    int64_t a = delta < 0 ? -delta : delta;
    if (a > m)
        a = m;
    uint32_t c = (uint32_t)(100 + tt_muldiv(150, m - a, 1) / m);
    return delta > 0 ? 0xff0000u | c << 8 | c : c << 16 | c << 8 | 0xffu;
}

static double lin(unsigned v)
{
    double c = v / 255.0;
    return c <= 0.03928 ? c / 12.92 : pow((c + 0.055) / 1.055, 2.4);
}

int tt_contrast_black_x100(uint32_t rgb)
{
    double l = 0.2126 * lin(rgb >> 16 & 255) + 0.7152 * lin(rgb >> 8 & 255) +
               0.0722 * lin(rgb & 255);
    return (int)((l + 0.05) / 0.05 * 100);
}
