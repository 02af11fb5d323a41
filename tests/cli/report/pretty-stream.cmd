tracetool report --format json report-pretty.json
