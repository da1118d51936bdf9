"""Follow suit, trump and the trick's winner: what the suit-following trick games (Whist, Écarté, 24)
share, written once. Each game adds only what is its own (its rank order, which cards count as trump,
its duties when void).

A game describes its cards by two mappings, built once per deal or per order in force (plain dicts, so
the hot path is a lookup):

* ``suit_of[card]`` - the suit a card counts as (in 24 the white "24" counts as the trump colour);
* ``power[card]``   - its strength within its suit (higher wins).

    >>> from cardkit.cards import FRENCH52
    >>> suit = {c: c.suit for c in FRENCH52.cards}; power = {c: c.value for c in FRENCH52.cards}
    >>> hand = FRENCH52.parse_many("2H KH 3S")
    >>> [c.text for c in playable(hand, "H", suit)]
    ['2H', 'KH']
    >>> winner(FRENCH52.parse_many("QH 3S AH"), suit, power, trump="S")
    1
"""
from __future__ import annotations

FOLLOW, TRUMP, OVERTAKE = "follow", "trump", "overtake"   # the duties a card can break (see why_not)


def playable(hand, led, suit_of, trump=None, must_trump: bool = False, overtake=None, power=None) -> list:
    """The cards of `hand` that may be played to a trick whose led suit is `led` (None: the lead, any card).

    * follow suit if you can (always);
    * `must_trump`: void in the led suit, play a trump if you can (Écarté as the source gives it);
    * `overtake`: the card to beat (the trick's best so far): when you follow suit or trump, beat it if
      you can (Écarté's classic duty to win the trick); needs `power`.
    A hand with no card of the led suit (and, with `must_trump`, no trump) may play anything."""
    if led is None:
        return list(hand)
    same = [c for c in hand if suit_of[c] == led]
    if not same and must_trump and trump is not None and led != trump:
        same = [c for c in hand if suit_of[c] == trump]
    if not same:
        return list(hand)
    if overtake is not None:
        higher = [c for c in same if beats(c, overtake, led, trump, suit_of, power)]
        if higher:
            return higher
    return same


def beats(card, best, led, trump, suit_of, power) -> bool:
    """Whether `card` takes the trick from `best` (the best card so far of a trick led in `led`)."""
    s, b = suit_of[card], suit_of[best]
    if s == b:
        return power[card] > power[best]
    if s == trump:
        return True
    return False


def winner(cards, suit_of, power, trump=None) -> int:
    """The index in `cards` (in the order played; the first was led) of the card that takes the trick:
    the highest trump, else the highest card of the led suit."""
    best = 0
    top = cards[0]
    for i in range(1, len(cards)):
        c = cards[i]
        s = suit_of[c]
        if s == suit_of[top]:
            if power[c] > power[top]:
                best, top = i, c
        elif s == trump:
            best, top = i, c
    return best


def why_not(card, hand, led, suit_of, trump=None, must_trump: bool = False, overtake=None, power=None):
    """Which duty playing `card` from `hand` would break: FOLLOW (it does not follow suit though the
    hand can), TRUMP (void, it does not trump though the hand can), OVERTAKE (it does not beat the
    trick though the hand could), or None (it may be played). The game turns the duty into words and
    its rule ID."""
    if led is None or card not in hand:
        return None
    if card in playable(hand, led, suit_of, trump, must_trump, overtake, power):
        return None
    if any(suit_of[c] == led for c in hand):
        return FOLLOW if suit_of[card] != led else OVERTAKE
    if must_trump and trump is not None:
        return TRUMP if suit_of[card] != trump else OVERTAKE
    return OVERTAKE


def playable_grouped(groups, led) -> list:
    """`playable` for a hand kept in groups by suit (suit -> the hand's cards of that suit, or anything
    standing for them, e.g. a game's prebuilt actions), without the trump and overtake duties: a fresh list,
    the group of the led suit if the hand has a card of it, else every group's items in the groups' order.
    (A hand kept so needs no scan per decision: Whist's hot path.)"""
    if led is not None:
        g = groups.get(led)
        if g:
            return list(g)
    out: list = []
    for g in groups.values():
        out += g
    return out
