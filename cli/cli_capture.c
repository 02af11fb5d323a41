/* Where this thread's diagnostics go (cli_out.c asks, cli_progress.c stays hidden while they
 * are captured): a thread that parses inputs for analyze --jobs writes them to its buffer,
 * printed by the writer in input order; every other thread writes standard error directly. */
#include "cli.h"

static _Thread_local tt_buf *capture;

void cli_msg_capture(tt_buf *b) { capture = b; }

int cli_msg_capturing(void) { return capture != NULL; }

tt_buf *cli_msg_capture_buf(void) { return capture; }
