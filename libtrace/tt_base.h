/* libtrace basics: errors, stats sink, arena, growable array, byte buffer, input, JSON
 * writer and string interning. Part of the public API; included by tt.h. */
#ifndef TT_BASE_H
#define TT_BASE_H

#include <stddef.h>
#include <stdint.h>

/* The tool version, stored with every import (storage.md 3.1). */
#define TT_VERSION_STRING "0.2.0"

/* ---- errors (STYLE.md section 4) ---- */
enum {
    TT_OK = 0,
    TT_ENOMEM = -1,
    TT_EIO = -2,
    TT_EFORMAT = -3,
    TT_EUNSUPPORTED = -4,
    TT_ENOTFOUND = -5,
    TT_ELIMIT = -6,
    TT_EINVAL = -7,
    TT_DONE = 1
};

#define TT_ERRMSG_MAX 512
#define TT_LOC_NONE 0
#define TT_LOC_LINE 1   /* text input: loc is a 1-based line number */
#define TT_LOC_OFFSET 2 /* binary input: loc is a byte offset */

typedef struct tt_error {
    int code;
    int loc_kind;
    uint64_t loc;
    char file[256];
    char msg[TT_ERRMSG_MAX];
} tt_error;

/* Fill err (may be NULL) and return code. file may be NULL. */
int tt_error_set(tt_error *err, int code, const char *file, int loc_kind, uint64_t loc,
                 const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 6, 7)))
#endif
    ;
void tt_error_clear(tt_error *err);
const char *tt_strerror(int code);

#include "tt_checked.h" /* checked int64 arithmetic, TT_NS_PER_MS, TT_MS_MAX */

/* ---- stats sink: counted repairs and warnings ---- */
enum { TT_SEV_INFO = 0, TT_SEV_WARN = 1, TT_SEV_DATA_LOSS = 2 };

typedef struct tt_stat {
    char name[48];
    char file[256];
    int severity;
    int64_t count;
    char example[200]; /* first occurrence, with its location */
    int told;          /* the example is also the text of an error or warning the caller
                        * prints (tt_stats_add_told): summaries count without repeating it */
} tt_stat;

typedef struct tt_stats tt_stats;
/* Owned by the caller, free with tt_stats_free. */
tt_stats *tt_stats_new(void);
void tt_stats_free(tt_stats *s);
/* Count n occurrences of `name` for `file`; the first call keeps `example` (may be NULL). */
void tt_stats_add(tt_stats *s, const char *name, const char *file, int severity, int64_t n,
                  const char *example);
/* tt_stats_add for a count whose example is also the message of the error (or module
 * warning) returned with it, which the caller prints: the example is kept (the database's
 * stats row) and marked told, so the summary line counts without repeating it. */
void tt_stats_add_told(tt_stats *s, const char *name, const char *file, int severity,
                       int64_t n, const char *example);
/* Adds the count of x, as counted elsewhere (another job's or reader's sink), to s. */
void tt_stats_add_stat(tt_stats *s, const tt_stat *x);
size_t tt_stats_count(const tt_stats *s);
/* Borrowed, valid until the next tt_stats_add or tt_stats_free. */
const tt_stat *tt_stats_get(const tt_stats *s, size_t i);
/* A sentence saying what `name` counts, for the names counted without an example; NULL for
 * others (their first example describes them). Static storage. */
const char *tt_stats_description(const char *name);
/* What stats.description stores for s (schema(5)): its first occurrence's message (the
 * example the warning prints) when it has one, else tt_stats_description of its name, else
 * the name. Borrowed from s or static. */
const char *tt_stats_text(const tt_stat *s);

/* ---- arena ---- */
typedef struct tt_arena tt_arena;
tt_arena *tt_arena_new(void);
void tt_arena_free(tt_arena *a);
/* Borrowed, valid until tt_arena_free. NULL on out of memory. */
void *tt_arena_alloc(tt_arena *a, size_t n);
char *tt_arena_strndup(tt_arena *a, const char *s, size_t n);
size_t tt_arena_used(const tt_arena *a);

/* ---- growable array ---- */
typedef struct tt_vec {
    void *data;
    size_t len, cap, elem;
} tt_vec;
void tt_vec_init(tt_vec *v, size_t elem);
void tt_vec_free(tt_vec *v);
/* Appends one element (copied from p, or zeroed when p is NULL); returns its address. */
void *tt_vec_push(tt_vec *v, const void *p);
int tt_vec_reserve(tt_vec *v, size_t n);
/* Room for n elements (an estimate) in 2 MiB huge pages where the system has them: one
 * page fault instead of 512; a last one less than half filled gets small pages. 0 or
 * TT_ENOMEM (v unchanged). Later growth is tt_vec_reserve's. */
int tt_vec_reserve_huge(tt_vec *v, size_t n);
#define TT_VEC_AT(v, type, i) (((type *)(v)->data)[i])

/* ---- byte buffer ---- */
typedef struct tt_buf {
    char *data;
    size_t len, cap;
} tt_buf;
int tt_buf_put(tt_buf *b, const char *p, size_t n);
int tt_buf_puts(tt_buf *b, const char *s);
int tt_buf_printf(tt_buf *b, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
void tt_buf_free(tt_buf *b);

/* ---- input: file or "-", gzip transparent, streaming ---- */
typedef struct tt_input tt_input;
/* Opens path ("-" = stdin). Owned by the caller, free with tt_input_close. */
int tt_input_open(tt_input **out, const char *path, tt_error *err);
/* Reads an open file descriptor from its current offset; the input owns fd (closed by
 * tt_input_close, also when opening fails). name is the name messages use. */
int tt_input_open_fd(tt_input **out, const char *name, int fd, tt_error *err);
/* Wraps an in-memory buffer (borrowed; must outlive the input). */
int tt_input_open_mem(tt_input **out, const char *name, const void *data, size_t n,
                      tt_error *err);
void tt_input_close(tt_input *in);
const char *tt_input_name(const tt_input *in);
/* The longest line (and multi-line report object) an input accepts: 64 MiB by default. */
#define TT_LINE_MAX ((size_t)64 * 1024 * 1024)
void tt_input_set_line_max(tt_input *in, size_t bytes);
size_t tt_input_line_max(const tt_input *in);
/* "64 MiB" or "1000 bytes": the cap as the messages name it. */
void tt_input_line_max_text(char *out, size_t cap, size_t bytes);
/* Up to n bytes of the (decompressed) start of the input, without consuming them. */
int tt_input_peek(tt_input *in, const unsigned char **p, size_t *n, size_t want, tt_error *err);
/* Like tt_input_peek (at least want bytes), but the window grows (up to the line cap)
 * until it holds the first meaningful line (not blank, not '#') whole, so content
 * detection sees a folded stack or perf header even when that line is long. */
int tt_input_peek_text(tt_input *in, const unsigned char **p, size_t *n, size_t want,
                       tt_error *err);
/* Reads up to n bytes; *got = 0 at end. */
int tt_input_read(tt_input *in, void *dst, size_t n, size_t *got, tt_error *err);
/* Next line without its '\n' (a trailing '\r' is kept). Borrowed until the next call.
 * Returns TT_DONE at end of input. *lineno is 1-based. A line longer than the input's
 * line cap (TT_LINE_MAX unless set) is TT_ELIMIT "line longer than 64 MiB" at its line:
 * memory stays bounded on a stream without newlines. */
int tt_input_line(tt_input *in, const char **line, size_t *len, uint64_t *lineno,
                  tt_error *err);
/* 1 when the next tt_input_line needs no read (a whole line, the end of a plain input, or
 * an error is already buffered): callers that answer each line before reading the next
 * (pipes) may batch the lines that arrived together. */
int tt_input_line_ready(const tt_input *in);
/* Total size of a plain (not compressed) regular file or memory input: 0, or TT_ENOTFOUND when
 * unknown (pipes, gzip). */
int tt_input_size(tt_input *in, uint64_t *bytes);
/* Bytes consumed so far (of decompressed data). */
uint64_t tt_input_offset(const tt_input *in);
int tt_input_is_gzip(const tt_input *in);
/* Content hash (storage.md 5.2): SHA-256 of the decompressed bytes, via libcrypto.
 * tt_input_hash_begin must be called before anything is consumed (a peek is fine); tt_input_hash_end reads
 * whatever the parser left, writes the lowercase hex digest and the decompressed size. */
int tt_input_hash_begin(tt_input *in, tt_error *err);
int tt_input_hash_end(tt_input *in, char hex[65], uint64_t *bytes, tt_error *err);
/* SHA-256 of a memory buffer as lowercase hex; 0 or TT_EIO. */
int tt_sha256_buf(char hex[65], const void *data, size_t n);
void tt_sha256_hex(char hex[65], const unsigned char md[32]);
/* Reads the rest of the input into memory. Owned by the caller (free()). */
int tt_input_slurp(tt_input *in, char **data, size_t *n, tt_error *err);
/* Progress of the reads from the underlying file (the library never prints it): fn gets the
 * raw (for gzip: compressed) bytes read so far and the file size (0 when unknown, e.g. a
 * pipe) after every read, and once more with end = 1 at the end of the file. fn must not
 * use the input. */
typedef void (*tt_progress_fn)(void *ud, const char *name, uint64_t done, uint64_t total,
                               int end);
void tt_input_set_progress(tt_input *in, tt_progress_fn fn, void *ud);

/* ---- temporary files of killed runs (tmpfiles.c) ---- */
/* The one reading of temporary file names (tt_tmp_create makes them): the length of BASE
 * when nm is "BASE.tmp-PID" (*numbered = 0) or "BASE.tmp-PID-N" (*numbered = 1), BASE not
 * empty, PID and N decimal digits; 0 for any other name. numbered may be NULL. */
size_t tt_tmp_name(const char *nm, int *numbered);
/* Removes "PATH.tmp-PID" and "PATH.tmp-PID-N" files beside PATH whose PID is no live
 * process (kill -9): regular files of this user (not symbolic links) that no live run holds
 * (tt_tmp_hold). Nothing when PATH ends in '/'. */
void tt_remove_stale_tmp(const char *path);
/* The same for every "NAME.tmp-PID-N" (NAME not empty; not "NAME.tmp-PID") in directory dir:
 * a symbol store's, whose every entry is written that way (tt_tmp_create with n >= 0). */
void tt_remove_stale_tmp_in(const char *dir);
/* The files a database DB may have beside it ("" = DB itself, then "-wal", "-shm",
 * "-journal", ".lock"), NULL-terminated: what a private directory's cleanup and the sweep of
 * tt_remove_stale_dirs remove for each DB, with "DB.tmp-PID". */
extern const char *const tt_tmp_db_suffixes[];
/* Removes the directories "PREFIX-PID-XXXXXX" in tmpdir whose PID is no live process: real
 * directories of this user with mode 0700 that no live run holds (tt_private_dir), with the
 * files DB, DB-wal, DB-shm, DB-journal, DB.lock and DB.tmp-PID[-N] in them for each DB of the
 * NULL-terminated dbs (a directory holding anything else is left). */
void tt_remove_stale_dirs(const char *tmpdir, const char *prefix, const char *const *dbs);
/* Sweeps tmpdir as above, then makes this run's "PREFIX-PID-XXXXXX" there (name in
 * out[cap]) and returns a descriptor holding its lock, to keep open while the directory is
 * used (closing it or exiting releases it); -1 with errno on failure. */
int tt_private_dir(char *out, size_t cap, const char *tmpdir, const char *prefix,
                   const char *const *dbs);
/* A live run's hold on its temporary file fd (flock LOCK_EX): tt_remove_stale_tmp leaves a
 * held file whatever its PID says. 0 or -1 with errno. */
int tt_tmp_hold(int fd);
/* Creates this run's temporary "PATH.tmp-PID" (n < 0; an old file of that name is removed
 * first when a sweep would remove it, a regular file of this user that no live run holds,
 * else the first free "PATH.tmp-PID-N" is made instead) or "PATH.tmp-PID-N" (n >= 0; EEXIST
 * when it is taken), named in out[cap], with O_EXCL and mode (umask applies), and holds its
 * flock (tt_tmp_hold) so that no sweep removes it. Returns the write descriptor, -1 with
 * errno. hold NULL: the lock is on the
 * returned descriptor, keep it open while the file is used; otherwise *hold is a second
 * descriptor holding it (-1 when it could not be taken), to close after the rename or
 * removal, so that the first may be closed before. */
int tt_tmp_create(char *out, size_t cap, const char *path, long n, unsigned mode, int *hold);

/* ---- JSON writer (streaming) ---- */
typedef int (*tt_write_fn)(void *ctx, const char *p, size_t n);
typedef struct tt_jsonw {
    tt_buf buf;
    int depth;
    int has_elem;  /* the innermost open container has an element (next one needs a comma) */
    int after_key; /* a key was written, its value follows */
    int android;             /* Android org.json escaping: '/' escaped */
    int pretty;
} tt_jsonw;
void tt_jsonw_init(tt_jsonw *w, int android_escaping);
void tt_jsonw_free(tt_jsonw *w);
void tt_jsonw_obj_begin(tt_jsonw *w);
void tt_jsonw_obj_end(tt_jsonw *w);
void tt_jsonw_arr_begin(tt_jsonw *w);
void tt_jsonw_arr_end(tt_jsonw *w);
void tt_jsonw_key(tt_jsonw *w, const char *k);
/* A key of n bytes that needs no escaping (a literal such as "FunctionName"): written
 * without scanning it. */
void tt_jsonw_key_plain(tt_jsonw *w, const char *k, size_t n);
void tt_jsonw_str(tt_jsonw *w, const char *s);
void tt_jsonw_strn(tt_jsonw *w, const char *s, size_t n);
void tt_jsonw_int(tt_jsonw *w, int64_t v);
void tt_jsonw_uint(tt_jsonw *w, uint64_t v);
void tt_jsonw_double(tt_jsonw *w, double v);
/* A JSON real that reads back as a real: tt_json_format_double's form (a whole number below
 * 1e15 in full, else the shortest round-trip form), with ".0" added when that form has no
 * fraction or exponent (91.0 stays 91.0, not 91; 100.0 is 100.0, not 1e+02; -0.0 keeps its
 * sign); null when not finite. */
void tt_jsonw_real(tt_jsonw *w, double v);
void tt_jsonw_bool(tt_jsonw *w, int v);
void tt_jsonw_null(tt_jsonw *w);
/* Key/value pairs written into the open object with one reservation (bulk writers such as
 * symbolicate's results, about 20 pairs per address). key: a literal needing no escaping;
 * a NULL string is written as "". At most TT_JSONW_FIELDS_MAX pairs per call. */
enum { TT_JSONW_STR, TT_JSONW_UINT, TT_JSONW_BOOL };
#define TT_JSONW_FIELDS_MAX 16
typedef struct tt_jsonw_field {
    const char *key;
    size_t key_len;
    int type;
    const char *s; /* TT_JSONW_STR */
    uint64_t u;    /* TT_JSONW_UINT, TT_JSONW_BOOL */
} tt_jsonw_field;
void tt_jsonw_fields(tt_jsonw *w, const tt_jsonw_field *f, size_t n);
/* Raw JSON text as one value. */
void tt_jsonw_raw(tt_jsonw *w, const char *s, size_t n);
/* Bulk writers (symbolicate's frames, one fixed layout written with literal text):
 * tt_jsonw_value_room writes what a new value of the open container needs before it (a
 * comma) and returns room for n bytes (NULL when out of memory); the caller writes the
 * value's JSON text there and ends it with tt_jsonw_value_end at its end. */
char *tt_jsonw_value_room(tt_jsonw *w, size_t n);
void tt_jsonw_value_end(tt_jsonw *w, char *end);
/* s (n bytes) as a JSON string at p, which has room for 6 * n + 2 bytes, escaped as w
 * escapes; returns its end. */
char *tt_jsonw_quote(const tt_jsonw *w, char *p, const char *s, size_t n);
/* v in decimal at p (room for 20 bytes); returns its end. */
char *tt_json_uint(char *p, uint64_t v);
/* Formats a double as Java/Android would print it (7.6): integral values without
 * fraction, others with the shortest round-trip representation. */
int tt_json_format_double(char *dst, size_t cap, double v);

/* ---- text escaping (textesc.c): untrusted text made safe for a terminal ----
 * Bytes written through a tt_textesc reach write() as the text outputs show them: newline,
 * tab, the CR of a CR LF pair, printable ASCII and well-formed UTF-8 (RFC 3629; Unicode's
 * table of well-formed byte sequences) as they are; a UTF-8 C1 control (U+0080..U+009F:
 * C2 80..C2 9F) as \u00NN and a bidi control (U+061C, U+200E, U+200F, U+202A..U+202E,
 * U+2066..U+2069) as \uNNNN; every other byte (a C0 control, DEL, a byte of no well-formed
 * sequence: a lone 0x9B, 0xFF, an overlong C0 AF, a surrogate ED A0 80, a code point above
 * U+10FFFF, a truncated sequence) as \xNN. The state carries across calls: a sequence or a
 * CR LF split between two tt_textesc_put calls is written as the unsplit text would be (an
 * incomplete tail, at most 3 bytes, is held until the next call or tt_textesc_flush). */
typedef struct tt_textesc {
    tt_write_fn write; /* nonzero return: a write error, handed back */
    void *ctx;
    unsigned char held[3];
    unsigned char n_held;
} tt_textesc;
void tt_textesc_init(tt_textesc *e, tt_write_fn write, void *ctx);
/* Escapes p[0..n) to e->write; 0, or the nonzero return of a failed write. */
int tt_textesc_put(tt_textesc *e, const char *p, size_t n);
/* Writes the held tail (escaped: it is incomplete at the end of the text); 0 or the write's
 * error. Call it when the output ends; the stream can be written again afterwards. */
int tt_textesc_flush(tt_textesc *e);
/* The length of the longest prefix of p[0..n) that tt_textesc_put (with nothing held) writes
 * as it is: n when the whole text can bypass the escaper. */
size_t tt_textesc_plain(const char *p, size_t n);
/* Appends p[0..n) to b as one cell of a text table: as tt_textesc writes it, and newline,
 * tab and CR as \xNN too (one line of plain text); *width (may be NULL) is its width in
 * characters (code points). 0, or TT_ENOMEM with b unchanged. */
int tt_textesc_cell(tt_buf *b, const char *p, size_t n, size_t *width);

/* ---- string interning (intern.c): dense ids for byte strings ---- */
typedef struct tt_intern tt_intern;
/* Owned by the caller, free with tt_intern_free (accepts NULL). NULL on out of memory. */
tt_intern *tt_intern_new(void);
void tt_intern_free(tt_intern *t);
/* The id of the n bytes at s (0, 1, 2, ... in first-seen order), added when new; 0 or
 * TT_ENOMEM. The bytes may contain NULs. */
int tt_intern_get(tt_intern *t, const char *s, size_t n, uint32_t *id);
/* The interned bytes of id, NUL-terminated; borrowed until tt_intern_free. *n may be NULL. */
const char *tt_intern_str(const tt_intern *t, uint32_t id, size_t *n);
/* The id of an already interned string: 0, or TT_ENOTFOUND. */
int tt_intern_find(const tt_intern *t, const char *s, size_t n, uint32_t *id);
size_t tt_intern_count(const tt_intern *t);

#endif
