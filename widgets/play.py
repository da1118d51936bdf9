"""Play a game against bots, alone or with friends at one screen: the view of a `cardkit.table.Table`, the game
in progress as a pure-Python session (seats, the computer's turns, what each person has been told, Undo and
its fairness, the expert behind the Hint and the review, the hot seat's cover, the record). This module shows
it and takes the clicks; `cardkit play` drives the same session in a terminal. Game-agnostic: it sees only
cardkit's protocol, the session and the view of the seat in front of the screen.

Hidden information never enters a synced widget field: the page only receives HTML of
``state.view(human)`` (``human``: the seat in front of the screen), the narration of the game as that seat
followed it and the labels of its own cards; every click is checked in the kernel against the legal actions
(a visitor's script can fire any callback). Undo re-deals the cards the human has not seen
(``State.resample``). The expert behind the Hint and "Review my game" is asked from the human's seat only:
it gets a state resampled for the human, never the table's own state.

Several seats may be people at one screen (``people``). Between two people's turns the table is covered:
nothing of any hand, no log and no line that depends on a hidden card, only whose turn it is and a button
"I am …, show my cards"; then the table is that seat's, with the log and "what happened" narrated as it
followed the game. Undo's rules with several people: `cardkit.table`.
"""
from __future__ import annotations

import asyncio
import base64
import json
import os
import re
import time
from html import escape
from typing import Any
from pathlib import Path

import ipywidgets as w
from ipywidgets.widgets.widget_description import DescriptionStyle

import cardkit
from cardkit import CardkitError, IllegalActionError
from cardkit.bots import bots_for, game_facts
from cardkit.documents import STATIC_SITE
from cardkit.rules import link_rule_ids, scroll_x
from cardkit.share import to_link
from cardkit.table import (REVIEW_SECONDS, Refused, Table, and_words, check_people, no_difference,
                           within_noise)
from cardkit.view import plural

from . import browser_store
from .render import Box, Button, HTML, shared, table_html

_CARD_COLORS = ("red", "black", "purple", "yellow", "blue", "green")   # the card inks render.CSS knows


def option_label(o, value) -> str:
    """An option's value in plain words ("yes"/"no" for a switch without labels of its own)."""
    if value in o.labels:
        return o.labels[value]
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value)


def option_title(o) -> str:
    """What an option decides, in plain words (its help text, first letter capital)."""
    text = o.help or o.name.replace("_", " ")
    return text[:1].upper() + text[1:]


def option_controls(game_cls, values: dict, only=None) -> dict:
    """A dropdown per option (name -> widget) whose values read in plain words; the dropdown's `title`
    attribute (what a screen reader and a pointer's tooltip give) says what it decides and its rule."""
    out = {}
    for o in game_cls.option_specs:
        if only is not None and o.name not in only:
            continue
        choices = list(o.choices) if o.choices else list(range(o.range[0], o.range[1] + 1))
        out[o.name] = w.Dropdown(options=[(option_label(o, c), c) for c in choices],
                                 value=values.get(o.name, o.default),
                                 tooltip=f"{option_title(o)} (rule {o.rule})" if o.rule else option_title(o),
                                 layout=shared("dropdown"), style=shared("description"))
    return out


def option_heading(o) -> str:
    """The label above an option's dropdown: what it decides, and a link to its rule on the page."""
    link = f" <a href='#{escape(o.rule)}' title='read rule {escape(o.rule)}'>rule {escape(o.rule)}</a>" \
        if o.rule else ""
    return f"<div class='ck-opt-label'>{escape(option_title(o))}{link}</div>"


def odds_figure(o) -> str:
    """An exact figure as a reader takes it in: the decimal, with the exact fraction folded under it (a click
    on the figure shows it)."""
    exact = o.exact()
    if "/" not in exact:
        return f"<b>{escape(o.text())}</b>"
    return (f"<details class='ck-exact'><summary><b>{escape(o.text())}</b></summary>"
            f"<small>exactly {escape(exact)}</small></details>")


def record_link(state, filename: str) -> str:
    """A link that downloads the game's record (the kit's JSON record format: `cardkit.Record.load` and
    the Replay widget read it). Offered only once the game is over: a record holds every deal."""
    data = base64.b64encode(state.to_record().dumps().encode()).decode()
    return (f"<a class='ck-download' download='{escape(filename)}' href='data:application/json;base64,{data}'>"
            "Download the game record</a> <small>(a file with every move and every card of the game, also the "
            "cards nobody saw)</small>" + example_link(state))


def example_link(state) -> str:
    """Once the game is over: a link that opens it as a worked example on this page, every hand open, and that
    a reader can send ("Your own example" reads the link; `cardkit.share`). Nothing where it cannot be made."""
    try:
        fragment = to_link(state.to_record())
    except CardkitError:
        return ""
    return (f" · <a class='ck-example-link' href='#{escape(fragment)}'>Open this game as a worked example</a> "
            "<small>(every hand open; the address of the page then leads to it: send it to a friend)</small>")


def moment_links(record, step: int) -> str:
    """A moment of a finished game as a worked example ("Your own example" opens it at that step, every hand open)
    and as a puzzle for a friend ("What do you play?"); nothing where no link can be made."""
    try:
        example, puzzle = to_link(record, step), to_link(record, step, puzzle=True)
    except CardkitError:
        return ""
    return (f" <small><a class='ck-example-link' href='#{escape(example)}'>make this moment an example</a> · "
            f"<a class='ck-example-link' href='#{escape(puzzle)}'>ask it as a puzzle</a></small>")


# words for a screen reader alone (read out through the page's live region, not shown)
SR_ONLY = "position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap"
# the bots a table offers, in plain words (a game's own bot with another name shows its name)
BOT_WORDS = {"random": "random (any legal move)", "careful": "careful (plays it safe)",
             "rule-based": "rule-based (plays by the book)", "expert": "expert (thinks ahead)"}


UNDO_ONE = ("take back your last move and the bots' replies; the cards you have not seen are shuffled again, so "
            "Undo never shows what is hidden")
UNDO_SEVERAL = ("take back your own choices while it is still your turn and nothing has followed them (a stake, a "
                "card to throw away): once the turn has passed, or a card was drawn or shown, a move stands")
# the seats in the Options… panel, and how the table treats several people at one screen, in plain words
SEATS_NOTE = (
    "<div class='ck-note ck-seats-note'><b>Who plays</b> — each seat: a person at this screen, or the computer "
    "(a game under way keeps its seats until New game). With two or more people the table is covered between "
    "their turns: it names who plays next and shows that player's cards only after “I am …, show my cards”, "
    "while the others look away (the browser's developer tools would still find them). The Hint, the Odds and "
    "the review speak to the player in front of the screen. <b>Undo</b> then takes back only your own choices "
    "while it is still your turn and nothing has followed them — a stake, a card to throw away; once the turn "
    "has passed, or a card was drawn or shown, a move stands, as at a real table. Alone, Undo deals the cards "
    "you have not seen anew; with friends that would change their cards, or tell you what they hold.</div>")


def _named(action) -> str:
    """An action in bold as the Hint and the review name it: a card by its label, any other choice in
    quotes ("stand")."""
    return f"<b>{escape(action.label)}</b>" if action.card is not None else f"<b>“{escape(action.label)}”</b>"


FACE_WORDS = {"down": "face down: only you see it", "up": "face up: everyone sees it",
              "back": "face down: you have not looked at it yet"}


def hand_faces(state, seat: int) -> list[str]:
    """How each card of `seat`'s hand lies, as its owner sees it: "back" (face down, and the owner has not
    looked at it: his own view hides it), "down" (only its owner sees it), "up" (the other players see it
    too), or "" (nothing to say: held in the hand as usual).

    Who sees a card is read from the other seats' views of this hand, matched card by card (a view may
    list a hand in another order). Whether a card nobody else sees lies *face down on the table* or is
    simply held is the game's to say (`Game.hands_on_table`, as in Vingt-et-un): without it only a hand
    that is partly shown is marked (a Whist dealer's turned card: "face up")."""
    hand = state.view(seat).seats[seat].hand
    seen: dict = {}
    for q in range(state.game.num_players):
        if q != seat:
            counts: dict = {}
            for c in state.view(q).seats[seat].hand:
                if c is not None:
                    counts[c] = counts.get(c, 0) + 1
            for c, k in counts.items():
                seen[c] = max(seen.get(c, 0), k)
    up = []
    for c in hand:
        shown = c is not None and seen.get(c, 0) > 0
        if shown:
            seen[c] -= 1
        up.append(shown)
    on_table = bool(getattr(state.game, "hands_on_table", False))
    mixed = any(up) and not all(u for c, u in zip(hand, up) if c is not None)
    return ["back" if c is None else "up" if u and (on_table or mixed) else "down" if on_table else ""
            for c, u in zip(hand, up)]


def faces_caption(faces) -> str:
    """The words after the hand's caption for its marked cards (`hand_faces`)."""
    known = [f for f in faces if f != "back"]
    out = []
    many = len(known) > 1
    if known and all(f == "down" for f in known):
        out.append(f"{'your cards lie' if many else 'your card lies'} face down on the table: "
                   f"only you see {'them' if many else 'it'}")
    elif known and all(f == "up" for f in known):
        out.append(f"{'your cards lie' if many else 'your card lies'} face up: everyone sees "
                   f"{'them' if many else 'it'}")
    elif "down" in known or "up" in known:
        out += ["a card marked “face down” only you see"] * ("down" in known) + \
               ["a card marked “face up” everyone sees"] * ("up" in known)
    if "back" in faces:
        out.append("a card shown by its back lies face down, and you have not looked at it yet")
    if not out:
        return ""
    text = "; ".join(out)
    return f" <small class='ck-faces-note'>({text[0].upper()}{text[1:]}.)</small>"


PERSON, COMPUTER = "a person at this screen", "the computer"


class PlayTable(w.VBox):
    """A table where one human seat plays against bots, or several people at one screen (`people`, the
    seats they play; the others are the computer's): click a card; an illegal try shows the rule.

    The seats sit around the table (the human at the bottom, a partner opposite), the middle shows the
    trick and every trick completed since the human's last move with who took it and why, a live region
    reads out what happened, and the log keeps the whole game grouped by round and trick; at the end a
    review gives the score table and the record to download, and "Review my game" asks the expert about
    each of the human's decisions. New game and a change of the player count ask first while a game is
    under way. The opponents: the game's bots and the expert (`cardkit.bots.bots_for`); while the expert
    thinks the table says so. The Hint says what the expert would play and why.

    With several people, `human` is the seat in front of the screen: between two people's turns the table
    is covered (`covered`) until the next one says he is ready (`ready`), and each person is told the game
    as he followed it (`cardkit.table.Notes`). Options… sets who plays each seat.

    Few widget models are made (each costs the page load time): the card and action buttons are pools
    reused from move to move and share their layout and styles; the option dropdowns and the
    confirmation buttons are built when first needed."""

    children: Any              # (ipywidgets' box children: a tuple of widgets, untyped there)
    _seats: list
    _review_seats: list

    def __init__(self, game: str, human: int = 0, bot: str = "rule-based", seed: int | None = None,
                 show_options: bool = True, keep: bool = True, people=None, resume=None, **options):
        self.game_name = game
        self._kept = keep         # on the site, keep the game for the visitor (`_keep`)
        cls = cardkit.game_class(game)
        self._fixed = options
        people = [human] if people is None else list(people)
        # the game in progress, in pure Python (cardkit.table): this widget is its view. A table resumed from a
        # kept game (`resume`) is dealt nothing first: its state comes with `load`
        self.session = Table(game, people=people, bot=bot, seed=seed, human=human, deal=False, **options)
        self._bots = self.session.bot_names
        self._bot_name = bot
        # the static site works out the Hint while the visitor thinks (`_plan_hint`): Python runs in the
        # visitor's browser there, 2-3 times slower than on a server, and the expert's evidence playouts would
        # keep a slow phone waiting; on `cardkit serve` the Hint is worked out on the click (the server's CPU)
        self.think_ahead = STATIC_SITE
        self._ahead = WorkAhead()                  # the Hint at the person's decision, worked out ahead
        self._counted: tuple | None = None          # with `think_ahead`: (the position, its odds or None while counted)
        self._seat_box: Any = None                 # built when needed
        self._ready_button: Any = None
        self._waiting = False                    # the computer is playing: the table was shown before its moves
        self._review_box: Any = None             # "Review my game": built when a game ends
        self._controls: dict = {}
        self._settings: Any = None                 # the options panel and the question box: built when needed
        self._confirm: Any = None
        buttons = []
        self._opt: Any = None
        if show_options:
            opt = self._opt = Button(description="Options…",
                                     tooltip="the rule options (every disputed reading) and the bots; click again "
                                             "to close them")
            opt.on_click(lambda _: self.toggle_options())
            buttons.append(opt)
        players = next((o for o in cls.option_specs if o.name == "players"), None)
        self._players: Any = None
        self._reverting = False
        if players is not None and len(players.choices) > 1:   # the player count is always at hand
            self._players = w.ToggleButtons(options=[(f"{n} players", n) for n in players.choices],
                                            value=options.get("players", players.default),
                                            layout=shared("layout"),
                                            tooltips=[f"a new game with {n} players" for n in players.choices])
            self._players.observe(self._players_changed, names="value")
            buttons.append(self._players)
        new = Button(description="New game", button_style="primary", tooltip="deal a new game with these options")
        new.on_click(lambda _: self.ask_new_game())
        self._undo = Button(description="Undo", tooltip=UNDO_ONE)
        self._undo.on_click(lambda _: self.undo())
        self._hint = Button(description="Hint", tooltip="what the expert would play and why, and what each of "
                            "your choices would do")
        self._hint.on_click(lambda _: self.hint())
        # the Odds panel: only for a game that computes exact odds (State.advice), so no other page pays
        # for its button
        self._odds_on = False
        extra = []
        if cls.State.advice is not cardkit.State.advice:
            self._odds = Button(description="Odds", tooltip="exact chances for your decision now, counted over "
                                "the cards you have not seen; click again to hide them")
            self._odds.on_click(lambda _: self.toggle_odds())
            extra.append(self._odds)
        self._on_yes = self._on_no = None
        # the ends of rounds (hands, coups) not yet looked at (`_moments`): each shown as a moment of its own, with
        # a button to go on (the game itself has gone on: the bots have played up to the human's next decision)
        self._next = Button(description="", button_style="primary",
                            tooltip="go on to the next round: the cards are dealt and the game goes on")
        self._next.add_class("ck-next")
        self._next.on_click(lambda _: self.next_round())
        self._table = HTML()
        self._card_layout = w.Layout(width="60px", height="84px", border="1px solid #555", padding="0")
        self._pool: list[w.Button] = []
        self._action_pool: list[w.Button] = []   # buttons for actions without a card ("end the trick", ...)
        self._action_texts: list[str] = []
        self._hand = w.HBox(layout=shared("wrap"))
        self._actions = w.HBox(layout=shared("wrap"))
        self._msg = HTML()
        # the log: one HTML whose scroll box lists its content bottom-up (column-reverse), which keeps the
        # newest line in view (one widget model: each costs the page's load time)
        self._log = HTML()
        self._bar = w.HBox(buttons + [new, self._undo, self._hint, *extra], layout=shared("wrap"))
        # what happened since the human's last move and the Odds panel, below the hand and its choices: the
        # hand stays right under the table (the trick in play, whose turn), also on a phone's narrow screen
        self._happened = HTML()
        super().__init__([self._bar, self._table, self._hand, self._actions, self._happened, self._msg, self._log])
        self.add_class("ck-play")
        if resume is None:
            self.new_game()
        else:
            self.load(resume)

    # the session's state, as the view reads it --------------------------------------------------------
    @property
    def state(self):
        return self.session.state

    @state.setter
    def state(self, value) -> None:
        self.session.state = value

    @property
    def game(self):
        return self.session.game

    @property
    def people(self) -> tuple:
        return self.session.people

    @property
    def human(self) -> int:
        """The seat in front of the screen."""
        return self.session.human

    @human.setter
    def human(self, seat: int) -> None:
        self.session.human = seat

    @property
    def covered(self) -> bool:
        """Several people: the table hides every hand until `ready`."""
        return self.session.covered

    @covered.setter
    def covered(self, value: bool) -> None:
        self.session.covered = value

    @property
    def bots(self) -> dict:
        return self.session.bots

    @property
    def _turns(self) -> list:
        return self.session.turns

    @property
    def _notes(self) -> dict:
        return self.session.notes

    @property
    def several(self) -> bool:
        """Several people at this screen: the table is covered between their turns."""
        return self.session.several

    @property
    def _entries(self) -> list:
        """The log as the seat in front of the screen followed it, as far as he has looked: (history index,
        round, trick, line)."""
        return self.session.log()

    @property
    def _since(self) -> list[str]:
        """What happened since the seat in front of the screen last moved, a line each."""
        return self.session.since()

    @property
    def _recent(self) -> list:
        """The tricks completed since then: (title, Pile)."""
        return self.session.recent()

    @property
    def _moments(self) -> list[dict]:
        """The ends of rounds since then, not yet looked at."""
        return self.session.moments()

    def _name(self, seat: int) -> str:
        return self.session.name(seat)

    def ready(self) -> None:
        """"I am …, show my cards": the person whose turn it is takes the screen; the table is his."""
        if not self.covered:
            return
        self.session.ready()
        self._msg.value = ""
        self._refresh()
        self._focus()

    # options and questions --------------------------------------------------------------------------
    def toggle_options(self) -> None:
        """The Options… button: open the options, or close them when they are open."""
        if self._settings is not None and self._settings in self.children:
            self.children = [c for c in self.children if c is not self._settings]
            if self._opt is not None:
                self._opt.description = "Options…"
                self._opt.focus()
        else:
            self.show_options()

    def show_options(self) -> None:
        """Build the option dropdowns (once) and show them, each under a plain-words label linking to its
        rule; they apply from the next game. The same button closes them."""
        if self._opt is not None:
            self._opt.description = "Close options"
        if self._controls:
            if self._settings not in self.children:
                self.children = [self._bar, self._settings, *self.children[1:]]
            return
        self._settings = w.VBox(layout=shared("layout"))
        self.children = [self._bar, self._settings, *self.children[1:]]
        cls = cardkit.game_class(self.game_name)
        self._controls = {k: c for k, c in option_controls(cls, self.game.options).items() if k != "players"}
        specs = {o.name: o for o in cls.option_specs}
        self._seat_box = w.VBox(layout=shared("layout"))
        self._build_seats()
        rows = [HTML(SEATS_NOTE), self._seat_box,
                HTML("<div class='ck-note'><b>Options</b> — they apply from the next game (<b>New game</b>). "
                     "Each names the rule whose reading it switches.</div>")]
        for name, control in self._controls.items():
            control.observe(self._option_changed, names="value")
            rows += [HTML(option_heading(specs[name])), control]
        self._bot = w.Dropdown(options=[(BOT_WORDS.get(b, b), b) for b in self._bots], value=self._bot_name,
                               layout=w.Layout(width="auto", max_width="100%"),
                               tooltip="how the computer plays the other seats")
        self._bot.observe(self._bot_changed, names="value")
        rows += [HTML("<div class='ck-opt-label'>The computer's seats play</div>"), self._bot]
        self._settings.children = rows

    def _build_seats(self) -> None:
        """A dropdown per seat, named as the table names it: a person at this screen, or the computer (made
        once and reused when the number of seats changes)."""
        if self._seat_box is None:
            return
        if not hasattr(self, "_seat_controls"):
            self._seat_controls: list = []
            self._seat_style = DescriptionStyle(description_width="initial")
        names, seats = self.game.player_names(), self.game.deciders()
        while len(self._seat_controls) < len(seats):
            i = len(self._seat_controls)
            d = w.Dropdown(options=[(PERSON, True), (COMPUTER, False)], value=False, style=self._seat_style,
                           layout=shared("dropdown"))
            d.observe(lambda change, i=i: self._seat_changed(self._seats[i], change), names="value")
            self._seat_controls.append(d)
        self._seats = seats
        self._reverting = True
        try:
            for seat, d in zip(seats, self._seat_controls):
                d.description = names[seat]
                d.tooltip = f"who plays {names[seat]}: a person at this screen, or the computer"
                d.value = seat in self.session.seat_choice
        finally:
            self._reverting = False
        self._seat_box.children = self._seat_controls[:len(seats)]

    def _seat_changed(self, seat: int, change) -> None:
        if self._reverting:
            return
        choice = set(self.session.seat_choice) | {seat} if change["new"] else set(self.session.seat_choice) - {seat}
        if not choice:
            self._reverting = True
            try:
                change["owner"].value = True
            finally:
                self._reverting = False
            self._note("Someone has to play: at least one seat is a person at this screen.")
            return
        self.session.seat_choice = choice
        if not self.in_progress():
            self.new_game()
        else:
            self._note("The seats change at the next game: press New game.")

    def _option_changed(self, change) -> None:
        if self.in_progress():
            self._note("That option applies from the next game: press New game to deal with it.")

    def _bot_changed(self, change) -> None:
        self._bot_name = change["new"]
        if self.in_progress():
            self._note("The new opponents take their seats at the next game: press New game.")

    def in_progress(self) -> bool:
        """A game is under way that a new deal would throw away (`Table.in_progress`)."""
        return self.session.in_progress()

    def _ask(self, question: str, yes: str, on_yes, on_no=None) -> None:
        """Show a question with two buttons (built once, reused)."""
        if self._confirm is None:
            self._confirm = w.HBox(layout=shared("wrap"))
            k = self.children.index(self._table)
            self.children = [*self.children[:k], self._confirm, *self.children[k:]]
            self._question = HTML()
            self._yes = Button(description="", button_style="warning")
            self._no = Button(description="Keep playing")
            self._yes.on_click(lambda _: self._answer(True))
            self._no.on_click(lambda _: self._answer(False))
        self._question.value = f"<div class='ck-note ck-alert'><b>{escape(question)}</b></div>"
        self._yes.description = yes
        self._on_yes, self._on_no = on_yes, on_no
        self._confirm.children = [self._question, self._yes, self._no]

    def _close_question(self) -> None:
        if self._confirm is not None:
            self._confirm.children = []

    def _answer(self, yes: bool) -> None:
        on_yes, on_no = self._on_yes, self._on_no
        self._close_question()
        self._on_yes = self._on_no = None
        if yes and on_yes is not None:
            on_yes()
        elif not yes and on_no is not None:
            on_no()

    def ask_new_game(self) -> None:
        """New game — asking first while a game is under way."""
        if self.in_progress():
            self._ask("Deal a new game? The game under way will be lost.", "Yes, deal a new game", self.new_game)
        else:
            self.new_game()

    def _players_changed(self, change) -> None:
        if self._reverting:
            return
        if not self.in_progress():
            self.new_game()
            return

        def keep():
            self._reverting = True
            try:
                self._players.value = change["old"]
            finally:
                self._reverting = False
            self._note(f"Still {change['old']} players: the game goes on.")
        self._ask(f"Deal a new game with {change['new']} players? The game under way will be lost.",
                  f"Yes, {change['new']} players", self.new_game, keep)

    # game flow: the session moves, the view shows --------------------------------------------------
    def new_game(self, seed: int | None = None) -> None:
        opts = {**self._fixed, **{k: c.value for k, c in self._controls.items() if k != "players"}}
        if self._players is not None:
            opts["players"] = self._players.value
        self._close_question()
        self._waiting = False
        try:
            self.session.new_game(options=opts, seed=seed, bot=self._bot_name, on_wait=self._wait)
        except CardkitError as e:
            self._show_error(str(e))
            return
        self._msg.value = ""
        if self._players is not None:
            for notes in self._notes.values():
                notes.since.insert(0, (-1, f"A new game with {self.game.num_players} players."))
        self._build_seats()
        self._undo.tooltip = UNDO_SEVERAL if self.several else UNDO_ONE
        self._refresh()
        self._focus()

    def load(self, state) -> None:
        """Continue from `state` (a state of this table's game, e.g. a record's final state): its history is
        narrated anew as if played here (`Table.load`). With several people the table is covered: whoever is
        to play says so first."""
        self.session.load(state)
        self._undo.tooltip = UNDO_SEVERAL if self.several else UNDO_ONE
        self._close_question()
        self._msg.value = ""
        self._refresh()

    def _wait(self, thinker: str | None) -> None:
        """Before the computer moves: the page shows the table as it stands, the hand's buttons off (the kernel
        sends each change at once, so the visitor sees the move just made at once, however long the computer's
        turns take — a bank that weighs its odds, or in the browser, where Python runs slower); before a bot
        that thinks for a while (the expert), who is thinking. With several people the covered table (the next
        person may already be in front of the screen). When a move ended a round, what the page shows is that
        round's end (`_refresh`), not the next round the computer begins."""
        if not self._waiting:
            self._msg.value = ""         # the Hint or note of the position before the move goes with it
            self._refresh(thinking=True)
            self._waiting = True
        if thinker is not None:
            self._msg.value = _thinking_html(thinker)

    def _moment_html(self, m: dict) -> str:
        """The end of a round as the person in front of the screen sees it: the table as the round left it, its
        result right above the button that goes on."""
        box = (f"<div class='ck-moment ck-live'><div class='ck-moment-title'>{escape(m['ended'])} is over</div>"
               + (f"<p>{escape(m['result'])}</p>" if m["result"] else "") + "</div>")
        return table_html(m["state"].view(m["seat"]), bottom=m["seat"], recent=m["recent_piles"]) + box

    def _focus(self) -> None:
        """Bring the keyboard focus back to where the player acts next: the button that uncovers the table
        for the next person, the button that goes on from a moment, the first card he may play, or the first
        choice below the hand (a widget's own `focus`, a message the page's widget manager carries out: no
        page script)."""
        target = None
        if self.covered:
            target = self._ready_button
        elif self._moments:
            target = self._next
        elif self.state.current_player == self.human:
            target = next((b for b in self._hand.children if "ck-playable" in b._dom_classes), None) \
                or next(iter(self._actions.children), None)
        if target is not None:
            target.focus()

    def next_round(self) -> None:
        """Go on from the moment at the end of a round: to the next moment, or to the game as it stands."""
        if self.covered:
            return
        self.session.next_round()
        self._msg.value = ""
        self._refresh()
        self._focus()

    def play(self, action) -> bool:
        """Apply the action (object or text) of the seat in front of the screen, then the computer's moves.
        Returns False (and shows the rule, or why not) if it may not be made. With several people, the table
        is covered after it unless that seat plays on."""
        self._waiting = False
        try:
            self.session.play(action, on_wait=self._wait)
        except IllegalActionError as e:
            self._show_error(f"✗ {e.why} (rule {e.rule})")
            self._refresh()
            return False
        except Refused as e:
            self._show_error(str(e))
            return False
        self._close_question()
        self._msg.value = ""
        self._refresh()
        self._focus()
        return True

    def undo(self) -> None:
        """Back to the previous decision of the seat in front of the screen (`Table.undo`: alone, with the
        cards the human has not seen dealt anew; with several people only his own choices while nothing has
        followed them)."""
        try:
            said = self.session.undo()
        except Refused as e:
            self._show_error(str(e))
            return
        self._close_question()
        self._note(said)
        self._refresh()
        self._focus()

    def hint(self, playouts: int | None = None) -> None:
        """What the expert would play and why, then the cards the human may play and what each would do
        (the narration of the move, with its rule), and why each other card may not be played (the rule
        it breaks); where the game computes odds, its exact figures.

        The expert is asked from the human's seat only: it gets a state resampled for the human (the
        cards the human has not seen dealt anew), and deals them anew itself for every sample, so what it
        says depends only on what the human has seen. `playouts`: its budget (default: the Hint's time, `Table.hint`;
        on the static site the Hint worked out while the visitor thought, at the game's fixed playouts: `_plan_hint`)."""
        s = self.state
        if self.covered or s.current_player != self.human:
            self._note("The game is over." if s.is_terminal() else "The cards are hidden." if self.covered
                       else "Wait for your turn.")
            return
        legal = s.legal_actions()
        ahead = self._ahead.get(self._position()) if playouts is None else None
        if len(legal) > 1 and (ahead is None or not ahead.done):
            # sent at once: the page says so while the expert thinks (up to `table.HINT_MS`, or what is left of
            # the Hint worked out ahead)
            self._msg.value = _thinking_html("The expert")
        if ahead is not None:
            estimates, advice = ahead.finish(), s.advice(self.human)
        else:
            estimates, advice = self.session.hint(s, playouts)
        cards_played = any(a.card is not None for a in legal)
        worse = {}
        if estimates:
            best = estimates[0].mean
            worse = {e.text: best - e.mean for e in estimates}
        items = []
        rank = {e.text: i for i, e in enumerate(estimates)}
        by_text = {e.text: e for e in estimates}
        for a in sorted(legal, key=lambda a: rank.get(a.text, 0)):      # the expert's order, best first
            says = ""
            does = escape(s.describe(a))
            if a.text in by_text and by_text[a.text].facts:
                outcome = self._outcome(s, by_text[a.text])
                does += f" <small>{escape(outcome[0].upper() + outcome[1:])}.</small>"
            if estimates:
                gap = worse.get(a.text, 0.0)
                says = (" <small>(the expert's choice)</small>" if a.text == estimates[0].text else
                        " <small>(about as good, for the expert)</small>" if no_difference(abs(gap), estimates[0])
                        else f" <small>(the expert expects {self._gain(-gap, estimates[0].unit)}, but not beyond "
                             "doubt)</small>" if gap < 0 else
                        f" <small>(the expert expects {self._gain(gap, estimates[0].unit, less=True)})</small>")
            items.append(f"<li><b>{escape(a.label)}</b>{says}: {does}</li>")
        hand = s.view(self.human).seats[self.human].hand
        playable = {a.card for a in legal if a.card is not None}
        refused: dict = {}                       # the cards refused for the same reason, together
        for c in dict.fromkeys(hand if cards_played else ()):   # (no card is played now: a stake, a draw)
            if c is None or c in playable:      # a card not looked at yet: nothing to say of it
                continue
            try:
                s.parse_action(c.text)
            except IllegalActionError as e:
                general = e.why.replace(c.label, "it")
                key = (general if "the it" not in general else e.why, e.rule)
                refused.setdefault(key, []).append((c, e.why))
        for (general, rule), cards in refused.items():
            why = cards[0][1] if len(cards) == 1 else general
            names = ", ".join(f"<b>{escape(c.label)}</b>" for c, _ in cards)
            items.append(f"<li>{names} may not be played now: {escape(why)} (rule {escape(rule)})</li>")
        head = self._expert_says(s, legal, estimates)
        odds = "".join(f"<li>{escape(o.label)}: {odds_figure(o)}</li>" for o in advice)
        odds = (f"<div><b>The odds</b> (exact, counted over the cards you have not seen):<ul>{odds}</ul></div>"
                if odds else "")
        self._msg.value = self._links(f"<div class='ck-hint ck-live'><b>Hint</b>{head}<div>What each "
                                      f"choice would do:<ul>{''.join(items)}</ul></div>{odds}</div>")

    def expert_estimates(self, state, playouts: int | None = None, ms: float | None = None,
                         seat: int | None = None, explain: bool = False) -> list:
        """The expert's estimates for a decision, asked from the human's seat only (`Table.expert_estimates`)."""
        return self.session.expert_estimates(state, playouts, ms, seat, explain)

    def _gain(self, x: float, unit: str = "points", less: bool = False) -> str:
        return self.session.gain_words(x, unit, less)

    def _lead_words(self) -> str:
        return self.session.lead_words()

    def _unit_note(self, unit: str) -> str:
        """A line saying what the figures count (the points that decide the game are counted both ways)."""
        if unit == "win":
            return ""
        if game_facts(self.state.game)["sign"] < 0:          # the lowest score wins (24)
            return (f" <small>(The lowest score wins: the expert weighs a move by {self._lead_words()}, their "
                    "points minus yours, so points that come off your score instead of theirs count twice.)</small>")
        return (f" <small>(The expert weighs a move by {self._lead_words()}: your points minus theirs, so "
                "points that go to you instead of to them count twice.)</small>")

    def _expert_says(self, s, legal, estimates) -> str:
        """The Hint's first lines: the expert's choice, what it expects over the next best, and why."""
        if len(legal) == 1:
            return f"<p>You have one choice only: <b>{escape(legal[0].label)}</b>.</p>"
        by_text = {a.text: a for a in legal}
        best, second = estimates[0], estimates[1]
        a, b = by_text.get(best.text, best.action), by_text.get(second.text, second.action)
        gap = best.mean - second.mean
        other = _named(b)
        if no_difference(abs(gap), best):
            expect = f"It sees no real difference between it and {other}."
        elif gap < 0:
            # the expert keeps to the rule-based player's move unless another is better beyond doubt (its test of
            # the paired samples), so its choice may have come out below another in these samples
            expect = (f"With {other} it expects {self._gain(-gap, best.unit)}, but not beyond doubt, and it keeps "
                      "to the rule-based player's move unless another is better beyond doubt.")
        elif within_noise(best, second):
            expect = (f"It sees little between it and {other}: {self._gain(gap, best.unit)}, which "
                      "is within its margin of error.")
        else:
            expect = (f"It expects {self._gain(gap, best.unit)} than with your next best "
                      f"choice, {other}.")
        tried = (f"It dealt the cards you have not seen anew {plural(best.samples, 'time')} and played each "
                 "choice out.")
        if best.facts and second.facts:
            why = (f"<b>Why:</b> {self._with(a)}, {escape(self._outcome(s, best))}; {self._with(b)}, "
                   f"{escape(self._outcome(s, second))}.")
        else:                                   # (an expert that gathered no facts: the move in words)
            why = f"<b>Why:</b> {escape(s.describe(a))}"
        verb = "play" if a.card is not None else "choose"
        return f"<p><b>The expert would {verb}</b> {_named(a)}. {expect} <small>{tried}</small></p><p>{why}</p>"

    @staticmethod
    def _with(action) -> str:
        """An action as the "why" names it: "with <b>K♠</b>", "choosing <b>“stand”</b>"."""
        card = action.card is not None and action.label == action.card.label
        return f"with {_named(action)}" if card else f"choosing {_named(action)}"

    def _outcome(self, s, estimate) -> str:
        return self.session.outcome_words(s, estimate)

    def toggle_odds(self) -> None:
        """Show or hide the Odds panel: the game's exact odds for the human's decision, kept up to date
        after every move while it is shown."""
        self._odds_on = not self._odds_on
        self._refresh()

    def odds_html(self) -> str:
        """The Odds panel for the position in front of the human (empty when hidden or not the human's
        turn): each figure exact, as a fraction and a percentage or an amount."""
        if not self._odds_on or self.covered:
            return ""
        s = self.state
        if s.current_player != self.human:
            return "<div class='ck-odds'><b>Odds</b> — shown when it is your turn.</div>"
        if self.think_ahead and kernel_loop() is not None:   # the static site: the table first, the odds just after
            position = self._position()
            if self._counted is None or self._counted[0] != position:
                self._counted = (position, None)
                later(0, lambda: self._count_odds(position))
            if self._counted[1] is None:
                return "<div class='ck-odds'><b>Odds</b> — counting over the cards you have not seen…</div>"
            advice = self._counted[1]
        else:
            advice = s.advice(self.human)
        rows = "".join(f"<tr><td>{escape(o.label)}" + (f"<br><small>{escape(o.note)}</small>" if o.note else "")
                       + f"</td><td class='ck-odds-fig'>{odds_figure(o)}</td></tr>" for o in advice)
        body = f"<table class='ck-table'>{rows}</table>" if rows else "<p>No figures for this decision.</p>"
        return (f"<div class='ck-odds'><b>Odds</b> — exact, counted over the cards you have not "
                f"seen:{scroll_x(body, 'Odds')}</div>")

    def _count_odds(self, position: tuple) -> None:
        """The Odds panel's figures for `position`, counted just after the table was shown there (`odds_html`
        with `think_ahead`), then shown if the table is still there."""
        if (self._counted is None or self._counted[0] != position or position != self._position()
                or not self._odds_on or self.covered):
            return
        self._counted = (position, self.state.advice(self.human))
        if not self._moments:
            self._happened.value = self._links(happened_html(self._since) + self.odds_html())

    def _ck_notice(self, text: str) -> None:
        """One short line for the visitor (the kernel's guard calls it when a message to this table fails)."""
        self._show_error(text)

    # display --------------------------------------------------------------------------------------
    def _links(self, escaped_html: str) -> str:
        """Rule IDs in the table's words ("[S7-2.4]", "rule M7-8.2") as links to the rules on the page."""
        return link_rule_ids(escaped_html, self.game.rulebook.href)

    def _show_error(self, text: str) -> None:
        self._msg.value = self._links(f"<div class='ck-error ck-alert'>{escape(text)}</div>")

    def _note(self, text: str) -> None:
        self._msg.value = self._links(f"<div class='ck-note ck-live'>{escape(text)}</div>")

    def _card_button(self, i: int, card, marks=(), face: str = "") -> w.Button:
        """Button i of the pool, showing `card` with the CSS classes `marks` and how it lies (`face`, see
        `hand_faces`; buttons are made once and reused)."""
        while len(self._pool) <= i:
            b = w.Button(layout=self._card_layout, style=shared("button"))
            b.add_class("ck-card")
            b.on_click(lambda _, i=len(self._pool): self._click_card(i))
            self._pool.append(b)
        b = self._pool[i]
        if card is None:                         # face down, not looked at: its back, and no name
            classes, b.description, b.tooltip = ["ck-card", "ck-back"], "", FACE_WORDS["back"]
        else:
            # the card's colour and size are CSS classes (render.CSS), not a ButtonStyle model per kind
            classes = ["ck-card", f"ck-ink-{card.color if card.color in _CARD_COLORS else 'black'}"]
            if len(card.label) > 3:
                classes.append("ck-long")
            if face:
                classes.append(f"ck-face-{face}")
            b.description = card.label
            b.tooltip = f"{card.name} — {FACE_WORDS[face]}" if face else card.name
        classes += marks
        if list(b._dom_classes) != classes:
            b._dom_classes = classes
        return b

    def _action_button(self, i: int, action) -> w.Button:
        """Button i of the action pool, showing `action` (made once and reused, as the card buttons)."""
        while len(self._action_pool) <= i:
            b = Button(button_style="info")
            b.add_class("ck-action")
            b.on_click(lambda _, i=len(self._action_pool): self._click_action(i))
            self._action_pool.append(b)
            self._action_texts.append("")
        b = self._action_pool[i]
        b.description = action.label
        self._action_texts[i] = action.text
        return b

    def _click_action(self, i: int) -> None:
        if self.covered or self._moments:        # the moment's own button goes on; the game's wait
            return
        if 0 <= i < len(self._actions.children):
            self.play(self._action_texts[i])

    def _click_card(self, i: int) -> None:
        if self.covered or self._moments:
            return
        hand = self.state.view(self.human).seats[self.human].hand
        if not 0 <= i < len(hand):
            return
        card = hand[i]
        if card is None:
            self._note(f"That card lies {FACE_WORDS['back']}.")
            return
        match = [a for a in self.state.legal_actions() if a.card is card]
        self.play(match[0] if len(match) == 1 else card.text)

    def outcome(self) -> str:
        """'won', 'lost' or 'draw' for the human once the game is over ('' before)."""
        return self.session.outcome()

    def _refresh(self, thinking: bool = False) -> None:
        """Show the state; `thinking`: while a bot thinks, with the hand's buttons off. While the end of a
        round waits to be looked at, that moment is shown instead, with one button to go on (off while the
        computer plays on into the next round). With several people, between two turns (and while the computer
        thinks) the covered table."""
        if self.covered or (thinking and self.several):
            self._show_cover(thinking)
            return
        if self._moments and not self.state.is_terminal():
            m = self._moments[0]
            announce = happened_html([line for _, line in m["since"]])
            self._table.value = self._links(self._moment_html(m))
            self._happened.value = self._links(announce)
            self._hand.children = []
            more = len(self._moments) - 1
            coming = f"{m['coming'][:1].lower()}{m['coming'][1:]}"
            # the next round was played to its end without the human (a coup he banked): see it, then play on
            self._next.description = f"See {coming} ▸" if more else f"Play {coming} ▸"
            self._next.disabled = thinking
            self._actions.children = [self._next]
            self._undo.disabled = thinking or not self._own_moves()
            self._hint.disabled = True
            self._show_log()
            self._show_review_button()
            return
        s = self.state
        view = s.view(self.human)
        my_turn = s.current_player == self.human and not thinking
        faces = hand_faces(s, self.human)
        announce = happened_html(self._since)
        yours = f"Your hand, {escape(self._name(self.human))}" if self.several else "Your hand"
        caption = f"<b>{yours}</b> — click a card to {escape(view.hand_action or 'play it')}" + \
            ((" (the cards you may choose are outlined in green):" if view.hand_action else
              " (the cards you may play are outlined in green):") if my_turn else ":")
        if not view.seats[self.human].hand:        # nothing in hand (yet): no caption for an empty row
            caption = ""
        elif my_turn and not any(a.card is not None for a in view.legal):
            caption = f"<b>{yours}</b> (no card to click now: choose below):"   # e.g. a stake to place
        if caption:
            caption += faces_caption(faces)
        last = ""
        if s.is_terminal():                      # the game is over: the last rounds' results lead the table
            results = self.session.last_results()
            if results:
                last = ("<div class='ck-moment ck-live'><div class='ck-moment-title'>The last result"
                        f"{'s' if len(results) > 1 else ''}</div>" + "".join(f"<p>{escape(r)}</p>" for r in results)
                        + "</div>")
        self._table.value = self._links(last + table_html(view, bottom=self.human, hand_elsewhere=True,
                                                          recent=self._recent, outcome=self.outcome())) + caption
        self._happened.value = self._links(announce + self.odds_html())
        hand = view.seats[self.human].hand
        playable = {a.card for a in view.legal if a.card is not None}
        marks = [("ck-playable",) if my_turn and c in playable else ("ck-unplayable",) if my_turn else ()
                 for c in hand]
        self._hand.children = [self._card_button(i, c, m, f)
                               for i, (c, m, f) in enumerate(zip(hand, marks, faces))]
        for b in self._hand.children:
            b.disabled = not my_turn
        other = [a for a in view.legal if a.card is None]
        self._actions.children = [self._action_button(i, a) for i, a in enumerate(other)]
        self._undo.disabled = thinking or not self._own_moves()
        self._hint.disabled = not my_turn
        self._show_log()
        self._show_review_button()
        if not thinking:
            self._keep()
            self._plan_hint()

    def _position(self) -> tuple:
        """What the Hint depends on: the state, how far it has come, its last move, the seat in front of the screen."""
        s = self.state
        return id(s), len(s.history), s.history[-1].text if s.history else "", self.human

    def _plan_hint(self) -> None:
        """With `think_ahead`, at the person's decision: start working out its Hint in the background (a step at
        a time on the kernel's event loop, any click going first), so that "Hint" answers at once or sooner."""
        s = self.state
        if (not self.think_ahead or self.covered or s.is_terminal() or s.current_player != self.human
                or len(s.legal_actions()) < 2):
            return
        self._ahead.begin(self._position(), lambda: self.session.hint_work(s), self._position)

    def _own_moves(self) -> bool:
        """Whether the seat in front of the screen has made a move in this game (Undo has something to try)."""
        return self.session.own_moves()

    def _show_cover(self, thinking: bool = False) -> None:
        """The covered table between two people's turns: whose turn it is, the people and the computer's
        seats, and the button with which the next person takes the screen. Nothing of any hand: no card, no
        log, no line that depends on a card; the card and action buttons kept for later are emptied too (the
        page keeps every widget's last values, shown or not)."""
        s = self.state
        names = self.game.player_names()
        computer = [names[p] for p in range(len(names)) if p not in self.people]
        who = (f"At this screen: {and_words(names[p] for p in self.people)}"
               + (f"; the computer plays {and_words(computer)}." if computer else ".")
               + (" Options… sets who plays each seat." if self._opt is not None else ""))
        if thinking or s.current_player not in self.people:
            title, text = "The cards are hidden", "The computer is playing; then the screen names who plays next."
            self._actions.children = []
        else:
            name = escape(names[s.current_player])
            title = f"{name}’s turn"
            text = (f"Pass the screen to {name}. The cards stay hidden until {name} presses “I am {name}, show my "
                    "cards”.")
            if self._ready_button is None:
                self._ready_button = Button(button_style="primary", tooltip="show the cards of the player whose "
                                            "turn it is: only that player looks")
                self._ready_button.add_class("ck-ready")
                self._ready_button.on_click(lambda _: self.ready())
            self._ready_button.description = f"I am {names[s.current_player]}, show my cards"
            self._actions.children = [self._ready_button]
        self._table.value = (f"<div class='ck-cover ck-live'><div class='ck-cover-title'>{title}</div>"
                             f"<p>{text}</p><p><small>{escape(who)}</small></p></div>")
        self._hand.children = []
        for b in self._pool:
            if b.description or b.tooltip or list(b._dom_classes) != ["ck-card"]:
                b.description, b.tooltip, b._dom_classes = "", "", ["ck-card"]
        for b in self._action_pool:
            b.description = ""
        self._action_texts = [""] * len(self._action_pool)
        self._happened.value = ""
        self._log.value = ""
        self._undo.disabled = True         # the turn has passed: the move stands (`Table.why_no_take_back`)
        self._hint.disabled = True
        self._show_review_button()
        if not thinking:
            self._keep()

    def _keep(self) -> None:
        """On the site, keep the game for this visitor (`kept_game`): should the table close (the culler
        shuts a kernel left alone for five minutes) or the page be reloaded, the page offers it again. The
        whole record is kept in the server's folder, never sent to the page; files older than
        `KEEP_SECONDS` are removed."""
        f = _kept_file(self.game_name)
        if f is None or not self._kept:
            return
        data = self.session.kept()
        try:
            tmp = f.with_name(f.name + ".tmp")
            tmp.write_text(json.dumps(data), encoding="utf-8")
            os.chmod(tmp, 0o600)
            tmp.replace(f)
            now = time.time()
            for old in f.parent.glob("*.json"):
                if now - old.stat().st_mtime > KEEP_SECONDS:
                    old.unlink(missing_ok=True)
        except OSError:
            pass
        browser_store.persist()


    # the review ---------------------------------------------------------------------------------------
    def _show_review_button(self) -> None:
        """Once the game is over, "Review my game" under the log (built at the first game's end, taken
        away when a new game is dealt)."""
        box = self._review_box
        if not self.state.is_terminal():
            if box is not None and box in self.children:
                self.children = [c for c in self.children if c is not box]
            return
        if box is None:
            self._review_buttons: list = []
            self._review_out = HTML()
            box = self._review_box = w.VBox(layout=shared("layout"))
            box.add_class("ck-review-box")
        if box not in self.children:
            # one button, or with several people one each: the review is asked from that person's seat
            seats = list(self.people) if self.several else [None]
            while len(self._review_buttons) < len(seats):
                b = Button(button_style="info")
                b.on_click(lambda _, i=len(self._review_buttons): self.review(seat=self._review_seats[i]))
                self._review_buttons.append(b)
            self._review_seats = seats
            for b, seat in zip(self._review_buttons, seats):
                b.disabled = False
                if seat is None:
                    b.description = "Review my game"
                    b.tooltip = ("the expert looks at each of your decisions, from your seat, and shows where it "
                                 "would have played differently")
                else:
                    name = self._name(seat)
                    b.description = f"Review {name}’s game"
                    b.tooltip = (f"the expert looks at each of {name}’s decisions, from {name}’s seat, and shows "
                                 "where it would have played differently")
            self._review_button = self._review_buttons[0]
            self._review_out.value = ""
            buttons = self._review_buttons[:len(seats)]
            box.children = [*(buttons if len(buttons) == 1 else [w.HBox(buttons, layout=shared("wrap"))]),
                            self._review_out]
            self.children = [*self.children, box]

    def review(self, playouts: int | None = None, seconds: float = REVIEW_SECONDS, seat: int | None = None) -> list[dict]:
        """Review the finished game (`Table.review`: the expert asked at each of the human's decisions, from his
        seat only); progress shows while it runs. The moves where it differs are listed with what it expected
        to gain, and a replay from the human's view steps to each (the positions as the human saw them, never
        the bots' hidden cards). Returns the differing moves. With several people, `seat`: whose game."""
        if not self.state.is_terminal():
            self._note("The review comes when the game is over.")
            return []
        if seat is not None and seat in self.people and seat != self.human:
            self.human = seat
            self._refresh()
        self._show_review_button()
        for b in self._review_buttons:
            b.disabled = True

        def progress(done: int, n: int) -> None:
            self._review_out.value = (
                f"<div class='ck-note'>The expert is reviewing your decisions: {done + 1} of "
                f"{n}… <progress max='{n}' value='{done}'></progress></div>")
        found, agreed, n = self.session.review(playouts, seconds, progress=progress)
        self._review_found = found
        self._show_review(found, agreed, n)
        return found

    def _show_review(self, found, agreed: int, n: int) -> None:
        """The review's lists (the clear differences, then the close calls folded away), a menu of their
        moves and the replay from the human's view."""
        whole = self.state.to_record()

        def item(f) -> str:
            where = f" ({escape(f['where'])})" if f["where"] else ""
            return (f"<li><b>Step {f['step']}</b>{where}: you chose {_named(f['played'])}; the expert would have "
                    f"chosen {_named(f['expert'])}, expecting {self._gain(f['gain'], f['unit'])}."
                    f"{moment_links(whole, f['step'])}</li>")
        clear = [f for f in found if not f["close"]]
        close = [f for f in found if f["close"]]
        body = (f"<b>Your game, reviewed by the expert.</b> It looked at your {plural(n, 'decision')} (every "
                "move where you had a choice) from your seat: each time it dealt the cards you had not seen "
                "anew, since you could only guess them. ")
        if not n:
            body += "You had no choice to make in this game."
        elif not found:
            body += "It agrees with every one of them."
        else:
            body += f"It agrees with {agreed} of them." + self._unit_note(found[0]["unit"])
            if clear:
                body += (f" Where it would clearly have played differently (step by step in the replay below):"
                         f"<ol>{''.join(item(f) for f in clear)}</ol>")
            else:
                body += " Nowhere would it clearly have played differently."
            if close:
                body += (f"<details><summary>{plural(len(close), 'close call')}: it would have played "
                         f"differently, but the difference is within its margin of error</summary>"
                         f"<ol>{''.join(item(f) for f in close)}</ol></details>")
        # read out (the page's live region): the review is ready, and what it found in one sentence
        said = (f"The review is ready: the expert looked at your {plural(n, 'decision')} and "
                + ("found none, as you had no choice to make." if not n else
                   "agrees with every one." if not found else
                   f"agrees with {agreed}; it would have played differently at "
                   f"{plural(len(found), 'move')}"
                   + (f", {'one of them a close call' if len(close) == 1 else f'{len(close)} of them close calls'}."
                      if close else ".")))
        self._review_out.value = self._links(f"<div class='ck-review'><span class='ck-live' style='{SR_ONLY}'>"
                                             f"{escape(said)}</span>{body}</div>")
        children = [self._review_out]
        if found:
            record = self.state.to_record(title="Your game, as you saw it", description=(
                "Every position as you saw it at the time: the cards of the other players that you did not "
                "see stay hidden."))
            from .replay import Replay
            self._review_replay = Replay(record, viewer=self.human)
            steps = clear + close
            pick = w.Dropdown(options=[("Go to a move the expert would have played differently…", -1)] + [
                (f"Step {f['step']}: you chose {f['played'].label}, the expert {f['expert'].label}"
                 + (" (a close call)" if f["close"] else ""), f["step"]) for f in steps],
                value=-1, layout=shared("dropdown"), style=shared("description"),
                tooltip="show the position before that move in the replay")
            pick.observe(lambda ch: self._review_replay.go(ch["new"]) if ch["new"] >= 0 else None, names="value")
            self._review_pick = pick
            children += [pick, self._review_replay]
            self._review_replay.go(steps[0]["step"])
        if self.several:      # the others' reviews stay at hand (each replaces this one)
            for b, seat in zip(self._review_buttons, self._review_seats):
                b.disabled = seat == self.human
            children.insert(0, self._review_box.children[0])
        self._review_box.children = children

    def _show_log(self) -> None:
        """The whole game grouped by round and trick; once the game is over, the review: the score table
        and the record to download."""
        s = self.state
        body = "<b>Game log</b>" + self._links(_log_html(self._entries))
        if s.is_terminal():
            table = s.score_table()
            body += (f"<div class='ck-review'><b>The game is over.</b> {escape(s.view(self.human).result)}"
                     f"{scroll_x(table.html(), table.caption or 'The scores')}"
                     f"{record_link(s, f'{self.game_name}-game.json')}</div>")
        self._log.value = f"<div class='ck-logbox'><div>{body}</div></div>"


KEEP_SECONDS = 3600       # the site keeps a visitor's table this long after its last change (see `kept_game`)


def _kept_file(game: str) -> Path | None:
    """Where the site keeps this visitor's table of `game`: the folder the server gives its kernels
    (CARDKIT_TABLES) and the visitor's key (HTTP_X_CARDKIT_VISITOR, an HMAC the server makes of the
    visitor's anonymous identity: cardkit/voila_template/site_app.py); on the static site, a folder in the
    visitor's own browser (`browser_store`: the browser is the visitor). None anywhere else (a notebook, a
    test): nothing is kept there."""
    if not re.fullmatch(r"[a-z0-9_]+", game):
        return None
    if STATIC_SITE:
        folder = browser_store.folder()
        return folder / f"{game}.json" if folder is not None else None
    tables, key = os.environ.get("CARDKIT_TABLES"), os.environ.get("HTTP_X_CARDKIT_VISITOR", "")
    if not tables or not re.fullmatch(r"[0-9a-f]{64}", key):
        return None
    return Path(tables) / f"{key}-{game}.json"


def kept_game(game: str) -> dict | None:
    """The visitor's table of `game` as the site kept it (within `KEEP_SECONDS`): {"saved", "record",
    "human", "bot"}, or None. It lives in the server's folder; only the table's view of it reaches a page."""
    f = _kept_file(game)
    try:
        data = json.loads(f.read_text(encoding="utf-8")) if f is not None else None
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or time.time() - data.get("saved", 0) > KEEP_SECONDS:
        return None
    return data


HAPPENED_LINES = 12        # "What happened" shows at most this many of the latest lines (the log has them all)


def _thinking_html(who: str) -> str:
    """The note while `who` (a seat of the computer, or the expert behind the Hint) thinks: its spinner is CSS."""
    return f"<div class='ck-note ck-thinking'>{escape(who)} is thinking…</div>"


def happened_html(lines: list[str]) -> str:
    """What happened since the human's last move, the latest `HAPPENED_LINES` lines (a long run of the bots'
    moves, as a Faro deal dealt out after "no more stakes", is in the game log below), in a live region."""
    if not lines:
        return ""
    shown = lines[-HAPPENED_LINES:]
    skipped = len(lines) - len(shown)
    start = f" start='{skipped + 1}'" if skipped else ""
    more = (f"<p class='ck-more'><small>{plural(skipped, 'earlier line')} since your move: in the game log "
            "below.</small></p>" if skipped else "")
    items = "".join(f"<li>{escape(x)}</li>" for x in shown)
    return (f"<div class='ck-announce ck-live'><b>What happened</b>{more}<ol{start}>{items}</ol>"
            "</div>")


def kernel_loop():
    """The kernel's event loop (Jupyter's and Pyodide's alike), or None where no loop runs (a script, a test)."""
    try:
        return asyncio.get_running_loop()
    except RuntimeError:
        try:
            loop = asyncio.get_event_loop()
        except RuntimeError:
            return None
        return loop if loop.is_running() else None


class WorkAhead:
    """Work for one position (a `cardkit.bots.Steps`: a table's or an example's Hint), begun before it is asked
    for and stepped on the kernel's event loop, whatever the page sends handled first, while the position is the
    one it was begun for (a move stops it: its samples would serve no Hint); dropped if a step fails (the click
    then works it out itself). Work a move left unfinished is kept until other work takes its place: back at its
    position (an example stepped back to it), it goes on where it stopped."""

    def __init__(self) -> None:
        self.key: Any = None        # what the work depends on (the position)
        self.work: Any = None
        self._task: Any = None      # (the loop holds its tasks only weakly)

    def get(self, key):
        """The work begun for `key`, or None."""
        return self.work if self.work is not None and self.key == key else None

    def begin(self, key, make, now) -> None:
        """Begin `make()`'s work for `key`, or step on the work for `key` left unfinished, until it is done or
        `now()` (the position on screen) is no longer `key`; nothing where no loop runs (a script, a test)."""
        loop = kernel_loop()
        if loop is None:
            return
        work = self.get(key)
        if work is None:
            work = self.work = make()
            self.key = key
        elif work.done or self._task is not None and not self._task.done():
            return

        async def run() -> None:
            try:
                while self.work is work:
                    await asyncio.sleep(0)
                    if self.work is not work or now() != key or work.step():
                        return
            except Exception:
                if self.work is work:
                    self.key = self.work = None
        self._task = loop.create_task(run())


def later(seconds: float, fn) -> None:
    """Call `fn` after `seconds` on the kernel's event loop; nothing where no loop runs (a script, a test)."""
    loop = kernel_loop()
    if loop is not None:
        loop.call_later(seconds, fn)


def _log_html(entries) -> str:
    """Log entries (history index, round, trick, line) as HTML: a heading per round, a numbered list per
    trick."""
    out, rnd, trick, open_list = [], None, None, False
    for _, r, t, line in entries:
        if r != rnd:
            if open_list:
                out.append("</ol>")
                open_list = False
            if r:
                out.append(f"<h4>{escape(r)}</h4>")
            rnd, trick = r, None
        if t != trick:
            if open_list:
                out.append("</ol>")
            if t:
                out.append(f"<div class='ck-trick-no'>{escape(t)}</div>")
            out.append("<ol class='ck-log'>")
            open_list, trick = True, t
        elif not open_list:
            out.append("<ol class='ck-log'>")
            open_list = True
        out.append(f"<li>{escape(line)}</li>")
    if open_list:
        out.append("</ol>")
    return "".join(out)


class Play(w.VBox):
    """The play table one click away, as a game page shows it: one button that deals the first game and
    puts a `PlayTable` in its place. A reader who never plays does not load the table's ~20 widget models
    with the page (each costs the page's time until it is interactive); a player clicks once. The
    arguments are `PlayTable`'s, checked at once (a bad game or option fails where the page is built)."""

    def __init__(self, game: str, **table_args):
        table_keys = ("human", "bot", "seed", "show_options", "keep", "people", "resume")
        cls = cardkit.game_class(game)
        game_ = cls(**{k: v for k, v in table_args.items() if k not in table_keys})   # the options, checked now
        if "bot" in table_args and table_args["bot"] not in bots_for(game_):
            raise CardkitError(f"no bot {table_args['bot']!r} for {cls.title}; bots: {', '.join(bots_for(game_))}")
        if table_args.get("people") is not None:
            check_people(game_, table_args["people"])
        self.game_name, self._args = game, table_args
        self.table: PlayTable | None = None
        start = Button(description="Deal the cards ▸", button_style="primary",
                       tooltip=f"deal a game of {cls.title} and play it against the computer")
        start.add_class("ck-play-start")
        start.on_click(lambda _: self.start())
        # friends at one screen: the first two seats that choose are people (Options… seats them otherwise), at
        # the page's player count or the next that has two such seats (Faro: the bank only turns the cards)
        self._friends = _friends_table(cls, {k: v for k, v in table_args.items() if k not in table_keys})
        friends = Button(description="Play with friends ▸", tooltip=(
            "two or more people take turns at this screen: the table hides each player's cards from the others"))
        friends.add_class("ck-play-friends")
        friends.on_click(lambda _: self.start(**self._friends))
        self._start, self._friends_button = start, friends
        self._buttons = [Box([start, friends] if self._friends else [start])]
        # in the static site the computer's cards are dealt in the visitor's own browser: say so, in plain words
        self._practice = [HTML(PRACTICE_NOTE)] if STATIC_SITE else []
        super().__init__([*self._buttons, *self._practice], layout=shared("layout"))
        if table_args.get("keep", True):
            self._offer_kept()
            if STATIC_SITE:     # the browser's folder is filled a moment after Python starts: offer it then
                browser_store.when_ready(self._offer_kept)

    def _offer_kept(self) -> None:
        """Offer the visitor's kept game (`kept_game`: from before the table closed, or a reload), if there is
        one and no table has been dealt yet: "Back to your game ▸" beside new cards."""
        kept = kept_game(self.game_name)
        if kept is None or self.table is not None:
            return
        try:
            state = cardkit.Record.loads(kept["record"]).final_state()
        except (CardkitError, KeyError, TypeError, ValueError):
            return
        title = cardkit.game_class(self.game_name).title
        ago = max(1, round((time.time() - kept["saved"]) / 60))
        where = " · ".join(x for x in state.progress() if x)
        what = "finished" if state.is_terminal() else "in progress" + (f" ({where})" if where else "")
        why = ("a reload starts the page anew, and this browser kept it" if STATIC_SITE else
               "the table closes when the page is left alone for five minutes, and a reload starts the page anew")
        note = HTML(f"<div class='ck-note ck-kept' role='status'>Your game of {escape(title)} from "
                    f"{plural(ago, 'minute')} ago, {escape(what)}, was kept: {why}. Go back to it, "
                    "or deal new cards.</div>")
        back = Button(description="Back to your game ▸", button_style="primary",
                      tooltip="the game as you left it: the same cards, the same moves")
        back.add_class("ck-play-resume")
        back.on_click(lambda _: self.resume())
        self._start.description, self._start.button_style = "Deal new cards ▸", ""
        buttons = [back, self._start] + ([self._friends_button] if self._friends else [])
        self.children = [note, Box(buttons), *self._practice]

    def start(self, **friends) -> "PlayTable":
        """Deal and show the table (once; later calls return the same table); `friends`: arguments in place of
        the page's (`people`, the seats people play at this screen, and the player count they need)."""
        if self.table is None:
            self.table = PlayTable(self.game_name, **{**self._args, **friends})
            self.children = [self.table, *self._practice]
            # the button that had the focus is gone: give it to the table's first choice once the page has
            # built the table's views (their models are new, so a focus sent at once would find no view)
            later(0.8, self.table._focus)
        return self.table

    def resume(self) -> "PlayTable | None":
        """The visitor's kept game (`kept_game`) at a table, as it was left: the log narrated anew, Undo back
        to each of the player's decisions in it. Nothing of it but the table's view goes to the page."""
        if self.table is not None:
            return self.table
        kept = kept_game(self.game_name)
        if kept is None:
            return self.start()           # gone meanwhile: a new game
        try:
            record = cardkit.Record.loads(kept["record"])
            state = record.final_state()
        except (CardkitError, KeyError, TypeError, ValueError):
            return self.start()           # gone meanwhile: a new game
        args = {k: v for k, v in self._args.items() if k not in ("seed",)}
        args.update(record.options)
        args["human"], args["bot"] = kept.get("human", 0), kept.get("bot", args.get("bot", "rule-based"))
        args["people"] = kept.get("people") or [args["human"]]
        args["keep"] = False              # (the kept game is kept again once the table shows it)
        self.table = PlayTable(self.game_name, resume=state, **args)   # (nothing dealt first: the kept game)
        self.table._kept = self._args.get("keep", True)
        self.table._keep()
        self.children = [self.table, *self._practice]
        later(0.8, self.table._focus)
        return self.table


def _friends_table(cls, options: dict) -> dict:
    """The table "Play with friends" deals: two people in the first two seats that choose, at the page's player
    count or the next one that has two such seats ({} where none has)."""
    spec = next((o for o in cls.option_specs if o.name == "players"), None)
    now = options.get("players", spec.default if spec is not None else None)
    counts = [now] + ([n for n in (spec.choices or ()) if n > now] if spec is not None else [])
    for n in counts:
        game = cls(**{**options, **({"players": n} if n is not None else {})})
        if len(game.deciders()) >= 2:
            return {"people": game.deciders()[:2], **({"players": n} if n != now else {})}
    return {}


PRACTICE_NOTE = ("<p class='ck-practice'><small><b>A practice table.</b> On this site the game runs inside your own "
                 "browser, the computer's cards included: nothing you play is sent anywhere, and the table never "
                 "shows you a card you have not seen — but someone who opens the browser's developer tools could "
                 "find the computer's hands. Play here to learn and to practise, not for a prize.</small></p>")
