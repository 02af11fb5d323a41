cd "$TT_TMP" && gen_startup events > slow.jsonl && tracetool startup --matrix-compat --splash com.example.shop.SplashActivity --cold-ms 12000 slow.jsonl
