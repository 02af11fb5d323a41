/* C++ (Itanium) and Rust (legacy and v0) demangling through libiberty's cplus_demangle
 * (spec/symbolication.md R2 and 5.4). Built without libiberty, names stay mangled. Swift
 * names are only recognised here (spec/ios.md 7): cli/ runs their demangler. */
#include "tsym_int.h"

#include <stdlib.h>
#include <string.h>

#if defined(__has_include)
#if __has_include(<libiberty/demangle.h>)
#define HAVE_LIBIBERTY 1
#include <libiberty/demangle.h>
#endif
#endif

char *tsym_demangle(const char *name)
{
#ifdef HAVE_LIBIBERTY
    /* only names that look mangled: cplus_demangle's auto style also accepts some plain
     * identifiers of other (older) schemes */
    if (!tsym__maybe_mangled(name))
        return NULL;
    return cplus_demangle(name, DMGL_PARAMS | DMGL_ANSI);
#else
    (void)name;
    return NULL;
#endif
}

int tsym_demangle_available(void)
{
#ifdef HAVE_LIBIBERTY
    return 1;
#else
    return 0;
#endif
}

int tsym_swift_mangled(const char *p)
{
    if (!p)
        return 0;
    if (p[0] == '_' && (p[1] == '$' || (p[1] == '_' && p[2] == 'T')))
        p++; /* the Mach-O symbol-table underscore */
    if (p[0] == '$')
        return (p[1] == 's' || p[1] == 'S' || p[1] == 'e') && p[2] != '\0';
    if (p[0] == '_' && p[1] == 'T')
        return p[2] == '0' || (p[2] && strchr("FTWMZv", p[2]) && p[3] != '\0');
    return 0;
}
