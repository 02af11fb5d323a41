mkdir -p "$TT_TMP/st" && cp macho/hostile-cmdsize.macho "$TT_TMP/st/" && tracetool report --symbols "$TT_TMP/st" --dsym macho/app.dSYM ios-dsym-bundle.json 2>&1 >/dev/null | sed "s|$TT_TMP|TMP|g"
