/* C++ (Itanium) and Rust (legacy and v0) demangling through libiberty's cplus_demangle
 * (spec/symbolication.md R2 and 5.4). Built without libiberty, names stay mangled. */
#include "tsym_int.h"

#include <stdlib.h>

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
