gen_art art/stream-nosummary.txt $TT_TMP/a.trace && cd $TT_TMP && tracetool art --profile --art-clock thread-cpu --units us a.trace
