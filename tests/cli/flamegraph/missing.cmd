tracetool flamegraph --minwidth=4% nosuch.db
