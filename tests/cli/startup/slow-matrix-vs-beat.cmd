cd "$TT_TMP" && gen_startup beat | head -24 > slice.beat && tracetool beat --lenient --cost 12000 --format matrix slice.beat
