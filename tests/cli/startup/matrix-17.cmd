tracetool startup --matrix-compat --splash com.app.Splash --format jsonl startup/warm.jsonl
