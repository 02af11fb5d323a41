sh ../cli/main/stream-tmpdir-unwritable.sh
