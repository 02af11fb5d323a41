tracetool art --dump --profile x.trace
