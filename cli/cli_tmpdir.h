/* A run's private temporary directory, where diff and flamegraph analyse raw inputs into
 * databases (tracetool(1), OUTPUT): $TMPDIR/PREFIX-PID-XXXXXX, mode 0700, flock-held while
 * the run lives so that a later run sweeps it only once the run is gone (tt_private_dir),
 * and removed with the files of its databases at the end and on SIGINT, SIGTERM and SIGHUP.
 * One per process. */
#ifndef CLI_TMPDIR_H
#define CLI_TMPDIR_H

#include <stddef.h>

/* At most this many databases in the directory. */
#define CLI_TMPDIR_DBS 4

/* Sweeps the directories of killed runs with this prefix, then makes this run's (names
 * dbs: the NULL-terminated file names of its databases, at most CLI_TMPDIR_DBS) and
 * installs the signal cleanup. 0 (also when it exists already), or CLI_BAD after an error
 * message. */
int cli_tmpdir_create(const char *prefix, const char *const *dbs);
/* Only the sweep of cli_tmpdir_create: a run that needs no directory still removes those
 * of killed runs. */
void cli_tmpdir_sweep(const char *prefix, const char *const *dbs);
/* out[cap] = the directory's file name, "" before cli_tmpdir_create; -1 when it does not
 * fit. */
int cli_tmpdir_path(char *out, size_t cap, const char *name);
/* Removes each database DB with the files beside it that the sweep knows
 * (tt_tmp_db_suffixes, DB.tmp-PID), then the directory (left when anything else is in it),
 * and releases its lock. Nothing when there is none. */
void cli_tmpdir_remove(void);

#endif
