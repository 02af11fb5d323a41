echo "no backtrace here" | tracetool symbolicate --symbols . -
