/* Mapping loading shared by beat, report and analyze; what emptied a Matrix stack. */
#ifndef CLI_LOAD_H
#define CLI_LOAD_H

#include "cli.h"

/* Loads every -m file (method or ignore mapping, by content) and applies --proguard.
 * *out is NULL when nothing was given. Returns 0 or an exit code after printing. */
int cli_load_mappings(tt_mapping **out, char **paths, size_t n, const char *proguard,
                      tt_stats *stats);
/* Loads one open input into m: methodMapping.txt or ignoreMethodMapping.txt by content. */
int cli_load_mapping_input(tt_mapping *m, tt_input *in, tt_stats *stats);
/* Loads a ProGuard/R8 mapping.txt (*out NULL when path is NULL); sha (may be NULL) receives
 * its content hash. Returns 0 or an exit code after printing. */
int cli_load_proguard(tt_proguard **out, const char *path, char sha[65]);
/* Retraces the names of m through pg (method-beat.md 4.6); ambiguities counted in stats. */
int cli_retrace_mapping(tt_mapping *m, const tt_proguard *pg, const char *path,
                        tt_stats *stats);
/* Counts stack ids unknown to the mapping into stats (method-beat.md 4.7). */
void cli_check_ids(const tt_mapping *m, const tt_mitem *items, size_t n, const char *what,
                   tt_stats *stats);
/* Why Matrix's structured stack is empty (TT_EMPTY_*, method-beat.md 9 item 6): static text,
 * "" for TT_EMPTY_NONE. */
const char *cli_beat_empty_reason(int reason);

#endif
