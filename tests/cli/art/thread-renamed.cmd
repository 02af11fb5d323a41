gen_art art/thread-renamed.txt $TT_TMP/a.trace && cd $TT_TMP && tracetool art --tree --units us --threads workerX a.trace
