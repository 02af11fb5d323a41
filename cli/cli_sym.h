/* Native symbolication for the CLI: -e/--symbols options, the libsym store, per-module
 * diagnostics, and the tt_resolver that libtrace uses (spec/symbolication.md). */
#ifndef CLI_SYM_H
#define CLI_SYM_H

#include "cli.h"
#include "../libsym/tsym.h"

#define CLI_SYM_MAX 64

/* Long-option values shared by every command taking -e/--symbols. */
enum { CLI_SYM_O_SYMBOLS = 0x5300, CLI_SYM_O_NEAREST, CLI_SYM_O_DSYM, CLI_SYM_O_SWIFT };

typedef struct cli_sym_opts {
    const char *exes[CLI_SYM_MAX]; /* -e FILE: modules given explicitly */
    size_t n_exes;
    const char *dirs[CLI_SYM_MAX]; /* --symbols DIR, in order */
    size_t n_dirs;
    const char *dsyms[CLI_SYM_MAX]; /* --dsym [NAME=]PATH (Mach-O), searched first */
    size_t n_dsyms;
    unsigned flags;                /* TSYM_F_* used by the resolver */
    const char *swift;             /* --swift-demangler CMD (spec/ios.md 7), or NULL */
    /* each --dsym opened once for a run that opens a cli_sym per input (analyze:
     * cli_sym_dsyms_open), NULL where it did not open (cli_sym_open opens it and says
     * why); borrowed by every copy of the options, freed by cli_sym_dsyms_close */
    tsym_dsym *opened[CLI_SYM_MAX];
} cli_sym_opts;

/* Handles -e ('e'), --symbols (CLI_SYM_O_SYMBOLS), --dsym (CLI_SYM_O_DSYM) and
 * --swift-demangler (CLI_SYM_O_SWIFT); returns 1 when c was consumed,
 * 0 when c is not a symbol option, -1 after an error message. */
int cli_sym_opt(cli_sym_opts *o, int c, const char *arg);

typedef struct cli_sym cli_sym;
/* Opens the store (--symbols dirs, then TRACETOOL_SYMBOL_PATH) and every -e module;
 * an unusable -e file is an error (CLI_BAD after the message). */
int cli_sym_open(cli_sym **out, const cli_sym_opts *o, cli_ctx *ctx);
void cli_sym_close(cli_sym *s);
/* Opens every --dsym of o once (o->opened), silently: one that does not open stays NULL
 * and each cli_sym_open reports it as before. Run before the inputs (no locking: the
 * records are only read after). cli_sym_dsyms_close frees them. */
void cli_sym_dsyms_open(cli_sym_opts *o);
void cli_sym_dsyms_close(cli_sym_opts *o);

/* Finds the module for a path / name / build id: -e modules first (by build id, then by
 * file name), then the stores. Errors and warnings are printed once per module
 * ("tracetool: MODULE: warning: ...", without "warning: " when fatal). Returns NULL when it cannot be symbolicated;
 * *why (may be NULL) then points to the reason (borrowed). */
/* cli_sym_module flags: errors are not warnings; path is a device's (a tombstone's), a
 * relative one is a name only (tsym_store_get_device) */
#define CLI_SYM_FATAL 1
#define CLI_SYM_DEVICE 2
tsym_module *cli_sym_module(cli_sym *s, const char *path, const char *build_id, unsigned flags,
                            const char **why);
/* The file the symbols of a module come from (its dSYM or DWARF file, else the module
 * file), NULL when it has none or is not bound (a module without build id serves only when
 * bound by name: -e, --dsym NAME=PATH); no messages. */
const char *cli_sym_debug_file(cli_sym *s, const char *path, const char *build_id);

/* Notes an image UUID of the inputs (the resolver notes the UUIDs it is asked for). */
void cli_sym_saw_uuid(cli_sym *s, const char *uuid);
/* After the inputs: a warning and a macho_dsym_unmatched count for every plain --dsym file
 * or bundle (not NAME=PATH, not a directory) none of whose slice UUIDs was noted: the dSYM
 * of another build or image (spec/ios.md 8.1). s may be NULL. */
void cli_sym_dsym_unmatched(cli_sym *s);
/* The same check without a cli_sym, over the --dsym of o (o->opened when open): seen holds
 * the image UUIDs (lowercase hex, 32 digits; NULL: none), the warnings are counted into
 * stats (may be NULL). analyze runs it once over the images its iOS reports stored (their
 * inputs opened each a cli_sym of its own). */
void cli_sym_dsyms_unmatched(const cli_sym_opts *o, tt_intern *seen, tt_stats *stats);

/* The resolver libtrace calls for native frames; valid until cli_sym_close. Swift names
 * are demangled (cli_swift_name) unless cli_sym_swift_keys turned that off. */
void cli_sym_resolver(tt_resolver *r, cli_sym *s);

/* The Swift demangler of the run (--swift-demangler, else TRACETOOL_SWIFT_DEMANGLE);
 * borrowed until cli_sym_close. s may be NULL (then NULL). */
struct cli_swift *cli_sym_swift(cli_sym *s);
/* keys 1: the resolver returns Swift names mangled, because the caller builds keys from
 * them (spec/ios.md 7) and demangles the display names itself. */
void cli_sym_swift_keys(cli_sym *s, int keys);
/* Replaces the Swift names of r's frames by their demangled forms (one exchange). */
void cli_sym_swift_result(cli_sym *s, tsym_result *r);

#endif
