tracetool samples perf-report.txt; echo "rc $?"; tracetool analyze -o "$TT_TMP/a.db" perf-header-only.txt; echo "rc $?"; tracetool samples perf-header-only.txt
