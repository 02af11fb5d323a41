tracetool diff --fail-on 'fps=-2x' a.db b.db
