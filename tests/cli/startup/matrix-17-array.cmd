tracetool startup --matrix-compat --splash "com.app.Other; com.app.Splash" --format json startup/warm.jsonl
