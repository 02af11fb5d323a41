tracetool symbolicate --resymbolize logcat-tombstone-tagged.txt && tracetool symbolicate --resymbolize --format jsonl logcat-tombstone-tagged.txt
