tracetool report --group --format json report-cost-overflow.jsonl; tracetool report --group report-cost-overflow.jsonl
