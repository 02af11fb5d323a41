sh ../cli/analyze/jsonl-keys.sh
