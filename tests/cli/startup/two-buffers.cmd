cd "$TT_TMP" && gen_startup beat > a.beat && cp a.beat b.beat && tracetool startup --beat a.beat b.beat
