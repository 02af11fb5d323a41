tracetool report --proguard report-native-proguard.txt --format jsonl report-native-method.jsonl
