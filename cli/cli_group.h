/* Aggregation of issues by blamed method name (tracetool report --group). */
#ifndef CLI_GROUP_H
#define CLI_GROUP_H

#include "cli.h"

typedef struct cli_groups cli_groups;

/* Owned by the caller, free with cli_groups_free. NULL on out of memory. */
cli_groups *cli_groups_new(void);
void cli_groups_free(cli_groups *g);
/* Counts one issue under method (its name: ids differ between builds); key_id is the id it
 * had, detail and scene are counted per group (NULL scene counts as "(none)").
 * The group's total cost saturates at INT64_MAX (INT64_MIN) instead of overflowing; returns 1
 * when it does so (the first time for the group), else 0, or -1 on out of memory. */
int cli_groups_add(cli_groups *g, const char *method, int32_t key_id, int64_t cost_ms,
                   const char *detail, const char *scene);
/* Writes the groups sorted by total cost, count, name: format 0 text, 1 one JSON document,
 * 2 one JSON object per line. reports and without_key are the totals for the header. */
void cli_groups_print(cli_groups *g, int format, uint64_t reports, uint64_t without_key);

#endif
