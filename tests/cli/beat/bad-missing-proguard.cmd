tracetool beat -m map-dup.txt --proguard nosuch.txt beat-v1.txt
