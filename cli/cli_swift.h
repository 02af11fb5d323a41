/* The optional external Swift demangler (spec/ios.md 7): --swift-demangler CMD or
 * TRACETOOL_SWIFT_DEMANGLE, started once per run, fed one mangled name per line. */
#ifndef CLI_SWIFT_H
#define CLI_SWIFT_H

#include "cli.h"

typedef struct cli_swift cli_swift;

/* cmd NULL or "": no demangler (Swift names stay mangled and are counted as
 * swift_names_mangled). The process starts at the first name. Owned by the caller, free with
 * cli_swift_free (accepts NULL); NULL on out of memory. */
cli_swift *cli_swift_new(const char *cmd, tt_stats *stats);
/* Closes the demangler's input, waits for it and counts the names left mangled. */
void cli_swift_free(cli_swift *s);
/* Demangles the distinct new Swift names of names[0..n) in one exchange: all are written
 * while answers are read (poll, so neither pipe can fill up and block both sides). */
void cli_swift_batch(cli_swift *s, const char *const *names, size_t n);
/* Notes the qualified DW_AT_name of the Swift name name (tsym_frame.qualified): its display
 * name when the demangler gives none (spec/ios.md 7). */
void cli_swift_hint(cli_swift *s, const char *name, const char *qualified);
/* The display name of name: its demangled form when it is a Swift name the demangler
 * answered, else its qualified DWARF name when one was noted, else name itself. Borrowed until cli_swift_free; s may be NULL. */
const char *cli_swift_name(cli_swift *s, const char *name);
/* Replaces the Swift names of frames[0..n) by their display names, batching the new ones. */
void cli_swift_frames(cli_swift *s, tt_native_frame *frames, size_t n);

#endif
