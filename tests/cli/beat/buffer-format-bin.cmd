tracetool beat --buffer-format bin --lenient --format matrix beat-printable.bin
