tracetool flamegraph -o "$TT_TMP-f.svg" --root=none flame-spec34.folded && ls "$TT_TMP-f.svg".tmp-* 2>/dev/null; grep -c '<g class="f ' "$TT_TMP-f.svg"; rm -f "$TT_TMP-f.svg"
