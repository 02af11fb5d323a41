/* analyze --fail-on conditions (tt_issue_cond): parsed here, counted by the database layer. */
#include "tt.h"

#include <string.h>

/* issue.kind values (storage.md, the schema's CHECK) */
const char *const tt_issue_kinds[] = {"evil_method", "anr",      "lag",       "startup",
                                      "signal_anr",  "idle_lag", "touch_lag", "priority",
                                      "timerslack",  "fps",      "other",     NULL};

/* A decimal integer of at most 18 digits filling [s, e); -1 when it is not one. */
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

int tt_issue_cond_parse(tt_issue_cond *c, const char *s, tt_error *err)
{
    *c = (tt_issue_cond){.min_count = 1, .min_cost_ms = INT64_MIN};
    const char *end = s + strlen(s), *colon = strchr(s, ':'), *at = strchr(s, '@');
    const char *what_end = at ? at : colon ? colon : end;
    const char *cost_end = colon ? colon : end;
    if (colon && (c->min_count = number(colon + 1, end)) < 1)
        goto bad;
    if (at && (at > cost_end || (c->min_cost_ms = number(at + 1, cost_end)) < 0))
        goto bad;
    size_t wn = (size_t)(what_end - s);
    if (wn == 5 && !memcmp(s, "issue", 5))
        return 0;
    if (wn == 9 && !memcmp(s, "data-loss", 9) && !at) {
        c->what = TT_COND_LOST;
        return 0;
    }
    for (size_t i = 0; tt_issue_kinds[i]; i++)
        if (strlen(tt_issue_kinds[i]) == wn && !memcmp(s, tt_issue_kinds[i], wn)) {
            c->kind = tt_issue_kinds[i];
            return 0;
        }
bad:
    return tt_error_set(err, TT_EINVAL, NULL, TT_LOC_NONE, 0,
                        "expected issue, an issue kind (evil_method, anr, lag, startup, "
                        "signal_anr, idle_lag, touch_lag, priority, timerslack, fps, other) or "
                        "data-loss, then @MS (issues costing at least MS ms) and :N (at least N "
                        "of them), got \"%s\"",
                        s);
}
