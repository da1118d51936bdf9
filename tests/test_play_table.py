"""The play table as a player and a teacher expect it (in the kernel; tests/test_play_page.py drives the
same in the browser): what happened since your move, the log by round and trick, the review with the
record to download, questions before a game is thrown away, options in plain words, hints, marks."""
from __future__ import annotations

import base64
import re

import pytest

import cardkit
import widgets
from cardkit.bots import RandomBot
from test_hidden import CONFIGS
from test_widgets import synced_text


def finish(table, seed=1):
    bot = RandomBot(seed)
    while not table.state.is_terminal():
        assert table.play(bot.choose(table.state))


def test_every_trick_the_bots_played_since_your_move_is_on_the_table():
    """With four players one click sets off several bot moves (in Magische 7 whole tricks): each trick
    completed since the human's move is shown with who played what and who took it, with the rule."""
    table = widgets.PlayTable("magische7", players=4, seed=3)
    bot = RandomBot(2)
    seen_several = False
    for _ in range(12):
        if table.state.is_terminal():
            break
        before = table.state.tricks_played
        table.play(bot.choose(table.state))
        done = table.state.tricks_played - before
        assert len(table._recent) == done
        for title, pile in table._recent:
            assert title.startswith("Trick ") and pile.note.startswith("won by ") and re.search(r"\[M7-[\d.]+\]", pile.note)
        if done >= 2:
            seen_several = True
            assert table._table.value.count("won by ") >= done and "Since your last move" in table._table.value
    assert seen_several


def test_your_move_is_on_the_table_before_the_computer_replies():
    """A click is answered at once, however long the computer's turns take (Vingt-et-un's bank weighs its
    odds; in the browser Python runs slower): the table first shows the move just made with the hand's
    buttons off, then the replies with the hand to play again."""
    table = widgets.PlayTable("sieben", players=4, seed=2)
    shown, refresh = [], table._refresh

    def refreshed(*args, **kwargs):           # what the page shows after each of the table's updates
        refresh(*args, **kwargs)
        shown.append((len(table.state.history), [b.disabled for b in table._hand.children]))
    table._refresh = refreshed
    before = len(table.state.history)
    card = next(a for a in table.state.legal_actions() if a.card is not None)
    assert table.play(card)
    after = len(table.state.history)
    assert after > before + 1                                     # the three bots replied
    assert shown[0][0] == before + 1 and all(shown[0][1])           # first: your card played, the hand off
    assert shown[-1][0] == after and not any(shown[-1][1])          # last: the replies, your turn again


@pytest.mark.parametrize("bot", ["rule-based", "expert"])
def test_a_move_that_ends_a_round_shows_the_end_of_the_round_first(bot, monkeypatch):
    """When a person's move ends a round and the computer deals and leads the next (the expert thinking
    first), the table shows the end of this round (its moment) at once, never the next round before it has
    been looked at; its button to go on is off until the computer's moves are in. (The expert thinks for its
    evidence's playouts only, not the table's full time: what is tested is the order of what is shown.)"""
    monkeypatch.setattr(cardkit.table, "THINK_MS", 1)
    table = widgets.PlayTable("sieben", players=2, seed=4, bot=bot)
    calls, refresh = [], table._refresh

    def refreshed(thinking=False):
        refresh(thinking)
        calls.append((thinking, bool(table._moments), "ck-moment" in table._table.value, table._next.disabled))
    table._refresh = refreshed
    player, ended = RandomBot(3), 0
    for _ in range(200):
        if table.state.is_terminal() or ended >= 2:
            break
        if table._moments:
            table.next_round()
            continue
        calls.clear()
        assert table.play(player.choose(table.state))
        if table._moments:
            ended += 1
            assert all(shows for _, waits, shows, _ in calls if waits), calls   # the moment, never the next round
            assert calls[0][:3] == (True, True, True) and calls[0][3], calls   # at once, its button off
            assert calls[-1] == (False, True, True, False), calls             # then its button on
    assert ended >= 2


def test_what_happened_lists_every_move_since_yours_for_the_live_region():
    table = widgets.PlayTable("sieben", players=4, seed=2)
    bot = RandomBot(5)
    length = len(table.state.history)
    table.play(bot.choose(table.state))
    moves = len(table.state.history) - length
    html = table._happened.value
    live = html[html.index("ck-live"):]
    assert live.count("<li>") >= moves
    # marked for the page's one live region (cardkit.js), not a live region itself: a move is said once
    assert "aria-live" not in html and "role=" not in html


def test_the_log_keeps_the_whole_game_by_round_and_trick():
    table = widgets.PlayTable("sieben", seed=4, match="game")
    finish(table)
    log = table._log.value
    rounds = len(table.state.rounds)
    assert rounds >= 2
    for r in range(1, rounds + 1):
        assert f"<h4>Round {r}</h4>" in log
    actions = [a for a in table.state.history]
    assert log.count("<li>") == len(actions)           # every move and every deal, none dropped
    assert "Trick 1" in log and "<ol class='ck-log'>" in log


def test_the_review_gives_the_score_table_and_a_record_that_replays():
    table = widgets.PlayTable("sieben", seed=6)
    finish(table)
    now = table._log.value
    assert "ck-review" in now and "Round 1" in now and "game points" in now
    data = re.search(r"href='data:application/json;base64,([^']+)'", now).group(1)
    record = cardkit.Record.loads(base64.b64decode(data).decode())
    assert record.final_state() == table.state
    replay = widgets.Replay(record)                      # the replay widget reads it as it is
    replay.go(replay._slider.max)
    assert replay.state == table.state


def test_no_record_is_offered_before_the_end():
    table = widgets.PlayTable("sieben", seed=6)
    table.play(RandomBot(1).choose(table.state))
    assert "data:application/json" not in synced_text(table)


@pytest.mark.parametrize("game,opts", CONFIGS)
def test_the_result_says_won_or_lost_in_its_colour(game, opts):
    table = widgets.PlayTable(game, seed=3, **opts)
    finish(table)
    outcome = table.outcome()
    winners = table.state.winners()
    assert outcome == ("draw" if len(winners) == table.game.num_players else "won" if 0 in winners else "lost")
    assert f"ck-result ck-{outcome}" in table._table.value


def test_new_game_asks_first_while_a_game_is_under_way():
    table = widgets.PlayTable("magische7", seed=1)
    table.ask_new_game()                     # nothing played yet: no question
    assert table._confirm is None and len(table.state.history) >= 1     # built only when a question comes
    table.play(RandomBot(1).choose(table.state))
    before = table.state.snapshot()
    table.ask_new_game()
    assert "will be lost" in table._question.value
    table._no.click()                        # Keep playing
    assert table.state.snapshot() == before and table._confirm.children == ()
    table.ask_new_game()
    table._yes.click()
    assert table.state.snapshot() != before and not table.in_progress()


def test_changing_the_player_count_asks_first_and_can_be_taken_back():
    table = widgets.PlayTable("sieben", seed=1)
    table.play(RandomBot(1).choose(table.state))
    before = table.state.snapshot()
    table._players.value = 4
    assert "4 players" in table._question.value and table.game.num_players == 2
    table._no.click()
    assert table._players.value == 2 and table.state.snapshot() == before
    table._players.value = 3
    table._yes.click()
    assert table.game.num_players == 3 and "A new game with 3 players." in table._happened.value


def test_options_read_in_plain_words_link_their_rules_and_apply_to_the_next_game():
    table = widgets.PlayTable("magische7", seed=1)
    table.show_options()
    text = synced_text(table._settings)
    for o in cardkit.game_class("magische7").option_specs:
        if o.name == "players":
            continue
        assert o.name not in text                     # no code name reaches the page
        assert f"href='#{o.rule}'" in text
    assert "True" not in text and "False" not in text
    assert "apply from the next game" in text
    table.play(RandomBot(1).choose(table.state))
    table._controls["spiegel_scoring"].value = "zero"
    assert "next game" in table._msg.value and table.game.options["spiegel_scoring"] == "copy"
    table.new_game()
    assert table.game.options["spiegel_scoring"] == "zero"


def test_errors_use_the_words_of_the_buttons():
    table = widgets.PlayTable("magische7", players=4, seed=5)
    assert table.state.current_player == 0 and table.state.choosing
    table._click_card(0)
    assert "play against East" in table._msg.value and "'vs " not in table._msg.value


def test_a_hint_names_what_each_card_would_do_and_the_rule_against_the_others():
    table = widgets.PlayTable("sieben", seed=2)
    bot = RandomBot(7)
    for _ in range(40):                       # until the human may continue a trick: a choice with rules
        if table.state.is_terminal():
            pytest.fail("no position to continue a trick came up")
        if table.state.deciding and table.state.current_player == 0 and \
                len(table.state.legal_actions()) - 1 < len(table.state.hands[0]):
            break
        table.play(bot.choose(table.state))
    table.hint()
    hint = table._msg.value
    for a in table.state.legal_actions():
        assert a.label in hint
    assert "may not be played now" in hint and "(rule <a class='ck-rule-link' href='#S7-" in hint


def test_playable_cards_are_marked():
    table = widgets.PlayTable("sieben", seed=2)
    legal = {a.card for a in table.state.legal_actions() if a.card}
    for b, c in zip(table._hand.children, table.state.view(0).seats[0].hand):
        assert ("ck-playable" in b._dom_classes) == (c in legal)


@pytest.mark.parametrize("game,opts", CONFIGS)
def test_no_one_in_the_plural(game, opts):
    """'1 tricks', '1 points' no more: every count on the table agrees with its noun."""
    table = widgets.PlayTable(game, seed=9, **opts)
    bot = RandomBot(3)
    while not table.state.is_terminal():
        text = synced_text(table)
        # (no leading ".{0,40}" in the pattern: tried at each of the text's 50-90,000 places, it took 95 % of
        # this test's CPU; the 40 characters before the match are read off for the message instead)
        bad = re.search(r"(?<![\d.])1 (tricks|points|cards|counters)\b", text)
        assert not bad, text[max(0, bad.start() - 40):bad.end()].split("\n")[-1]
        table.play(bot.choose(table.state))


def test_rule_ids_in_the_tables_words_are_links_to_the_rules():
    table = widgets.PlayTable("magische7", players=4, seed=5)
    table._click_card(0)                     # refused: North first chooses the opponent (M7-8.2)
    assert "<a class='ck-rule-link' href='#M7-8.2'>M7-8.2</a>" in table._msg.value
    table.play(RandomBot(1).choose(table.state))
    table.play(RandomBot(1).choose(table.state))
    assert "href='#M7-" in table._log.value and "href='#M7-" in table._table.value


# --- narration after the move; how the human's own cards lie -------------------------------------------
CARD = re.compile(r"(?<![\w])(10|[2-9AKQJ])[♠♥♦♣]")


def test_a_card_drawn_face_up_is_named_once_drawn_and_one_drawn_face_down_never():
    """The log narrates a move from the positions before and after it: Bakkarat's third card is dealt face
    up, so "asks for a third card: the 7♠" (in the log and in "What happened"); Vingt-et-un's drawn card
    stays face down, so a bot's draw never names a card."""
    table = widgets.PlayTable("bakkarat", seed=3)
    bot, named = RandomBot(1), 0
    while not table.state.is_terminal():
        table.play(bot.choose(table.state))
        for line in table._since:
            if "asks for a third card" in line:
                named += 1
                assert re.search(r"asks for a third card: the (10|[2-9AKQJ])[♠♥♦♣], face up \[BA-2\]", line), line
    assert named >= 3
    assert re.search(r"asks for a third card: the (10|[2-9AKQJ])[♠♥♦♣]", table._log.value)
    table = widgets.PlayTable("vingt_et_un", players=5, seed=2)
    bot, draws, mine, dead = RandomBot(4), 0, 0, 0
    while not table.state.is_terminal():
        table.play(bot.choose(table.state))
    for _, _, _, line in table._entries:
        if "asks for another card" not in line:
            continue
        if "dead at once" in line:                 # over 21: the hand is turned up, so its cards are named
            dead += 1
            assert re.search(r"another card: (10|[2-9AKQJ])[♠♥♦♣] — \d+, over 21", line), line
        elif line.startswith("Anton "):            # the human's own card, which only he sees: named, with the total
            mine += 1
            assert re.search(r"another card: (10|[2-9AKQJ])[♠♥♦♣], face down \(only Anton sees it\) — the hand "
                             r"now counts \d+", line), line
        else:                                      # a bot's card, face down: never named
            draws += 1
            assert not CARD.search(line) and "face down" in line, line
    assert draws >= 5 and mine >= 1 and dead >= 1


def test_vingt_et_un_narrates_the_bank_s_cards_and_who_paid_whom():
    """The players' last move sets off the bank's play (its cards face up) and the settlement: both reach the
    log and "What happened", a line each — also in the coups the human holds the bank and never moves."""
    table = widgets.PlayTable("vingt_et_un", players=3, seed=5)
    bot, titles = RandomBot(2), set()
    while not table.state.is_terminal():
        table.play(bot.choose(table.state))
        titles |= {title for title, _ in table._recent}
    # a finished coup is shown by its own name: the game has no tricks
    assert titles and all(re.fullmatch(r"Coup \d+", t) for t in titles), titles
    lines = [line for _, _, _, line in table._entries]
    coups = table.state.coup
    banks = [x for x in lines if ", the bank, turns up " in x or ", the bank, draws no card" in x]
    settled = [x for x in lines if x.startswith("The settlement, against the bank's ")]
    assert len(banks) == len(settled) == coups
    assert all(re.search(r"turns up (10|[2-9AKQJ])[♠♥♦♣]", x) for x in banks if "turns up" in x)
    for x in settled:
        assert re.search(r"(wins \d+ units?|pays \w+ \d+ units?|paid the stake)", x), x
    assert any(" holds the bank" in x and x.startswith("Coup") and "Anton holds" in x for x in lines)
    # the table's status names the stakes its buttons offer
    table = widgets.PlayTable("vingt_et_un", players=3, seed=5)
    stakes = [b.description for b in table._actions.children]
    assert stakes == ["stake 1", "stake 2", "stake 5"] and "1, 2 or 5 units" in table.state.view(0).status


def test_the_log_of_a_loaded_game_narrates_as_the_table_that_played_it():
    table = widgets.PlayTable("bakkarat", seed=5)
    finish(table, seed=2)
    same = widgets.PlayTable("bakkarat", seed=5)
    same.load(table.state)
    assert same._log.value == table._log.value and "asks for a third card: the " in same._log.value


def test_own_cards_on_the_table_are_marked_face_down_where_the_game_lays_hands_on_the_table(monkeypatch):
    """Vingt-et-un lays the hands on the table (`Game.hands_on_table`): the human's cards nobody else sees
    are marked "face down — only you see it" (a class, the tooltip, the caption); a hand turned face up
    (the bank's, a dead hand) is marked face up. Without the game's word nothing is marked."""
    from widgets.play import hand_faces
    assert cardkit.game_class("vingt_et_un").hands_on_table and not cardkit.game_class("sieben").hands_on_table
    monkeypatch.setattr(cardkit.game_class("vingt_et_un"), "hands_on_table", False)
    table = widgets.PlayTable("vingt_et_un", seed=3)
    assert set(hand_faces(table.state, 0)) == {""}
    assert not any("ck-face-" in c for b in table._hand.children for c in b._dom_classes)
    monkeypatch.setattr(cardkit.game_class("vingt_et_un"), "hands_on_table", True)
    table = widgets.PlayTable("vingt_et_un", seed=3, bank_rule="free")   # the bank (face up) decides too
    bot, downs, ups = RandomBot(5), 0, 0
    while not table.state.is_terminal():
        while table._moments:                      # the end of a coup, as its own moment: go on from it
            table.next_round()
        s = table.state
        faces = hand_faces(s, 0)
        shown = [any(c is not None for c in s.view(q).seats[0].hand) for q in range(1, s.game.num_players)]
        for b, f in zip(table._hand.children, faces):
            assert f == ("up" if any(shown) else "down")
            assert f"ck-face-{f}" in b._dom_classes
            assert b.tooltip.endswith("face down: only you see it" if f == "down" else "face up: everyone sees it")
        if faces and s.current_player == 0:
            downs += "down" in faces
            ups += "up" in faces
            assert ("face down on the table: only you see" in table._table.value) == ("down" in faces)
        table.play(bot.choose(s))
    assert downs > 5 and ups > 0          # the human also held the bank, face up


def test_a_partly_shown_hand_marks_the_card_everyone_sees():
    """Whist's dealer holds the turned card, shown to all: only that card is marked, "face up"."""
    from widgets.play import hand_faces
    s = cardkit.load_game("whist").new_state(seed=0)
    bot = RandomBot(1)
    while "up" not in hand_faces(s, 2):
        s.apply(bot.choose(s))
    faces = hand_faces(s, 2)
    assert faces.count("up") == 1 and set(faces) == {"", "up"}
    up = s.view(2).seats[2].hand[faces.index("up")]
    assert all(up in s.view(q).seats[2].hand for q in (0, 1, 3))
    assert set(hand_faces(s, 0)) == {""}


def test_a_card_the_human_has_not_looked_at_shows_its_back_and_cannot_be_played(monkeypatch):
    """A game may list a card its owner has not looked at yet as hidden in his own hand (Bakkarat's two
    cards before the stakes close): the hand row shows its back, names nothing, and a click says why."""
    cls = type(cardkit.load_game("bakkarat").blank_state())
    real = cls._view

    def view(self, player=None):
        v = real(self, player)
        mine = next((p for p in v.piles if p.name == "Your two cards"), None)
        if mine is not None:
            v.seats[player].hand = [None] * len(mine.cards)
            v.piles.remove(mine)
        return v
    monkeypatch.setattr(cls, "_view", view)
    table = widgets.PlayTable("bakkarat", seed=2)
    hand = table.state.view(0).seats[0].hand
    assert hand and all(c is None for c in hand)
    for b in table._hand.children:
        assert "ck-back" in b._dom_classes and b.description == "" and "not looked at it" in b.tooltip
    assert "you have not looked at it yet" in table._table.value
    before = table.state.snapshot()
    table._click_card(0)
    assert table.state.snapshot() == before and "not looked at it yet" in table._msg.value
    table.hint()                                   # no word about a card nobody has seen
    assert "may not be played" not in table._msg.value


# --- the end of a round as its own moment ---------------------------------------------------------------
def _round_ends(game, history, start: int) -> list[str]:
    """The rounds (hands, coups) a history ends after its first `start` entries: the label (at the game's
    `moment_level`) that changes with a move and the deals it set off, the game not over."""
    level = game.moment_level
    s, out, k = game.blank_state(), [], 0
    while k < len(history):
        before = s.progress()[level]
        _apply(s, history[k])
        k += 1
        while k < len(history) and history[k].__class__ is cardkit.Deal and history[k - 1].__class__ is not cardkit.Deal:
            _apply(s, history[k])
            k += 1
        if k > start and before and s.progress()[level] != before and not s.is_terminal():
            out.append(before)
    return out


def _apply(s, a):
    s.advance(a)


@pytest.mark.parametrize("game,opts", CONFIGS)
def test_the_end_of_each_round_is_a_moment_of_its_own(game, opts):
    """Every round (hand, coup, deal) that ends is shown as a moment of its own before the game goes on: the
    table as the round left it, "Round 2 is over" with the result in words (who won it, the points, the
    running score), what happened in it, and one button to go on — also a round the human never moved in (a
    coup he held the bank for). At the end of the game the last results lead the table."""
    table = widgets.PlayTable(game, seed=4, **opts)
    start = len(table.state.history)
    bot, seen = RandomBot(6), []
    while not table.state.is_terminal():
        while table._moments:
            m = table._moments[0]
            html = table._table.value
            assert f"{m['ended']} is over" in html and "ck-moment" in html
            assert m["result"] and m["result"][:12] in html
            assert list(table._actions.children) == [table._next] and not table._hand.children
            assert table._next.description.startswith(("Play ", "See ")) and table._next.description.endswith("▸")
            assert table._hint.disabled
            assert table.state.current_player == table.human          # the game waits at the human's decision
            seen.append(m["ended"])
            table.next_round()
        assert "ck-moment" not in table._table.value
        table.play(bot.choose(table.state))
    assert seen + [m["ended"] for m in table._moments] == _round_ends(table.game, table.state.history, start)
    if table.state.round_result():
        assert "The last result" in table._table.value and table.state.round_result()[:12] in table._table.value
    assert ("ck-result" in table._table.value)
    if game != "magische7":
        assert seen, "a game of several rounds shows the end of each"


def test_a_coup_held_by_the_human_does_not_pass_silently():
    """Vingt-et-un: the human holds the bank and has nothing to decide in that coup; it is still shown to its
    end — the bank's cards, who paid whom — before his next decision."""
    table = widgets.PlayTable("vingt_et_un", players=3, seed=4)
    bot, banked = RandomBot(1), 0
    while not table.state.is_terminal():
        while table._moments:
            m = table._moments[0]
            if "Anton's bank" in m["result"]:
                banked += 1
                assert "The settlement" in table._happened.value and "Anton, the bank, turns up" in table._happened.value
            table.next_round()
        table.play(bot.choose(table.state))
    assert banked >= 2


def test_options_close_with_the_button_that_opened_them():
    table = widgets.PlayTable("sieben", seed=1)
    opt = table._opt
    opt.click()
    assert table._settings in table.children and opt.description == "Close options"
    opt.click()
    assert table._settings not in table.children and opt.description == "Options…"
    opt.click()                                   # opened again: the same controls, kept
    assert table._settings in table.children and table._controls


@pytest.mark.parametrize("game,opts", CONFIGS)
def test_the_hands_caption_says_what_a_click_does(game, opts):
    """"Click a card to play it" only where a click plays the card: where it does something else (24's
    exchange gives it back, Écarté's throws it away, Faro's stakes on its rank) the caption says that."""
    table = widgets.PlayTable(game, seed=7, **opts)
    bot = RandomBot(4)
    for _ in range(60):
        if table.state.is_terminal():
            break
        while table._moments:
            table.next_round()
        s = table.state
        legal = [a for a in s.legal_actions() if a.card is not None] if s.current_player == 0 else []
        if legal:
            caption = table._table.value[table._table.value.rindex("<b>Your hand</b>"):]
            if "click a card to play it" in caption:     # then the click is the card played, by its own name
                assert all(a.text == a.card.text for a in legal), (legal[0].text, caption[:120])
        table.play(bot.choose(s))


# --- a table the site keeps for its visitor ----------------------------------------------------------------
def test_the_site_keeps_a_visitors_game_and_offers_it_again(tmp_path, monkeypatch):
    """On the site (its folder and the visitor's key in the kernel's environment) a table keeps its game;
    a new page of the same game for the same visitor (after the culler closed the table, or a reload)
    offers it again, and going back to it gives the same game, its log and its Undo. Another visitor, or
    a page outside the site, is offered nothing; the kept game never reaches the page but as the table's
    own view."""
    from test_widgets import synced_text
    from widgets.play import Play, kept_game
    assert kept_game("sieben") is None                       # not on the site: nothing kept
    monkeypatch.setenv("CARDKIT_TABLES", str(tmp_path))
    monkeypatch.setenv("HTTP_X_CARDKIT_VISITOR", "a" * 64)
    page = Play("sieben", seed=3)
    assert len(page.children) == 1                           # nothing kept yet: "Deal the cards" alone
    table = page.start()
    bot = RandomBot(2)
    for _ in range(5):
        table.play(bot.choose(table.state))
    kept = kept_game("sieben")
    assert kept and cardkit.Record.loads(kept["record"]).final_state() == table.state
    assert oct(next(tmp_path.glob("*.json")).stat().st_mode)[-3:] == "600"
    again = Play("sieben")                                   # the page anew, for the same visitor
    offer = synced_text(again)
    assert "Back to your game" in offer and "in progress (Round 1" in offer
    hidden = {c.text for s in table.state.view(None).seats[1:] for c in s.hand}
    assert not any(re.search(rf"(?<!\w){re.escape(t)}(?!\w)", offer) for t in hidden)
    resumed = again.resume()
    assert resumed.state == table.state and resumed._log.value == table._log.value
    resumed.undo()                                            # back to the visitor's previous decision
    assert len(resumed.state.history) < len(table.state.history)
    monkeypatch.setenv("HTTP_X_CARDKIT_VISITOR", "b" * 64)    # another visitor: nothing of it
    assert kept_game("sieben") is None and len(Play("sieben").children) == 1
    monkeypatch.setattr("widgets.play.KEEP_SECONDS", -1)       # kept an hour, then gone
    monkeypatch.setenv("HTTP_X_CARDKIT_VISITOR", "a" * 64)
    assert kept_game("sieben") is None


# --- friends at one screen ----------------------------------------------------------------------------------
@pytest.mark.parametrize("game,opts", CONFIGS)
def test_the_seats_a_person_may_take_are_the_seats_that_choose(game, opts):
    """`Game.deciders()`: every seat that ever has a choice, and no other (a seat the rules play by themselves,
    as Faro's bank, is left to the computer)."""
    g = cardkit.load_game(game, **opts)
    chose = set()
    for seed in (1, 2):
        s, bot = g.new_state(seed=seed), RandomBot(seed)
        while not s.is_terminal():
            if len(s.legal_actions()) > 1:
                chose.add(s.current_player)
            s.apply(bot.choose(s))
    assert chose == set(g.deciders())


def test_options_seat_each_player_as_a_person_or_the_computer():
    """One person against the computer unless Options… says otherwise: a dropdown per seat, by the seat's name,
    in plain words. Before anything is played a change deals at once; later it waits for New game; someone
    always plays."""
    table = widgets.PlayTable("sieben", players=3, seed=1)
    assert table.people == (0,) and not table.several and not table.covered
    table.show_options()
    seats = table._seat_box.children
    assert [d.description for d in seats] == table.game.player_names()
    assert [d.value for d in seats] == [True, False, False]
    assert set(seats[0]._options_labels) == {"a person at this screen", "the computer"}
    assert "I am …, show my cards" in synced_text(table._settings)
    seats[2].value = True                       # nothing played yet: a new game at once, covered
    assert table.people == (0, 2) and table.covered and table.bots.keys() == {1}
    seats[0].value = seats[2].value = False     # someone has to play
    assert seats[0].value is False and seats[2].value is True and table.people == (2,)
    assert "at least one seat is a person" in table._msg.value
    table._players.value = 2                    # two seats: the person's seat is gone, seat 0 plays
    assert table.people == (0,) and [d.value for d in table._seat_box.children] == [True, False]
    table.play(RandomBot(1).choose(table.state))
    table._seat_box.children[1].value = True    # a game under way: from the next game on
    assert table.people == (0,) and "next game" in table._msg.value
    table.new_game()
    assert table.people == (0, 1) and table.covered


def test_between_two_peoples_turns_the_table_is_covered():
    """The covered table names who plays next and offers one button, "I am …, show my cards"; until it is
    pressed no card shows and nothing can be played, hinted or looked up. Then the table is that person's,
    with his name on his hand, until his move covers it again for the next."""
    table = widgets.PlayTable("sieben", seed=2, people=[0, 1])
    names = table.game.player_names()
    first = table.state.current_player
    assert table.covered and f"{names[first]}’s turn" in table._table.value
    assert [b.description for b in table._actions.children] == [f"I am {names[first]}, show my cards"]
    assert not table._hand.children and table._log.value == "" and table._hint.disabled
    before = table.state.snapshot()
    table._click_card(0)
    assert not table.play(table.state.legal_actions()[0]) and "hidden" in table._msg.value
    table.hint()
    table.toggle_odds()
    assert table.state.snapshot() == before and table.covered and "ck-hint" not in table._msg.value
    table._actions.children[0].click()                       # "I am Bert, show my cards"
    assert not table.covered and table.human == first and table._hand.children
    assert f"Your hand, {names[first]}" in table._table.value and "Game log" in table._log.value
    table.play(RandomBot(1).choose(table.state))
    assert table.covered and table.state.current_player == 1 - first
    assert f"I am {names[1 - first]}, show my cards" == table._actions.children[0].description
    table.ready()
    assert table.human == 1 - first and "What happened" in table._happened.value


def test_undo_with_several_people_takes_back_only_your_own_choices_while_it_is_your_turn():
    """Alone at the table Undo re-deals the cards you have not seen; with friends that would change their
    cards (or, keeping them, tell you what they hold by what never comes up). So Undo takes back only your own
    choices while it is still your turn and nothing has followed them — a stake — exactly as they were; a move
    the turn has passed on from stands (whom it passed to may tell a hidden card), and so does one that
    finished a trick; the table says why."""
    table = widgets.PlayTable("faro", players=3, seed=3, people=[0, 2])
    table.ready()
    me, s = table.human, table.state
    history = [a.text for a in s.history]
    card = next(a for a in s.legal_actions() if a.card is not None)
    table.play(card)                                         # a stake on a card: still my turn
    table.play(table.state.legal_actions()[0])               # its amount
    assert not table.covered and table.state.current_player == me
    table.undo()
    assert [a.text for a in table.state.history] == history + [card.text]     # exactly, nothing dealt anew
    assert "nothing was dealt anew" in table._msg.value and "Your move was taken back." in table._happened.value
    bot = RandomBot(2)
    while not table.covered:                                 # on until the turn passes to the other person
        table.play(bot.choose(table.state))
    assert table._undo.disabled
    before = table.state.snapshot()
    table.undo()
    assert table.state.snapshot() == before and "The turn has passed" in table._msg.value
    for _ in range(60):                  # on to a decision of someone whose last move another person answered
        if table.covered:
            table.ready()
        s, me = table.state, table.human
        mine = [k for k, p in table._turns if p == me and k < len(s.history)]
        answered = [p for k, p in table._turns if mine and mine[-1] < k < len(s.history) and p != me]
        if answered:
            break
        table.play(bot.choose(s))
    else:
        pytest.fail("no move was answered by the other person")
    before = table.state.snapshot()
    table.undo()
    assert table.state.snapshot() == before
    assert f"{table.game.player_names()[answered[0]]} has played since your move" in table._msg.value
    # Whist, four people: the last card of a trick that its player wins stands, though the turn stays his
    table = widgets.PlayTable("whist", seed=3, people=[0, 1, 2, 3])
    for _ in range(200):
        if table.covered:
            table.ready()
        me, trick = table.human, table.state.progress()
        table.play(bot.choose(table.state))
        if not table.covered and table.human == me and table.state.progress() != trick:
            break
    else:
        pytest.fail("no trick was won by its last player")
    before = table.state.snapshot()
    table.undo()
    assert table.state.snapshot() == before and "Your move finished Trick" in table._msg.value


def test_each_person_is_told_only_his_own_drawn_cards():
    """Vingt-et-un: a card drawn face down is named in its owner's log and nobody else's."""
    table = widgets.PlayTable("vingt_et_un", players=3, seed=4, people=[0, 1])
    bot, own = RandomBot(3), {0: 0, 1: 0}
    while not table.state.is_terminal():
        if table.covered:
            table.ready()
        while table._moments:
            table.next_round()
        table.play(bot.choose(table.state))
    names = table.game.player_names()
    for p in (0, 1):
        for _, _, _, line in table._notes[p].log:
            m = re.match(r"(\w+) asks for another card: (10|[2-9AKQJ])[♠♥♦♣], face down", line)
            if m:
                assert m.group(1) == names[p], line
                own[p] += 1
    assert own[0] and own[1]


def test_at_the_end_each_person_may_ask_for_the_review_of_his_game():
    table = widgets.PlayTable("sieben", seed=6, people=[0, 1], match="round")
    bot = RandomBot(1)
    while not table.state.is_terminal():
        if table.covered:
            table.ready()
        while table._moments:
            table.next_round()
        table.play(bot.choose(table.state))
    names = table.game.player_names()
    buttons = table._review_box.children[0].children
    assert [b.description for b in buttons] == [f"Review {names[0]}’s game", f"Review {names[1]}’s game"]
    last = table.human
    table.review(playouts=3, seat=1 - last)
    assert table.human == 1 - last and "reviewed by the expert" in table._review_out.value
    assert [b.disabled for b in buttons] == [p == 1 - last for p in (0, 1)]


def test_a_kept_game_of_friends_comes_back_covered(tmp_path, monkeypatch):
    """The site keeps a friends' game like any other (the whole record, on the server); a reload offers it,
    and it comes back covered: whoever is in front of the screen now says who he is first."""
    from widgets.play import Play, kept_game
    monkeypatch.setenv("CARDKIT_TABLES", str(tmp_path))
    monkeypatch.setenv("HTTP_X_CARDKIT_VISITOR", "c" * 64)
    table = Play("sieben", seed=3, people=[0, 1]).start()
    bot = RandomBot(2)
    for _ in range(4):
        table.ready()
        table.play(bot.choose(table.state))
    assert kept_game("sieben")["people"] == [0, 1]
    resumed = Play("sieben").resume()
    assert resumed.people == (0, 1) and resumed.covered and resumed.state == table.state
    assert not resumed._hand.children and "show my cards" in resumed._actions.children[0].description
    resumed.ready()
    assert resumed._entries == table._notes[resumed.human].log       # his log, as the table told it to him
    with pytest.raises(cardkit.CardkitError, match="people"):
        Play("sieben", people=[0, 2])


def test_while_the_computer_thinks_between_two_people_the_table_stays_covered(monkeypatch):
    """A bot that thinks for a while (the expert) has the table shown while it thinks; between two people's
    turns that is the covered table — the one who just played may already have passed the screen on."""
    monkeypatch.setattr("cardkit.table.THINKERS", {"rule-based"})      # the quick bots, shown as thinkers
    table = widgets.PlayTable("sieben", players=3, seed=2, people=[0, 1])
    shown = []
    real = table.session._step

    def step(action):
        if table.state.current_player not in table.people:
            shown.append((table._table.value, len(table._hand.children), table._log.value, table._msg.value))
        return real(action)
    table.session._step = step
    bot = RandomBot(1)
    for _ in range(12):
        if table.covered:
            table.ready()
        table.play(bot.choose(table.state))
    assert shown
    for html, cards, log, msg in shown:
        assert "ck-cover" in html and "ck-table" not in html and not cards and log == "" and "is thinking" in msg


# --- the seat boxes say what they count --------------------------------------------------------------
def test_whist_seats_show_each_players_own_tricks_and_the_sides_total_as_the_sides():
    """Issue 39: each partner's box said "1 trick this hand" where that was the side's total. Each seat now
    shows the tricks it took itself (counted here from the last trick's "won by …" after every trick) and
    the side's total named as the side's; the two partners' own tricks add up to the side's."""
    table = widgets.PlayTable("whist", seed=3)
    names = table.game.player_names()
    bot, own = RandomBot(5), dict.fromkeys(names, 0)
    tricks, checked = table.state.progress(), 0
    while not table.state.is_terminal() and checked < 12:
        table.play(bot.choose(table.state))
        table.next_round() if table._moments else None
        s = table.state
        now = s.progress()
        if now[0] != tricks[0]:                      # a new hand: every seat starts again from 0
            own = dict.fromkeys(names, 0)
            tricks = now
            continue
        done = int(now[1].split()[-1]) - int(tricks[1].split()[-1]) if now[1].startswith("Trick") else 0
        if done <= 0:
            continue
        # the human's move and the bots' answers may finish several tricks: replay to count each taker
        replay = s.game.blank_state()
        own = dict.fromkeys(names, 0)
        for a in s.history:
            before = replay.progress()
            replay.apply(a)
            if replay.progress() != before and before[1].startswith("Trick") and replay.progress()[0] == now[0]:
                note = next(p.note for p in replay.view(None).piles if p.kind == "last-trick")
                own[next(n for n in names if note.startswith(f"won by {n} "))] += 1
        tricks = now
        html = table._table.value
        for seat in s.view(0).seats:
            mine = own[seat.name]
            side = sum(own[names[q]] for q in range(4) if q % 2 == seat.player % 2)
            assert seat.info == f"{mine} trick{'' if mine == 1 else 's'} this hand, {side} for the side"
            assert seat.info in html
        checked += 1
    assert checked >= 8


def test_sieben_seats_count_the_last_tricks_ten_as_the_round_does():
    """Issue 39: when a round of Sieben was played out, the seats said 80 counters in all where the round's
    end said 90 (the last trick's 10 left out). At each round's end, as the table shows it, the counters on
    the seats add up to the round's 90, the taker of the last trick's seat naming its 10."""
    table = widgets.PlayTable("sieben", seed=2)
    bot, ends = RandomBot(3), 0
    while not table.state.is_terminal() and ends < 3:
        if table._moments:
            html = table._table.value
            boxes = re.findall(r"<div class='ck-seat [^']*'>(.*?)</div>", html)
            seats = [re.search(r"(\d+) counters?(?::| in)", b).group(1) for b in boxes]
            assert len(seats) == table.game.num_players, html
            assert sum(map(int, seats)) == 90 and sum("10 for the last trick" in b for b in boxes) == 1
            ends += 1
            table.next_round()
            continue
        table.play(bot.choose(table.state))
    assert ends >= 2
