tracetool startup --splash com.app.Splash --format json ../../samples/startup-events.jsonl
