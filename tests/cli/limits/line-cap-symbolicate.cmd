{ printf 'backtrace:\n'; head -c 70000000 /dev/zero | tr '\0' ' '; } | tracetool symbolicate --symbols . -
