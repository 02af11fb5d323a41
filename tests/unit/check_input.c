/* tt_input: lines, CRLF, gzip (single and multi-member), corrupt gzip, peek. */
#include "unit.h"

#include <stdio.h>
#include <unistd.h>

#include <zlib.h>

#include "../../libtrace/tt_int.h"

static size_t gz(const char *s, size_t n, unsigned char *out, size_t cap)
{
    z_stream z = {0};
    ck_assert_int_eq(deflateInit2(&z, 6, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY), Z_OK);
    z.next_in = (unsigned char *)s;
    z.avail_in = (uInt)n;
    z.next_out = out;
    z.avail_out = (uInt)cap;
    ck_assert_int_eq(deflate(&z, Z_FINISH), Z_STREAM_END);
    size_t r = cap - z.avail_out;
    deflateEnd(&z);
    return r;
}

START_TEST(lines)
{
    const char *s = "a\r\n\nlast";
    tt_input *in = unit_mem("x", s, strlen(s));
    const char *l;
    size_t n;
    uint64_t ln;
    ck_assert_int_eq(tt_input_line(in, &l, &n, &ln, NULL), 0);
    ck_assert_uint_eq(n, 2);
    ck_assert_uint_eq(ln, 1);
    ck_assert_int_eq(tt_input_line(in, &l, &n, &ln, NULL), 0);
    ck_assert_uint_eq(n, 0);
    ck_assert_int_eq(tt_input_line(in, &l, &n, &ln, NULL), 0);
    ck_assert_uint_eq(n, 4);
    ck_assert(!memcmp(l, "last", 4));
    ck_assert_uint_eq(ln, 3);
    ck_assert_int_eq(tt_input_line(in, &l, &n, &ln, NULL), TT_DONE);
    tt_input_close(in);
}
END_TEST

/* tt_input_open_fd: reads from the descriptor's offset, names messages by the given name,
 * owns the descriptor (also gzip behind it) */
START_TEST(open_fd)
{
    char tmpl[] = "/tmp/check_input_XXXXXX";
    int fd = mkstemp(tmpl);
    ck_assert_int_ge(fd, 0);
    unlink(tmpl);
    unsigned char z[256];
    size_t zn = gz("one\ntwo\n", 8, z, sizeof z);
    ck_assert_int_eq(write(fd, z, zn), (ssize_t)zn);
    ck_assert_int_eq(lseek(fd, 0, SEEK_SET), 0);
    tt_input *in;
    ck_assert_int_eq(tt_input_open_fd(&in, "<stdin>", fd, NULL), 0);
    ck_assert_str_eq(tt_input_name(in), "<stdin>");
    const char *l;
    size_t n;
    uint64_t ln;
    ck_assert_int_eq(tt_input_line(in, &l, &n, &ln, NULL), 0);
    ck_assert(n == 3 && !memcmp(l, "one", 3));
    ck_assert_int_eq(tt_input_line(in, &l, &n, &ln, NULL), 0);
    ck_assert(n == 3 && !memcmp(l, "two", 3));
    ck_assert_int_eq(tt_input_line(in, &l, &n, &ln, NULL), TT_DONE);
    tt_input_close(in);
    ck_assert_int_eq(close(fd), -1); /* closed by tt_input_close */
}
END_TEST

/* tt_input_line_ready: lines that arrived with one read are ready, a pipe with nothing
 * buffered is not (symbolicate answers what one read brought before reading on) */
START_TEST(line_ready_pipe)
{
    int fd[2];
    ck_assert_int_eq(pipe(fd), 0);
    char path[32];
    snprintf(path, sizeof path, "/dev/fd/%d", fd[0]);
    ck_assert_int_eq(write(fd[1], "0x1\n0x2\n0x3", 11), 11);
    tt_input *in;
    ck_assert_int_eq(tt_input_open(&in, path, NULL), 0);
    const char *l;
    size_t n;
    uint64_t ln;
    ck_assert_int_eq(tt_input_line(in, &l, &n, &ln, NULL), 0);
    ck_assert(tt_input_line_ready(in));
    ck_assert_int_eq(tt_input_line(in, &l, &n, &ln, NULL), 0);
    ck_assert(!tt_input_line_ready(in)); /* "0x3" without its newline, writer still open */
    ck_assert_int_eq(write(fd[1], "\n", 1), 1);
    close(fd[1]);
    ck_assert_int_eq(tt_input_line(in, &l, &n, &ln, NULL), 0);
    ck_assert_uint_eq(n, 3);
    ck_assert_int_eq(tt_input_line(in, &l, &n, &ln, NULL), TT_DONE);
    ck_assert(tt_input_line_ready(in));
    tt_input_close(in);
    close(fd[0]);
}
END_TEST

START_TEST(long_line)
{
    size_t big = 3 * 1024 * 1024;
    char *s = malloc(big + 2);
    memset(s, 'x', big);
    s[big] = '\n';
    s[big + 1] = 'y';
    tt_input *in = unit_mem("x", s, big + 2);
    const char *l;
    size_t n;
    uint64_t ln;
    ck_assert_int_eq(tt_input_line(in, &l, &n, &ln, NULL), 0);
    ck_assert_uint_eq(n, big);
    ck_assert_int_eq(tt_input_line(in, &l, &n, &ln, NULL), 0);
    ck_assert_uint_eq(n, 1);
    tt_input_close(in);
    free(s);
}
END_TEST

/* Issue 12 item 10: a line beyond the cap stops with its line number, memory bounded. */
START_TEST(line_cap)
{
    static const char s[] = "short\n0123456789\n0123456789abc\nlast";
    tt_input *in = unit_mem("cap.txt", s, sizeof s - 1);
    ck_assert_uint_eq(tt_input_line_max(in), TT_LINE_MAX);
    tt_input_set_line_max(in, 10);
    const char *l;
    size_t n;
    uint64_t ln;
    tt_error err;
    ck_assert_int_eq(tt_input_line(in, &l, &n, &ln, &err), 0);
    ck_assert_int_eq(tt_input_line(in, &l, &n, &ln, &err), 0); /* exactly 10: accepted */
    ck_assert_uint_eq(n, 10);
    ck_assert_int_eq(tt_input_line(in, &l, &n, &ln, &err), TT_ELIMIT);
    ck_assert_uint_eq(err.loc, 3);
    ck_assert_int_eq(err.loc_kind, TT_LOC_LINE);
    ck_assert_str_eq(err.msg, "line longer than 10 bytes");
    tt_input_close(in);
    char t[32];
    tt_input_line_max_text(t, sizeof t, TT_LINE_MAX);
    ck_assert_str_eq(t, "64 MiB");
}
END_TEST

/* Issue 12 item 12: the detection window holds the whole first line, however long. */
START_TEST(peek_text_long_first_line)
{
    size_t big = 200 * 1024;
    char *s = malloc(big + 16);
    memcpy(s, "# comment\n", 10);
    memset(s + 10, 'x', big);
    memcpy(s + 10 + big, " 5\nb 1\n", 6);
    tt_input *in = unit_mem("long.folded", s, big + 16);
    const unsigned char *p;
    size_t n;
    ck_assert_int_eq(tt_input_peek_text(in, &p, &n, 65536, NULL), 0);
    ck_assert_uint_ge(n, big + 13);
    ck_assert(memchr(p + 10, '\n', n - 10) != NULL);
    /* binary input: detection needs no line */
    tt_input_close(in);
    memset(s, 0, big + 16);
    in = unit_mem("zeros.bin", s, big + 16);
    ck_assert_int_eq(tt_input_peek_text(in, &p, &n, 4096, NULL), 0);
    ck_assert_uint_ge(n, 4096);
    tt_input_close(in);
    free(s);
}
END_TEST

START_TEST(gzip_multi_member)
{
    unsigned char buf[4096];
    size_t a = gz("one\ntwo\n", 8, buf, sizeof buf);
    size_t b = gz("three\n", 6, buf + a, sizeof buf - a);
    tt_input *in = unit_mem("g", (const char *)buf, a + b);
    char *all;
    size_t n;
    ck_assert_int_eq(tt_input_slurp(in, &all, &n, NULL), 0);
    ck_assert_uint_eq(n, 14);
    ck_assert(!memcmp(all, "one\ntwo\nthree\n", 14));
    ck_assert(tt_input_is_gzip(in));
    free(all);
    tt_input_close(in);
}
END_TEST

START_TEST(gzip_corrupt)
{
    unsigned char buf[4096];
    size_t a = gz("hello world hello world\n", 24, buf, sizeof buf);
    buf[a / 2] ^= 0xff;
    tt_input *in = unit_mem("bad.gz", (const char *)buf, a);
    char *all = NULL;
    size_t n;
    tt_error err;
    int rc = tt_input_slurp(in, &all, &n, &err);
    ck_assert_int_eq(rc, TT_EFORMAT);
    ck_assert_str_eq(err.file, "bad.gz");
    ck_assert_ptr_ne(strstr(err.msg, "gzip"), NULL);
    free(all);
    tt_input_close(in);
    /* truncated stream */
    a = gz("hello\n", 6, buf, sizeof buf);
    in = unit_mem("short.gz", (const char *)buf, a - 4);
    rc = tt_input_slurp(in, &all, &n, &err);
    ck_assert_int_ne(rc, 0);
    tt_input_close(in);
}
END_TEST

START_TEST(peek_then_read)
{
    tt_input *in = unit_mem("p", "abcdef", 6);
    const unsigned char *p;
    size_t n;
    ck_assert_int_eq(tt_input_peek(in, &p, &n, 3, NULL), 0);
    ck_assert_uint_eq(n, 3);
    char b[8];
    size_t got;
    ck_assert_int_eq(tt_input_read(in, b, 8, &got, NULL), 0);
    ck_assert_uint_eq(got, 6);
    ck_assert_uint_eq(tt_input_offset(in), 6);
    tt_input_close(in);
}
END_TEST

/* Bulk reads bypass the staging buffers once the window is empty (binary buffers); the
 * bytes and the offsets must be the same as through the window, for memory and files. */
static void check_bulk(tt_input *in, const unsigned char *data, size_t n)
{
    const unsigned char *p;
    size_t pn;
    ck_assert_int_eq(tt_input_peek(in, &p, &pn, 4096, NULL), 0);
    ck_assert_uint_eq(pn, 4096);
    unsigned char *got = malloc(n + 1);
    size_t total = 0, step = 1000;
    for (;;) {
        size_t k;
        ck_assert_int_eq(tt_input_read(in, got + total, step, &k, NULL), 0);
        if (k == 0)
            break;
        total += k;
        ck_assert_uint_eq(tt_input_offset(in), total);
        step = step == 1000 ? 300001 : 1000; /* alternate small and bulk reads */
        if (total + step > n + 1)
            step = n + 1 - total;
    }
    ck_assert_uint_eq(total, n);
    ck_assert(memcmp(got, data, n) == 0);
    free(got);
}

START_TEST(bulk_read)
{
    size_t n = 3 * 1024 * 1024 + 5;
    unsigned char *data = malloc(n);
    for (size_t i = 0; i < n; i++)
        data[i] = (unsigned char)(i * 7 + (i >> 12));
    data[0] = 0x1e; /* not gzip */
    tt_input *in = unit_mem("big", (const char *)data, n);
    check_bulk(in, data, n);
    tt_input_close(in);
    char path[] = "/tmp/check_input_XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    FILE *f = fdopen(fd, "wb");
    ck_assert_uint_eq(fwrite(data, 1, n, f), n);
    fclose(f);
    tt_error err;
    ck_assert_int_eq(tt_input_open(&in, path, &err), 0);
    check_bulk(in, data, n);
    tt_input_close(in);
    unlink(path);
    free(data);
}
END_TEST

/* Lines of a file over many 256 KiB reads: a read that starts on a line (the window is
 * empty, the buffers trade places) and one that starts inside a line (copied) */
START_TEST(file_lines_across_reads)
{
    tt_buf text = {0};
    /* the first read ends exactly on a newline; later ones anywhere */
    ck_assert_int_eq(tt_buf_printf(&text, "%0*d\n", 256 * 1024 - 1, 7), 0);
    for (int i = 0; text.len < 1200 * 1024; i++)
        ck_assert_int_eq(tt_buf_printf(&text, "line %d %.*s\n", i, i % 300, text.data), 0);
    char path[] = "/tmp/check_input_XXXXXX";
    int fd = mkstemp(path);
    ck_assert_int_ge(fd, 0);
    ck_assert_int_eq(write(fd, text.data, text.len), (ssize_t)text.len);
    close(fd);
    tt_input *in;
    tt_error err;
    ck_assert_int_eq(tt_input_open(&in, path, &err), 0);
    const char *line;
    size_t n, at = 0;
    uint64_t ln;
    while (tt_input_line(in, &line, &n, &ln, &err) == 0) {
        ck_assert_uint_le(at + n + 1, text.len);
        ck_assert(!memcmp(line, text.data + at, n));
        ck_assert_int_eq(text.data[at + n], '\n');
        at += n + 1;
        ck_assert_uint_eq(tt_input_offset(in), at);
    }
    ck_assert_uint_eq(at, text.len);
    tt_input_close(in);
    unlink(path);
    tt_buf_free(&text);
}
END_TEST

/* Memory inputs are read in place; an empty one may have no buffer at all. */
START_TEST(empty_memory_input)
{
    tt_input *in = NULL;
    ck_assert_int_eq(tt_input_open_mem(&in, "e", NULL, 0, NULL), 0);
    const unsigned char *p;
    size_t n;
    ck_assert_int_eq(tt_input_peek(in, &p, &n, 4096, NULL), 0);
    ck_assert_uint_eq(n, 0);
    char b[16];
    size_t got;
    ck_assert_int_eq(tt_input_read(in, b, sizeof b, &got, NULL), 0);
    ck_assert_uint_eq(got, 0);
    const char *line;
    uint64_t ln;
    ck_assert_int_eq(tt_input_line(in, &line, &n, &ln, NULL), TT_DONE);
    tt_input_close(in);
}
END_TEST

START_TEST(missing_file)
{
    tt_input *in = NULL;
    tt_error err;
    ck_assert_int_eq(tt_input_open(&in, "/nonexistent/x", &err), TT_EIO);
    ck_assert_str_eq(err.file, "/nonexistent/x");
}
END_TEST

/* ---- detection: magic numbers and method-beat plausibility (tt.h tt_detect_full) ---- */
static const char *what_of(const void *p, size_t n)
{
    static tt_detection d;
    tt_detect_full(&d, p, n);
    return d.kind == TT_KIND_UNKNOWN ? d.what : tt_kind_name(d.kind);
}

START_TEST(detect_magic)
{
    /* 64-bit little-endian ELF: e_type at 16, e_phoff at 32, e_phentsize 54, e_phnum 56 */
    unsigned char elf[200] = {0x7f, 'E', 'L', 'F', 2, 1, 1};
    elf[16] = 3;  /* ET_DYN */
    elf[32] = 64; /* program headers right after the header */
    elf[54] = 56;
    elf[56] = 2;
    elf[64] = 6;       /* PT_PHDR */
    ck_assert_str_eq(what_of(elf, sizeof elf), "ELF shared object");
    elf[64 + 56] = 3; /* PT_INTERP: a PIE executable */
    ck_assert_str_eq(what_of(elf, sizeof elf), "ELF executable");
    elf[16] = 1;
    ck_assert_str_eq(what_of(elf, sizeof elf), "ELF relocatable object");
    static const struct {
        const char *bytes;
        size_t n;
        const char *what;
    } cases[] = {
        {"\x89PNG\r\n\x1a\n\0\0\0\rIHDR", 16, "PNG image"},
        {"\xff\xd8\xff\xe0\0\x10JFIF", 10, "JPEG image"},
        {"PK\3\4\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\x13\0\0\0AndroidManifest.xml", 49,
         "Android package (APK, a zip archive)"},
        {"PK\3\4\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\5\0\0\0a.txt", 35, "zip archive"},
        {"\xcf\xfa\xed\xfe\x0c\0\0\x01", 8, "Mach-O binary"},
        {"\xca\xfe\xba\xbe\0\0\0\2", 8, "Mach-O universal binary"},
        {"\xca\xfe\xba\xbe\0\0\0\x34", 8, "Java class file"},
        {"%PDF-1.7\n", 9, "PDF document"},
        {"SQLite format 3\0", 16, "SQLite database not written by tracetool"},
        {"dex\n035\0", 8, "Android DEX file"},
        {"*** *** *** *** *** *** *** ***\nbacktrace:\n", 43,
         "Android tombstone (read it with tracetool symbolicate)"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++)
        ck_assert_msg(!strcmp(what_of(cases[i].bytes, cases[i].n), cases[i].what), "case %zu: %s",
                      i, what_of(cases[i].bytes, cases[i].n));
    /* a gzip-compressed foreign file says so */
    unsigned char gzb[512];
    static const char pdf[] = "%PDF-1.4\n%\xe2\xe3\n";
    size_t gn = gz(pdf, sizeof pdf - 1, gzb, sizeof gzb);
    tt_input *in = unit_mem("doc.pdf.gz", (const char *)gzb, gn);
    tt_detection d;
    ck_assert_int_eq(tt_input_detect(&d, in, NULL), 0);
    ck_assert_str_eq(d.what, "PDF document, gzip-compressed");
    tt_input_close(in);
}
END_TEST

static void put_le(unsigned char *p, uint64_t w)
{
    for (int i = 0; i < 8; i++)
        p[i] = (unsigned char)(w >> (8 * i));
}

START_TEST(detect_beat_plausible)
{
    enum { N = 1000 };
    static unsigned char b[N * 8];
    /* a raw ring dump: times rise, wrap once in the middle, zero slots at the end */
    for (int i = 0; i < N; i++) {
        int64_t t = i < 600 ? 50000 + i * 5 : 10000 + (i - 600) * 5;
        put_le(b + i * 8, i >= 950 ? 0 : tt_beat_encode(i % 2 == 0, (uint32_t)(i % 40 + 1), t));
    }
    ck_assert_str_eq(what_of(b, sizeof b), "beat");
    /* random-looking words: times far beyond 2^36 ms */
    uint64_t x = 88172645463325252ULL;
    for (int i = 0; i < N; i++) {
        x ^= x << 13, x ^= x >> 7, x ^= x << 17;
        put_le(b + i * 8, x);
    }
    ck_assert_str_eq(what_of(b, sizeof b),
                     "binary data, not method-beat records: 991 of 1000 words have a time of 2^36 "
                     "ms or more");
    /* small integers: method id 0 */
    for (int i = 0; i < N; i++)
        put_le(b + i * 8, (uint64_t)i * 3 + 1);
    ck_assert_str_eq(what_of(b, sizeof b), "binary data, not method-beat records: 1000 of 1000 "
                                           "words have method id 0 or 0xFFFFF");
    /* plausible fields but shuffled times */
    for (int i = 0; i < N; i++)
        put_le(b + i * 8, tt_beat_encode(1, 5, (int64_t)((i * 7919) % N)));
    ck_assert(strstr(what_of(b, sizeof b), "the time goes backwards"));
    /* plausible ids and rising times, but every word an exit */
    for (int i = 0; i < N; i++)
        put_le(b + i * 8, tt_beat_encode(0, 5, 100 + i));
    ck_assert_str_eq(what_of(b, sizeof b),
                     "binary data, not method-beat records: all 1000 words are method exits");
    /* every word an entry: negative doubles (-1.0, -2.0, ...) look so, with no dispatch */
    for (int i = 0; i < N; i++)
        put_le(b + i * 8, tt_beat_encode(1, 5 + (uint32_t)i, 100 + i));
    ck_assert_str_eq(what_of(b, sizeof b),
                     "binary data, not method-beat records: all 1000 words are method entries, "
                     "with no dispatch entry (id 1048574)");
    /* an ANR slice stuck deep in calls: the dispatch entry, then nested entries */
    put_le(b, tt_beat_encode(1, TT_BEAT_DISPATCH, 100));
    ck_assert_str_eq(what_of(b, sizeof b), tt_kind_name(TT_KIND_BEAT));
    put_le(b + 500 * 8, tt_beat_encode(1, 7, 3)); /* a call begun before its caller: not so */
    ck_assert_str_eq(what_of(b, sizeof b),
                     "binary data, not method-beat records: all 1000 words are method entries, "
                     "with times going backwards");
    memset(b, 0, sizeof b);
    ck_assert_str_eq(what_of(b, 64), "binary data of zero bytes only, no method-beat record");
    tt_detection zd;
    tt_detect_full(&zd, b, 64); /* flagged: a beat context reads it (method-beat.md 2.1) */
    ck_assert_int_eq(zd.zeros, 1);
    b[70] = 1;
    tt_detect_full(&zd, b, 80);
    ck_assert_int_eq(zd.zeros, 0);
    b[70] = 0;
    /* with a mapping: ids must mostly be in it */
    uint64_t w[4] = {tt_beat_encode(1, 1, 10), tt_beat_encode(1, 2, 11), tt_beat_encode(0, 2, 12),
                     tt_beat_encode(0, 1, 13)};
    tt_mapping *m = tt_mapping_new();
    tt_input *in = unit_mem("map", "1,1,a.B c ()V\n2,1,a.B d ()V\n", 28);
    ck_assert_int_eq(tt_mapping_load(m, in, NULL, NULL), 0);
    tt_input_close(in);
    char why[200];
    ck_assert_int_eq(tt_beat_plausible(w, 4, m, why, sizeof why), 1);
    for (int i = 0; i < 4; i++)
        w[i] = tt_beat_encode(i < 2, (uint32_t)(900 + i), 10 + i);
    ck_assert_int_eq(tt_beat_plausible(w, 4, m, why, sizeof why), 0);
    ck_assert_str_eq(why, "4 of 4 records have method ids missing from the mapping");
    tt_mapping_free(m);
}
END_TEST

/* tt__memmem against a byte-by-byte search: edge cases, then random texts over a small
 * alphabet (many partial matches) with needles that start, end or hold the rarest byte */
static const char *naive_memmem(const char *h, size_t hn, const char *n, size_t nn)
{
    for (size_t i = 0; i + nn <= hn; i++)
        if (!memcmp(h + i, n, nn))
            return h + i;
    return NULL;
}

START_TEST(memmem_matches_naive)
{
    const char *h = "tag[x]content[{";
    ck_assert_ptr_eq(tt__memmem(h, 15, "", 0), h);
    ck_assert_ptr_eq(tt__memmem(h, 15, "tag[", 4), h);
    ck_assert_ptr_eq(tt__memmem(h, 15, "content[{", 9), h + 6);
    ck_assert_ptr_null(tt__memmem(h, 14, "content[{", 9)); /* the last byte is outside */
    ck_assert_ptr_null(tt__memmem(h, 3, "tag[", 4));
    ck_assert_ptr_null(tt__memmem(h, 0, "t", 1));
    ck_assert_ptr_eq(tt__memmem(h, 15, "{", 1), h + 14);
    static const char alpha[] = "ae t[{\"\n";
    unsigned seed = 12345;
    char hay[300], nee[8];
    for (int round = 0; round < 20000; round++) {
        size_t hn = (size_t)(round % 300), nn = 1 + (size_t)(round % 7);
        for (size_t i = 0; i < hn; i++) {
            seed = seed * 1103515245u + 12345u;
            hay[i] = alpha[(seed >> 16) % (sizeof alpha - 1)];
        }
        for (size_t i = 0; i < nn; i++) {
            seed = seed * 1103515245u + 12345u;
            nee[i] = alpha[(seed >> 16) % (sizeof alpha - 1)];
        }
        ck_assert_ptr_eq(tt__memmem(hay, hn, nee, nn), naive_memmem(hay, hn, nee, nn));
    }
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("input");
    TCase *tc = tcase_create("input");
    tcase_add_test(tc, lines);
    tcase_add_test(tc, open_fd);
    tcase_add_test(tc, long_line);
    tcase_add_test(tc, line_ready_pipe);
    tcase_add_test(tc, line_cap);
    tcase_add_test(tc, peek_text_long_first_line);
    tcase_add_test(tc, gzip_multi_member);
    tcase_add_test(tc, gzip_corrupt);
    tcase_add_test(tc, peek_then_read);
    tcase_add_test(tc, missing_file);
    tcase_add_test(tc, bulk_read);
    tcase_add_test(tc, empty_memory_input);
    tcase_add_test(tc, detect_magic);
    tcase_add_test(tc, detect_beat_plausible);
    tcase_add_test(tc, file_lines_across_reads);
    tcase_add_test(tc, memmem_matches_naive);
    suite_add_tcase(s, tc);
    return s;
}

UNIT_MAIN(suite)
