tracetool startup --splash com.app.Splash --format csv ../../samples/startup-events.jsonl
