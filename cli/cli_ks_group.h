/* report --group on iOS dumps: counts per (dump class, top-app-frame key) (spec/ios.md 9.4). */
#ifndef CLI_KS_GROUP_H
#define CLI_KS_GROUP_H

#include "cli_kscrash.h"

typedef struct cli_ks_groups cli_ks_groups;
/* Owned by the caller, free with cli_ks_groups_free (accepts NULL). NULL on out of memory. */
cli_ks_groups *cli_ks_groups_new(void);
void cli_ks_groups_free(cli_ks_groups *g);
/* Counts one dump: 0, or -1 on out of memory. */
int cli_ks_groups_add(cli_ks_groups *g, const tt_ks_report *rep, const cli_ks_key *k);
/* Sorted by count descending, then key; format CLI_KS_TEXT, _JSON, _JSONL or _CSV. */
void cli_ks_groups_print(cli_ks_groups *g, int format, uint64_t dumps);

#endif
