tracetool startup --splash com.app.Splash --format jsonl ../../samples/startup-events.jsonl
