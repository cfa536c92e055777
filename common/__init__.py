"""What every app of the site shares and none owns: the reader's language and the keyed data
fields (``language``), the stored pages (``page_cache``), htmx helpers (``htmx``), API fields
(``api_fields``), forms over keyed fields (``keyed_forms``), the submission throttle
(``throttles``) and the names of decks in a request (``deck_refs``). The floor just above
``accounts``: it imports no other app of the site."""
