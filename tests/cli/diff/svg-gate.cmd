tracetool diff --fail-on=sampled.samples=+10% --format svg --script none --root none --diff-widths base --diff-min 10 flame-diff-base.folded flame-diff-new.folded
