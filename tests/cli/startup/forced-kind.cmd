tracetool startup --kind launches startup/unknown.txt
