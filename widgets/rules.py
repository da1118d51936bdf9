"""Rules on the page: a rule with its citations, readings side by side, and a live switch."""
from __future__ import annotations

from html import escape

import ipywidgets as w
from IPython.display import HTML

import cardkit
from cardkit import CardkitError

from .render import Box, Button, HTML, shared
from .replay import Replay, final_state


def rule_html(game: str, rule_id: str, children: bool = True) -> str:
    """The rule (and, if asked, the finer rules beneath it) as HTML."""
    book = cardkit.load_game(game).rulebook
    rules = [book.rule(rule_id)]
    if children:
        rules += [r for r in book.rules if r.id.startswith(rule_id + ".")]
    return "".join(book.rule_html(r) for r in rules)


def Rules(game: str, *rule_ids: str, children: bool = True) -> HTML:
    """One or more rules as static HTML output (not a widget: no model for the page to load)."""
    return HTML("".join(rule_html(game, r, children) for r in rule_ids))


def result_summary(state) -> str:
    if state is None:
        return "—"
    return state.view(None).result or state.view(None).status


class RuleCard(w.VBox):
    """A conflict or gap: the readings side by side (each applied to the same example), and a switch
    that replays the example under the chosen reading."""

    def __init__(self, game: str, rule_id: str, example: str | None = None, children: bool = False, **options):
        self.game_name = game
        book = cardkit.load_game(game, **options).rulebook
        self.rule = rule = book.rule(rule_id)
        example = example or rule.example
        text = rule_html(game, rule_id, children)
        parts: list = []
        self.replay = None
        if rule.readings and rule.option and example:
            self.record = cardkit.load_example(game, example)
            cmp = []
            for rd in rule.readings:
                final, err = final_state(self.record, **{**options, rule.option: rd.value})
                res = result_summary(final)
                cmp.append(f"<div><b>{escape(rd.label)}</b><br><code>{escape(rule.option)}={escape(repr(rd.value))}"
                           f"</code><br>{escape(res)}{'<br><small>' + escape(err) + '</small>' if err else ''}</div>")
            text += (f"<p><b>The example “{escape(self.record.title)}” under each reading:</b></p>"
                     f"<div class='ck-reading-cmp'>{''.join(cmp)}</div>")
            self._options = options
            self._open = Button(description="Step through it ▸", tooltip="replay the example under either reading")
            self._open.on_click(lambda _: self.step_through())
            parts.append(self._open)
        self.text = text
        super().__init__(parts, layout=shared("layout"))

    def _ipython_display_(self) -> None:
        """The rule and the comparison go on the page as plain HTML output; only the controls are widgets
        (fewer widget models: the page is interactive sooner)."""
        from IPython.display import HTML as _HTML, display
        display(_HTML(self.text))
        if self.children:
            display(self._repr_mimebundle_(), raw=True)

    def step_through(self) -> None:
        """Show the reading switch and the replay (built on first use: fewer widgets on page load)."""
        if self.replay is not None:
            return
        rule, options = self.rule, self._options
        self.switch = w.ToggleButtons(options=[(rd.label, rd.value) for rd in rule.readings],
                                      value=rule.default if any(r.value == rule.default for r in rule.readings)
                                      else rule.readings[0].value,
                                      description="reading", style={"button_width": "auto"})
        self.replay = Replay(self.record, **{**options, rule.option: self.switch.value})
        self.switch.observe(lambda ch: self.replay.set_options(**{**options, rule.option: ch["new"]}), names="value")
        self.children = [self.switch, self.replay]


class RuleTable(w.VBox):
    """A table the engine generates (e.g. who wins each trick), re-generated live as options change."""

    def __init__(self, game: str, table: str, options: tuple = (), **fixed):
        from .play import option_controls
        self.game_name, self.table_name, self.fixed = game, table, fixed
        self.controls = option_controls(cardkit.game_class(game), fixed, only=options)
        self.out = HTML()
        for c in self.controls.values():
            c.observe(lambda _: self.refresh(), names="value")
        super().__init__([w.HBox(list(self.controls.values()), layout=shared("wrap")), self.out],
                         layout=shared("layout"))
        self.refresh()

    def refresh(self) -> None:
        opts = {**self.fixed, **{k: c.value for k, c in self.controls.items()}}
        try:
            t = cardkit.load_game(self.game_name, **opts).rule_tables()[self.table_name]
            self.out.value = t.html()
        except (CardkitError, KeyError) as e:
            self.out.value = f"<div class='ck-error'>{escape(str(e))}</div>"
