"""Step through a game record: forward, back, scrub; one line of narration per step."""
from __future__ import annotations

from html import escape

import ipywidgets as w

import cardkit
from cardkit import CardkitError, Record
from cardkit.events import step

from .render import Box, Button, HTML, shared, view_html, with_notice


def replay_states(record: Record, *, own_narration: bool = True, every_step: bool = True, **override):
    """(states, narration lines, error): the state before the first action and after each action,
    stopping early (with the error text) if the record does not replay under `override`. The lines are
    the record's own where they hold under `override` (`Record.narration_for`), else the engine's
    (only the engine's with ``own_narration=False``); with ``every_step`` the engine narrates a move from
    the positions before and after it (`describe(action, after)`). ``every_step=False`` keeps only the last
    state (no copy per step: what a comparison of readings needs)."""
    try:
        state = record.load_game(**override).blank_state()
        own = record.narration_for(**override)[0] if own_narration else {}
    except CardkitError as e:
        return [], [], str(e)
    states, lines, error = [state.clone() if every_step else state], [], ""
    for i, text in enumerate(record.actions):
        try:
            action = state.parse_action(text)
            line = own.get(str(i)) or ("" if every_step else state.describe(action))
            if line:
                state.apply(action)
            else:
                # a move narrated as the play table's log and a record's narration narrate it (`cardkit.events`):
                # from the position before it and the one after it (so a card the move turned face up may be named)
                line = step(state, action)[0].text()
        except CardkitError as e:
            error = stop_words(record, i, e)
            break
        if every_step:
            states.append(state.clone())
        lines.append(line)
    return states, lines, error


def narration_note(record: Record, **override) -> str:
    """Whose words the replay's narration is, in plain words, when a record is replayed under a chosen
    reading: the example's own (written for that reading, or for the steps both readings share) or the
    kit's engine's (from the step where the reading changes the game)."""
    if not override or not (record.meta.get("narration") or record.meta.get("narration_under")):
        return ""
    try:
        _, written_for, until = record.narration_for(**override)
    except CardkitError:
        return ""
    if until is not None:
        return (f"The example's own words were written for another reading: they narrate the steps before "
                f"step {until + 1}, where this reading changes the game; from there the kit's engine "
                "narrates what happens under this reading.")
    return ("Narrated in the example's own words, written for this reading (the kit's engine narrates "
            "the steps they leave out).")


def final_state(record: Record, **override):
    """(the state the record reaches under `override`, or the last state before it fails; error text)."""
    try:
        state = record.load_game(**override).blank_state()
    except CardkitError as e:
        return None, str(e)
    for i, text in enumerate(record.actions):
        try:
            state.apply(state.parse_action(text))
        except CardkitError as e:
            return state, stop_words(record, i, e)
    return state, ""


def stop_words(record: Record, i: int, e: Exception) -> str:
    """Where an example cannot go on under another reading, in plain words: its next move (by the words of
    the table's buttons, as the example's own reading has it) and why this reading does not allow it, with
    the rule — never the move's record notation."""
    from cardkit import IllegalActionError
    label = record.actions[i]
    try:
        own = record.load_game().blank_state()
        for text in record.actions[:i]:
            own.apply(own.parse_action(text))
        found = next((a for a in own.legal_actions() if a.text == record.actions[i]), None)
        if found is not None:
            who = own.game.player_names()[own.current_player] if own.current_player >= 0 else ""
            label = f"{who}: {found.label}" if who else found.label
    except CardkitError:
        pass
    if isinstance(e, IllegalActionError) and e.rule == "protocol":
        why = "under this reading a new deal comes first, so the example's cards no longer fit"
    elif isinstance(e, IllegalActionError) and e.rule == "end":
        why = "under this reading the game is already over"
    elif isinstance(e, IllegalActionError):
        why = f"{e.why} [{e.rule}]"
    else:
        why = str(e)
    return (f"Under this reading the example cannot go on at step {i + 1}: its next move, “{label}”, is not "
            f"allowed — {why}.")


def load_record(game_or_record, example: str | None = None) -> Record:
    """A Record as given, a record's JSON text (a RecordError, briefly, if it is not one), or a game's
    example by name."""
    if isinstance(game_or_record, Record):
        return game_or_record
    if isinstance(game_or_record, str) and game_or_record.lstrip()[:1] in ("{", "["):
        return Record.loads(game_or_record)
    if isinstance(game_or_record, str) and example is None and game_or_record in cardkit.GAMES:
        names = cardkit.record.example_names(game_or_record)
        raise CardkitError(f"name an example of {game_or_record}: {', '.join(names) or 'it has none'}")
    if not isinstance(game_or_record, str) or example is None:
        shown = repr(game_or_record)
        raise CardkitError("give a record (a Record or its JSON text), or a game and the name of its example, "
                           f"not {shown[:60] + '…' if len(shown) > 60 else shown}")
    return cardkit.load_example(game_or_record, example)


class Replay(w.VBox):
    """Replay a record (or a game's example by name) from the teacher's view (everything shown).

    With ``lazy=True`` the page first shows the dealt cards and a "Step through" button, and builds the
    controls on the first click: a page with several examples loads with far fewer widgets."""

    def __init__(self, record, example: str | None = None, viewer: int | None = None, lazy: bool = False,
                 **override):
        self.record = load_record(record, example)
        self.viewer = viewer
        self._override = override
        from cardkit.rules import link_rule_ids
        desc = link_rule_ids(escape(self.record.meta.get("description", "")),
                             self.record.load_game().rulebook.href)
        self._head = f"<b>{escape(self.record.title)}</b><br><small>{desc}</small>"
        self._narr = HTML()
        super().__init__([self._narr], layout=shared("layout"))
        self.add_class("ck-replay")
        if lazy:
            opening = self.record.meta.get("start", 1)
            preview, _ = final_state(Record(self.record.game, self.record.options,
                                            self.record.actions[:max(1, opening)]), **override)
            self._narr.value = self._head + (view_html(preview.view(viewer)) if preview is not None else "")
            start = Button(description="Step through ▸", tooltip="step forward and back through this game")
            start.on_click(lambda _: self.start())
            self.children = [start, self._narr]
        else:
            self.start()

    def start(self) -> None:
        """Build the step controls (once) and show the first dealt position."""
        if hasattr(self, "_slider"):
            return
        nav = w.Layout(width="44px", min_width="44px")
        self._first = Button(description="|◀", tooltip="to the start", layout=nav)
        self._prev = Button(description="◀", tooltip="one step back", layout=nav)
        self._next = Button(description="▶", tooltip="one step forward", layout=nav)
        self._last = Button(description="▶|", tooltip="to the end", layout=nav)
        self._slider = w.IntSlider(min=0, max=0, description="step", continuous_update=True,
                                   layout=w.Layout(width="420px", max_width="100%"))
        self._first.on_click(lambda _: self.go(0))
        self._prev.on_click(lambda _: self.go(self._slider.value - 1))
        self._next.on_click(lambda _: self.go(self._slider.value + 1))
        self._last.on_click(lambda _: self.go(self._slider.max))
        self._slider.observe(lambda ch: self._show(ch["new"]), names="value")
        self.children = [w.HBox([self._first, self._prev, self._slider, self._next, self._last], layout=shared("wrap")),
                         self._narr]
        self.set_options(**self._override)
        if "start" in self.record.meta:  # where the example's story begins (the rounds before set the scores)
            self.go(min(self.record.meta["start"], len(self.states) - 1))
        elif len(self.states) > 1 and self.record.actions[0].startswith("deal:"):
            self.go(1)   # open on the dealt cards, not on an empty table

    def set_options(self, **override) -> None:
        """Replay the same record under other options (e.g. another reading of a conflict)."""
        self.override = self._override = override
        self.states, self.lines, self.error = replay_states(self.record, **override)
        keep = min(self._slider.value, max(0, len(self.states) - 1))
        self._slider.max = max(0, len(self.states) - 1)
        self._slider.value = keep
        self._show(keep)

    def _ck_notice(self, text: str) -> None:
        """One short error line above the narration (widgets/guard.py calls it when a message failed)."""
        self._narr.value = with_notice(self._narr.value, text)

    def go(self, step: int) -> None:
        self._slider.value = max(0, min(self._slider.max, step))

    @property
    def state(self):
        return self.states[self._slider.value] if self.states else None

    def _show(self, step: int) -> None:
        """Title, narration and table in one HTML widget (one model less per replay on the page)."""
        if not self.states:
            self._narr.value = f"{self._head}<div class='ck-error'>{escape(self.error)}</div>"
            return
        step = max(0, min(step, len(self.states) - 1))
        n = len(self.states) - 1
        self._first.disabled = self._prev.disabled = step == 0          # nothing before the start
        self._next.disabled = self._last.disabled = step == n           # nothing after the end
        line = "Before the first action." if step == 0 else self.lines[step - 1]
        link = self._link
        err = f"<div class='ck-error'>{link(escape(self.error))}</div>" if self.error and step == n else ""
        note = narration_note(self.record, **self.override)
        note = f"<div class='ck-narr-note'><small>{escape(note)}</small></div>" if note else ""
        self._narr.value = (f"{self._head}{note}<div class='ck-narration ck-live'><b>Step {step}/{n}:</b> "
                            f"{link(escape(line))}</div>{err}{view_html(self.states[step].view(self.viewer))}")

    def _link(self, escaped: str) -> str:
        """Rule IDs as links to the rule's section on the game's page."""
        from cardkit.rules import link_rule_ids
        book = self.record.load_game().rulebook
        return link_rule_ids(escaped, book.href)
