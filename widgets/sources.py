"""The sources page: the scanned texts as static HTML, every cited passage marked and linkable."""
from __future__ import annotations

from IPython.display import HTML

from cardkit.documents import sources_html
from .render import html_output


def SourceTexts() -> HTML:
    """The five source texts as static HTML output (no widget). Every passage a rule cites is marked and
    carries an id: a citation's link (``sources.ipynb#…``) opens the page on it, highlighted (``:target``)."""
    return html_output(sources_html())
