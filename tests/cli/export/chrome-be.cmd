tracetool export --format chrome --chrome-events be --chrome-samples --relative-time slices-example.jsonl
