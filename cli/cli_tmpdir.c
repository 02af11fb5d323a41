/* The private temporary directory of diff and flamegraph (cli_tmpdir.h). Everything a
 * signal handler touches is static and prepared before the handler is installed. */
#include "cli.h"
#include "cli_tmpdir.h"

#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* per database: each of tt_tmp_db_suffixes, and DB.tmp-PID */
#define FILES_PER_DB 8
static char dir[1024];
static char files[CLI_TMPDIR_DBS * FILES_PER_DB][1200];
static int lock_fd = -1;
static struct sigaction prev_action[3];

static void remove_files(void)
{
    for (size_t i = 0; i < sizeof files / sizeof files[0]; i++)
        if (files[i][0])
            unlink(files[i]);
    if (dir[0])
        rmdir(dir);
}

/* Removes the files, then hands the signal on to the handler installed before (the output
 * guard's of cli_out.c when a command guarded a file first, else none) or to the default
 * action. Not the handler of a signal ignored at start (cli_out_signal_install). */
static void on_signal(int sig)
{
    remove_files();
    cli_out_signal_pass(sig, prev_action);
}

/* files[k...] = the names of db's files; the next free k, or 0 when they do not fit. */
static size_t name_files(size_t k, const char *db)
{
    const size_t cap = sizeof files / sizeof files[0], len = sizeof files[0];
    for (const char *const *x = tt_tmp_db_suffixes; *x; x++)
        if (k >= cap || (size_t)snprintf(files[k++], len, "%s/%s%s", dir, db, *x) >= len)
            return 0;
    if (k >= cap || (size_t)snprintf(files[k++], len, "%s/%s.tmp-%ld", dir, db,
                                     (long)getpid()) >= len)
        return 0;
    return k;
}

static const char *tmp_root(void)
{
    const char *t = getenv("TMPDIR");
    return t && *t ? t : "/tmp";
}

void cli_tmpdir_sweep(const char *prefix, const char *const *dbs)
{
    tt_remove_stale_dirs(tmp_root(), prefix, dbs);
}

int cli_tmpdir_create(const char *prefix, const char *const *dbs)
{
    if (dir[0])
        return 0;
    const char *t = tmp_root();
    cli_out_block_signals(1); /* no signal between creating it and its cleanup's handler */
    /* the PID in the name and the lock held until exit: a later run removes the directory
     * of one killed with -9 (tracetool(1), OUTPUT) */
    if ((lock_fd = tt_private_dir(dir, sizeof dir, t, prefix, dbs)) < 0) {
        int e = errno;
        cli_out_block_signals(0);
        cli_errorf("cannot create a temporary directory in %s: %s", t, strerror(e));
        dir[0] = 0;
        return CLI_BAD;
    }
    size_t k = 0, n = 0;
    while (dbs[n])
        n++;
    for (size_t i = 0; i < n && (k = name_files(k, dbs[i])); i++)
        ;
    if (!k || n > CLI_TMPDIR_DBS) {
        cli_tmpdir_remove();
        cli_out_block_signals(0);
        cli_errorf("%s: cannot name %zu temporary databases in it", t, n);
        return CLI_BAD;
    }
    static int installed; /* once: the handler saved before is never this one */
    if (!installed) {
        installed = 1;
        cli_out_signal_install(on_signal, prev_action);
    }
    cli_out_block_signals(0);
    return 0;
}

int cli_tmpdir_path(char *out, size_t cap, const char *name)
{
    int r = dir[0] ? snprintf(out, cap, "%s/%s", dir, name) : snprintf(out, cap, "%s", "");
    return r < 0 || (size_t)r >= cap ? -1 : 0;
}

void cli_tmpdir_remove(void)
{
    if (!dir[0])
        return;
    remove_files();
    memset(files, 0, sizeof files);
    dir[0] = 0;
    if (lock_fd >= 0)
        close(lock_fd);
    lock_fd = -1;
}
