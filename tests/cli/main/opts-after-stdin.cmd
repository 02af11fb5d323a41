tracetool beat - --format matrix --cost 10 < beat-small.txt
