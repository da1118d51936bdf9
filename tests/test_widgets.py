"""The widgets, in the kernel: hidden information never reaches a synced field, every click is checked
in the kernel, illegal tries show the rule, replays step and switch readings."""
from __future__ import annotations

import json

import ipywidgets as w
import pytest
from ipywidgets.widgets.widget import _instances   # every live widget model (Widget.widgets is deprecated)

import cardkit
import widgets
from cardkit.bots import RandomBot


def synced_text(root: w.Widget) -> str:
    """Everything the browser receives of a widget tree: the synced state of every widget in it."""
    seen, out, todo = set(), [], [root]
    while todo:
        x = todo.pop()
        if id(x) in seen:
            continue
        seen.add(id(x))
        state = x.get_state()
        out += [v if isinstance(v, str) else json.dumps(v, default=str) for v in state.values()]
        for v in x.__dict__.get("_trait_values", {}).values():
            items = v if isinstance(v, (list, tuple)) else [v]
            todo += [i for i in items if isinstance(i, w.Widget)]
    return "\n".join(out)


# Hidden cards never reaching a synced field is tested in tests/test_hidden.py, over every registered game
# and player count, whole games long (it knows which cards the human has seen, e.g. one of two equal
# cards played from the second pack).


def test_illegal_click_shows_the_rule_and_changes_nothing():
    table = widgets.PlayTable("magische7", players=4, seed=5)
    assert table.state.current_player == 0 and [a.card for a in table.state.legal_actions()] == [None, None]
    before = table.state.snapshot()
    table._click_card(0)                    # a card, while North must first choose the opponent
    assert "M7-8.2" in table._msg.value and table.state.snapshot() == before
    assert [b.description for b in table._actions.children] == ["play against East", "play against West"]
    table._actions.children[0].click()      # the button fires its callback as a browser click would
    assert table.state.opponent == 1 and table._msg.value == ""


def test_callbacks_fired_out_of_turn_are_refused():
    table = widgets.PlayTable("magische7", seed=2)
    bot = RandomBot(0)
    while not table.state.is_terminal():
        table.play(bot.choose(table.state))
    end = table.state.snapshot()
    table._click_card(0)
    table.play("13")
    assert table.state.snapshot() == end and "The game is over" in table._msg.value


def test_undo_goes_back_to_the_humans_last_decision():
    """Undo restores everything the human knew (the view, the history's length) and says that the unseen
    cards were shuffled again; the hidden cards themselves are dealt anew (tests/test_hidden.py)."""
    table = widgets.PlayTable("magische7", seed=4)
    start, length = table.state.view(0), len(table.state.history)
    table._click_card(0)
    assert table.state.view(0) != start and table.state.current_player == 0
    table.undo()
    assert table.state.view(0) == start and len(table.state.history) == length
    assert "shuffled again" in table._msg.value
    table.undo()
    assert "Nothing to undo" in table._msg.value


def test_replay_steps_and_narrates():
    rec = cardkit.load_example("magische7", "pair-beats")
    r = widgets.Replay(rec)
    assert r._slider.value == 1                      # opens on the dealt cards
    assert r._slider.max == len(rec.actions)
    r.go(r._slider.max)
    assert r.state.history[-1].text == rec.actions[-1]
    assert f"Step {len(rec.actions)}/{len(rec.actions)}" in r._narr.value
    r.go(0)
    assert "Before the first action" in r._narr.value


def test_rule_card_compares_the_spiegel_readings_side_by_side():
    card = widgets.RuleCard("magische7", "M7-4", example="spiegel-scoring")
    rec = cardkit.load_example("magische7", "spiegel-scoring")
    results = {v: rec.final_state(spiegel_scoring=v).result_text() for v in ("copy", "zero")}
    assert results["copy"] != results["zero"]
    html = card.text
    assert all(r in html for r in results.values())
    assert card.replay is None            # built when the visitor asks for it
    card._open.click()
    card.switch.value = "zero"
    card.replay.go(card.replay._slider.max)
    assert card.replay.state.game.options["spiegel_scoring"] == "zero"
    assert card.replay.state.view(None).result == results["zero"]


def test_replay_under_a_reading_that_breaks_the_record_says_where():
    rec = cardkit.load_example("magische7", "joker-vs-spiegel")
    states, lines, err = widgets.replay_states(rec, joker_vs_spiegel="joker")
    if len(states) == len(rec.actions) + 1:   # the record may stop right after the trick
        assert err == ""
    else:
        assert "stops at step" in err


def test_rule_table_follows_its_option_switches():
    t = widgets.RuleTable("magische7", "outcomes", options=("joker_vs_spiegel",))
    assert "follower (<a class='ck-rule-link' href='#M7-2'>M7-2</a>)" in t.out.value
    t.controls["joker_vs_spiegel"].value = "joker"
    assert "leader (<a class='ck-rule-link' href='#M7-2'>M7-2</a>)" in t.out.value


def test_bad_option_in_a_play_table_raises_a_clear_error():
    with pytest.raises(cardkit.OptionError, match="valid values: 2, 4"):
        widgets.PlayTable("magische7", show_options=False, players=3)


@pytest.mark.parametrize("make", [widgets.PlayTable, widgets.Play])
def test_an_unknown_bot_is_refused_with_the_choices(make):
    """It used to seat the random bot without a word."""
    with pytest.raises(cardkit.CardkitError, match=r"no bot 'nosuch' for Sieben.*; bots: random, .*rule-based.*expert"):
        make("sieben", bot="nosuch")


def test_a_replay_of_a_broken_record_text_says_it_is_not_json():
    """It used to say "no example None for" and the whole text."""
    text = cardkit.load_example("magische7", "joker-vs-spiegel").dumps()
    with pytest.raises(cardkit.RecordError) as e:
        widgets.Replay(text[: len(text) // 2])
    assert str(e.value).startswith("not a JSON record:") and len(str(e.value)) < 120
    assert widgets.Replay(text).record.game == "magische7"
    with pytest.raises(cardkit.CardkitError, match="name an example of magische7: .*joker-vs-spiegel"):
        widgets.Replay("magische7")


@pytest.mark.parametrize("game,opts", [(g, {"players": p}) for g in cardkit.GAMES
                                      for p in cardkit.game_class(g)().option("players").choices])
def test_a_whole_game_leaves_no_widget_models_behind(game, opts):
    """Card and action buttons are pools reused from move to move: once a game has begun, playing it to
    the end (and a new game after it) creates no more widget models than a hand of cards needs."""
    table = widgets.PlayTable(game, seed=8, **opts)
    bot = RandomBot(4)
    for _ in range(3):
        table.play(bot.choose(table.state))
    start = len(_instances)
    while not table.state.is_terminal():
        table.play(bot.choose(table.state))
    table.new_game()
    while not table.state.is_terminal():
        table.play(bot.choose(table.state))
    assert len(_instances) - start <= 12


def test_the_tables_show_a_views_public_facts_escaped():
    """View.facts (trump, dealer, match score, rank order) are shown above the seats by every table."""
    from widgets.render import view_html
    state = cardkit.load_game("sieben").new_state(seed=1)
    view = state.view(0)
    assert "ck-facts" not in view_html(view)          # no facts, no empty bar
    view.facts = [("Trump", "♥ Hearts"), ("Score", "A <3> & B 5")]
    html = view_html(view)
    assert "<b>Trump:</b> ♥ Hearts</span>" in html
    assert "<b>Score:</b> A &lt;3&gt; &amp; B 5</span>" in html
    assert html.index("ck-facts") < html.index("ck-around")


def test_play_puts_the_table_one_click_away():
    """A game page's `Play`: two buttons ("Deal the cards", "Play with friends") and no table models until the
    visitor deals; then the table."""
    before = len(_instances)
    play = widgets.Play("sieben", seed=3)
    assert play.table is None and len(play.children) == 1 and len(_instances) - before <= 4
    play.children[0].children[0].click()
    table = play.table
    assert isinstance(table, widgets.PlayTable) and play.children == (table,)
    assert table.state.history and "Round 1" in table._log.value
    assert play.start() is table                       # dealt once
    with pytest.raises(cardkit.OptionError):
        widgets.Play("sieben", players=9)
    with pytest.raises(cardkit.UnknownGameError):
        widgets.Play("nope")


def test_the_mark_on_the_page_gives_the_rule_as_played():
    """Issue 39: under a Test-yourself answer, the rule it rests on as the rulebook states it played."""
    import cardkit.exercises as ex
    from widgets.exercises import feedback_html
    q = ex.question_set("faro", 2).questions[0]
    m = ex.mark(q, {next(iter(q.answer))})
    out = feedback_html(q, m, cardkit.load_game("faro").rulebook.href)
    played = cardkit.load_game("faro", **q.options).rulebook.as_played(q.rule)
    assert "<b>The rule</b>" in out and played.split(".")[0].replace("**", "") in out.replace("<strong>", "").replace("</strong>", "")


def test_the_static_html_outputs_never_look_for_a_file_named_by_their_markup(monkeypatch):
    """IPython's HTML(text) first asks os.path.exists(text); on the static site each such look is a request to
    JupyterLite's in-browser drive through the service worker (some 40 while a rules page started, 29 Nov, one of
    which, pending as a page closed, kept a new version of the site from taking over). The kit's HTML outputs,
    made or displayed, look for no file; they carry their markup whole."""
    import os
    import IPython.display
    looked, shown = [], []
    exists = os.path.exists
    monkeypatch.setattr(os.path, "exists", lambda p: looked.append(p) or exists(p))
    monkeypatch.setattr(IPython.display, "display", lambda *objs, **kw: shown.extend(objs))
    outs = [widgets.Rules("sieben", "S7-1"), widgets.RulesCard("sieben"), widgets.SourceTexts(),
            widgets.index.ImpactTable()]
    widgets.RuleCard("sieben", "S7-5")._ipython_display_()
    widgets.RuleTable("sieben", "beats", options=("eights_wild",), rule="S7-1")._ipython_display_()
    widgets.TestYourself("sieben")._ipython_display_()
    outs += [o for o in shown if isinstance(o, IPython.display.HTML)]
    assert len(outs) == 4 + 1 + 2 + 1
    assert all(o._repr_html_().startswith("<") and len(o._repr_html_()) > 100 for o in outs)
    assert not [p for p in looked if "<" in str(p)], looked[:3]
