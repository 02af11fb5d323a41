sh symedge/mk.sh "$TT_TMP/symedge" && cd "$TT_TMP/symedge" && tracetool export --format folded -e libedge.so kernel.txt
