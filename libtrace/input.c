/* Input files: path or "-", gzip read transparently (cli.md "Inputs", method-beat.md 3.1),
 * streamed through one growable window; line reading with 1-based line numbers. */
#include "tt.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <openssl/evp.h>
#include <zlib.h>

#include "tt_int.h"

#define RAW_CHUNK (256 * 1024)

struct tt_input {
    char name[256];
    int fd;                 /* -1 for memory */
    int own_fd;
    const unsigned char *mem;
    size_t mem_len, mem_pos;
    int raw_eof;
    /* raw (compressed) staging: rawp is raw (files) or points into mem (no copy) */
    unsigned char *raw;
    const unsigned char *rawp;
    size_t raw_len, raw_pos;
    int gzip, gz_init, gz_end;
    int gz_zeros; /* after the last member: zero padding (tar, dd blocks), skipped */
    z_stream zs;
    uint64_t raw_total;
    /* decompressed window */
    unsigned char *buf;
    size_t cap, start, end;
    int eof;
    uint64_t consumed; /* bytes before buf[start] */
    uint64_t lineno;
    size_t line_max;        /* longest line accepted (TT_LINE_MAX) */
    int detected;
    EVP_MD_CTX *sha;   /* content hash of the decompressed bytes, when requested */
    uint64_t produced; /* decompressed bytes produced so far */
    tt_progress_fn progress; /* optional; see tt_input_set_progress */
    void *progress_ud;
    uint64_t progress_total; /* file size, 0 when unknown */
    int progress_ended;
};

const char *tt_input_name(const tt_input *in) { return in->name; }
void tt_input_set_line_max(tt_input *in, size_t bytes) { in->line_max = bytes ? bytes : 1; }
size_t tt_input_line_max(const tt_input *in) { return in->line_max; }

void tt_input_line_max_text(char *out, size_t cap, size_t bytes)
{
    if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) == 0)
        snprintf(out, cap, "%zu MiB", bytes / (1024 * 1024));
    else
        snprintf(out, cap, "%zu bytes", bytes);
}
uint64_t tt_input_offset(const tt_input *in) { return in->consumed; }
int tt_input_is_gzip(const tt_input *in) { return in->gzip; }

/* cap: initial window size; raw staging only for file descriptors */
static int input_alloc(tt_input **out, const char *name, size_t cap, int with_raw,
                       tt_error *err)
{
    tt_input *in = calloc(1, sizeof *in);
    if (!in)
        return tt_error_set(err, TT_ENOMEM, name, 0, 0, "out of memory");
    snprintf(in->name, sizeof in->name, "%s", name);
    in->fd = -1;
    in->line_max = TT_LINE_MAX;
    in->cap = cap;
    in->buf = malloc(in->cap);
    in->raw = with_raw ? malloc(RAW_CHUNK) : NULL;
    in->rawp = in->raw;
    if (!in->buf || (with_raw && !in->raw)) {
        tt_input_close(in);
        return tt_error_set(err, TT_ENOMEM, name, 0, 0, "out of memory");
    }
    *out = in;
    return 0;
}

int tt_input_open(tt_input **out, const char *path, tt_error *err)
{
    tt_input *in;
    int rc = input_alloc(&in, strcmp(path, "-") ? path : "<stdin>", RAW_CHUNK, 1, err);
    if (rc)
        return rc;
    if (!strcmp(path, "-")) {
        in->fd = 0;
    } else {
        in->fd = open(path, O_RDONLY | O_CLOEXEC);
        if (in->fd < 0) {
            int e = errno;
            tt_input_close(in);
            return tt_error_set(err, TT_EIO, path, 0, 0, "cannot open: %s", strerror(e));
        }
        in->own_fd = 1;
    }
    *out = in;
    return 0;
}

int tt_input_open_fd(tt_input **out, const char *name, int fd, tt_error *err)
{
    tt_input *in;
    int rc = input_alloc(&in, name, RAW_CHUNK, 1, err);
    if (rc) {
        close(fd);
        return rc;
    }
    in->fd = fd;
    in->own_fd = 1;
    *out = in;
    return 0;
}

int tt_input_open_mem(tt_input **out, const char *name, const void *data, size_t n,
                      tt_error *err)
{
    tt_input *in;
    /* small inputs (report strings, tests, fuzzing) get a small window; it grows for long
     * lines like any other */
    size_t cap = n >= RAW_CHUNK ? RAW_CHUNK : n + 1 < 8192 ? 8192 : n + 1;
    int rc = input_alloc(&in, name, cap, 0, err);
    if (rc)
        return rc;
    in->mem = data;
    in->mem_len = n;
    *out = in;
    return 0;
}

void tt_input_close(tt_input *in)
{
    if (!in)
        return;
    if (in->own_fd && in->fd >= 0)
        close(in->fd);
    if (in->gz_init)
        inflateEnd(&in->zs);
    if (in->sha)
        tt__crypto()->EVP_MD_CTX_free(in->sha);
    free(in->raw);
    free(in->buf);
    free(in);
}

void tt_input_set_progress(tt_input *in, tt_progress_fn fn, void *ud)
{
    struct stat sb;
    in->progress = fn;
    in->progress_ud = ud;
    in->progress_total = in->fd < 0                                          ? in->mem_len
                         : !fstat(in->fd, &sb) && S_ISREG(sb.st_mode) && sb.st_size > 0
                             ? (uint64_t)sb.st_size
                             : 0;
}

static void report_progress(tt_input *in)
{
    if (!in->progress || in->progress_ended)
        return;
    in->progress_ended = in->raw_eof;
    in->progress(in->progress_ud, in->name, in->raw_total, in->progress_total, in->raw_eof);
}

/* Refill the raw staging buffer; sets raw_eof at the end. */
static int raw_fill(tt_input *in, tt_error *err)
{
    if (in->raw_pos < in->raw_len || in->raw_eof)
        return 0;
    in->raw_pos = in->raw_len = 0;
    if (in->fd < 0) {
        size_t n = in->mem_len - in->mem_pos;
        if (n > RAW_CHUNK)
            n = RAW_CHUNK;
        if (n) /* mem may be NULL for an empty input */
            in->rawp = in->mem + in->mem_pos;
        in->mem_pos += n;
        in->raw_len = n;
    } else {
        for (;;) {
            ssize_t r = read(in->fd, in->raw, RAW_CHUNK);
            if (r < 0 && errno == EINTR)
                continue;
            if (r < 0)
                return tt_error_set(err, TT_EIO, in->name, TT_LOC_OFFSET, in->raw_total,
                                    "read error: %s", strerror(errno));
            in->raw_len = (size_t)r;
            break;
        }
    }
    in->raw_total += in->raw_len;
    if (in->raw_len == 0)
        in->raw_eof = 1;
    report_progress(in);
    return 0;
}

/* Decompress or copy into buf[end..cap). */
/* Every decompressed byte passes here exactly once: count it and feed the content hash. */
static void produced(tt_input *in, const unsigned char *p, size_t n)
{
    in->produced += n;
    if (in->sha && n)
        tt__crypto()->EVP_DigestUpdate(in->sha, p, n);
}

static int produce(tt_input *in, tt_error *err)
{
    int rc = raw_fill(in, err);
    if (rc)
        return rc;
    if (!in->detected) {
        in->detected = 1;
        /* need two bytes to see the magic */
        if (in->fd >= 0 && in->raw_len - in->raw_pos == 1 && !in->raw_eof) {
            unsigned char first = in->rawp[in->raw_pos];
            in->raw_pos = in->raw_len;
            rc = raw_fill(in, err);
            if (rc)
                return rc;
            /* put back: shift */
            if (in->raw_len < RAW_CHUNK) {
                memmove(in->raw + 1, in->raw, in->raw_len);
                in->raw[0] = first;
                in->raw_len++;
                in->raw_pos = 0;
            }
        }
        if (in->raw_len - in->raw_pos >= 2 && in->rawp[in->raw_pos] == 0x1f &&
            in->rawp[in->raw_pos + 1] == 0x8b) {
            in->gzip = 1;
            memset(&in->zs, 0, sizeof in->zs);
            if (inflateInit2(&in->zs, 15 + 16) != Z_OK)
                return tt_error_set(err, TT_ENOMEM, in->name, 0, 0, "zlib init failed");
            in->gz_init = 1;
        }
    }
    size_t room = in->cap - in->end;
    if (!in->gzip) {
        size_t n = in->raw_len - in->raw_pos;
        if (n && in->start == in->end && in->raw_pos == 0 && in->rawp == in->raw &&
            in->cap == RAW_CHUNK) {
            /* the window is empty and the staging buffer holds the next bytes: the two
             * trade places instead of copying (each fresh page costs a page fault) */
            unsigned char *t = in->buf;
            in->buf = in->raw;
            in->raw = t;
            in->rawp = t;
            in->start = in->end = 0;
            in->raw_pos = in->raw_len;
            produced(in, in->buf, n);
            in->end = n;
            return 0;
        }
        if (n > room)
            n = room;
        if (n)
            memcpy(in->buf + in->end, in->rawp + in->raw_pos, n);
        in->raw_pos += n;
        produced(in, in->buf + in->end, n);
        in->end += n;
        if (n == 0 && in->raw_eof)
            in->eof = 1;
        return 0;
    }
    if (in->gz_end) {
        /* between members: another member, the end, or zero bytes up to the end (padding
         * of a block device or archive, which gzip ignores too); a byte other than zero
         * after the padding is an error */
        if (in->raw_pos < in->raw_len && (in->gz_zeros || in->rawp[in->raw_pos] == 0)) {
            in->gz_zeros = 1;
            while (in->raw_pos < in->raw_len && in->rawp[in->raw_pos] == 0)
                in->raw_pos++;
            if (in->raw_pos < in->raw_len)
                return tt_error_set(err, TT_EFORMAT, in->name, TT_LOC_OFFSET,
                                    in->raw_total - (in->raw_len - in->raw_pos),
                                    "gzip: trailing garbage after the zero padding that "
                                    "follows the last member");
        }
        if (in->raw_pos == in->raw_len && in->raw_eof) {
            in->eof = 1;
            return 0;
        }
        if (in->raw_pos == in->raw_len)
            return 0;
        if (inflateReset(&in->zs) != Z_OK)
            return tt_error_set(err, TT_EFORMAT, in->name, 0, 0, "gzip: reset failed");
        in->gz_end = 0;
    }
    if (in->raw_pos == in->raw_len && in->raw_eof)
        return tt_error_set(err, TT_EFORMAT, in->name, TT_LOC_OFFSET, in->raw_total,
                            "gzip: unexpected end of compressed data");
    in->zs.next_in = (unsigned char *)(uintptr_t)(in->rawp + in->raw_pos); /* zlib: z_const */
    in->zs.avail_in = (uInt)(in->raw_len - in->raw_pos);
    in->zs.next_out = in->buf + in->end;
    in->zs.avail_out = (uInt)room;
    int zr = inflate(&in->zs, Z_NO_FLUSH);
    size_t used = (in->raw_len - in->raw_pos) - in->zs.avail_in;
    size_t made = room - in->zs.avail_out;
    in->raw_pos += used;
    produced(in, in->buf + in->end, made);
    in->end += made;
    if (zr == Z_STREAM_END) {
        in->gz_end = 1;
    } else if (zr != Z_OK && zr != Z_BUF_ERROR) {
        return tt_error_set(err, TT_EFORMAT, in->name, TT_LOC_OFFSET,
                            in->raw_total - (in->raw_len - in->raw_pos), "gzip: %s",
                            in->zs.msg ? in->zs.msg : "corrupt data");
    }
    return 0;
}

/* Make at least `want` bytes available in buf[start..end) unless the input ends. */
static int ensure(tt_input *in, size_t want, tt_error *err)
{
    while (in->end - in->start < want && !in->eof) {
        if (in->start > 0 && (in->cap - in->end < RAW_CHUNK || in->start >= in->cap / 2)) {
            memmove(in->buf, in->buf + in->start, in->end - in->start);
            in->end -= in->start;
            in->start = 0;
        }
        if (in->cap - in->end < 4096) {
            /* callers bound `want`: tt_input_line by the line cap, peeks by small sizes */
            if (in->cap > SIZE_MAX / 2)
                return tt_error_set(err, TT_ENOMEM, in->name, 0, 0, "out of memory");
            unsigned char *nb = realloc(in->buf, in->cap * 2);
            if (!nb)
                return tt_error_set(err, TT_ENOMEM, in->name, 0, 0, "out of memory");
            in->buf = nb;
            in->cap *= 2;
        }
        size_t before = in->end;
        int rc = produce(in, err);
        if (rc)
            return rc;
        (void)before;
    }
    return 0;
}

int tt_input_peek(tt_input *in, const unsigned char **p, size_t *n, size_t want, tt_error *err)
{
    int rc = ensure(in, want, err);
    if (rc)
        return rc;
    *p = in->buf + in->start;
    *n = in->end - in->start;
    if (*n > want)
        *n = want;
    return 0;
}

/* 1 when p[0..n) holds its first meaningful line (not blank, not a '#' comment) up to its
 * newline, or looks binary (a control byte in the first 4096 bytes): detection has what it
 * needs. */
static int first_line_seen(const unsigned char *p, size_t n)
{
    for (size_t i = 0; i < n && i < 4096; i++)
        if (p[i] < 0x20 && p[i] != '\t' && p[i] != '\n' && p[i] != '\r')
            return 1;
    size_t i = 0;
    for (;;) {
        while (i < n && (p[i] == ' ' || p[i] == '\t' || p[i] == '\r' || p[i] == '\n'))
            i++;
        const unsigned char *nl = i < n ? memchr(p + i, '\n', n - i) : NULL;
        if (!nl)
            return 0;
        if (p[i] != '#')
            return 1;
        i = (size_t)(nl - p) + 1;
    }
}

int tt_input_peek_text(tt_input *in, const unsigned char **p, size_t *n, size_t want,
                       tt_error *err)
{
    int rc = ensure(in, want, err);
    while (!rc && !in->eof && in->end - in->start < in->line_max &&
           !first_line_seen(in->buf + in->start, in->end - in->start))
        rc = ensure(in, (in->end - in->start) * 2, err);
    if (rc)
        return rc;
    *p = in->buf + in->start;
    *n = in->end - in->start;
    return 0;
}

/* Bulk read of plain (not compressed) data straight into dst, bypassing both staging
 * buffers: binary buffers are 8 MB and would otherwise be copied twice. Only when the
 * window and the raw staging buffer are empty, so the byte order is unchanged. */
static int read_direct(tt_input *in, unsigned char *d, size_t n, size_t *got, tt_error *err)
{
    *got = 0;
    if (in->fd < 0) {
        size_t k = in->mem_len - in->mem_pos;
        if (k > n)
            k = n;
        if (k)
            memcpy(d, in->mem + in->mem_pos, k);
        in->mem_pos += k;
        *got = k;
    } else {
        for (;;) {
            ssize_t r = read(in->fd, d, n);
            if (r < 0 && errno == EINTR)
                continue;
            if (r < 0)
                return tt_error_set(err, TT_EIO, in->name, TT_LOC_OFFSET, in->raw_total,
                                    "read error: %s", strerror(errno));
            *got = (size_t)r;
            break;
        }
    }
    in->raw_total += *got;
    in->consumed += *got;
    if (*got == 0)
        in->raw_eof = in->eof = 1;
    report_progress(in);
    return 0;
}

int tt_input_size(tt_input *in, uint64_t *bytes)
{
    if (!in->detected && ensure(in, 2, NULL))
        return TT_ENOTFOUND;
    if (in->gzip)
        return TT_ENOTFOUND;
    if (in->fd < 0) {
        *bytes = in->mem_len;
        return 0;
    }
    struct stat sb;
    if (fstat(in->fd, &sb) || !S_ISREG(sb.st_mode) || sb.st_size < 0)
        return TT_ENOTFOUND;
    *bytes = (uint64_t)sb.st_size;
    return 0;
}

int tt_input_read(tt_input *in, void *dst, size_t n, size_t *got, tt_error *err)
{
    size_t total = 0;
    unsigned char *d = dst;
    while (total < n) {
        if (in->start == in->end) {
            if (in->eof)
                break;
            if (in->detected && !in->gzip && in->raw_pos == in->raw_len && !in->raw_eof &&
                n - total >= 4096) {
                size_t k;
                int rc = read_direct(in, d + total, n - total, &k, err);
                if (rc)
                    return rc;
                total += k;
                continue;
            }
            in->start = in->end = 0;
            int rc = produce(in, err);
            if (rc)
                return rc;
            continue;
        }
        size_t k = in->end - in->start;
        if (k > n - total)
            k = n - total;
        memcpy(d + total, in->buf + in->start, k);
        in->start += k;
        in->consumed += k;
        total += k;
    }
    *got = total;
    return 0;
}

int tt_input_line_ready(const tt_input *in)
{
    size_t avail = in->end - in->start;
    return in->eof || (avail && memchr(in->buf + in->start, '\n', avail));
}

int tt_input_line(tt_input *in, const char **line, size_t *len, uint64_t *lineno,
                  tt_error *err)
{
    size_t scanned = 0;
    for (;;) {
        unsigned char *s = in->buf + in->start;
        size_t avail = in->end - in->start;
        unsigned char *nl = avail > scanned ? memchr(s + scanned, '\n', avail - scanned) : NULL;
        if (nl && (size_t)(nl - s) <= in->line_max) {
            size_t l = (size_t)(nl - s);
            *line = (const char *)s;
            *len = l;
            in->start += l + 1;
            in->consumed += l + 1;
            *lineno = ++in->lineno;
            return 0;
        }
        scanned = avail;
        if (nl || avail > in->line_max) {
            char cap[32];
            tt_input_line_max_text(cap, sizeof cap, in->line_max);
            return tt_error_set(err, TT_ELIMIT, in->name, TT_LOC_LINE, in->lineno + 1,
                                "line longer than %s", cap);
        }
        if (in->eof) {
            if (avail == 0)
                return TT_DONE;
            *line = (const char *)s;
            *len = avail;
            in->start = in->end;
            in->consumed += avail;
            *lineno = ++in->lineno;
            return 0;
        }
        int rc = ensure(in, avail + 1, err);
        if (rc)
            return rc;
    }
}

int tt_input_slurp(tt_input *in, char **data, size_t *n, tt_error *err)
{
    tt_buf b = {0};
    char tmp[65536];
    for (;;) {
        size_t got;
        int rc = tt_input_read(in, tmp, sizeof tmp, &got, err);
        if (rc) {
            tt_buf_free(&b);
            return rc;
        }
        if (got == 0)
            break;
        if (tt_buf_put(&b, tmp, got)) {
            tt_buf_free(&b);
            return tt_error_set(err, TT_ENOMEM, in->name, 0, 0, "out of memory");
        }
    }
    if (!b.data && tt_buf_put(&b, "", 0))
        return tt_error_set(err, TT_ENOMEM, in->name, 0, 0, "out of memory");
    *data = b.data;
    *n = b.len;
    return 0;
}

int tt_input_detect(tt_detection *d, tt_input *in, tt_error *err)
{
    const unsigned char *p;
    size_t n;
    /* a text file's whole first line, however long (up to the line cap) */
    int rc = tt_input_peek_text(in, &p, &n, TT_DETECT_PEEK, err);
    if (rc)
        return rc;
    tt_detect_full(d, p, n);
    if (d->foreign && in->gzip) {
        size_t l = strlen(d->what);
        snprintf(d->what + l, sizeof d->what - l, ", gzip-compressed");
    }
    return 0;
}

int tt_input_hash_begin(tt_input *in, tt_error *err)
{
    /* after a peek the window still holds every byte produced so far */
    if (in->consumed || in->start || in->produced != in->end)
        return tt_error_set(err, TT_EINVAL, in->name, 0, 0,
                            "content hash requested after reading started");
    const tt__crypto_fns *c = tt__crypto();
    if (!c)
        return tt_error_set(err, TT_EUNSUPPORTED, in->name, 0, 0,
                            "cannot load libcrypto for SHA-256");
    in->sha = c->EVP_MD_CTX_new();
    if (!in->sha || c->EVP_DigestInit_ex(in->sha, c->EVP_sha256(), NULL) != 1)
        return tt_error_set(err, TT_ENOMEM, in->name, 0, 0, "cannot initialise SHA-256");
    if (in->end)
        c->EVP_DigestUpdate(in->sha, in->buf, in->end);
    return 0;
}

int tt_input_hash_end(tt_input *in, char hex[65], uint64_t *bytes, tt_error *err)
{
    if (!in->sha)
        return tt_error_set(err, TT_EINVAL, in->name, 0, 0, "no content hash requested");
    /* the hash covers the whole content: read what the parser left */
    while (!in->eof) {
        in->start = in->end = 0;
        int rc = produce(in, err);
        if (rc)
            return rc;
    }
    unsigned char md[EVP_MAX_MD_SIZE];
    unsigned int n = 0;
    const tt__crypto_fns *c = tt__crypto(); /* loaded: in->sha is set */
    if (c->EVP_DigestFinal_ex(in->sha, md, &n) != 1 || n != 32)
        return tt_error_set(err, TT_EIO, in->name, 0, 0, "SHA-256 failed");
    c->EVP_MD_CTX_free(in->sha);
    in->sha = NULL;
    tt_sha256_hex(hex, md);
    if (bytes)
        *bytes = in->produced;
    return 0;
}

void tt_sha256_hex(char hex[65], const unsigned char md[32])
{
    static const char digits[] = "0123456789abcdef";
    for (int i = 0; i < 32; i++) {
        hex[2 * i] = digits[md[i] >> 4];
        hex[2 * i + 1] = digits[md[i] & 15];
    }
    hex[64] = 0;
}

int tt_sha256_buf(char hex[65], const void *data, size_t n)
{
    unsigned char md[EVP_MAX_MD_SIZE];
    unsigned int len = 0;
    const tt__crypto_fns *c = tt__crypto();
    if (!c || c->EVP_Digest(data, n, md, &len, c->EVP_sha256(), NULL) != 1 || len != 32)
        return TT_EIO;
    tt_sha256_hex(hex, md);
    return 0;
}

uint64_t tt__input_lineno(const tt_input *in) { return in->lineno; }

int tt__input_take_file(tt_input *in, int *fd, uint64_t *offset, uint64_t *size)
{
    struct stat sb;
    if (in->fd >= 0 && !in->detected && ensure(in, 2, NULL))
        return TT_ENOTFOUND;
    /* not standard input: its offset may not be where this input started */
    if (in->fd < 0 || !in->own_fd || in->gzip || in->sha || fstat(in->fd, &sb) ||
        !S_ISREG(sb.st_mode) || sb.st_size < 0 || (uint64_t)sb.st_size < in->consumed)
        return TT_ENOTFOUND;
    *fd = in->fd;
    *offset = in->consumed;
    *size = (uint64_t)sb.st_size;
    /* the caller maps the rest itself: this input is at its end */
    in->start = in->end = 0;
    in->raw_pos = in->raw_len = 0;
    in->eof = in->raw_eof = 1;
    in->consumed = in->produced = *size;
    return 0;
}

void tt__input_progress(tt_input *in, uint64_t done_bytes, int end)
{
    if (!in->progress || in->progress_ended)
        return;
    in->progress_ended = end;
    in->progress(in->progress_ud, in->name, done_bytes, in->progress_total, end);
}
