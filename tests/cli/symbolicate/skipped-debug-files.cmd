sh ../cli/symbolicate/skipped-debug-files.sh
