#!/bin/sh
# Sourced by golden cases: runs the script $ro_script with the directory $ro_dir read-only
# (chmod 0555). Root ignores directory permissions, so as root the script runs as user nobody
# (setpriv) or inside a read-only bind mount (unshare -m); when neither works the case is
# skipped (exit 77). Needs $bin, the tracetool binary nobody must be able to run.
chmod 555 "$ro_dir"
if [ "$(id -u)" != 0 ]; then
    sh "$ro_script" 2>&1
elif command -v setpriv > /dev/null &&
    setpriv --reuid=65534 --regid=65534 --clear-groups test -x "$bin" 2> /dev/null; then
    setpriv --reuid=65534 --regid=65534 --clear-groups sh "$ro_script" 2>&1
elif unshare -m true 2> /dev/null; then
    unshare -m sh -c "mount --bind '$ro_dir' '$ro_dir' && mount -o remount,ro,bind '$ro_dir' &&
        sh '$ro_script'" 2>&1
else
    chmod 755 "$ro_dir"
    echo "SKIP: running as root without setpriv or unshare: a read-only directory cannot be made" >&2
    exit 77
fi
chmod 755 "$ro_dir"
