"""The expert at the play table (in the kernel): three opponents in plain words, "… is thinking" while the
expert thinks, a Hint that says what the expert would play and why, and "Review my game" — always from the
human's seat, so neither ever tells the human a card he has not seen."""
from __future__ import annotations

import html as _html
import re

import pytest

import cardkit
import widgets
from cardkit import Deal, Rng
from cardkit.bots import ExpertBot, RandomBot
from test_hidden import _forms, _names
from test_widgets import synced_text


def on_a_loop(coroutine):
    """Run `coroutine` on an event loop of its own, as a kernel runs the widgets' callbacks (in a thread of its
    own: a browser test before it in the same process may have left the main thread's loop running)."""
    import asyncio
    from concurrent.futures import ThreadPoolExecutor
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coroutine).result()


def worked_ahead(owner, begin):
    """On an event loop of its own: `begin()`, which begins `owner`'s work ahead (a table's or an example's
    Hint), checked to be begun and not done (a sample at a time), then the loop's turns until it is done. The
    work (a `cardkit.bots.Steps`)."""
    import asyncio

    async def run():
        begin()
        work = owner._ahead.work
        assert work is not None and not work.done
        for _ in range(100_000):
            if work.done:
                break
            await asyncio.sleep(0)
        return work
    return on_a_loop(run())


def to_decision(table, bot, least: int = 2, steps: int = 0):
    """Play the human's seat with `bot` for `steps` moves, then on to a decision with `least` choices."""
    for _ in range(steps):
        table.play(bot.choose(table.state))
    while len(table.state.legal_actions()) < least:
        assert not table.state.is_terminal(), "no decision with a choice came up"
        table.play(bot.choose(table.state))


# --- the opponents -------------------------------------------------------------------------------------
def test_the_opponents_are_offered_in_plain_words_with_the_expert():
    table = widgets.PlayTable("magische7", seed=1)
    table.show_options()
    labels = dict((v, k) for k, v in table._bot.options)
    assert {"random", "rule-based", "expert"} <= set(labels)
    assert labels["expert"] == "expert (thinks ahead)" and labels["rule-based"] == "rule-based (plays by the book)"
    table._bot.value = "expert"
    table.new_game()
    assert {type(b) for b in table.bots.values()} == {ExpertBot}


def test_the_table_says_who_is_thinking_while_the_expert_thinks():
    """Before an expert seat decides, the table shows the position (the human's move on it, the hand off)
    and "East is thinking…" — sent to the page while the kernel thinks; the line goes when it is done."""
    table = widgets.PlayTable("magische7", players=4, seed=2, bot="expert")
    said, hands_off = [], []

    def seen(ch):
        said.append(ch["new"])
        if "is thinking" in ch["new"]:
            hands_off.append(all(b.disabled for b in table._hand.children) and table._undo.disabled)
    table._msg.observe(seen, names="value")
    names = table.game.player_names()
    bot = RandomBot(3)
    for _ in range(3):
        table.play(bot.choose(table.state))
    thinking = [x for x in said if "is thinking…" in x]
    assert thinking and all(re.search(r">(%s) is thinking…<" % "|".join(names[1:]), x) for x in thinking)
    assert hands_off and all(hands_off)            # the hand and Undo are off while a bot thinks
    assert table._msg.value == "" or "thinking" not in table._msg.value


# --- the Hint ------------------------------------------------------------------------------------------
def test_the_hint_says_what_the_expert_would_play_and_what_it_expects():
    table = widgets.PlayTable("sieben", seed=2)
    to_decision(table, RandomBot(4), least=3, steps=4)
    table.hint(playouts=120)
    hint = re.sub(r"<[^>]+>", "", table._msg.value)
    legal = {a.label for a in table.state.legal_actions()}
    best = re.search(r"The expert would play (\S+)\.", hint).group(1)
    assert best in legal
    assert re.search(r"(points? more in your lead over your opponent than with your next best choice, |little between it and |no real difference "
                     r"between it and )(\S+)", hint) or re.search(
        r"With (\S+) it expects about [\d.]+ points? more in your lead over your opponent, but not beyond doubt", hint)
    assert "Why: " in hint and "(the expert's choice)" in hint
    for label in legal:                            # every choice, with what the expert expects of it
        assert label in hint


@pytest.mark.parametrize("game,seed", [("sieben", 1), ("vierundzwanzig", 5), ("whist", 2)])
def test_the_hint_never_calls_a_choice_the_samples_favour_no_different(game, seed, monkeypatch):
    """The expert keeps to the rule-based player's move unless another is better beyond doubt, so its choice may
    have come out below another in its samples (at these first decisions, at the fixed playouts, it has). The Hint
    then says so, with the figure, and never "no real difference" or "about as good" of a choice its own "why"
    shows ahead."""
    from cardkit.bots import fixed_playouts
    from cardkit.table import NO_DIFFERENCE
    table = widgets.PlayTable(game, seed=seed)
    to_decision(table, RandomBot(seed * 10))
    real, got = table.session.hint, []
    monkeypatch.setattr(table.session, "hint", lambda *a, **k: got.append(real(*a, **k)) or got[-1])
    table.hint(playouts=fixed_playouts(game))
    (estimates, _), = got
    best, second = estimates[0], estimates[1]
    assert second.mean - best.mean >= NO_DIFFERENCE          # the case: the choice behind in the samples
    hint = _html.unescape(re.sub(r"<[^>]+>", "", table._msg.value))
    label = next(a.label for a in table.state.legal_actions() if a.text == second.text)
    said = re.search(r"With “?(.+?)”? it expects about ([\d.]+) (points? )?more in (your|your side's) lead[^,]*, but not "
                     r"beyond doubt, and it keeps to the rule-based player's move unless another is better beyond "
                     r"doubt\.", hint)
    assert said and said.group(1) == label and abs(float(said.group(2)) - (second.mean - best.mean)) <= 0.051, hint
    assert "no real difference" not in hint and "little between it" not in hint
    assert re.search(rf"{re.escape(label)}”? \(the expert expects about [\d.]+ points? more in .*?, but not beyond "
                     r"doubt\)", hint), hint


def test_the_hint_says_at_once_that_the_expert_is_thinking_and_answers_within_its_time(monkeypatch):
    """The page hears "The expert is thinking…" before the expert starts (each change of a widget's value is sent
    at once), then the Hint in its place; without a budget of its own the Hint gives the expert what is left of
    `HINT_MS` after the odds, and never fewer playouts than the evidence."""
    import cardkit.table as table_module
    table = widgets.PlayTable("sieben", seed=2)
    to_decision(table, RandomBot(4), least=3, steps=4)
    seen, budgets = [], []
    table._msg.observe(lambda ch: seen.append(ch["new"]), "value")
    real = table.session.expert_estimates

    def spy(state, playouts=None, ms=None, seat=None, explain=False, min_playouts=None):
        budgets.append((playouts, ms, min_playouts, explain, seen[-1] if seen else None))
        return real(state, playouts, ms, seat, explain, min_playouts)
    monkeypatch.setattr(table.session, "expert_estimates", spy)
    table.hint()
    (playouts, ms, floor, explain, shown), = budgets
    assert shown == "<div class='ck-note ck-thinking'>The expert is thinking…</div>"    # before the expert
    assert 0 < ms <= table_module.HINT_MS and floor == table_module.evidence_playouts(table.state.game) and explain
    assert "The expert would play" in seen[-1] and "thinking" not in seen[-1]


def test_the_hint_speaks_of_wins_where_the_expert_plays_to_win():
    """Faro's expert plays to win the sitting (cardkit.bots.OBJECTIVE): its estimates are chances of winning,
    and the Hint gives them as wins in 100 games, never as points."""
    table = widgets.PlayTable("faro", seed=2)
    assert table._gain(0.053, "win") == "about 5 more wins in 100 games"
    assert table._gain(0.004, "win", less=True) == "about 1 fewer win in 100 games"
    assert table._gain(0.8) == "about 0.8 units more in your lead over your opponent"
    assert table._gain(1.04, less=True) == "1.0 unit less in your lead over your opponent"
    to_decision(table, RandomBot(4), least=2, steps=3)
    table.hint(playouts=60)
    hint = re.sub(r"<[^>]+>", "", table._msg.value)
    assert "The expert would" in hint and not re.search(r"(units?|points?) (more|less)", hint)
    assert re.search(r"(wins? in 100 games|no real difference|one choice only)", hint)


def test_the_hint_gives_the_odds_where_the_game_counts_them():
    table = widgets.PlayTable("vingt_et_un", seed=3)
    to_decision(table, RandomBot(1), least=2, steps=2)
    table.hint(playouts=60)
    hint = table._msg.value
    assert "The expert would choose" in hint and "The odds" in hint
    for o in table.state.advice(0):
        assert o.label in hint
    assert "may not be played now" not in hint     # no card is played in Vingt-et-un: no list of refusals


def test_the_expert_behind_the_hint_sees_only_what_the_human_has_seen(monkeypatch):
    """It is handed a state resampled for the human, never the table's own state (which holds the real
    hidden cards) — and what it says is the same whatever the hidden cards are."""
    got = []
    real = ExpertBot.analyse
    monkeypatch.setattr(ExpertBot, "analyse", lambda self, s: got.append(s) or real(self, s))
    table = widgets.PlayTable("whist", seed=5)
    to_decision(table, RandomBot(2), least=2, steps=3)
    table.hint(playouts=40)
    assert got and got[-1] is not table.state and got[-1].view(0) == table.state.view(0)
    same, other = widgets.PlayTable("whist", seed=5), widgets.PlayTable("whist", seed=5)
    same.load(table.state)
    resampled = table.state.resample(0, Rng(11))
    assert resampled.snapshot()[2] != table.state.snapshot()[2]
    other.load(resampled)
    same.hint(playouts=40)
    other.hint(playouts=40)
    assert same._msg.value == other._msg.value and "The expert would play" in same._msg.value


def _hands(state) -> tuple:
    return tuple(tuple(c.text for c in seat.hand) for seat in state.view(None).seats)


def test_late_in_a_whist_hand_the_hint_and_undo_get_other_deals_not_the_real_one(monkeypatch):
    """The visitor's find: 20 first legal moves into seed 1, 15 cards unseen by South, the voids shown
    made shuffles fit so rarely that resample gave up and returned the real deal — to the Hint (its sample,
    7 of the expert's 15) and to Undo (10♦, Undo, 10♦ met the same hidden cards every time), though West
    J♠ K♦ 9♦ 8♦ 3♦ and North J♣ 10♣ 8♣ 7♣ 7♦ fit everything South has seen too."""
    table = widgets.PlayTable("whist", seed=1)
    for _ in range(20):
        table.play(table.state.legal_actions()[0])
    s = table.state
    real = _hands(s)
    assert len(s.history) == 86 and len(s._unseen_slots(0)) == 15
    assert real[1:3] == (("JS", "10C", "9D", "7D", "3D"), ("JC", "8C", "7C", "KD", "8D"))
    other = list(s.history)   # the deal the visitor named fits: every card of the hand the same, and South's view
    k = max(i for i, a in enumerate(other) if a.__class__ is Deal)
    cards = list(other[k].cards)
    swap = {"10C": "KD", "KD": "10C", "7D": "8D", "8D": "7D"}
    other[k] = Deal([next(c2 for c2 in cards if c2.text == swap[c.text]) if c.text in swap else c for c in cards])
    fits = s.game.blank_state()
    for a in other:
        fits.apply(a if a.__class__ is Deal else a.text)
    assert fits.view(0) == s.view(0) and _hands(fits)[1][1] == "KD"
    # the Hint: its sample and the expert's own samples are other deals (a fair resample gives this one
    # about once in a couple of hundred)
    samples = []
    sample = ExpertBot._sample
    monkeypatch.setattr(ExpertBot, "_sample", lambda self, st, me: samples.append(sample(self, st, me)) or samples[-1])
    got = []
    analyse = ExpertBot.analyse
    monkeypatch.setattr(ExpertBot, "analyse", lambda self, st: got.append(st) or analyse(self, st))
    table.hint(playouts=60)
    assert got and _hands(got[0]) != real and got[0].view(0) == s.view(0)
    assert len(samples) >= 10 and sum(_hands(x) == real for x in samples) <= 1
    # Undo: the same card again meets other hidden cards
    assert "10D" in [a.text for a in s.legal_actions()]
    after = []
    for _ in range(6):
        table.undo() if after else None
        assert table.state.view(0) == s.view(0)
        after.append(_hands(table.state))
        assert table.play("10D")
    assert sum(h == real for h in after[1:]) <= 1 and len(set(after)) >= 4

def finish(table, seed=1):
    bot = RandomBot(seed)
    while not table.state.is_terminal():
        assert table.play(bot.choose(table.state))


def test_review_my_game_comes_only_at_the_end():
    table = widgets.PlayTable("magische7", seed=3)
    table.play(RandomBot(1).choose(table.state))
    assert "Review my game" not in synced_text(table)
    finish(table)
    assert table._review_box in table.children and table._review_button.description == "Review my game"
    table.new_game()
    assert table._review_box not in table.children


def test_the_review_lists_where_the_expert_differs_and_steps_there():
    table = widgets.PlayTable("magische7", seed=3)
    finish(table, seed=2)
    found = table.review(playouts=60)
    assert found, "a random player's game should hold moves the expert plays otherwise"
    history = table.state.history
    text = table._review_out.value
    replay = table.game.blank_state()
    steps = {f["step"] for f in found}
    for k, a in enumerate(history):
        if k in steps:
            f = next(f for f in found if f["step"] == k)
            assert replay.current_player == 0 and f["played"].text == a.text != f["expert"].text
            assert f["expert"].text in {x.text for x in replay.legal_actions()} and f["gain"] > 0
            assert f"Step {k}" in text
        replay.apply(a)
    assert "It agrees with" in text and re.search(r"expecting about [0-9.]+ points? more in your lead over your "
                                                  r"opponent", text)
    # the unit said once: the lead counts points both ways (a 43-point trick taken instead of given is 86)
    assert "your points minus theirs" in text
    # each move is a step of the replay, shown from the human's seat
    assert table._review_replay.viewer == 0
    table._review_pick.value = found[-1]["step"]
    assert table._review_replay._slider.value == found[-1]["step"]
    assert table._review_replay.state.current_player == 0


def test_the_review_never_names_a_card_the_human_did_not_see():
    """Vingt-et-un: a player who stands never shows his cards. After the end the record holds every deal,
    but the review (its list and its replay at every step) shows the game only as the human saw it."""
    table = widgets.PlayTable("vingt_et_un", seed=4)
    finish(table, seed=3)
    s = table.state
    seen, held = set(), set()
    replay = s.game.blank_state()
    for a in s.history:
        replay.apply(a)
        seen |= {c.name for c in replay.view(0).cards_visible()}
        held |= {c for q in replay.view(None).seats if q.player != 0 for c in q.hand}
    unseen = {c for c in held if c.name not in seen}
    assert unseen, "some bot's cards should have stayed hidden all game"
    table.review(playouts=30)
    rp = table._review_replay
    pages = [synced_text(table._review_box)]
    for step in range(rp._slider.max + 1):
        rp.go(step)
        pages.append(rp._narr.value)
    text = "\n".join(pages)
    for card in unseen:
        for form in _forms(card):
            assert not _names(text, form), f"{form} is named in the review"


def test_the_review_asks_the_expert_from_the_humans_seat_at_each_decision(monkeypatch):
    got = []
    real = ExpertBot.analyse
    monkeypatch.setattr(ExpertBot, "analyse", lambda self, s: got.append(s) or real(self, s))
    table = widgets.PlayTable("ecarte", seed=6)
    finish(table, seed=5)
    history = table.state.history
    table.review(playouts=20)
    decisions = table.session.decisions(table.state)
    assert len(got) == len(decisions) > 0
    for k, sample in zip(decisions, got):
        assert sample.current_player == 0 and len(sample.history) == k
        # what the human knew then, and the rounds to come not dealt from the record
        truth = table.game.blank_state()
        for a in history[:k]:
            truth.apply(a)
        assert sample.view(0) == truth.view(0)
        assert [a.text for a in sample.history if a.__class__ is not Deal] == \
               [a.text for a in history[:k] if a.__class__ is not Deal]


def test_the_reviews_unit_note_counts_the_lead_the_way_the_game_is_won():
    """The review says once what its figures count: in 24 the lowest score wins, so a lead is their points minus
    yours (the expert turns the sign there), never "your points minus theirs"."""
    low = widgets.PlayTable("vierundzwanzig", seed=1)._unit_note("points")
    assert "The lowest score wins" in low and "their points minus yours" in low and "minus theirs" not in low
    high = widgets.PlayTable("sieben", seed=1)._unit_note("points")
    assert "your points minus theirs" in high and "lowest" not in high
    assert widgets.PlayTable("faro", seed=1)._unit_note("win") == ""


# --- the Hint's "why": what the move achieves, not the move again ------------------------------------------
from test_hidden import _forms as _card_forms, _names as _named_in

CONSEQUENCE = re.compile(r"(takes? this trick in|loses? this trick in|wins? (the game|this \w+) in|"
                         r"lead over [^,;]*? (grows|shrinks|stays about as it is) )")


def _text(html: str) -> str:
    return _html.unescape(re.sub(r"<[^>]+>", "", html))


def _hint_at(game: str, seed: int, steps: int, playouts: int = 40):
    """A table of `game` played by a random bot `steps` moves on to a decision of the human's with a choice,
    the Hint asked there; (table, the cards the human has not seen so far, the hint's text)."""
    table = widgets.PlayTable(game, seed=seed)
    bot, seen = RandomBot(seed + 7), set()
    seen |= {c.name for c in table.state.view(0).cards_visible()}
    k = 0
    while k < steps or not (table.state.current_player == 0 and len(table.state.legal_actions()) > 1):
        assert not table.state.is_terminal(), "no decision with a choice came up"
        table.play(bot.choose(table.state))
        table.next_round() if table._moments else None
        seen |= {c.name for c in table.state.view(0).cards_visible()}
        k += 1
    s = table.state
    replay = s.game.blank_state()                   # every card shown to the human at any step of the game
    for a in s.history:
        replay.apply(a)
        seen |= {c.name for c in replay.view(0).cards_visible()}
    unseen = {c for c in s.game.full_deck() if c.name not in seen}
    table.hint(playouts=playouts)
    return table, unseen, table._msg.value


@pytest.mark.parametrize("game", list(cardkit.GAMES))
def test_the_hints_why_says_what_the_move_achieves_not_the_move_again(game):
    """Issue 39: "Why: Bert leads K♠. It keeps 8♠ back for later" only said the move again. In every game, at
    a few seeded positions: the why is not the move's narration (nor contains it), names a consequence in
    the game's terms from the expert's own deals (who takes the trick and how often, how the lead moves by
    the end of the round, the chance of winning, the exact odds of the choice), for the expert's choice and
    its next best alike; each choice in the list says what it did too; and no card the human has not seen is
    named anywhere in the Hint."""
    for seed, steps in ((1, 2), (2, 5), (3, 9)):
        table, unseen, hint = _hint_at(game, seed, steps)
        s = table.state
        legal = {a.text: a for a in s.legal_actions()}
        why = _text(re.search(r"<p><b>Why:</b>(.*?)</p>", hint).group(1)).strip()
        best = re.search(r"The expert would (?:play|choose) (.+?)\. (?:It|With) ", _text(hint)).group(1).strip("“”")
        move = next(a for a in legal.values() if a.label == best)
        said = s.describe(move)
        assert why != said and said not in why, why
        parts = why.split("; with ") if "; with " in why else why.split("; choosing ")
        assert len(parts) == 2, why                       # the expert's choice, then its next best
        for part in parts:
            assert CONSEQUENCE.search(part), part
        if any(p.kind == "trick" for p in s.view(0).piles) and s.progress()[1].startswith("Trick"):
            assert re.search(r"(takes?|loses?) this trick in", why), why      # the trick it is played to
        assert re.search(r"\d+ of the expert's \d+ deals|every one of the expert's|the exact odds", why), why
        items = re.findall(r"<li><b>(.*?)</b>.*?:(.*?)</li>", hint)
        assert {_html.unescape(label) for label, _ in items} >= {a.label for a in legal.values()}
        for label, does in items:
            a = next((x for x in legal.values() if x.label == _html.unescape(label)), None)
            if a is not None:
                rest = _text(does).strip().replace(s.describe(a), "", 1)
                assert CONSEQUENCE.search(rest), (label, rest)
        text = _text(hint)
        for card in unseen:
            for form in _card_forms(card):
                assert not _named_in(text, form), f"{form}, unseen, is named in the Hint at seed {seed}"


@pytest.mark.parametrize("game", ["whist", "ecarte", "magische7"])
def test_the_trick_in_the_why_is_who_takes_it_when_the_last_card_decides(game):
    """Where the human plays the last card of a trick, who takes it is settled by the cards on the table: the
    expert's count of the trick (`Estimate.facts`) is then all or nothing, and it is what the real table
    gives for that card."""
    checked = 0
    names = cardkit.load_game(game).player_names()
    for seed in range(1, 12):
        table = widgets.PlayTable(game, seed=seed)
        bot = RandomBot(seed)
        for _ in range(60):
            s = table.state
            if s.is_terminal() or checked >= 6:
                break
            legal = s.legal_actions()
            if s.current_player == 0 and len(legal) > 1:
                ends = {}
                for a in legal:
                    c = s.clone()
                    c.apply(a)
                    note = next((p.note for p in c.view(0).piles if p.kind == "last-trick"), "")
                    if c.progress()[0] == s.progress()[0] and c.progress() != s.progress() and note.startswith("won by "):
                        taker = next(p for p in range(len(names)) if note.startswith(f"won by {names[p]}"))
                        mine = next(x for x in table.game.sides() if 0 in x)
                        ends[a.text] = taker in mine
                if len(ends) == len(legal):
                    for e in table.expert_estimates(s, playouts=24, explain=True):
                        took, known = e.facts["trick"]
                        assert known == e.facts["samples"] and took == (known if ends[e.text] else 0), e
                    checked += 1
            table.play(bot.choose(s))
            table.next_round() if table._moments else None
    assert checked >= 3


@pytest.mark.parametrize("game", list(cardkit.GAMES))
def test_gathering_the_why_does_not_change_what_the_expert_thinks(game):
    """The Hint's expert gathers its facts while it plays out (`explain`); its estimates, and so its choice,
    are the same as without."""
    s = cardkit.load_game(game).new_state(seed=4)
    bot = RandomBot(1)
    for _ in range(6):
        s.apply(bot.choose(s))
    while len(s.legal_actions()) < 2:
        s.apply(bot.choose(s))
    plain = ExpertBot(seed=2, playouts=40).analyse(s)
    told = ExpertBot(seed=2, playouts=40, explain=True).analyse(s)
    assert [(e.text, e.mean, e.samples) for e in plain] == [(e.text, e.mean, e.samples) for e in told]
    assert all(e.facts is None for e in plain) and all(e.facts["samples"] == e.samples for e in told)


def test_the_static_sites_hint_is_worked_out_while_the_visitor_thinks(monkeypatch):
    """On the static site (`think_ahead`) the table starts on the Hint at the person's decision, a step at a
    time on the kernel's event loop; "Hint" then shows it at once (no "thinking" note, nothing worked out
    again): the Hint the game's fixed playouts give. After a move that work is not used for the next decision."""
    from html import escape
    from cardkit.bots import fixed_playouts
    table = widgets.PlayTable("ecarte", seed=3)
    table.think_ahead = True
    to_decision(table, RandomBot(4))
    expected, _ = table.session.hint(table.state, fixed_playouts("ecarte"))

    work = worked_ahead(table, table._plan_hint)
    assert [(e.text, e.mean) for e in work.result] == [(e.text, e.mean) for e in expected]
    real = table.session.hint
    calls = []
    monkeypatch.setattr(table.session, "hint", lambda *a, **k: calls.append(a) or real(*a, **k))
    seen = []
    table._msg.observe(lambda ch: seen.append(ch["new"]), "value")
    table.hint()
    assert calls == [] and len(seen) == 1 and "thinking" not in seen[0]
    assert f"<b>{escape(expected[0].action.label)}</b>" in seen[0]
    table.think_ahead = False                          # (nothing begun for the next decision, whatever loop runs here)
    to_decision(table, RandomBot(5), steps=1)          # a move: the work of the decision before is not this one's
    table.hint()
    assert len(calls) == 1


def test_the_hint_worked_out_ahead_stops_at_a_move_and_goes_on_back_at_its_position():
    """The Hint worked out ahead is stepped only while its position is on screen: a move stops it (its samples
    would serve no Hint, and a visitor's phone has the bots' turns to work out), and back at that position (an
    example stepped back to it) it goes on where it stopped, to the same result."""
    import asyncio
    from cardkit.bots import Steps
    from widgets.play import WorkAhead
    table = widgets.PlayTable("ecarte", seed=3)
    table.think_ahead = True
    to_decision(table, RandomBot(4))

    async def a_move_stops_it():
        table._plan_hint()
        work, steps = table._ahead.work, []
        real = work.step
        work.step = lambda: steps.append(1) or real()
        for _ in range(3):
            await asyncio.sleep(0)
        begun = len(steps)
        table.think_ahead = False                      # (nothing begun for the next decision)
        table.play(table.state.legal_actions()[0].text)
        for _ in range(200):
            await asyncio.sleep(0)
        return work, begun, len(steps)
    work, begun, after = on_a_loop(a_move_stops_it())
    assert 0 < begun == after and not work.done

    def pieces(made):
        made.append(1)
        for i in range(10):
            yield i
        return "the result"

    async def back_at_its_position():
        on_screen, made, steps = ["a"], [], []
        ahead = WorkAhead()
        ahead.begin("a", lambda: Steps(pieces(made)), lambda: on_screen[0])
        work = ahead.work
        real = work.step
        work.step = lambda: steps.append(1) or real()
        for _ in range(3):
            await asyncio.sleep(0)
        on_screen[0] = "b"                              # a step on: it stops
        stopped = len(steps)
        for _ in range(50):
            await asyncio.sleep(0)
        assert len(steps) == stopped and not work.done
        on_screen[0] = "a"                              # back: the same work goes on, not made anew
        ahead.begin("a", lambda: Steps(pieces(made)), lambda: on_screen[0])
        for _ in range(50):
            await asyncio.sleep(0)
        return work, made, stopped
    work, made, stopped = on_a_loop(back_at_its_position())
    assert 0 < stopped < 10 and made == [1] and work.done and work.result == "the result"


def test_the_static_sites_odds_panel_shows_the_table_first_and_the_figures_just_after():
    """On the static site (`think_ahead`) a click that brings a new decision is answered by the table at once,
    the Odds panel saying it is counting; the exact figures follow on the kernel's next turn, the same as
    counted on the click."""
    import asyncio
    table = widgets.PlayTable("vingt_et_un", seed=3)
    to_decision(table, RandomBot(4))
    table._odds_on = True
    expected = table.odds_html()                       # counted on the click (`cardkit serve`)
    assert "%" in expected
    table.think_ahead = True

    async def visit():
        table.toggle_odds()                            # on: the panel counts
        shown = table._happened.value
        for _ in range(1000):
            await asyncio.sleep(0)
            if table._happened.value != shown:
                break
        return shown, table._happened.value
    table._odds_on = False
    shown, after = on_a_loop(visit())
    assert "counting over the cards you have not seen" in shown and "%" not in shown
    assert expected in after and "counting" not in after
