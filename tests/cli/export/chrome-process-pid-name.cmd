tracetool export --format chrome export-pid-no-main.perf.txt | grep process_name; tracetool export --format folded --folded-root process export-pid-no-main.perf.txt
