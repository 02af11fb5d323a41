tracetool diff --fail-on 'method.self=+20%,frames=+1' a.db b.db
