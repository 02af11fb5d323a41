/* The native-name resolver hook (tt.h section "native-name resolver callback"). */
#include "tt.h"

int tt_resolve(const tt_resolver *r, tt_native_frame *frames, size_t cap,
               const tt_native_loc *loc, tt_error *err)
{
    if (!r || !r->fn || !loc || cap == 0)
        return 0;
    return r->fn(r->ctx, frames, cap, loc, err);
}
