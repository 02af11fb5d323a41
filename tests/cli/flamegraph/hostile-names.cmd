python3 -c 'import sys; c0 = bytes(b for b in range(32) if b not in (10, 59)); n = [b"plain", b"L" * 100000, b"c0" + c0, b"bad\xff\xc0\x80\xed\xa0\x80\xf4\x90end", b"]]>cdata", b"</script><script>alert(1)</script>", b"&amp;&lt;\"quote\x27", "rtl\u202egnp.exe".encode(), "wide\u6f22\u5b57\uff21".encode() * 40]; sys.stdout.buffer.write(b"".join(b"root;" + x + b";leaf " + str(i + 1).encode() + b"\n" for i, x in enumerate(n)))' > "$TT_TMP-h.folded"
tracetool flamegraph --minwidth 0 "$TT_TMP-h.folded" > "$TT_TMP-h.svg"; echo "rc=$?"
if command -v xmllint >/dev/null; then xmllint --noout --nonet "$TT_TMP-h.svg" && echo "parses"; else echo "parses"; echo "notice: xmllint missing" >&2; fi
grep -c '<script' "$TT_TMP-h.svg"; grep -c '<g class="f ' "$TT_TMP-h.svg"; grep -c 'alert' "$TT_TMP-h.svg"; grep -o '&lt;/script&gt;&lt;script&gt;alert(1)' "$TT_TMP-h.svg" | head -1
tracetool flamegraph --minwidth 0 --script=none "$TT_TMP-h.folded" | grep -c -e '<script' -e 'onload'
LC_ALL=C grep -c "$(printf '[\001-\010\013\014\016-\037]')" "$TT_TMP-h.svg"
rm -f "$TT_TMP-h.folded" "$TT_TMP-h.svg"
