/* JSON text through jansson with "\u0000" accepted (RFC 8259): json_nul.c. Internal to
 * libtrace. */
#ifndef TT_JSON_INT_H
#define TT_JSON_INT_H

#include <jansson.h>
#include <stddef.h>
#include <stdint.h>

#include "tt.h"

/* Makes every NUL in the strings of v U+FFFD, so that every consumer can take strings as C
 * strings; adds the count to *count. 0, or TT_ENOMEM. */
int tt__json_nul(json_t *v, uint64_t *count);
/* Whether jansson refused a document for a "\u0000" in an object key (JSON_ALLOW_NUL covers
 * values only). */
int tt__json_key_nul_refused(const json_error_t *je);
/* Rewrites every "\u0000" inside an object key of the JSON text p[0..n) to "\ufffd" (same
 * length, so error positions stay), in one linear pass; returns how many. */
uint64_t tt__json_key_nul(char *p, size_t n);
/* json_loadb(p, n, flags | JSON_ALLOW_NUL) then tt__json_nul; a "\u0000" in an object key
 * (which jansson refuses) is retried in a copy rewritten by tt__json_key_nul. *nul (not NULL)
 * receives the NULs replaced, in keys and strings. NULL with je filled on malformed JSON or out of memory. Owned by the caller
 * (json_decref). */
json_t *tt__json_loadb(const char *p, size_t n, size_t flags, uint64_t *nul, json_error_t *je);

/* Counts nul replaced NULs of file as the warning json_nul_replaced (none when 0). */
void tt__json_nul_note(tt_stats *stats, const char *file, uint64_t nul);

#endif
