tracetool symbolicate -e x --format yaml
