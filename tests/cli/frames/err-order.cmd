tracetool frames frames-bad-order.jsonl
