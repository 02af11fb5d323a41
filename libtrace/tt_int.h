/* libtrace internal declarations, shared by libtrace's .c files only. */
#ifndef TT_INT_H
#define TT_INT_H

#include "tt.h"

#define TT_UNUSED(x) ((void)(x))

/* Truncates s for messages: copies at most 40 characters, adding "..." when cut. */
void tt__snippet(char *dst, size_t cap, const char *s, size_t n);
/* Strict decimal parsers; 0 on success. */
int tt__parse_u64(const char *s, size_t n, uint64_t *out);
int tt__parse_i64(const char *s, size_t n, int64_t *out);
/* Trim spaces/tabs and a trailing '\r'. */
void tt__trim(const char **s, size_t *n);
/* memmem without _GNU_SOURCE. */
const char *tt__memmem(const char *h, size_t hn, const char *n, size_t nn);

#endif
