MAKEFLAGS= make --no-print-directory -s -n -C ../.. install DESTDIR=/D PREFIX=/P 2>/dev/null | grep "^install" | sed "s/  */ /g"
