"""Card-set data files and the tools that exercise them (``roundrobin``)."""
