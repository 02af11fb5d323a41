tracetool beat --format matrix beat-empty.bin
