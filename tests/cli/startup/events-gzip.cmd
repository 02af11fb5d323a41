gzip -c ../../samples/startup-events.jsonl | tracetool startup --splash com.app.Splash --format csv -
