"""The rules to take along, on a game page: the rules card as static HTML (no widget), a button that prints it
alone on one or two clean pages (a print style sheet), and a link that downloads it as a PDF.

The PDF is made where the page is run — by the Voilà kernel, or once by the static site's build — with the same
code (`cardkit.rulecard.card_pdf`, fpdf2), and goes into the page as a data: link, as the play table's record
download does: the visitor's browser never needs fpdf2. A made PDF is kept in a cache folder keyed by its
content, so a page visit does not draw it again."""
from __future__ import annotations

import base64
import hashlib
import os
from html import escape
from pathlib import Path

import cardkit
from cardkit import rulecard as rc

PRINT_JS = ("(function(b){{var el=document.getElementById('{id}');if(!el)return;el.classList.add('ck-print-target');"
            "document.body.classList.add('ck-printing');var done=function(){{document.body.classList.remove("
            "'ck-printing');el.classList.remove('ck-print-target');window.removeEventListener('afterprint',done);}};"
            "window.addEventListener('afterprint',done);window.print();}})(this)")

PRINT_CSS = """<style>
.ck-card{border:1px solid #bbb;border-radius:8px;padding:6px 16px 8px;max-width:980px;background:#fffef9;
  font-size:14px;line-height:1.4;box-sizing:border-box}
.ck-card header h3{margin:.3em 0 .2em}
.ck-card-summary{margin:.2em 0 .6em}
.ck-card-body{column-width:25em;column-gap:2.2em}
.ck-card-section h4{margin:.7em 0 .25em;break-after:avoid;font-size:1.05em;font-weight:bold}
.ck-card-section:first-child h4{margin-top:.2em}
.ck-card-item{margin:.15em 0 .45em}
.ck-card-item ul{margin:.1em 0;padding-left:1.2em}
.ck-card-reading{font-style:italic;color:#17405f}
.ck-card-options ul{margin:.2em 0;padding-left:1.2em}
.ck-card-choices{color:#555;font-size:.92em}
.ck-card footer{margin-top:.6em;color:#444}
.ck-card-tools{display:flex;flex-wrap:wrap;gap:8px;align-items:center;margin:6px 0}
.ck-print-button,.ck-card-download{font:inherit;font-size:14px;padding:5px 12px;border-radius:4px;cursor:pointer;
  border:1px solid #1565c0;background:#1565c0;color:#fff !important;text-decoration:none !important;line-height:1.3}
.ck-card-download{background:#fff;color:#0d47a1 !important}
.ck-print-button:focus-visible,.ck-card-download:focus-visible{outline:3px solid #1565c0;outline-offset:2px}
@media print{
  body.ck-printing *:not(:has(.ck-print-target)):not(.ck-print-target):not(.ck-print-target *){display:none !important}
  body.ck-printing *:has(.ck-print-target){display:block !important;position:static !important;margin:0 !important;
    padding:0 !important;border:0 !important;box-shadow:none !important;overflow:visible !important;height:auto !important;
    min-height:0 !important;max-height:none !important;width:auto !important;max-width:none !important;
    background:none !important;transform:none !important;contain:none !important}
  body.ck-printing .ck-print-target{position:static !important;max-width:none !important;border:0 !important;
    padding:0 !important;margin:0 !important;overflow:visible !important;height:auto !important;max-height:none !important}
  .ck-print-target .ck-noprint,.ck-print-target .ck-card-tools{display:none !important}
  .ck-card{font-size:8.2pt;line-height:1.2;background:#fff}
  .ck-card .ck-card-ref{display:none}
  .ck-card p{margin:.2em 0}
  .ck-card .ck-table{font-size:7.2pt;margin:.2em 0}
  .ck-card .ck-table th,.ck-card .ck-table td{padding:.05em .3em}
  .ck-card header h3{font-size:12.5pt}
  .ck-card-body{column-count:2;column-width:auto;column-gap:5mm}
  .ck-card a,.ck-card a.ck-rule-link{color:inherit !important;text-decoration:none !important}
  .ck-card-section h4{font-weight:bold;font-size:9.6pt;margin:.55em 0 .15em}
  .ck-sheet{font-size:9pt;border:0}
  .ck-sheet li{break-inside:avoid}
  @page{size:A4;margin:11mm}
}
</style>"""


def print_button(element_id: str, label: str) -> str:
    """A button that prints the element alone (the print style sheet hides the rest of the page)."""
    return (f"<button type='button' class='ck-print-button' onclick=\"{PRINT_JS.format(id=escape(element_id))}\">"
            f"{escape(label)}</button>")


def cache_dir() -> Path:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return Path(base) / "cardkit" / "cards"


def pdf_bytes(card) -> bytes:
    """The card's PDF, from the cache where this very card was drawn before (by the same code)."""
    code = Path(rc.__file__).read_bytes()
    key = hashlib.sha256(repr(card).encode() + code).hexdigest()[:24]
    path = cache_dir() / f"{card.game}-{key}.pdf"
    try:
        return path.read_bytes()
    except OSError:
        pass
    data = rc.card_pdf(card)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        tmp.write_bytes(data)
        tmp.replace(path)
    except OSError:                      # a read-only home: the card is drawn again next time
        pass
    return data


def rules_card_html(game: str, pdf: bool = True, **options) -> str:
    """The card with its print button and download link, as HTML."""
    card = rc.rule_card(game, **options)
    book = cardkit.load_game(game, **options).rulebook
    element = f"ck-card-{game}"
    tools = [print_button(element, "Print the rules card")]
    if pdf:
        data = pdf_bytes(card)
        href = "data:application/pdf;base64," + base64.b64encode(data).decode("ascii")
        tools.append(f"<a class='ck-card-download' download='{escape(game)}-rules.pdf' href='{href}' "
                     f"title='the card as a PDF file, to keep on a phone'>Download the card (PDF, "
                     f"{max(1, round(len(data) / 1000))} kB)</a>")
    return (f"{PRINT_CSS}<div class='ck-card-tools ck-noprint'>{''.join(tools)}</div>"
            + rc.card_html(card, book.href, element))


def RulesCard(game: str, **options):
    """The rules card as static HTML output (not a widget: nothing for the page to load)."""
    from .render import html_output
    return html_output(rules_card_html(game, **options))
