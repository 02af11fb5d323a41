tracetool beat --base-ms -9223372036854775808 beat-v1.txt
