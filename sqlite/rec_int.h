/* Internal to rec.c (recording) and rec_replay.c (replay): the log's encoding and the
 * recording handle. */
#ifndef REC_INT_H
#define REC_INT_H

#include "tdb_int.h"

/* A row id handed out while recording: bit 62, the statement slot that made it (its table),
 * and a 1-based number within that slot. Real row ids never come near 2^40. */
#define VTAG ((int64_t)1 << 62)
#define VSHIFT 40
#define VLOCAL (((int64_t)1 << VSHIFT) - 1)

enum { OP_END = 0, OP_ROW, OP_NEXT, OP_MODULE, OP_SYMPC };
enum { V_END = 0, V_NULL, V_INT, V_REF, V_TEXT, V_REAL };

typedef struct seg {
    int64_t local, real; /* tdb_next_id: explicit ids from local map to real + (id - local) */
} seg;

struct tdb_rec {
    tt_buf log;
    int oom;
    int64_t count[ST__COUNT]; /* row ids handed out, or the highest explicit id referenced */
    /* after tdb_rec_replay: the real id of every handed-out id */
    tt_vec real[ST__COUNT]; /* int64_t by number - 1 */
    tt_vec segs[ST__COUNT]; /* seg, for the explicit-id tables */
};

#endif
