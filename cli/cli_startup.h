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
int cli_startup_read_reports(tt_startup *s, tt_input *in, tt_stats *stats, tt_error *err);

#endif
