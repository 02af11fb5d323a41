/* The names of the input kinds (tt_detect.h, cli.md "Inputs"), apart from the detection so
 * that the readers can name a kind without depending on detect.c. */
#include "tt.h"

#include <string.h>

static const char *const names[TT_KIND__COUNT] = {
    "unknown", "beat", "mapping", "ignore_mapping", "proguard", "report", "database", "frames",
    "startup", "launches", "samples", "btrace_mapping", "kscrash", "art",
};

const char *tt_kind_name(tt_kind k)
{
    return (unsigned)k < TT_KIND__COUNT ? names[k] : "unknown";
}

int tt_kind_parse(const char *name)
{
    for (int i = 1; i < TT_KIND__COUNT; i++)
        if (!strcmp(name, names[i]))
            return i;
    return -1;
}
