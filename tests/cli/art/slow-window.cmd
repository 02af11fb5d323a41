gen_art art/slow.txt $TT_TMP/a.trace && cd $TT_TMP && tracetool art --window "android.os.Looper.loopOnce(android.os.Looper,long,int)" --threshold-ms 50 a.trace | tail -5
