grep -n "[a-z-]*\.md\b\|(spec\b\|spec [0-9]" ../../man/*.[1-9] | sed "s|../../||"; grep -n "iOS" ../../man/tracetool.1; echo checked
