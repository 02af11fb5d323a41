cd "$TT_TMP" && gen_startup events > slow.jsonl && gen_startup beat > slow.beat && tracetool startup --matrix-compat --splash com.example.shop.SplashActivity --beat slow.beat slow.jsonl
