tracetool export --format speedscope ../../samples/samples.jsonl | grep -o '{"name":"com.example.Feed.bind(int)"[^}]*}'
