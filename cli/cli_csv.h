/* CSV fields as RFC 4180 writes them (cli.md "Outputs"): every command's --format csv. Rows end
 * with LF, not RFC 4180's CRLF (tracetool(1) OUTPUT), like the rest of the text output. */
#ifndef CLI_CSV_H
#define CLI_CSV_H

#include <stddef.h>
#include <stdint.h>

#include "../libtrace/tt.h"

/* Appends the N bytes at S as one field: in double quotes, with each inner quote doubled, when
 * they hold a comma, quote, CR or LF (or always when QUOTE is set); as they are otherwise. */
void cli_csv_field(tt_buf *b, const char *s, size_t n, int quote);
/* The same for a string; NULL is an empty field. */
void cli_csv_str(tt_buf *b, const char *s);
/* A comma, then V when HAS is set (an empty field otherwise). */
void cli_csv_int(tt_buf *b, int has, int64_t v);
/* cli_csv_field of a string straight to standard output. */
void cli_csv_out(const char *s, int quote);

#endif
