"""What one seat (or the teacher) may see of a state. Widgets render only these objects.

A hidden card is ``None``: the view never carries a card its viewer may not see, so a UI that shows a
view cannot leak hidden information.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from .cards import Card

if TYPE_CHECKING:                  # (for the annotation only: the methods import fractions when they need it)
    from fractions import Fraction


@dataclass
class Seat:
    player: int
    name: str
    hand: list            # Card, or None for a card this viewer may not see
    team: str = ""
    score: str = ""       # readable score/points so far
    info: str = ""        # e.g. "3 tricks"
    current: bool = False


@dataclass
class Pile:
    """A named place on the table: the trick, the stock, the last trick, won tricks..."""
    name: str
    cards: list           # list of (owner name or "", Card or None)
    count: int | None = None  # for piles shown face down: how many cards
    note: str = ""
    kind: str = ""        # "trick", "last-trick", "stock", "won", "aside" (out of play, folded) or ""
    place: str = ""       # "left", "middle" or "right": piles the rules set side by side (Faro's left pile, the
                          # pack, the right pile) are drawn so, in one row, whatever the screen's width
    taker: int | None = None  # a finished trick ("last-trick" of a trick game): the seat that took it (public)


@dataclass
class Odds:
    """One exact figure for a decision in front of a player (`State.advice`): a probability (`kind`
    "chance") or an expected amount in units of the minimum stake (`kind` "stake"), as a Fraction."""
    label: str            # "You go dead if you draw"
    value: Fraction | int  # exact, never a float
    kind: str = "chance"  # "chance" or "stake"
    note: str = ""        # e.g. "from the 31 cards you have not seen"

    def text(self) -> str:
        """The figure as a reader takes it in, a decimal: "53.8 %" or "+0.33 units" (the exact fraction is
        `exact()`)."""
        from fractions import Fraction
        v = Fraction(self.value)
        if self.kind == "chance":
            return f"{float(v) * 100:.1f} %"
        sign = "+" if v > 0 else "−" if v < 0 else ""
        unit = "unit" if v == 1 or v == -1 else "units"
        digits = 2
        if 0 < abs(v) < Fraction(1, 10):         # a small amount keeps its first two figures: −0.067, −0.00042
            import math
            digits = min(8, 1 - math.floor(math.log10(abs(float(v)))))
        return f"{sign}{abs(float(v)):.{digits}f} {unit}"

    def exact(self) -> str:
        """The exact fraction ("7/13", "−1/3"; a whole number as it is)."""
        from fractions import Fraction
        v = Fraction(self.value)
        sign = "−" if v < 0 else ""
        return f"{sign}{abs(v.numerator)}" if v.denominator == 1 else f"{sign}{abs(v.numerator)}/{v.denominator}"


def plural(n, one: str, many: str | None = None) -> str:
    """'1 trick', '2 tricks', '0 points', '-1 point' ('1.5 points')."""
    word = one if abs(n) == 1 else (many or one + "s")
    return f"{n:g} {word}" if isinstance(n, float) else f"{n} {word}"


@dataclass
class View:
    game: str
    title: str
    viewer: int | None    # None: the teacher's view, everything shown
    seats: list[Seat]
    piles: list[Pile]
    status: str           # one line: whose turn, what is asked
    current_player: int | None
    terminal: bool
    result: str = ""
    legal: list = field(default_factory=list)  # the viewer's legal actions (if it is the viewer's turn)
    # public facts of the match the table shows above the seats, as (label, plain-words value):
    # ("Trump", "♥ Hearts"), ("Dealer", "North — East deals next"), ("Score", "…"), ("Rank order", "…")
    facts: list = field(default_factory=list)
    # what clicking a card of the hand does now, completing "click a card to …" (default "play it")
    hand_action: str = ""

    def seat(self, player: int) -> Seat:
        return self.seats[player]

    def cards_visible(self) -> list[Card]:
        out = [c for s in self.seats for c in s.hand if c is not None]
        return out + [c for p in self.piles for _, c in p.cards if c is not None]
