tracetool startup --splash com.app.Splash --format csv startup/interleaved-pids.jsonl && tracetool startup --splash com.app.Splash --matrix-compat startup/interleaved-pids.jsonl
