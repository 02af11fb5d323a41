tracetool diff --base-mapping diff-order-map.txt --new-mapping diff-order-map.txt diff-order-base.jsonl diff-order-new.jsonl | sed -n "/^issues/,/^\$/p"
