/* analyze --fail-on: conditions on the rows this run imported that make the run exit 1
 * (cli.md 3: "a check failed"), after the database is written. */
#include "cli_an_int.h"

#include <stdlib.h>
#include <string.h>

int cli_an__check_parse(an_checks *cs, const char *arg)
{
    if (cs->n == AN_MAX_CHECKS) {
        cli_errorf("option --fail-on: at most %d conditions", AN_MAX_CHECKS);
        return CLI_BAD;
    }
    an_check *c = &cs->c[cs->n];
    tt_error err = {0};
    if (tt_issue_cond_parse(&c->cond, arg, &err)) {
        cli_errorf("option --fail-on: %s", err.msg);
        return CLI_BAD;
    }
    c->arg = arg;
    c->count = 0;
    cs->n++;
    return 0;
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
        int rc = c->cond.what == TT_COND_LOST
                     ? tdb_count_lost(db, first, &c->count, err)
                     : tdb_count_issues(db, first, c->cond.kind, c->cond.min_cost_ms, &c->count, err);
        if (rc)
            return rc;
        tt_jsonw_obj_begin(json);
        tt_jsonw_key(json, "condition");
        tt_jsonw_str(json, c->arg);
        tt_jsonw_key(json, "count");
        tt_jsonw_int(json, c->count);
        tt_jsonw_key(json, "tripped");
        tt_jsonw_bool(json, c->count >= c->cond.min_count);
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
        if (c->count < c->cond.min_count)
            continue;
        tripped++;
        char cost[48] = "";
        if (c->cond.min_cost_ms != INT64_MIN)
            snprintf(cost, sizeof cost, " costing at least %lld ms", (long long)c->cond.min_cost_ms);
        if (c->cond.what == TT_COND_LOST)
            cli_stderrf("tracetool: analyze: --fail-on %s: %lld lost (the values of the stats "
                        "rows of severity data_loss or error; threshold %lld)\n",
                        c->arg, (long long)c->count, (long long)c->cond.min_count);
        else
            cli_stderrf("tracetool: analyze: --fail-on %s: %lld %s%sissue%s%s imported "
                        "(threshold %lld)\n",
                        c->arg, (long long)c->count, c->cond.kind ? c->cond.kind : "", c->cond.kind ? " " : "",
                        c->count == 1 ? "" : "s", cost, (long long)c->cond.min_count);
    }
    return tripped;
}
