/* Detection past the head (cli.md "Inputs"): a logcat capture whose first Matrix report or
 * Displayed line lies beyond the detection window. `adb logcat -d` holds the whole device's
 * log, and the app's lines may come megabytes in. */
#include "tt.h"

#include <stdio.h>
#include <string.h>

#include "tt_int.h"

int tt_input_detect_deep(tt_detection *d, tt_input *in, tt_error *err)
{
    if (d->kind != TT_KIND_UNKNOWN || !d->logcat)
        return 0;
    int rc, launches = 0;
    const char *l;
    size_t ln;
    uint64_t lineno;
    while (!(rc = tt_input_line(in, &l, &ln, &lineno, err))) {
        /* the evidence tt_detect takes from a head, in its order: reports first */
        if (tt__memmem(l, ln, "tag[", 4) && tt__memmem(l, ln, "content[{", 9)) {
            d->kind = TT_KIND_REPORT;
            return 0;
        }
        launches = launches || tt__looks_launches(l, ln);
    }
    if (rc == TT_ELIMIT) /* a line too long for a logcat: not one */
        return 0;
    if (rc != TT_DONE)
        return rc;
    if (launches)
        d->kind = TT_KIND_LAUNCHES;
    else
        snprintf(d->what, sizeof d->what, "a logcat capture without Matrix report lines or "
                                          "Displayed / Fully drawn lines");
    return 0;
}
