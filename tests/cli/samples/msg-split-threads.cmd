tracetool samples --top 3 --loop-frame 'android.os.Looper.loop()' --loop-frame 'worker.Loop.run()' msg-split-threads.jsonl
