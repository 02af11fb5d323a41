tracetool startup --splash com.app.Splash --format jsonl startup/warm.jsonl
