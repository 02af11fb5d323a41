/* The ART reader's input window (spec/art-trace.md 4: memory input, or the file read in
 * chunks with the second pass reading it again) and its warning and error helpers. */
#include "art_parse_int.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void tt_art__warn(art_parse *s, const char *name, int sev, uint64_t off, const char *fmt, ...)
{
    char msg[256], ex[400];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    snprintf(ex, sizeof ex, "%s:0x%llx: %s", s->file, (unsigned long long)off, msg);
    tt_stats_add(s->stats, name, s->file, sev, 1, ex);
}

int tt_art__nomem(art_parse *s)
{
    return tt_error_set(s->err, TT_ENOMEM, s->file, TT_LOC_NONE, 0, "out of memory");
}

/* Reads into the window until it holds want bytes or the input ends; the buffer grows as
 * bytes arrive (a packet's length field alone allocates nothing). */
static int win_fill(art_parse *s, size_t want)
{
    while (!s->eof && s->wlen < want) {
        if (s->wlen == s->cap) {
            size_t ncap = !s->cap ? s->chunk : s->cap > SIZE_MAX / 2 ? SIZE_MAX : s->cap * 2;
            unsigned char *nb = realloc(s->buf, ncap);
            if (!nb)
                return tt_art__nomem(s);
            s->buf = nb;
            s->cap = ncap;
        }
        size_t got = 0;
        if (tt_input_read(s->in, s->buf + s->wlen, s->cap - s->wlen, &got, s->err))
            return s->err && s->err->code ? s->err->code : TT_EIO;
        if (!got)
            s->eof = 1;
        s->wlen += got;
    }
    return 0;
}

/* The bytes of the file from offset at: *q and *avail (at least want unless the file ends
 * first; 0 at the end). Offsets only move forward, except by tt_art__win_rewind. Memory inputs give
 * the rest of the file; chunked inputs keep about chunk bytes (more for a longer want). */
int tt_art__win_need(art_parse *s, size_t at, size_t want, const unsigned char **q, size_t *avail)
{
    if (!s->in) {
        *q = at < s->n ? s->p + at : s->p;
        *avail = at < s->n ? s->n - at : 0;
        return 0;
    }
    size_t end = s->wbase + s->wlen;
    if (at + want > end && !s->eof) {
        while (at > end && !s->eof) { /* skip bytes before at */
            s->wbase = end;
            s->wlen = 0;
            size_t skip = at - end < s->chunk ? at - end : s->chunk;
            int rc = win_fill(s, skip);
            if (rc)
                return rc;
            end = s->wbase + s->wlen;
        }
        if (at <= end && s->buf) {
            memmove(s->buf, s->buf + (at - s->wbase), end - at);
            s->wlen = end - at;
            s->wbase = at;
        }
        int rc = win_fill(s, want > s->chunk ? want : s->chunk);
        if (rc)
            return rc;
        end = s->wbase + s->wlen;
    }
    *q = at < end ? s->buf + (at - s->wbase) : s->buf;
    *avail = at < end ? end - at : 0;
    return 0;
}

void tt_art__src_close(art_parse *s)
{
    if (s->in && s->src->close)
        s->src->close(s->src->ud, s->in);
    else
        tt_input_close(s->in);
    s->in = NULL;
}

/* Starts reading the file again from offset 0 (the second pass). */
int tt_art__win_rewind(art_parse *s)
{
    if (!s->in)
        return 0;
    tt_art__src_close(s);
    int rc = s->src->open(s->src->ud, &s->in, s->err);
    if (rc || !s->in)
        return rc ? rc : TT_EIO;
    s->wbase = s->wlen = 0;
    s->eof = 0;
    return 0;
}

char *tt_art__dup(art_parse *s, const char *p, size_t n)
{
    return tt_arena_strndup(s->a->arena, p, n);
}
