tracetool beat -m map-dup.txt --proguard map-dup.txt beat-v1.txt
