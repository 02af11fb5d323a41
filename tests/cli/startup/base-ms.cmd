cd "$TT_TMP" && gen_startup events > slow.jsonl && gen_startup beat > slow.beat && tracetool startup --matrix-compat --splash com.example.shop.SplashActivity --base-ms 12000 slow.jsonl slow.beat
