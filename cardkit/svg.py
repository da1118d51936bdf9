"""Card faces and table pictures as SVG strings (pure Python; used by `_repr_svg_` and the widgets).

Every picture carries ``role="img"`` and an ``aria-label`` with the card's readable name, so a screen
reader says "minus 6" or "Ten of Hearts", not "image".
"""
from __future__ import annotations

from html import escape

W, H = 60, 88
_COLORS = {"red": "#c62828", "black": "#212121", "purple": "#6a1b9a",
           # the colours of 24's cards (yellow darkened to a readable gold: 4.8:1 on the card face)
           "yellow": "#8a6d00", "blue": "#1565c0", "green": "#2e7d32"}
_SPECIAL = {"joker": "★", "spiegel": "◐", "kreuz": "✕"}


def card_svg(card, width: int = W, selected: bool = False) -> str:
    """The face of one card; ``card=None`` draws a face-down card."""
    h = round(width * H / W)
    if card is None:
        return (f'<svg xmlns="http://www.w3.org/2000/svg" role="img" aria-label="face-down card" width="{width}" '
                f'height="{h}" viewBox="0 0 {W} {H}"><title>face-down card</title>'
                f'<rect x="1" y="1" width="{W - 2}" height="{H - 2}" rx="6" fill="#1e4e8c" stroke="#0d2c52"/>'
                f'<rect x="6" y="6" width="{W - 12}" height="{H - 12}" rx="4" fill="none" stroke="#9cc0ee" '
                f'stroke-dasharray="3 3"/></svg>')
    color = _COLORS.get(card.color, "#212121")
    name = escape(card.name)
    corner = escape(card.label if card.kind not in _SPECIAL else card.label[:2])
    big = _SPECIAL.get(card.kind) or escape(card.label)
    suit = ""
    if card.suit:
        corner = escape(card.label[:-1])
        big = escape(card.label[-1])
        suit = escape(card.label[-1])
    size = 30 if len(big) <= 2 else 22 if len(big) <= 3 else 14
    stroke = "#f9a825" if selected else "#555"
    sw = 3 if selected else 1
    return (f'<svg xmlns="http://www.w3.org/2000/svg" role="img" aria-label="{name}" width="{width}" height="{h}" '
            f'viewBox="0 0 {W} {H}"><title>{name}</title>'
            f'<rect x="1" y="1" width="{W - 2}" height="{H - 2}" rx="6" fill="#fffdf7" stroke="{stroke}" stroke-width="{sw}"/>'
            f'<text x="5" y="15" font-family="sans-serif" font-size="12" font-weight="bold" fill="{color}">{corner}{suit}</text>'
            f'<text x="{W / 2}" y="{H / 2 + size / 3}" text-anchor="middle" font-family="sans-serif" font-size="{size}" '
            f'font-weight="bold" fill="{color}">{big}</text>'
            f'<text x="{W - 5}" y="{H - 6}" text-anchor="end" font-family="sans-serif" font-size="12" font-weight="bold" '
            f'fill="{color}">{corner}{suit}</text></svg>')


def cards_svg(cards, width: int = 44) -> str:
    return "".join(card_svg(c, width) for c in cards)


def view_svg(view) -> str:
    """A compact picture of a whole view (hands in rows, then the piles) for notebooks' rich display."""
    rows = []
    for s in view.seats:
        rows.append((f"{s.name}{' ▶' if s.current else ''}", s.hand))
    for p in view.piles:
        rows.append((p.name + (f" ({p.count})" if p.count is not None else ""), [c for _, c in p.cards]))
    cw, ch, label_w = 40, 59, 120
    width = label_w + cw * max([len(r[1]) for r in rows] + [1]) + 10
    height = (ch + 8) * len(rows) + 8
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" role="img" aria-label="{escape(view.title)}: {escape(view.status)}" '
             f'width="{width}" height="{height}">']
    for i, (label, cards) in enumerate(rows):
        y = 8 + i * (ch + 8)
        parts.append(f'<text x="4" y="{y + ch / 2}" font-family="sans-serif" font-size="12">{escape(label)}</text>')
        for j, c in enumerate(cards):
            inner = card_svg(c, cw).replace("<svg ", f'<svg x="{label_w + j * cw}" y="{y}" ', 1)
            parts.append(inner)
    parts.append("</svg>")
    return "".join(parts)
