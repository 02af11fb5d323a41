sh ../cli/analyze/jsonl.sh
