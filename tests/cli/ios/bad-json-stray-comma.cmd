printf '{"mp":831},"\001\377\3770414"' > "$TT_TMP/k.json" && timeout 20 tracetool symbolicate --kind kscrash "$TT_TMP/k.json" 2>&1 | sed "s|$TT_TMP|TMP|g"; echo "exit $?"
