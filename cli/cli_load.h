/* Mapping loading shared by beat, report and analyze. */
#ifndef CLI_LOAD_H
#define CLI_LOAD_H

#include "cli.h"

/* Loads every -m file (method or ignore mapping, by content) and applies --proguard.
 * *out is NULL when nothing was given. Returns 0 or an exit code after printing. */
int cli_load_mappings(tt_mapping **out, char **paths, size_t n, const char *proguard,
                      tt_stats *stats);
/* Loads a ProGuard/R8 mapping.txt (*out NULL when path is NULL); used to retrace Java
 * thread stacks. Returns 0 or an exit code after printing. */
int cli_load_proguard(tt_proguard **out, const char *path);
/* Counts stack ids unknown to the mapping into stats (method-beat.md 4.7). */
void cli_check_ids(const tt_mapping *m, const tt_mitem *items, size_t n, const char *what,
                   tt_stats *stats);

#endif
