tracetool report
