tracetool analyze -o /nonexistent-dir/a.db an-v1.bin
