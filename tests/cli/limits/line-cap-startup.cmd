{ printf '{"kind":"first_method","ts_ms":1}\n{"kind":"time_base","ts_ms":1,"base_ms":"'; head -c 70000000 /dev/zero | tr '\0' a; } | tracetool startup -
