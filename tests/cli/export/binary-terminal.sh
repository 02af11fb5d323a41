#!/bin/sh
# export --format art-trace writes binary: to a terminal (a pty from util-linux script) it is
# refused with exit 2 before any input is read (cli.md "Outputs"); -o FILE, a redirection and
# the text formats still work on a terminal.
command -v script >/dev/null || { echo "script (util-linux) not installed" >&2; exit 77; }
script -qec true /dev/null > /dev/null 2>&1 || { echo "script cannot open a pty" >&2; exit 77; }
set -u
t=$TT_TMP/bt
mkdir -p "$t"
tty() { # COMMAND: run on a pty; its terminal output (CR LF made LF) and exit code
    script -qc "$1; echo exit \$?" /dev/null < /dev/null | tr -d '\r'
}
tty "tracetool export --format art-trace ../../samples/app.trace"
# standard input is not read: the refusal comes first
tty "tracetool export --format art-trace - < ../../samples/app.trace"
tracetool analyze -o "$t/a.db" ../../samples/app.trace > /dev/null
tty "tracetool export --format art-trace $t/a.db"
# -o - is standard output: refused on a terminal too
tty "tracetool export --format art-trace -o - ../../samples/app.trace"
tty "tracetool export --format art-trace -o $t/x.trace ../../samples/app.trace"
tracetool art "$t/x.trace" | head -2
tty "tracetool export --format art-trace ../../samples/app.trace > $t/y.trace"
cmp "$t/x.trace" "$t/y.trace" && echo "redirected: same bytes as -o"
tty "tracetool export --format folded ../../samples/stacks.folded" | head -2
exit 0
