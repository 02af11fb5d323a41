tracetool query - "select 1" < /dev/null; echo "exit $?"; tracetool html - < /dev/null; echo "exit $?"
