#!/bin/sh
# A FIFO or device that a command keeps for a second read (cli_trace_paths's look, report's,
# export's) is checked when it outgrows memory (16 MiB), before the rest is spooled to
# $TMPDIR: binary data that is no trace stops the command at once with the message a file of
# the same content gets (exit 2), and so is text of a kind the command does not read
# (frames, startup, samples, export). The file size limit (about 25 MB in sh's 512-byte blocks)
# makes a spool of a whole endless stream fail instead; every command runs under timeout.
# A valid stream past 16 MiB is still kept and read whole.
set -u
t=$TT_TMP/snt
mkdir -p "$t/tmp"
trap '' XFSZ
export TMPDIR="$t/tmp"
run() { # LABEL COMMAND...: exit status and messages, under the file size limit
    label=$1
    shift
    (ulimit -f 50000; timeout 60 "$@" > "$t/out" 2> "$t/err"; echo "$label: exit $?")
    head -n 2 "$t/out"
    sed "s|$TT_TMP|TMP|g" "$t/err"
}
feed() { # a writer of FILE into the FIFO f that gives up when nobody reads
    rm -f "$t/f"
    mkfifo "$t/f"
    timeout 60 sh -c "cat '$1' > '$t/f'" 2> /dev/null &
}
head -c 100000 /dev/zero > "$t/zero.bin"
run "export, a file" tracetool export --format folded "$t/zero.bin"
run "export" tracetool export --format folded /dev/zero
run "frames" tracetool frames /dev/zero
run "startup" tracetool startup /dev/zero
run "samples" tracetool samples /dev/zero
run "report" tracetool report /dev/zero
run "report, stdin" sh -c 'head -c 60000000 /dev/zero | tracetool report -'
feed /dev/zero
run "frames, FIFO" tracetool frames "$t/f"
wait
# text of no kind the command reads: its own message, as for a file
yes | head -c 100000 > "$t/y.txt"
for c in frames startup samples "export --format folded"; do
    run "$c, a file" tracetool $c "$t/y.txt"
    run "$c, /dev/stdin" sh -c "yes | head -c 60000000 | tracetool $c /dev/stdin"
done
[ -z "$(ls -A "$t/tmp")" ] && echo "TMPDIR: empty"
yes 'main;a;b 1' | head -n 1600000 > "$t/big.folded"
feed "$t/big.folded"
run "export, FIFO of 17.6 MB" tracetool export --format folded "$t/f"
wait
exit 0
