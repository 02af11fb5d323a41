/* Drop levels of one frame (spec/frames.md section 2), shared by the frame analysis
 * (frames.c) and the Matrix FPS replays (frames_matrix.c): the replays never call back into
 * frames.c. */
#include "tt.h"

#include "tt_int.h"

int tt_level_of(int64_t d, const int32_t t[4])
{
    /* top-down, FROZEN first (section 2) */
    for (int l = 3; l >= 0; l--)
        if (d >= t[l])
            return l + 1;
    return TT_DROP_BEST;
}

void tt_frames__level_add(int64_t *count, int64_t *sum, int64_t d, const int32_t t[4])
{
    int l = tt_level_of(d, t);
    count[l]++;
    sum[l] = tt__sat_add(sum[l], l == TT_DROP_BEST && d < 0 ? 0 : d);
}
