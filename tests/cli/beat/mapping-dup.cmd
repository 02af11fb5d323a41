tracetool beat -m map-dup.txt --format matrix beat-v1.txt
