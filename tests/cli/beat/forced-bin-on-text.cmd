tracetool beat --buffer-format bin beat-garbage.txt
