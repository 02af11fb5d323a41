/* tracetool startup: output writers and the Matrix report feed (cmd_startup.c). */
#ifndef CLI_STARTUP_H
#define CLI_STARTUP_H

#include "cli.h"

void cli_startup_text(const tt_startup *s);
void cli_startup_json(const tt_startup *s);
void cli_startup_jsonl(const tt_startup *s);
void cli_startup_csv(const tt_startup *s, int launches);
/* The Matrix-style objects of startup.md 5.1, one per line or as one JSON array. */
void cli_startup_matrix(const tt_startup *s, int array);
/* Feeds the Trace_StartUp and STARTUP reports of a Matrix report file into s. */
/* Converts a decoded report into the startup model's form; 0 when it is neither a
 * Trace_StartUp report nor a STARTUP evil-method issue. Strings stay borrowed from rep. */
int cli_startup_report(tt_su_report *r, const tt_report *rep);
int cli_startup_read_reports(tt_startup *s, tt_input *in, tt_stats *stats, tt_error *err);

#endif
