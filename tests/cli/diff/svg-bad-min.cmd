tracetool diff --format svg --diff-min 1.2345 flame-diff-base.folded flame-diff-new.folded
