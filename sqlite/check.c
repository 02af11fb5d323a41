/* The schema's CHECK lists, checked in C by the row writers. A new database is built with
 * ignore_check_constraints, as with foreign_keys=OFF (storage.md 5.3: integrity is the
 * writer's): SQLite evaluates a CHECK (x IN (...)) list by building a temporary b-tree for
 * every row inserted. So the writers refuse a value outside its list themselves, in every
 * mode, and under analyze --jobs on the worker that records the row. A unit test compares
 * these lists with schema.sql. */
#include <string.h>

#include "tdb_int.h"

static const char *const clock_v[] = {"boottime", "monotonic", "uptime", "realtime",
                                      "relative", "unknown", NULL};
static const char *const severity_v[] = {"info", "notice", "data_loss", "error", NULL};
static const char *const source_v[] = {"trace", "analysis", NULL};
static const char *const tree_v[] = {"issue_stack", "beat_slice", "sample_profile", NULL};
static const char *const issue_v[] = {"evil_method", "anr", "lag", "startup",
                                      "signal_anr", "idle_lag", "touch_lag", "priority",
                                      "timerslack", "fps", "other", NULL};
static const char *const level_v[] = {"best", "normal", "middle", "high", "frozen", NULL};
static const char *const startup_v[] = {"cold", "warm", "hot", "unknown", NULL};
static const char *const launch_v[] = {"am", "logcat", NULL};
static const char *const module_v[] = {"elf", "macho", "apk", "dex", "oat",
                                       "jit", "kernel", "unknown", NULL};
static const char *const frame_v[] = {"java", "native", "kernel", "js", "synthetic", NULL};
static const char *const end_v[] = {"exact", "inferred", "unterminated", "truncated", NULL};

static const struct {
    const char *table, *column;
    const char *const *values;
} lists[TDB__E_COUNT] = {
    [TDB__E_CLOCK] = {"trace", "clock", clock_v},
    [TDB__E_SEVERITY] = {"stats", "severity", severity_v},
    [TDB__E_STAT_SOURCE] = {"stats", "source", source_v},
    [TDB__E_TREE_KIND] = {"call_tree", "kind", tree_v},
    [TDB__E_ISSUE_KIND] = {"issue", "kind", issue_v},
    [TDB__E_DROP_LEVEL] = {"ui_frame", "drop_level", level_v},
    [TDB__E_STARTUP_KIND] = {"startup", "kind", startup_v},
    [TDB__E_LAUNCH_SOURCE] = {"launch", "source", launch_v},
    [TDB__E_MODULE_KIND] = {"module", "kind", module_v},
    [TDB__E_FRAME_KIND] = {"stack_frame", "kind", frame_v},
    [TDB__E_END_KIND] = {"slice", "end_kind", end_v},
};

const char *const *tdb__enum_values(int which, const char **table, const char **column)
{
    if (which < 0 || which >= TDB__E_COUNT)
        return NULL;
    *table = lists[which].table;
    *column = lists[which].column;
    return lists[which].values;
}

int tdb__enum_check(int which, const char *v, tt_error *err)
{
    if (!v) /* NOT NULL is SQLite's to check */
        return 0;
    for (const char *const *p = lists[which].values; *p; p++)
        if (!strcmp(*p, v))
            return 0;
    /* no file: a writer's bug, fatal in every mode (not an input's failure) */
    return tt_error_set(err, TT_EINVAL, NULL, 0, 0, "%s.%s: value '%s' is not allowed",
                        lists[which].table, lists[which].column, v);
}
