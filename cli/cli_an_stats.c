/* analyze's stats rows (storage.md): one counted event of an input stored in the stats table
 * and, unless it is only information, printed as a warning at the end; shared by every
 * reader's writer (cli_an_beat.c, cli_an_report.c, cli_an_startup.c, ...). */
#include "cli_an.h"

#include <string.h>

void cli_an_print_stat(cli_an *a, const char *name, const char *severity, const char *file,
                       uint64_t value, const char *example)
{
    if (value && strcmp(severity, "info"))
        tt_stats_add(a->cli->stats, name, file ? file : "",
                     strcmp(severity, "data_loss") ? TT_SEV_WARN : TT_SEV_DATA_LOSS,
                     (int64_t)value, example);
}

int cli_an_stat(cli_an *a, int64_t trace_id, const char *name, const char *severity,
                const char *source, uint64_t value, const char *description, tt_error *err)
{
    if (!value)
        return 0;
    int rc = tdb_stat_add(a->db, trace_id, name, NULL, severity, source, (int64_t)value,
                          description, err);
    if (!rc)
        cli_an_print_stat(a, name, severity, a->cur_path, value, NULL);
    return rc;
}

int cli_an_reader_stats(cli_an *a, int64_t trace_id, const tt_stats *st, tt_error *err)
{
    int rc = 0;
    for (size_t i = 0; i < tt_stats_count(st) && !rc; i++) {
        const tt_stat *s = tt_stats_get(st, i);
        const char *sev = s->severity == TT_SEV_DATA_LOSS ? "data_loss"
                          : s->severity == TT_SEV_WARN    ? "notice"
                                                          : "info";
        if (!s->count)
            continue;
        rc = tdb_stat_add(a->db, trace_id, s->name, NULL, sev, "trace", s->count,
                          tt_stats_text(s), err);
        if (!rc)
            cli_an_print_stat(a, s->name, sev, s->file, (uint64_t)s->count,
                              s->example[0] && !s->told ? s->example : NULL);
    }
    return rc;
}

int cli_an_input_stats_begin(tt_stats **outer, cli_an *a)
{
    *outer = a->cli->stats;
    tt_stats *st = tt_stats_new();
    if (!st)
        return TT_ENOMEM;
    a->cli->stats = st;
    return 0;
}

tt_stats *cli_an_input_stats_end(cli_an *a, tt_stats *outer, int failed)
{
    tt_stats *st = a->cli->stats;
    a->cli->stats = outer;
    if (!failed)
        return st;
    for (size_t i = 0; i < tt_stats_count(st); i++)
        tt_stats_add_stat(outer, tt_stats_get(st, i));
    tt_stats_free(st);
    return NULL;
}
