/* tracetool frames: report input and output formats (cli_frames.c). */
#ifndef CLI_FRAMES_H
#define CLI_FRAMES_H

#include "cli.h"

/* Reads the Trace_FPS reports of a Matrix report file into f (other tags are counted).
 * refused: NULL, or the level option the user gave, an error at the first report. */
int cli_frames_read_reports(tt_frames *f, tt_input *in, const char *refused, cli_ctx *ctx);
/* Prints the results; format 0 text, 1 json, 2 jsonl (replays), 3 csv. */
void cli_frames_print(const tt_frames *f, int format);

#endif
