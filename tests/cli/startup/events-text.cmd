tracetool startup --splash com.app.Splash ../../samples/startup-events.jsonl
