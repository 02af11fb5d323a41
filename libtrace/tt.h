/* libtrace public API: inputs, method-beat analysis (spec/method-beat.md), reports.
 * Libraries never print, never exit; every function reports through tt_error. */
#ifndef TT_H
#define TT_H

#include <stdio.h> /* not needed by the declarations: kept for includers that use it through tt.h */

#include "tt_base.h"    /* errors, stats sink, arena, arrays, buffers, input, JSON, interning */
#include "tt_detect.h"  /* input kinds, detected by content */
#include "tt_beat.h"    /* method-beat records, stacks, mappings, slices, issue reports */
#include "tt_frames.h"  /* frames and FPS */
#include "tt_startup.h" /* startup */
#include "tt_samples.h" /* sampled stacks, slices, readers, exports, native-name resolver */
#include "tt_diff.h"    /* diff thresholds, CI gates, name matching */
#include "tt_flame.h"   /* flame graphs, the HTML report */

#endif
