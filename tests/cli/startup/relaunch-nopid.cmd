tracetool startup --splash com.app.Splash --format csv startup/relaunch-nopid.jsonl && tracetool startup --splash com.app.Splash --matrix-compat startup/relaunch-nopid.jsonl
