tracetool report -m mapping-gap.txt report-gap-ids.json >/dev/null
