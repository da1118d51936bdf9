"""Cards and decks with a notation that parses and prints.

Each deck owns a fixed set of interned `Card` objects, so cards compare by identity and two copies of
the same card (two packs) are simply the same object twice in a list. Every card has:

* ``text``  - the canonical ASCII notation used in records (``-6``, ``13``, ``Joker``, ``10H``);
* ``label`` - the short display form (``-6``, ``10♥``);
* ``name``  - a readable name for screen readers (``minus 6``, ``Ten of Hearts``).
"""
from __future__ import annotations

import re

from .errors import CardError


class Card:
    """One interned card. It defines no comparison methods on purpose: equality is identity at C speed
    (a Python-level ``__lt__`` would route every ``==``, ``in`` and ``list.remove`` through slow slots);
    order cards with ``key=attrgetter("index")``."""
    __slots__ = ("deck", "text", "label", "name", "kind", "rank", "suit", "value", "index", "color")

    def __init__(self, deck, text, label, name, kind, rank=None, suit=None, value=0, index=0, color="black"):
        self.deck, self.text, self.label, self.name = deck, text, label, name
        self.kind, self.rank, self.suit, self.value, self.index, self.color = kind, rank, suit, value, index, color

    def __repr__(self) -> str:
        return f"Card({self.text!r})"

    def __str__(self) -> str:
        return self.label

    def __reduce__(self):  # keep interning through pickle/deepcopy
        return (_card_from, (self.deck, self.text))

    def _repr_svg_(self) -> str:
        from .svg import card_svg
        return card_svg(self)


def _card_from(deck_name: str, text: str) -> Card:
    return DECKS[deck_name].parse(text)


class Deck:
    """A named set of distinct cards with a parser. ``cards`` is the canonical order of one pack."""

    def __init__(self, name: str, cards: list[Card], aliases: dict[str, Card] | None = None, hint: str = ""):
        self.name, self.cards, self.hint = name, tuple(cards), hint
        self._lookup: dict[str, Card] = {}
        for c in cards:
            for key in (c.text, c.label, c.name):
                self._lookup[key.lower()] = c
        for k, c in (aliases or {}).items():
            self._lookup[k.lower()] = c
        DECKS[name] = self

    def parse(self, token: str) -> Card:
        if isinstance(token, Card):
            if token.deck != self.name:
                raise CardError(f"{token!r} is not a card of the {self.name} deck")
            return token
        key = str(token).strip().lower()
        card = self._lookup.get(key) or self._lookup.get(key.replace(" ", ""))
        if card is None:
            raise CardError(f"{token!r} is not a card of the {self.name} deck; {self.hint}")
        return card

    def parse_many(self, text) -> list[Card]:
        """Parse whitespace/comma separated cards (or a list of tokens); duplicates are kept."""
        if isinstance(text, str):
            text = [t for t in re.split(r"[\s,]+", text.strip()) if t]
        elif not isinstance(text, (list, tuple)):
            raise CardError(f"cards are a text or a list of cards, not {type(text).__name__} ({text!r:.40})")
        return [self.parse(t) for t in text]

    @staticmethod
    def format(cards) -> str:
        return " ".join(c.text for c in cards)

    def packs(self, n: int = 1) -> list[Card]:
        return list(self.cards) * n

    def __iter__(self):
        return iter(self.cards)

    def __len__(self) -> int:
        return len(self.cards)

    def __repr__(self) -> str:
        return f"Deck({self.name!r}, {len(self.cards)} cards)"


DECKS: dict[str, Deck] = {}


# --- Die Magische 7: 20 point cards -6..+13, 2 Jokers, Spiegel, Kreuz --------------------------------
_NUM = {-6: "minus 6", -5: "minus 5", -4: "minus 4", -3: "minus 3", -2: "minus 2", -1: "minus 1"}


def _m7_cards() -> tuple[list[Card], dict[str, Card]]:
    cards, aliases = [], {}
    for i, v in enumerate(range(-6, 14)):
        c = Card("magische7", str(v), str(v), _NUM.get(v, f"plus {v}" if v > 0 else "zero"), "point",
                 rank=v, value=v, index=i, color="red" if v < 0 else "black")
        cards.append(c)
        if v > 0:
            aliases[f"+{v}"] = c
    for i, (t, name, alias) in enumerate((("Joker", "Joker", "Zauberer"), ("Spiegel", "Spiegel (mirror)", "Drache"),
                                           ("Kreuz", "Kreuz (cross)", "Ratte"))):
        c = Card("magische7", t, t, name, t.lower(), index=20 + i, color="purple")
        cards.append(c)
        aliases[alias] = c
    aliases.update({"J": cards[20], "S": cards[21], "K": cards[22], "Mirror": cards[21], "Cross": cards[22]})
    return cards, aliases


MAGISCHE7 = Deck("magische7", *_m7_cards(), hint="use -6 … 13, Joker, Spiegel or Kreuz")


# --- French-suited cards (52, or the 32-card piquet/skat pack 7…A) --------------------------------
SUITS = (("C", "♣", "Clubs", "black"), ("S", "♠", "Spades", "black"), ("H", "♥", "Hearts", "red"),
         ("D", "♦", "Diamonds", "red"))
SUIT_ALIASES = {"kreuz": "C", "eicheln": "C", "pik": "S", "grün": "S", "gruen": "S", "herz": "H", "rot": "H",
                "karo": "D", "schellen": "D"}
RANKS = (("2", "Two", 2), ("3", "Three", 3), ("4", "Four", 4), ("5", "Five", 5), ("6", "Six", 6),
         ("7", "Seven", 7), ("8", "Eight", 8), ("9", "Nine", 9), ("10", "Ten", 10), ("J", "Jack", 11),
         ("Q", "Queen", 12), ("K", "King", 13), ("A", "Ace", 14))
RANK_ALIASES = {"T": "10", "B": "J", "U": "J", "D": "Q", "O": "Q", "AS": "A", "DAUS": "A", "1": "A"}


def _french(name: str, lowest: int) -> Deck:
    cards, aliases, i = [], {}, 0
    for s, sym, sname, color in SUITS:
        for r, rname, rv in RANKS:
            if rv < lowest:
                continue
            c = Card(name, r + s, r + sym, f"{rname} of {sname}", "pip" if rv <= 10 else "face" if rv < 14 else "ace",
                     rank=r, suit=s, value=rv, index=i, color=color)
            cards.append(c)
            i += 1
    by = {(c.rank, c.suit): c for c in cards}
    for (r, s), c in by.items():
        ranks = [r] + [a for a, t in RANK_ALIASES.items() if t == r]
        suits = [s, dict((x[0], x[1]) for x in SUITS)[s]] + [a for a, t in SUIT_ALIASES.items() if t == s]
        for rr in ranks:
            for ss in suits:
                aliases[rr + ss] = c
                aliases[ss + rr] = c
                aliases[f"{ss} {rr}"] = c
    return Deck(name, cards, aliases, hint="write rank then suit, e.g. 10H, QS, AD, 7C (or 10♥)")


FRENCH52 = _french("french52", 2)
PIQUET32 = _french("piquet32", 7)


# --- 24 ("24 ist am besten!"): four colours × 1…11 and the white "24" (45 cards) ----------------------------
# Record notation: colour letter and value (Y7, R11, B1, G5) and 24. The fourth colour is not named by the
# source (yellow, red and blue are): green is the kit's assumption (rule V24-1.1).
V24_COLOURS = (("Y", "yellow", "gelb", "yellow"), ("R", "red", "rot", "red"), ("B", "blue", "blau", "blue"),
               ("G", "green", "grün", "green"))


def _v24_cards() -> tuple[list[Card], dict[str, Card]]:
    cards, aliases, i = [], {}, 0
    for letter, word, german, color in V24_COLOURS:
        for v in range(1, 12):
            c = Card("vierundzwanzig", f"{letter}{v}", f"{letter}{v}", f"{word} {v}", "number", rank=v,
                     value=v, index=i, color=color)
            cards.append(c)
            i += 1
            for w in (word, german) + (("gruen",) if german == "grün" else ()):
                aliases[f"{w} {v}"] = c
                aliases[f"{w}{v}"] = c
    c = Card("vierundzwanzig", "24", "24", "white 24", "24", rank=24, value=24, index=i, color="black")
    cards.append(c)
    for a in ("W24", "white24", "weiß 24", "weiß24", "weiss 24", "weiss24", "the 24"):
        aliases[a] = c
    return cards, aliases


VIERUNDZWANZIG = Deck("vierundzwanzig", *_v24_cards(),
                      hint="write the colour's letter and the value, e.g. Y7, R11, B1, G5 (yellow, red, blue, "
                           "green), or 24 for the white 24")
