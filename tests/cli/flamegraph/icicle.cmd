tracetool flamegraph --minwidth=4% --root=none --script=none --icicle --width 600 --height 20 --fontsize 10 --title "Icicle <&>" flame-spec34.folded
