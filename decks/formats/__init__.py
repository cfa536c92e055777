"""Formats: the standard format the site cannot work without (``standard``), rule book files
loaded into formats (``loader``), and the door of the format schema's problems
(``problem_text``)."""
