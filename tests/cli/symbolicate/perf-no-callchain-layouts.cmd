tracetool symbolicate --format jsonl perf-nog-layouts.txt
