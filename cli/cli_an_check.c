/* analyze --fail-on: conditions on the rows this run imported that make the run exit 1
 * (cli.md 3: "a check failed"), after the database is written. */
#include "cli_an_int.h"

#include <stdlib.h>
#include <string.h>

/* issue.kind values (storage.md, the schema's CHECK) */
static const char *const kinds[] = {"evil_method", "anr",       "lag",        "startup",
                                    "signal_anr",  "idle_lag",  "touch_lag",  "priority",
                                    "timerslack",  "fps",       "other",      NULL};

/* A non-negative decimal integer filling [s, e); -1 when it is not one. */
static int64_t number(const char *s, const char *e)
{
    if (s == e || e - s > 18)
        return -1;
    int64_t v = 0;
    for (; s < e; s++) {
        if (*s < '0' || *s > '9')
            return -1;
        v = v * 10 + (*s - '0');
    }
    return v;
}

int cli_an__check_parse(an_checks *cs, const char *arg)
{
    if (cs->n == AN_MAX_CHECKS) {
        cli_errorf("option --fail-on: at most %d conditions", AN_MAX_CHECKS);
        return CLI_BAD;
    }
    an_check c = {.arg = arg, .min_count = 1, .min_cost_ms = INT64_MIN};
    const char *end = arg + strlen(arg), *colon = strchr(arg, ':');
    const char *at = strchr(arg, '@');
    const char *what_end = at ? at : colon ? colon : end;
    if (colon && (c.min_count = number(colon + 1, end)) < 1)
        goto bad;
    if (at && (at > (colon ? colon : end) || (c.min_cost_ms = number(at + 1, colon ? colon : end)) < 0))
        goto bad;
    size_t wn = (size_t)(what_end - arg);
    if (wn == 5 && !memcmp(arg, "issue", 5)) {
        c.what = AN_CHECK_ISSUE;
    } else if (wn == 9 && !memcmp(arg, "data-loss", 9) && !at) {
        c.what = AN_CHECK_LOST;
    } else {
        for (size_t i = 0; kinds[i] && !c.kind; i++)
            if (strlen(kinds[i]) == wn && !memcmp(arg, kinds[i], wn))
                c.kind = kinds[i];
        if (!c.kind)
            goto bad;
        c.what = AN_CHECK_ISSUE;
    }
    cs->c[cs->n++] = c;
    return 0;
bad:
    cli_errorf("option --fail-on: expected issue, an issue kind (evil_method, anr, lag, startup, "
               "signal_anr, idle_lag, touch_lag, priority, timerslack, fps, other) or data-loss, "
               "then @MS (issues costing at least MS ms) and :N (at least N of them), got \"%s\"",
               arg);
    return CLI_BAD;
}

int cli_an__check_count(an_checks *cs, tdb_db *db, int64_t first, tt_jsonw *json,
                        tt_error *err)
{
    if (!cs || !cs->n)
        return 0;
    tt_jsonw_key(json, "fail_on");
    tt_jsonw_arr_begin(json);
    for (size_t i = 0; i < cs->n; i++) {
        an_check *c = &cs->c[i];
        int rc = c->what == AN_CHECK_LOST
                     ? tdb_count_lost(db, first, &c->count, err)
                     : tdb_count_issues(db, first, c->kind, c->min_cost_ms, &c->count, err);
        if (rc)
            return rc;
        tt_jsonw_obj_begin(json);
        tt_jsonw_key(json, "condition");
        tt_jsonw_str(json, c->arg);
        tt_jsonw_key(json, "count");
        tt_jsonw_int(json, c->count);
        tt_jsonw_key(json, "tripped");
        tt_jsonw_bool(json, c->count >= c->min_count);
        tt_jsonw_obj_end(json);
    }
    tt_jsonw_arr_end(json);
    return 0;
}

int cli_an__check_report(const an_checks *cs)
{
    int tripped = 0;
    for (size_t i = 0; cs && i < cs->n; i++) {
        const an_check *c = &cs->c[i];
        if (c->count < c->min_count)
            continue;
        tripped++;
        char cost[48] = "";
        if (c->min_cost_ms != INT64_MIN)
            snprintf(cost, sizeof cost, " costing at least %lld ms", (long long)c->min_cost_ms);
        if (c->what == AN_CHECK_LOST)
            cli_stderrf("tracetool: analyze: --fail-on %s: %lld lost (the values of the stats "
                        "rows of severity data_loss or error; threshold %lld)\n",
                        c->arg, (long long)c->count, (long long)c->min_count);
        else
            cli_stderrf("tracetool: analyze: --fail-on %s: %lld %s%sissue%s%s imported "
                        "(threshold %lld)\n",
                        c->arg, (long long)c->count, c->kind ? c->kind : "", c->kind ? " " : "",
                        c->count == 1 ? "" : "s", cost, (long long)c->min_count);
    }
    return tripped;
}
