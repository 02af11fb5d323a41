/* Inputs read once (cli.md "Inputs"): standard input, FIFOs and character devices cannot be
 * opened a second time, so a command that looks at an input before reading it (analyze's
 * two passes, export's and diff's database check) keeps one in-memory copy of such inputs. */
#include "cli.h"

#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

typedef struct copy {
    char *path;
    unsigned char *data; /* the bytes as read (still compressed if they were) */
    size_t len;
} copy;

static copy *copies;
static size_t ncopies;

int cli_input_is_stream(const char *path)
{
    struct stat sb;
    if (!strcmp(path, "-"))
        return 1;
    return stat(path, &sb) == 0 && !S_ISREG(sb.st_mode) && !S_ISDIR(sb.st_mode);
}

static const copy *find(const char *path)
{
    for (size_t i = 0; i < ncopies; i++)
        if (!strcmp(copies[i].path, path))
            return &copies[i];
    return NULL;
}

/* Reads the whole input (raw bytes) into a new copy. */
static int read_all(const char *path, tt_error *err)
{
    const char *name = strcmp(path, "-") ? path : "<stdin>";
    int fd = strcmp(path, "-") ? open(path, O_RDONLY | O_CLOEXEC) : 0;
    if (fd < 0)
        return tt_error_set(err, TT_EIO, path, 0, 0, "cannot open: %s", strerror(errno));
    copy c = {strdup(path), NULL, 0};
    size_t cap = 0;
    int rc = c.path ? 0 : tt_error_set(err, TT_ENOMEM, name, 0, 0, "out of memory");
    while (!rc) {
        if (c.len == cap) {
            size_t ncap = cap ? cap * 2 : 1 << 16;
            unsigned char *p = ncap > cap ? realloc(c.data, ncap) : NULL;
            if (!p) {
                rc = tt_error_set(err, TT_ENOMEM, name, 0, 0, "out of memory");
                break;
            }
            c.data = p;
            cap = ncap;
        }
        ssize_t r = read(fd, c.data + c.len, cap - c.len);
        if (r < 0 && errno == EINTR)
            continue;
        if (r < 0)
            rc = tt_error_set(err, TT_EIO, name, TT_LOC_OFFSET, c.len, "read error: %s",
                              strerror(errno));
        else if (r == 0)
            break;
        else
            c.len += (size_t)r;
    }
    if (fd > 0)
        close(fd);
    copy *grown = rc ? NULL : realloc(copies, (ncopies + 1) * sizeof *copies);
    if (!rc && !grown)
        rc = tt_error_set(err, TT_ENOMEM, name, 0, 0, "out of memory");
    if (rc) {
        free(c.path);
        free(c.data);
        return rc;
    }
    copies = grown;
    copies[ncopies++] = c;
    return 0;
}

int cli_input_open(tt_input **in, const char *path, int again, tt_error *err)
{
    *in = NULL;
    const copy *c = find(path);
    if (!c && again && cli_input_is_stream(path)) {
        int rc = read_all(path, err);
        if (rc)
            return rc;
        c = &copies[ncopies - 1];
    }
    if (c)
        return tt_input_open_mem(in, strcmp(path, "-") ? path : "<stdin>", c->data, c->len,
                                 err);
    return tt_input_open(in, path, err);
}

void cli_input_release(void)
{
    for (size_t i = 0; i < ncopies; i++) {
        free(copies[i].path);
        free(copies[i].data);
    }
    free(copies);
    copies = NULL;
    ncopies = 0;
}
