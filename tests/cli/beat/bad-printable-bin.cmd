tracetool beat --lenient --format matrix beat-printable.bin
