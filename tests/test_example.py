"""Your own worked example (widgets/example.py, issue 37), without a browser: the editor, the moves, the readings
compared for a hand built in it, the link in and out through the page's box, the file and the set, the puzzle
hiding what its player has not seen. (The browser tests open links on both sites: tests/test_site.py and
tests/test_static_site.py.)"""
from __future__ import annotations

import base64
import datetime
import json
import re

import pytest

import cardkit
from cardkit.share import read_link, to_link
from widgets.example import Example, read_records
from widgets.rules import first_parting

PAGE = "http://127.0.0.1:8866/voila/render/page.ipynb"


def page_says(x: Example, fragment: str = "") -> None:
    x.inbox.value = json.dumps({"page": PAGE, "fragment": fragment})


def html_of(widget) -> str:
    """Every word the widget tree sends to the page: HTML values, descriptions, tooltips, options, text values."""
    out = []
    stack = [widget]
    while stack:
        x = stack.pop()
        for name in ("value", "description", "tooltip", "placeholder"):
            v = getattr(x, name, None)
            if isinstance(v, str):
                out.append(v)
        opts = getattr(x, "_options_labels", None)
        if opts:
            out += list(opts)
        stack += list(getattr(x, "children", ()) or ())
    return "\n".join(out)


def dealt(game: str, hands: dict, seed: int = 1) -> Example:
    x = Example(game)
    x.start()
    for key, text in hands.items():
        x._texts[key].value = text
    x.deal(seed=seed)
    return x


@pytest.mark.parametrize("hands, words", [
    ({0: "AS AS"}, "placed 2 times, but the pack holds it once (rule S7-"),
    ({0: "AS KH 7C 8D QD"}, "5 cards, but the deal gives this seat 4 (rule S7-"),
    ({0: "2S"}, "not a card"),
    ({1: "AS", 0: "AS"}, "placed 2 times"),
    ({0: "hello"}, "Bert:"),
])
def test_the_editor_refuses_an_impossible_deal_in_one_line_and_keeps_what_was_typed(hands, words):
    x = dealt("sieben", hands)
    assert x.record is None
    assert words in x.msg.value and x.msg.value.count("<div") == 1 and "Traceback" not in x.msg.value
    assert "ck-alert" in x.msg.value                     # read out at once
    assert {k: x._texts[k].value for k in hands} == hands
    x._texts[0].value, x._texts[1].value = "AS KH", ""   # corrected: it deals, and the error line goes
    x.deal(seed=2)
    assert x.record is not None and not x.msg.value


def test_tapped_cards_go_to_the_chosen_hand_and_the_deal_holds_them():
    x = Example("whist")
    x.start()
    x.target.value = 2
    for card in ("AS", "KS", "QH"):
        x.picker.value = card
    assert x.picker.value is None and x._texts[2].value == "AS KS QH"
    x._take_back()
    assert x._texts[2].value == "AS KS"
    x.deal(seed=3)
    north = x.replay.state.view(None).seats[2].hand
    assert {c.text for c in north} >= {"AS", "KS"} and len(north) == 13


def test_the_moves_made_by_hand_and_the_round_played_out_become_the_example():
    x = dealt("sieben", {0: "AS KH 7C 8D", 1: "10S"})
    n = len(x.record.actions)
    state = x.replay.state
    first = state.legal_actions()[0]
    assert [b.description for b in x.moves.children] == [a.label for a in state.legal_actions()]
    x.moves.children[0].click()
    assert x.record.actions[n] == first.text and x.step() == n + 1
    x.replay.go(n)                        # back one step: another move replaces the later ones
    x.moves.children[-1].click()
    assert len(x.record.actions) == n + 1 and x.record.actions[n] == state.legal_actions()[-1].text
    x._rest.click()
    end = x.replay.state
    assert len(x.record.actions) > n + 1 and x.step() == len(x.record.actions)
    assert x.record.final_state().scores() == end.scores()


def test_the_readings_are_compared_for_a_hand_built_in_the_editor():
    x = dealt("sieben", {0: "AS KH 7C 8D", 1: "10S"}, seed=4)
    x._rest.click()
    book = x.record.load_game().rulebook
    disputed = [r for r in book.rules if r.readings and r.option]
    parted = {r.id: first_parting(x.record, r, dict(x.record.options)) for r in disputed}
    text = x.readings.value
    assert f"This hand touches {sum(p is not None for p in parted.values())} of the game's {len(disputed)}" in text
    for rid, p in parted.items():
        line = re.search(rf"<li class='ck-(un)?touched'>[^\n]*?>{re.escape(rid)}</a>\)([^<]*)</li>", text)
        assert line is not None, rid
        assert (f"part at step {p[0] + 1}" in line.group(2)) if p is not None else "the same under every" in line.group(2)
    assert any(p is not None for p in parted.values())        # (seed 4: the hand touches a dispute)
    assert "ck-reading-cmp" in text


@pytest.mark.parametrize("game", ["faro", "whist", "vingt_et_un"])
def test_a_link_made_on_the_page_opens_the_same_example_at_the_same_step(game):
    x = dealt(game, {})
    page_says(x)
    x._rest.click()
    x.replay.go(max(1, x.step() - 2))
    link = re.search(r"class='ck-share-link' href='([^']+)'", x.share_box.value).group(1)
    assert link.startswith(PAGE + "#example=")
    assert "QR code of the link" in x.share_box.value and "<svg" in x.share_box.value
    y = Example(game)
    page_says(y, link.split("#", 1)[1])
    assert y.record.actions == x.record.actions and y.step() == x.step() and not y.msg.value
    def shown(e):                                               # the narration and the table, every card open
        v = e.replay._narr.value
        return v[v.index("<div class='ck-narration"):]
    assert shown(y) == shown(x)


def test_the_page_box_is_untrusted_one_line_and_nothing_changes():
    x = dealt("sieben", {0: "AS"})
    before = list(x.record.actions)
    for forged in ("{", "[1, 2]", json.dumps({"page": 3}), "x" * 20000,
                   json.dumps({"page": PAGE, "fragment": "example=v1~sieben~~1~@@@"}),
                   json.dumps({"page": PAGE, "fragment": "example=v9~chess~~~"})):
        x.inbox.value = forged
        assert x.msg.value.count("<div") == 1 and "Traceback" not in x.msg.value, forged
        assert x.record.actions == before
    other = to_link(cardkit.share.deal_from_hands("whist", {}, seed=1))
    page_says(x, other)
    assert "That is an example of Whist: open it on the page of Whist." in x.msg.value
    assert x.record.game == "sieben"


def test_a_record_a_set_and_a_link_open_from_the_paste_box_and_the_file():
    x = dealt("ecarte", {}, seed=5)
    x._rest.click()
    x.keep()
    x.replay.go(3)
    x.keep()
    files = re.findall(r"download='([^']+)' href='data:application/json;base64,([^']+)'", x.share_box.value)
    names = dict(files)
    one = base64.b64decode(names["ecarte-example.json"]).decode()
    both = base64.b64decode(names["ecarte-examples.json"]).decode()
    y = Example("ecarte")
    y.start()
    y.open_text(one)
    assert y.record.actions == x.record.actions
    y.upload.value = ({"name": "set.json", "type": "application/json", "size": len(both),
                       "content": memoryview(both.encode()),
                       "last_modified": datetime.datetime(2026, 11, 28, tzinfo=datetime.timezone.utc)},)
    assert len(y.set_choice.options) == 2 and y.set_choice.layout.display is None
    assert y.upload.value == ()                            # read and let go (not sent back and forth)
    y.set_choice.value = 1
    assert y.step() == 3
    y.open_text(x.link())
    assert y.step() == 3 and y.record.actions == x.record.actions
    for bad, words in (("", "paste a link"), ("{}", "not a game record"), ("[]", "holds no example"),
                       (json.dumps(json.loads(one) | {"game": "whist"}), "not a game record")):
        y.open_text(bad)
        assert words in y.msg.value, bad
    assert read_records(one, "ecarte")[0].actions == x.record.actions


def test_play_on_from_here_takes_the_seat_to_move_at_the_step_shown():
    x = dealt("whist", {}, seed=6)
    x.moves.children[0].click()
    x.moves.children[0].click()
    x.hint()                                  # said to an onlooker: the player by name, never "you"
    name = x.replay.state.game.player_names()[x.replay.state.current_player]
    assert f"The expert, in {name}&#x27;s seat, would play" in x.hint_box.value and " you " not in x.hint_box.value
    x.play_on()
    t = x.table
    assert t is not None and [a.text for a in t.state.history] == x.record.actions[:x.step()]
    assert t.human == x.replay.state.current_player


@pytest.mark.parametrize("game", ["sieben", "whist"])
def test_a_puzzle_shows_only_what_its_player_has_seen_until_the_answer(game):
    x = dealt(game, {}, seed=7)
    for _ in range(3):
        x.moves.children[0].click()
    seat = x.replay.state.current_player
    x.puzzle.value = True
    y = Example(game)
    page_says(y, x.link().split("#", 1)[1])
    assert y.replay is None and not y.msg.value
    state = x.replay.state
    seen = {c for s in state.view(seat).seats for c in s.hand if c is not None}
    seen |= {c for p in state.view(seat).piles for _, c in p.cards if c is not None}
    hidden = {c for c in state.game.full_deck() if c not in seen}
    assert hidden
    words = html_of(y)
    shown = [c.label for c in hidden if re.search(rf"(?<![0-9A-Za-z]){re.escape(c.label)}", words)]
    assert not shown, shown
    assert f"You are {state.game.player_names()[seat]}." in words
    y.view.children[1].children[0].click()                  # an answer: marked, then the deal may be shown
    assert "ck-quiz-feedback" in y.view.children[2].value
    y.view.children[-1].click()
    assert y.replay is not None and y.step() == x.step()


def _puzzle_words(game: str, fragment: str) -> str:
    """Every word a puzzle opened from `fragment` sends to the page before it is answered (the address box, which
    holds the link the reader opened, left out)."""
    y = Example(game)
    page_says(y, fragment)
    return html_of(y).replace(y.inbox.value, "")


@pytest.mark.parametrize("game", list(cardkit.GAMES))
def test_a_puzzle_says_the_same_whatever_the_cards_its_player_has_not_seen(game):
    """The hidden-information check of every game, made for the puzzle (issue 37): the same question asked from
    another deal that agrees with everything its player has seen (`State.resample`) sends the page the same words,
    word for word, until it is answered: nothing in it depends on a card the player has not seen."""
    from cardkit.rng import Rng
    x = dealt(game, {}, seed=7)
    for _ in range(3):
        x.moves.children[0].click()
    state = x.replay.state
    seat, step = state.current_player, x.step()
    assert seat >= 0
    words = _puzzle_words(game, to_link(state.to_record(), step, puzzle=True))
    assert f"You are {state.game.player_names()[seat]}." in words
    others = 0
    for seed in (1, 2, 3):
        other = state.resample(seat, Rng(seed))
        if [a.text for a in other.history] == [a.text for a in state.history]:
            continue                                     # the same deal again: nothing to compare
        others += 1
        assert _puzzle_words(game, to_link(other.to_record(), step, puzzle=True)) == words, seed
        break
    assert others


def test_a_reviewed_moment_opens_as_an_example_and_as_a_puzzle():
    from widgets.play import PlayTable
    t = PlayTable("sieben", seed=3, keep=False)
    while not t.state.is_terminal():
        t.play(t.state.legal_actions()[-1])
    t.review(playouts=8, seconds=1.0)
    links = re.findall(r"class='ck-example-link' href='#([^']+)'>(make this moment an example|ask it as a puzzle)",
                       t._review_out.value)
    assert links and len(links) % 2 == 0
    record, step, puzzle = read_link(links[0][0])
    assert record.actions == [a.text for a in t.state.history] and not puzzle
    x = Example("sieben")
    page_says(x, links[1][0])                                 # the puzzle: asked of the player who chose there
    assert x.replay is None and "You are Bert." in html_of(x)       # (the table's seat 0)
    assert read_link(links[1][0])[1] == step


def test_on_the_static_site_the_hint_at_a_step_is_worked_out_while_the_reader_looks_at_it(monkeypatch):
    """With `think_ahead` (the static site) the Hint at the step shown is begun as the step is shown, a sample at
    a time on the kernel's event loop; "Hint at this step" then shows it without working it out again: the same
    words as on the click. Another step shown: that work is not used for it."""
    from test_play_expert import worked_ahead
    import widgets.example as example_module
    x = dealt("ecarte", {}, seed=6)
    x.moves.children[0].click()
    x.hint()
    expected = x.hint_box.value
    x.think_ahead = True

    work = worked_ahead(x, x._moved)
    assert work.done and work.result is not None
    monkeypatch.setattr(example_module, "puzzle_question", lambda *a, **k: pytest.fail("worked out again"))
    x.hint()
    assert x.hint_box.value == expected
    x.think_ahead = False                         # (nothing begun for the next step, whatever loop runs here)
    x.moves.children[0].click()                   # another step: the work of the step before is not its
    with pytest.raises(pytest.fail.Exception):
        x.hint()
