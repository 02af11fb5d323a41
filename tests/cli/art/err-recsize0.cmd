tracetool art art/recsize0.trace
