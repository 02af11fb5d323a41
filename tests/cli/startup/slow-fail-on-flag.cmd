cd "$TT_TMP" && gen_startup events > slow.jsonl && tracetool startup --splash com.example.shop.SplashActivity --fail-on-flag --format csv slow.jsonl
