/* Beside cli_out.c: standard output written with its error returned, not exited on (for a
 * summary printed before an output database is renamed into place: analyze, merge, so that a
 * failed write leaves the old file, tracetool(1)); the temporary files a killed run left
 * beside an -o FILE. */
#include "cli.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

static int put_buf(void *ctx, const char *p, size_t n)
{
    return tt_buf_put(ctx, p, n) ? ENOMEM : 0;
}

int cli_out_try(const char *p, size_t n)
{
    cli_progress_clear();
    /* escaped into memory, then write(2): stdout's stream keeps no error and no unwritten
     * bytes that the exit's flush would report a second time */
    tt_buf esc = {0};
    tt_textesc x;
    tt_textesc_init(&x, put_buf, &esc);
    if (tt_textesc_put(&x, p, n) || tt_textesc_flush(&x)) {
        tt_buf_free(&esc);
        return ENOMEM;
    }
    const char *m = esc.data ? esc.data : "";
    size_t mn = esc.len;
    int e = fflush(stdout) ? (errno ? errno : EIO) : 0;
    for (size_t off = 0; !e && off < mn;) {
        ssize_t w = write(STDOUT_FILENO, m + off, mn - off);
        if (w < 0 && errno == EINTR)
            continue;
        if (w <= 0)
            e = w < 0 ? errno : EIO;
        else
            off += (size_t)w;
    }
    tt_buf_free(&esc);
    return e;
}

void cli_out_clean_stale(const char *path)
{
    struct stat sb;
    char *real = NULL;
    if (cli_out_fd_path(path) >= 0) /* -o -, /dev/stdout: written in place, nothing aside */
        return;
    /* a symbolic link's target is what is written aside (cli_out_resolve) */
    if (!lstat(path, &sb) && S_ISLNK(sb.st_mode))
        real = realpath(path, NULL);
    tt_remove_stale_tmp(real ? real : path);
    free(real);
}
