# perf periods are u64: 19 digits above INT64_MAX and 20 digits are capped at 2^40 with a warning, not weight 1 nor a dropped sample
tracetool samples --top 3 perf-huge-periods.txt
