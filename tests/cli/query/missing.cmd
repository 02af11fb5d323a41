tracetool query /nonexistent.db "select 1"
