"""Play a game against bots. Game-agnostic: it sees only cardkit's protocol and the human seat's view.

Hidden information never enters a synced widget field: the page only receives HTML of
``state.view(human)`` and the labels of the human's own cards; every click is checked in the kernel
against the legal actions (a visitor's script can fire any callback).
"""
from __future__ import annotations

import os
from html import escape

import ipywidgets as w

import cardkit
from cardkit import CardkitError, IllegalActionError, Rng

from .render import Box, Button, HTML, shared, view_html

_CARD_COLORS = {"red": "#c62828", "black": "#212121", "purple": "#6a1b9a"}


def option_controls(game_cls, values: dict, only=None) -> dict:
    """A dropdown per option (name -> widget), labelled with the rule ID it switches."""
    out = {}
    for o in game_cls.option_specs:
        if only is not None and o.name not in only:
            continue
        choices = list(o.choices) if o.choices else list(range(o.range[0], o.range[1] + 1))
        out[o.name] = w.Dropdown(options=[(o.label(c), c) for c in choices], value=values.get(o.name, o.default),
                                 description=o.name.replace("_", " "), tooltip=f"{o.help} [{o.rule}]",
                                 style={"description_width": "initial"}, layout=w.Layout(width="auto"))
    return out


class PlayTable(w.VBox):
    """A table where one human seat plays against bots: click a card; an illegal try shows the rule.

    Few widget models are made (each costs the page load time): the card buttons are a pool reused
    from move to move and share their layout and styles, and the option dropdowns are built only
    when the visitor opens them."""

    def __init__(self, game: str, human: int = 0, bot: str = "rule-based", seed: int | None = None,
                 show_options: bool = True, **options):
        self.game_name, self.human, self._seed = game, human, seed
        # Undo re-deals the cards the human has not seen from this RNG (seeded with the table's seed, so a
        # seeded table behaves the same every time; unseeded, from OS randomness)
        self._undo_rng = Rng(seed) if seed is not None else None
        cls = cardkit.game_class(game)
        self._fixed = options
        self._bots = list(cls(**options).bots())
        self._bot_name = bot if bot in self._bots else self._bots[0]
        self._controls: dict = {}
        self._settings = w.HBox(layout=shared("wrap"))
        buttons = []
        if show_options:
            opt = Button(description="Options…", tooltip="the rule options (every disputed reading) and the bots")
            opt.on_click(lambda _: self.show_options())
            buttons.append(opt)
        players = next((o for o in cls.option_specs if o.name == "players"), None)
        self._players = None
        if players is not None and len(players.choices) > 1:   # the player count is always at hand
            self._players = w.ToggleButtons(options=[(f"{n} players", n) for n in players.choices],
                                            value=options.get("players", players.default),
                                            style={"button_width": "auto"}, tooltip="a new game with this many players")
            self._players.observe(lambda _: self.new_game(), names="value")
            buttons.append(self._players)
        new = Button(description="New game", button_style="primary", tooltip="deal a new game with these options")
        new.on_click(lambda _: self.new_game())
        self._undo = Button(description="Undo", tooltip="take back your last move and the bots' replies; the "
                            "cards you have not seen are shuffled again, so Undo never shows what is hidden")
        self._undo.on_click(lambda _: self.undo())
        self._table = HTML()
        self._card_layout = w.Layout(width="60px", height="84px", border="1px solid #555", padding="0")
        self._card_styles: dict = {}
        self._pool: list[w.Button] = []
        self._action_pool: list[w.Button] = []   # buttons for actions without a card ("end the trick", ...)
        self._action_texts: list[str] = []
        self._hand = w.HBox(layout=shared("wrap"))
        self._actions = w.HBox(layout=shared("wrap"))
        self._msg = HTML()
        self._log = HTML()
        super().__init__([self._settings, Box(buttons + [new, self._undo]), self._table, self._hand,
                          self._actions, self._msg, self._log])
        self.add_class("ck-play")
        self.new_game()

    def show_options(self) -> None:
        """Build the option dropdowns (once) and show them."""
        if not self._controls:
            self._controls = {k: c for k, c in option_controls(cardkit.game_class(self.game_name),
                                                                self.game.options).items() if k != "players"}
            self._bot = w.Dropdown(options=self._bots, value=self._bot_name, description="opponents",
                                   layout=w.Layout(width="auto"))
            self._bot.observe(lambda ch: setattr(self, "_bot_name", ch["new"]), names="value")
            self._settings.children = list(self._controls.values()) + [self._bot]

    # game flow --------------------------------------------------------------------------------------
    def new_game(self, seed: int | None = None) -> None:
        opts = {**self._fixed, **{k: c.value for k, c in self._controls.items() if k != "players"}}
        if self._players is not None:
            opts["players"] = self._players.value
        try:
            self.game = cardkit.load_game(self.game_name, **opts)
        except CardkitError as e:
            self._show_error(str(e))
            return
        seed = seed if seed is not None else self._seed
        self.state = self.game.new_state(seed=seed)
        self._seed = None  # the given seed is for the first game only
        factories = self.game.bots()
        self.bots = {p: factories[self._bot_name](seed=1000 + p) for p in range(self.game.num_players)
                     if p != self.human}
        self._checkpoints: list[int] = []
        # the deal is narrated from the state before it (a blank state), as every action is
        self._lines: list[str] = [self.game.blank_state().describe(self.state.history[0])] if self.state.history else []
        self._msg.value = ""
        self._run_bots()
        self._refresh()

    def load(self, state) -> None:
        """Continue from `state` (a state of this table's game, e.g. a record's final state): the log is
        narrated anew from its history, and Undo can go back to each of the human's decisions in it."""
        if not isinstance(state, cardkit.State) or state.game.name != self.game_name:
            raise CardkitError(f"a {self.game_name} state is needed here")
        lines, checkpoints = [], []
        replay = state.game.blank_state()
        for i, a in enumerate(state.history):
            if replay.current_player == self.human:
                checkpoints.append(i)
            if a.__class__ is not cardkit.Deal or i == 0:
                lines.append(replay.describe(a))
            replay._apply(a) if a.__class__ is not cardkit.Deal else replay._deal(a)
            replay.history.append(a)
            replay._legal_cache = None
        self.game, self.state = state.game, state
        if state.current_player == self.human:
            checkpoints.append(len(state.history))
        self._lines, self._checkpoints = lines, checkpoints
        self._msg.value = ""
        self._refresh()

    def _run_bots(self) -> None:
        s = self.state
        while not s.is_terminal() and s.current_player != self.human:
            action = self.bots[s.current_player].choose(s)
            line = s.describe(action)
            s.apply(action)
            self._lines.append(line)
        if s.current_player == self.human:
            self._checkpoints.append(len(s.history))

    def play(self, action) -> bool:
        """Apply the human's action (object or text). Returns False (and shows the rule) if illegal."""
        s = self.state
        if s.current_player != self.human:
            self._show_error("It is not your turn.")
            return False
        try:
            a = s.parse_action(action)
            line = s.describe(a)
            s.apply(a)
        except IllegalActionError as e:
            self._show_error(f"✗ {e.why} (rule {e.rule})")
            self._refresh()
            return False
        self._lines.append(line)
        self._msg.value = ""
        self._run_bots()
        self._refresh()
        return True

    def undo(self) -> None:
        """Back to the human's previous decision."""
        s = self.state
        target = [c for c in self._checkpoints if c < len(s.history)]
        if not target:
            self._show_error("Nothing to undo.")
            return
        while len(s.history) > target[-1]:
            s.undo()
            if self._lines:
                self._lines.pop()
        self._checkpoints = target
        # the cards the human has not seen are dealt anew: a take-back keeps the position the human knew
        # and nothing more (the same move again need not meet the same answer or draw the same card)
        if self._undo_rng is None:
            self._undo_rng = Rng(int.from_bytes(os.urandom(8), "big"))
        self.state = s.resample(self.human, self._undo_rng)
        self._msg.value = ("<div class='ck-note' role='status'>Taken back. The cards you have not seen were "
                           "shuffled again, so the next play may go differently.</div>")
        self._refresh()

    def _ck_notice(self, text: str) -> None:
        """One short line for the visitor (the kernel's guard calls it when a message to this table fails)."""
        self._show_error(text)

    # display --------------------------------------------------------------------------------------
    def _show_error(self, text: str) -> None:
        self._msg.value = f"<div class='ck-error' role='alert'>{escape(text)}</div>"

    def _card_button(self, i: int, card) -> w.Button:
        """Button i of the pool, showing `card` (buttons are made once and reused)."""
        while len(self._pool) <= i:
            b = w.Button(layout=self._card_layout)
            b.add_class("ck-card")
            b.on_click(lambda _, i=len(self._pool): self._click_card(i))
            self._pool.append(b)
        big = len(card.label) <= 3
        key = (card.color, big)
        if key not in self._card_styles:
            self._card_styles[key] = w.ButtonStyle(button_color="#fffdf7", font_weight="bold",
                                                   font_size="20px" if big else "12px",
                                                   text_color=_CARD_COLORS.get(card.color, "#212121"))
        b = self._pool[i]
        b.description, b.tooltip, b.style = card.label, card.name, self._card_styles[key]
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
        if 0 <= i < len(self._actions.children):
            self.play(self._action_texts[i])

    def _click_card(self, i: int) -> None:
        hand = self.state.view(self.human).seats[self.human].hand
        if not 0 <= i < len(hand):
            return
        card = hand[i]
        match = [a for a in self.state.legal_actions() if a.card is card]
        self.play(match[0] if len(match) == 1 else card.text)

    def _refresh(self) -> None:
        s = self.state
        view = s.view(self.human)
        self._table.value = view_html(view, bottom=self.human, hand_elsewhere=True) + \
            "<b>Your hand</b> (click a card to play it):"
        my_turn = s.current_player == self.human
        hand = view.seats[self.human].hand
        self._hand.children = [self._card_button(i, c) for i, c in enumerate(hand)]
        for b in self._hand.children:
            b.disabled = not my_turn
        other = [a for a in view.legal if a.card is None]
        self._actions.children = [self._action_button(i, a) for i, a in enumerate(other)]
        self._undo.disabled = not any(c < len(s.history) for c in self._checkpoints)
        lines = "".join(f"<li>{escape(x)}</li>" for x in self._lines[-14:])
        self._log.value = f"<details open><summary>Game log</summary><ol class='ck-log' start='{max(1, len(self._lines) - 13)}'>{lines}</ol></details>"
