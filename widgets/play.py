"""Play a game against bots. Game-agnostic: it sees only cardkit's protocol and the human seat's view.

Hidden information never enters a synced widget field: the page only receives HTML of
``state.view(human)`` and the labels of the human's own cards; every click is checked in the kernel
against the legal actions (a visitor's script can fire any callback).
"""
from __future__ import annotations

from html import escape

import ipywidgets as w

import cardkit
from cardkit import CardkitError, IllegalActionError

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
        self._undo = Button(description="Undo", tooltip="take back your last move (and the bots' replies)")
        self._undo.on_click(lambda _: self.undo())
        self._table = HTML()
        self._card_layout = w.Layout(width="60px", height="84px", border="1px solid #555", padding="0")
        self._card_styles: dict = {}
        self._pool: list[w.Button] = []
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
        self._msg.value = ""
        self._refresh()

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
        buttons = []
        for a in other:
            b = Button(description=a.label, button_style="info")
            b.add_class("ck-action")
            b.on_click(lambda _, t=a.text: self.play(t))
            buttons.append(b)
        self._actions.children = buttons
        self._undo.disabled = not any(c < len(s.history) for c in self._checkpoints)
        lines = "".join(f"<li>{escape(x)}</li>" for x in self._lines[-14:])
        self._log.value = f"<details open><summary>Game log</summary><ol class='ck-log' start='{max(1, len(self._lines) - 13)}'>{lines}</ol></details>"
