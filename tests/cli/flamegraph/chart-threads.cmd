tracetool flamegraph --chart --thread fib-# ../../samples/sampling.bin 2>&1 | grep -v warning
