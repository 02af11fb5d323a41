tracetool beat --end-ms 99999999999999999999 beat-v1.txt
