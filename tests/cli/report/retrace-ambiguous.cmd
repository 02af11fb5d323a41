tracetool report --proguard proguard-overlap.txt report-overlap.json
