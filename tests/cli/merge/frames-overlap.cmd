sh ../cli/merge/frames-overlap.sh
