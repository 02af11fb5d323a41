/* tracetool merge: the reduce step of fleet-scale analysis (storage.md 9). Databases written by
 * analyze (per shard, per machine) become one, built aside and renamed into place under the
 * writer lock, as analyze writes; traces already present (import key) are skipped. */
#include "cli.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../sqlite/tdb.h"

static const char usage[] =
    "usage: tracetool merge -o DB [--append] [--format text|json] INPUT_DB...\n"
    "\n"
    "  -o, --output DB     database to write (required)\n"
    "      --append        merge into an existing DB instead of replacing it\n"
    "      --format FMT    summary as text (default) or json\n"
    "  -h, --help          show this help\n";

enum { O_APPEND = 256, O_FORMAT };
static const struct option longopts[] = {
    {"output", required_argument, NULL, 'o'},
    {"append", no_argument, NULL, O_APPEND},
    {"format", required_argument, NULL, O_FORMAT},
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0},
};
static const char *const formats[] = {"text", "json", NULL};

/* A signal while an input is read: the merge is stopped (tdb_merge_stop), lets the input go
 * (removing the -wal and -shm files its reading made) and the run then ends by the signal,
 * passed to the handler it replaced (the temporary file's guard, then the default). */
static volatile sig_atomic_t stop_signal;
static struct sigaction stop_prev[3];

static void stop_handler(int sig)
{
    if (!stop_signal)
        stop_signal = sig;
}

/* 1 when a and b name the same file. */
static int same_file(const char *a, const char *b)
{
    struct stat sa, sb;
    return !stat(a, &sa) && !stat(b, &sb) && sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

/* The directory SQLite puts its temporary files in (its unix VFS's order: $SQLITE_TMPDIR,
 * $TMPDIR, /var/tmp, /usr/tmp, /tmp, the current directory: the first writable one), said
 * with where it comes from. */
static void sqlite_tmpdir(char *buf, size_t cap)
{
    static const char *const env[] = {"SQLITE_TMPDIR", "TMPDIR"};
    static const char *const dflt[] = {"/var/tmp", "/usr/tmp", "/tmp", "."};
    struct stat sb;
    for (size_t i = 0; i < 6; i++) {
        const char *d = i < 2 ? getenv(env[i]) : dflt[i - 2];
        if (!d || !*d || stat(d, &sb) || !S_ISDIR(sb.st_mode) || access(d, W_OK | X_OK))
            continue;
        if (i < 2)
            snprintf(buf, cap, "$%s, %s", env[i], d);
        else
            snprintf(buf, cap, "the default, %s", d);
        return;
    }
    snprintf(buf, cap, "none usable");
}

/* SQLite's "database or disk is full" names no volume: the merge writes OUT's file built
 * aside and its temporary tables (a key per framestats frame) in the temporary directory. */
static void full_where(tt_error *err, const char *out)
{
    char dir[512];
    sqlite_tmpdir(dir, sizeof dir);
    size_t n = strlen(err->msg);
    if (snprintf(err->msg + n, sizeof err->msg - n,
                 ": the volume of %s or the temporary directory (%s) is full", out, dir) < 0)
        err->msg[n] = 0;
}

int cmd_merge(int argc, char **argv, cli_ctx *ctx)
{
    (void)ctx;
    const char *out = NULL;
    int append = 0, format = 0, c;
    cli_opt_reset();
    while ((c = getopt_long(argc, argv, "o:h", longopts, NULL)) != -1) {
        switch (c) {
        case 'o': out = optarg; break;
        case O_APPEND: append = 1; break;
        case O_FORMAT:
            if ((format = cli_opt_enum("--format", optarg, formats)) < 0)
                return CLI_BAD;
            break;
        case 'h': return cli_usage(usage, 0);
        default: return cli_usage(usage, 1);
        }
    }
    if (!out) {
        cli_errorf("merge: missing -o DB");
        return cli_usage(usage, 1);
    }
    if (cli_opt_db_output(out))
        return CLI_BAD;
    if (optind >= argc) {
        cli_errorf("merge: missing INPUT_DB");
        return cli_usage(usage, 1);
    }
    char *const *ins = argv + optind;
    int nin = argc - optind;
    for (int i = 0; i < nin; i++) {
        if (!strcmp(ins[i], "-") || cli_input_is_stream(ins[i])) {
            cli_errorf("%s: a database cannot be read from a pipe or device: copy it to a file "
                       "first", ins[i]);
            return CLI_BAD;
        }
        if (cli_input_path(ins[i]))
            return CLI_BAD;
        if (append && same_file(ins[i], out)) {
            cli_errorf("%s: is the output database", ins[i]);
            return CLI_BAD;
        }
    }
    char *target = cli_out_resolve(out);
    if (!target)
        return CLI_BAD;
    struct stat tsb;
    int existed = stat(target, &tsb) == 0;
    if (cli_out_fd_path(target) >= 0 || (existed && !S_ISREG(tsb.st_mode))) {
        cli_errorf("%s: not a regular file: the database is written to a file", out);
        free(target);
        return CLI_BAD;
    }
    int rc = 0;
    tdb_db *db = NULL;
    tt_error err = {0};
    char tmpname[4096] = "";
    int64_t traces = 0, added = 0, rows = 0, updated = 0;
    cli_out_lock *lock = cli_out_lock_take(target);
    if (!lock) {
        free(target);
        return CLI_BAD;
    }
    /* no signal between creating the temporary file and registering it for removal */
    cli_out_block_signals(1);
    /* the merge's temporary tables (a key per framestats frame) in a file, not in memory */
    rc = tdb_open_write(&db, target,
                        (append ? TDB_WRITE_COPY : TDB_WRITE_NEW) | TDB_WRITE_TEMP_FILE, &err);
    if (!rc) {
        snprintf(tmpname, sizeof tmpname, "%s", tdb_tmp_path(db));
        cli_out_guard(tmpname);
    }
    cli_out_block_signals(0);
    tt_buf text = {0};
    int stoppable = !rc;
    if (stoppable) {
        tdb_merge_stop(db, &stop_signal);
        cli_out_signal_install(stop_handler, stop_prev);
    }
    /* the pages of input i + 1 are checked on a thread while input i is merged */
    tdb_precheck *pc = !rc && nin > 1 ? tdb_precheck_start(ins, (size_t)nin) : NULL;
    for (int i = 0; i < nin && !rc && !stop_signal; i++) {
        tdb_merge_stats ms;
        int checked = tdb_precheck_take(pc, (size_t)i, &stop_signal);
        rc = tdb_merge_add(db, ins[i], out, checked, &ms, &err);
        if (rc)
            break;
        traces += ms.traces_in;
        added += ms.traces_added;
        rows += ms.rows;
        updated += ms.rows_updated;
        if (ms.traces_added < ms.traces_in)
            cli_stderrf("tracetool: %s: note: %lld of %lld traces already in %s\n", ins[i],
                        (long long)(ms.traces_in - ms.traces_added), (long long)ms.traces_in,
                        ms.held_by ? ms.held_by : out);
        if (ms.frames_overlap)
            cli_stderrf("tracetool: %s: warning: %lld framestats frames of %lld trace%s are "
                        "also in %s (overlapping dumps analysed in different runs): counted "
                        "twice; give a device's dumps to one analyze (stats 'frames_overlap')\n",
                        ins[i], (long long)ms.frames_overlap, (long long)ms.traces_overlap,
                        ms.traces_overlap == 1 ? "" : "s", ms.overlaps ? ms.overlaps : out);
        tdb_merge_stats_free(&ms);
    }
    tdb_precheck_free(pc);
    if (stoppable) {
        tdb_merge_stop(db, NULL);
        cli_out_signal_restore(stop_prev);
    }
    if (stop_signal) { /* the input is let go: remove the temporary file, end by the signal */
        tdb_close(db);
        cli_out_unguard(tmpname);
        cli_out_lock_release(lock);
        free(target);
        tt_buf_free(&text);
        cli_out_signal_pass(stop_signal, stop_prev);
        return CLI_BAD; /* the signal was ignored before: never fatal */
    }
    /* the summary is written and flushed before the rename: a write error on standard
     * output (exit 2) leaves the old database as it was (tracetool(1)); a reader that went
     * away (EPIPE) is no error */
    if (!rc && format == 1) {
        tt_jsonw w;
        tt_jsonw_init(&w, 0);
        tt_jsonw_obj_begin(&w);
        tt_jsonw_key(&w, "database");
        tt_jsonw_str(&w, out);
        tt_jsonw_key(&w, "inputs");
        tt_jsonw_int(&w, nin);
        tt_jsonw_key(&w, "traces");
        tt_jsonw_int(&w, traces);
        tt_jsonw_key(&w, "added");
        tt_jsonw_int(&w, added);
        tt_jsonw_key(&w, "already_present");
        tt_jsonw_int(&w, traces - added);
        tt_jsonw_key(&w, "rows");
        tt_jsonw_int(&w, rows);
        tt_jsonw_obj_end(&w);
        tt_buf_puts(&w.buf, "\n");
        tt_buf_put(&text, w.buf.data, w.buf.len);
        tt_jsonw_free(&w);
    } else if (!rc) {
        tt_buf_printf(&text,
                      "merged %d database%s: %lld traces, %lld added, %lld already present, "
                      "%lld rows written\n",
                      nin, nin == 1 ? "" : "s", (long long)traces, (long long)added,
                      (long long)(traces - added), (long long)rows);
    }
    int werr = rc ? 0 : cli_out_try(text.data ? text.data : "", text.len);
    if (werr && werr != EPIPE) {
        cli_errorf("write error on standard output: %s", strerror(werr));
        rc = CLI_BAD;
    } else {
        /* --append that writes no row leaves the file as it is (not rewritten, same inode) */
        if (!rc && !(append && existed && rows == 0 && updated == 0))
            rc = tdb_commit(db, &err);
        if (rc && strstr(err.msg, "database or disk is full"))
            full_where(&err, out);
        if (rc)
            rc = cli_err(&err);
    }
    tdb_close(db); /* removes an uncommitted temporary file */
    cli_out_unguard(tmpname);
    cli_out_lock_release(lock);
    free(target);
    tt_buf_free(&text);
    return rc;
}
