"""The engine's fast paths keep the protocol's promises, for every game.

* A deal a game shuffles from its seeded RNG (``random_deal``) is a permutation of the game's cards: the
  engine deals it without checking it again (a stacked or an outside deal is still checked).
* A coded deal (``Deal.coded``: Vingt-et-un's shuffle is a number, its cards worked out as they are given) is
  a Deal like any other: the same cards, text, equality, copies and records.
* The legal actions a game's hooks hand back with a move are those ``_legal`` works out afresh.
* The banking games work their money out from the coups played when it is read: reading it often or only at
  the end gives the same ledger, log and scores.
"""
from __future__ import annotations

import copy
import pickle
from collections import Counter
from math import factorial

import pytest

import cardkit
from cardkit import Deal, IllegalActionError
from cardkit.cards import PIQUET32
from cardkit.games import vingt_et_un as vu
from cardkit.ledger import TABLE
from cardkit.rng import Rng


def _variants() -> list:
    """Every game with its defaults, and with each option set to each of its values in turn."""
    out = []
    for name in cardkit.GAMES:
        out.append((name, {}))
        for o in cardkit.game_class(name).option_specs:
            values = o.choices if o.choices else range(o.range[0], o.range[1] + 1)
            out += [(name, {o.name: v}) for v in values if v != o.default]
    return out


VARIANTS = _variants()


@pytest.mark.parametrize("name,options", VARIANTS, ids=[f"{n}-{o}" for n, o in VARIANTS])
def test_random_deal_is_a_permutation_of_the_games_cards(name, options):
    game = cardkit.load_game(name, **options)
    full = Counter(game.full_deck())
    rng = Rng(11)
    blank = game.blank_state()
    orders = set()
    for _ in range(12):
        deal = game.random_deal(rng)
        assert deal.__class__ is Deal
        assert Counter(deal.cards) == full
        blank._check_deal(deal)                    # the check a stacked or outside deal gets passes
        orders.add(deal.cards)
    assert len(orders) == 12                       # and the shuffles differ


@pytest.mark.parametrize("name", list(cardkit.GAMES))
def test_an_outside_deal_is_still_checked(name):
    game = cardkit.load_game(name)
    good = list(game.random_deal(Rng(3)).cards)
    for bad in (good[:-1], good[:-1] + good[:1]):
        blank = game.blank_state()
        before = blank.snapshot()
        with pytest.raises(IllegalActionError) as e:
            blank.apply(Deal(bad))
        assert e.value.rule == "deal" and blank.snapshot() == before and blank.history == []
        with pytest.raises(IllegalActionError):
            game.new_state(deal=[Deal(good), Deal(bad)])


def _old_vu_deal(x: int) -> list:
    """Vingt-et-un's deal as it was made before its cards were worked out one at a time."""
    rest = list(PIQUET32.cards)
    return [rest.pop(j) for j in vu.perm_digits(x % factorial(32))]


def test_a_coded_deal_is_a_deal_like_any_other():
    game = cardkit.load_game("vingt_et_un")
    deal = game.random_deal(Rng(5))
    unread = Deal.__dict__["cards"]                    # the slot itself: unset until the cards are read
    with pytest.raises(AttributeError):
        unread.__get__(deal, Deal)
    plain = Deal(_old_vu_deal(deal.code))
    assert plain.code is None and deal.code is not None
    assert deal == plain and hash(deal) == hash(plain) and deal.text == plain.text and str(deal) == plain.text
    assert unread.__get__(deal, Deal) == plain.cards   # worked out once, then kept
    for c in (copy.deepcopy(deal), pickle.loads(pickle.dumps(deal)), copy.deepcopy(game.random_deal(Rng(5))),
              pickle.loads(pickle.dumps(game.random_deal(Rng(5))))):
        assert c == plain and c.cards == plain.cards
    with pytest.raises(AttributeError):
        plain.no_such_thing


def test_vingt_et_un_deals_what_it_dealt_before():
    """The seeded deals are those of the full shuffle (`perm_digits`), and the play gives their cards in
    the deal's order; a deal's number read back from its cards picks the same order."""
    for players in (3, 4, 5):
        game = cardkit.load_game("vingt_et_un", players=players)
        for seed in range(8):
            s = game.new_state(seed=seed)
            deal = s.history[0]
            rng = Rng(seed)
            while True:                                 # the two draws random_deal makes
                x = (rng.next64() << 64) | rng.next64()
                if x < vu._LIMIT:
                    break
            assert list(deal.cards) == _old_vu_deal(x)
            assert vu.deal_number(deal.cards) == x % factorial(32)
            order = [*game.orders[s.bank], s.bank]
            assert [s.hands[p][0] for p in order] == list(deal.cards[:players])
            rng = Rng(seed + 100)
            while s.coup == 0:                          # the whole coup: every card given is the deal's next
                acts = s.legal_actions()
                s.apply(acts[rng.below(len(acts))])
            given = sum(len(h) for h in s.last[0])
            assert Counter(c for h in s.last[0] for c in h) == Counter(deal.cards[:given])


def test_a_stacked_vingt_et_un_deal_is_played_card_by_card_alike():
    game = cardkit.load_game("vingt_et_un", players=3)
    for seed in range(6):
        seeded = game.new_state(seed=seed)
        stacked = game.new_state(deal=seeded.history[0].text)
        assert stacked.history[0].code is None
        rng = Rng(seed)
        while seeded.coup == 0:
            acts = seeded.legal_actions()
            a = acts[rng.below(len(acts))]
            seeded.apply(a)
            stacked.apply(a.text)
            if seeded.coup == 0:
                assert stacked == seeded
        assert stacked.is_chance() and stacked.log == seeded.log and stacked.ledger.entries == seeded.ledger.entries


@pytest.mark.parametrize("name,options", [(n, {}) for n in cardkit.GAMES] + [
    ("vingt_et_un", {"players": 3}), ("vingt_et_un", {"players": 5}), ("vingt_et_un", {"bank_rule": "free"}),
    ("bakkarat", {"bank_draw": "five", "partners": False})])
def test_the_legal_actions_a_move_hands_back_are_those_worked_out_afresh(name, options):
    game = cardkit.load_game(name, **options)
    rng = Rng(21)
    for seed in range(3):
        s = game.new_state(seed=seed)
        steps = 0
        before = None
        while not s.is_terminal() and steps < 400:
            legal = s.legal_actions()
            assert [a.text for a in legal] == [a.text for a in s._legal()]
            assert legal is not before                     # each position has a list of its own
            before = legal
            s.apply(legal[rng.below(len(legal))])
            steps += 1


def _play(name, options, seed, read_every: bool):
    game = cardkit.load_game(name, **options)
    s = game.new_state(seed=seed)
    rng = Rng(seed + 50)
    seen = []
    while not s.is_terminal():
        if read_every:
            seen.append((list(s.ledger.entries), s.ledger.total(), s.scores()))
        acts = s.legal_actions()
        s.apply(acts[rng.below(len(acts))])
    return s, seen


@pytest.mark.parametrize("name,options", [("vingt_et_un", {}), ("vingt_et_un", {"next_bank": "natural"}),
                                          ("vingt_et_un", {"bank_rule": "free", "players": 3}),
                                          ("bakkarat", {}), ("bakkarat", {"bank_draw": "five", "partners": False})])
def test_the_money_is_the_same_however_often_it_is_read(name, options):
    for seed in range(4):
        a, seen = _play(name, options, seed, True)
        b, _ = _play(name, options, seed, False)
        table = "log" if name == "vingt_et_un" else "results"
        assert getattr(b, table) == getattr(a, table) and b.ledger.entries == a.ledger.entries
        assert b.scores() == a.scores() and b.snapshot() == a.snapshot() and a.ledger.total() == 0
        assert a.ledger.balance(TABLE) == 0                # every stake settled
        # what was read along the way is the start of the final ledger, and it grows as the play goes
        for (entries, total, scores), (later, _, _) in zip(seen, seen[1:]):
            assert total == 0 and later[:len(entries)] == entries
            assert entries == a.ledger.entries[:len(entries)]
        assert len(getattr(a, table)) == a.coup            # a row for every coup dealt
