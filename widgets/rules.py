"""Rules on the page: a rule with its citations, readings side by side, and a live switch."""
from __future__ import annotations

import base64
import copy
import re
from html import escape

import ipywidgets as w
from IPython.display import HTML as StaticHTML

import cardkit
from cardkit import CardkitError
from cardkit.rules import scroll_x

from .render import Box, Button, HTML, html_output, shared, with_notice
from .replay import Replay, final_state, replay_states


def rule_html(game: str, rule_id: str, children: bool = True, table: bool = True, href=None,
              only_children: bool = False) -> str:
    """The rule (and, if asked, the finer rules beneath it) as HTML; `table=False` leaves out the table
    the rule names (a `RuleTable` shows it live); `href(rule_id)` gives the links of rule IDs (by default
    to the rule's section on the game's page)."""
    book = cardkit.load_game(game).rulebook
    rules = [] if only_children else [book.rule(rule_id)]
    if children or only_children:
        book.rule(rule_id)
        rules += [r for r in book.rules if r.id.startswith(rule_id + ".")]
    return "".join(with_impact(book.rule_html(r, href=href, table=table), game, r) for r in rules)


def with_impact(section: str, game: str, rule) -> str:
    """A rule's section with "Does it matter?" inside it, before its end (conflicts and gaps with data)."""
    box = impact_html(game, rule)
    if not box:
        return section
    i = section.rfind("</section>")
    return section[:i] + box + section[i:] if i >= 0 else section + box


def plot_img(svg: str, alt: str) -> str:
    """A stored plot as an image (an SVG data URI) with its description as the alternative text: the browser
    draws it without adding its hundreds of SVG elements to the page (the Sieben page, four plots: 2,594
    elements inline, 2,142 as images). Sized as the plot sizes itself inline: the column's width, at most
    its own."""
    m = re.search(r"max-width:\s*([\d.]+pt)", svg[:400])
    style = f"width:100%;max-width:{m.group(1)};height:auto" if m else "max-width:100%;height:auto"
    data = base64.b64encode(svg.encode("utf-8")).decode("ascii")
    return f"<img alt='{escape(alt)}' style='{style}' src='data:image/svg+xml;base64,{data}'>"


def impact_html(game: str, rule) -> str:
    """"Does it matter?": what playing the other reading changed, measured by paired games of the kit's
    rule-based players (`cardkit impact`): a sentence, the stored plot and the figures per reading, in plain
    words. Static HTML; empty when the rule has no measured option."""
    from cardkit import impact
    if not rule.option or rule.kind not in impact.KINDS:
        return ""
    s = impact.summary(game, rule.option)
    if s is None and (game, rule.option) in impact.PENDING:
        return ("<div class='ck-impact'><h4>Does it matter?</h4><p class='ck-impact-sentence'>Not measured yet: "
                "the games that compare these readings have not been played for this rule.</p></div>")
    if s is None or s["rule"] != rule.id:
        return ""
    plot = impact.svg(game, rule.option) or ""
    rows = impact.balance_rows(s)
    head = "".join(f"<th scope='col'>{escape(h)}</th>" for h in rows[0])
    body = "".join("<tr><th scope='row'>" + escape(r[0]) + "</th>" + "".join(f"<td>{escape(c)}</td>" for c in r[1:])
                   + "</tr>" for r in rows[1:])
    where = f" {s['base_why'][0].upper()}{s['base_why'][1:]}." if s["base_why"] else ""
    how = (f"{s['games']:,} games for each reading, dealt alike and played by the kit's rule-based players: "
           f"each deal is played under the kit's default and under the other reading, and the games are "
           f"compared step by step.{where} Every figure is in 100 (games, or units staked). Whether a reading "
           f"favours anyone is the shift in the odds: {s['side0']}'s chance of winning (and the first player's, "
           f"where another seat moves first), and in a banking game the bank's edge, under the other reading "
           f"against the default, with its 95 % interval (from the spread of the paired games, 500 at a time). "
           f"“It comes up”: the two games part at some point (other choices open, another card taken, other "
           f"points, or a player who decides otherwise). Once they part, the rest of a game may go another way "
           f"by the luck of the cards, and “changes the winner” counts that too: it says how much a reading "
           f"changes the course of games, not whom it favours. The spread is the standard deviation."
           + (f" {s['edge_how']}" if s["edge_how"] else ""))
    figure = f"<div class='ck-impact-plot'>{plot_img(plot, impact.alt_text(s))}</div>" if plot else ""
    note = impact.ahead_but_behind(s)
    note = f"<p class='ck-impact-note'>{escape(note)}</p>" if note else ""
    return (f"<div class='ck-impact'><h4>Does it matter?</h4>"
            f"<p class='ck-impact-sentence'>{escape(impact.sentence(s))}</p>{figure}"
            + scroll_x(f"<table class='ck-table ck-impact-table'><caption>Each reading's own games</caption>"
                       f"<thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>", "Each reading's own games")
            + f"{note}"
            f"<p class='ck-legend'><small>{escape(how)}</small></p></div>")


def Rules(game: str, *rule_ids: str, children: bool = True, table: bool = True) -> StaticHTML:
    """One or more rules as static HTML output (not a widget: no model for the page to load). The page
    goes to the address's #rule once it has rendered (a link from another page: `FRAGMENT_JS`)."""
    from cardkit.documents import FRAGMENT_JS
    return html_output("".join(rule_html(game, r, children, table) for r in rule_ids) + FRAGMENT_JS)


def result_summary(state) -> str:
    if state is None:
        return "—"
    return state.view(None).result or state.view(None).status


def compare_readings(record, rule, href=None, **options) -> str:
    """What changes when the same example is played under each reading of a conflict or gap, side by
    side: the first step whose outcome differs (who took the trick, its points: the engine's narration of
    that step), then the final result or the points so far — never a bare status line."""
    from cardkit.rules import link_rule_ids
    link = (lambda s: link_rule_ids(s, href)) if href else (lambda s: s)
    runs = [replay_states(record, own_narration=False, every_step=False, **{**options, rule.option: rd.value}) for rd in rule.readings]
    n = min(len(lines) for _, lines, _ in runs)
    first = next((i for i in range(n) if len({lines[i] for _, lines, _ in runs}) > 1), None)
    parted = first_parting(record, rule, options)
    if parted is not None:        # where the games part: that step, narrated with what it brought about
        first, told = parted
        runs = [(states, lines[:first] + [told[k]] + lines[first + 1:], err)
                for k, (states, lines, err) in enumerate(runs)]
    finals = [states[-1] if states else None for states, _, _ in runs]
    outcomes = [escape(outcome_text(s)) if s is not None else "" for s in finals]
    same = len(set(outcomes)) == 1 and outcomes[0]
    held = hands_differ(finals)
    if any(err for _, _, err in runs):
        held = [""] * len(held)      # a reading the example cannot finish: its cards say nothing of the switch
    if first is not None and sum(x.count(",") + x.count(";") + bool(x) for x in held) > 2 * len(held) + 4:
        held = [""] * len(held)     # the step above says it; every hand differing is no help
    cells = []
    for k, (rd, (states, lines, err)) in enumerate(zip(rule.readings, runs)):
        default = " <small>(the kit's default)</small>" if rd.value == rule.default else ""
        out = [f"<b>{escape(rd.label)}</b>{default}"]
        if first is not None:
            out.append(f"<span class='ck-changed-step'>Step {first + 1}: {link(escape(lines[first]))}</span>")
        if held[k]:                # the consequence where the narration does not show it: who holds which cards
            out.append(f"<span class='ck-changed-step'>Where the example stops: {escape(held[k])}.</span>")
        if states and not same:
            out.append(outcomes[k])
        if err:
            out.append(f"<small>{link(escape(err))}</small>")
        cells.append("<div>" + "<br>".join(out) + "</div>")
    common = ""
    if same:                       # the same score under every reading: said once, below
        text = same.replace("Where the example stops: ", "Where the example stops, the same under every reading: ", 1)
        common = f"<p class='ck-cmp-same'><small>{text}</small></p>"
    return f"<div class='ck-reading-cmp'>{''.join(cells)}</div>{common}"


def first_parting(record, rule, options) -> tuple[int, list[str]] | None:
    """(step, each reading's narration of it): the first step after which the games under the readings
    stand differently — another player to move, other scores, other cards in a hand — narrated from the
    positions before and after it (so what it brought about is said: who took the trick, who drew first).
    None if they never part, or if the example does not replay under a reading."""
    def mark(s):
        return (s.current_player, tuple(s.scores()), tuple(tuple(c.text for c in seat.hand if c is not None)
                                                             for seat in s.view(None).seats))
    try:
        games = [record.load_game(**{**options, rule.option: rd.value}) for rd in rule.readings]
        states = [g.blank_state() for g in games]
        for i, text in enumerate(record.actions):
            for s in states:
                s.apply(s.parse_action(text))
            if len({mark(s) for s in states}) > 1:
                told = []              # the position before the step, replayed afresh (no copy at every step)
                for g, after in zip(games, states):
                    before = g.blank_state()
                    for t in record.actions[:i]:
                        before.apply(before.parse_action(t))
                    told.append(before.describe(before.parse_action(text), after))
                return i, told
    except CardkitError:
        return None
    return None


def hands_differ(finals) -> list[str]:
    """Per reading, the cards its final position puts in a hand where another reading's does not (the teacher's
    view: an example shows every card), in words ("Anna holds A♥"); "" where every hand is the same."""
    views = [s.view(None) if s is not None else None for s in finals]
    out = []
    for k, v in enumerate(views):
        if v is None:
            out.append("")
            continue
        parts = []
        for i, seat in enumerate(v.seats):
            mine = [c for c in seat.hand if c is not None]
            others = [w for j, w in enumerate(views) if j != k and w is not None and i < len(w.seats)]
            extra = [c for c in mine if any(c not in w.seats[i].hand for w in others)]
            if extra:
                parts.append(f"{seat.name} holds {', '.join(c.label for c in extra)}")
        out.append("; ".join(parts))
    return out


def outcome_text(state) -> str:
    """The end of an example in words: the result of a finished game, else the points so far."""
    view = state.view(None)
    if view.terminal and view.result:
        return f"Final: {view.result}"
    scores = ", ".join(f"{s.name} {s.score}" for s in view.seats if s.score)
    return f"Where the example stops: {scores}." if scores else ""


class RuleCard(w.VBox):
    """A conflict or gap: the readings side by side (each applied to the same example), and a switch
    that replays the example under the chosen reading."""
    children: tuple                                      # (ipywidgets has no types: the Box's trait)

    def __init__(self, game: str, rule_id: str, example: str | None = None, children: bool = False,
                 table: bool = True, **options):
        self.game_name = game
        book = cardkit.load_game(game, **options).rulebook
        self.rule = rule = book.rule(rule_id)
        example = example or rule.example
        text = rule_html(game, rule_id, children, table)
        parts: list = []
        self.replay: Replay | None = None                # made by step_through
        if rule.readings and rule.option and example:
            self.record = cardkit.load_example(game, example)
            text += (f"<p><b>The example “{escape(self.record.title)}” under each reading:</b></p>"
                     + compare_readings(self.record, rule, book.href, **options))
            self._options = options
            self._open = Button(description="Step through it ▸", tooltip="replay the example under either reading")
            self._open.on_click(lambda _: self.step_through())
            parts.append(self._open)
        self.text = text
        super().__init__(parts, layout=shared("layout"))

    def _ipython_display_(self) -> None:
        """The rule and the comparison go on the page as plain HTML output; only the controls are widgets
        (fewer widget models: the page is interactive sooner)."""
        from IPython.display import display
        display(html_output(self.text))
        if self.children:
            display(self._repr_mimebundle_(), raw=True)

    def _ck_notice(self, text: str) -> None:
        """One short error line (widgets/guard.py calls it when a message failed): in the replay once
        it is open, else in a line under the button, made on first use."""
        if self.replay is not None:
            self.replay._ck_notice(text)
            return
        if getattr(self, "_notice", None) is None:
            self._notice = HTML()
            self.children = (*self.children, self._notice)
        self._notice.value = with_notice("", text)

    def step_through(self) -> None:
        """Show the reading switch and the replay (built on first use: fewer widgets on page load)."""
        if self.replay is not None:
            return
        rule, options = self.rule, self._options
        self.switch = w.ToggleButtons(options=[(rd.label, rd.value) for rd in rule.readings],
                                      value=rule.default if any(r.value == rule.default for r in rule.readings)
                                      else rule.readings[0].value,
                                      description="reading", style={"button_width": "auto"})
        replay = self.replay = Replay(self.record, **{**options, rule.option: self.switch.value})
        self.switch.observe(lambda ch: replay.set_options(**{**options, rule.option: ch["new"]}), names="value")
        self.children = (self.switch, replay)


class RuleTable(w.VBox):
    """A table the engine generates (e.g. who wins each trick), re-generated live as options change.

    The cells the switches can change are outlined, and those that differ from the kit's default are
    highlighted. With ``rule=`` the rule that names the table goes above it (without its static copy of
    the table: one table on the page, the live one) and the finer rules beneath it below, as static HTML."""

    def __init__(self, game: str, table: str, options: tuple = (), rule: str | None = None, **fixed):
        import itertools
        from .play import option_controls
        self.game_name, self.table_name, self.fixed, self.rule_id = game, table, fixed, rule
        self.controls = option_controls(cardkit.game_class(game), fixed, only=options)
        specs = {o.name: o for o in cardkit.game_class(game).option_specs}
        self._book = cardkit.load_game(game).rulebook
        self._base = self._table(fixed)
        # every combination of the switches' values: the cells that differ anywhere are the disputed ones
        self._disputed: set = set()
        names = list(self.controls)
        for combo in itertools.product(*(specs[n].choices for n in names)):
            t = self._table({**fixed, **dict(zip(names, combo))})
            self._disputed |= self._diff(t)
        self.out = HTML()
        for c in self.controls.values():
            c.observe(lambda _: self.refresh(), names="value")
        super().__init__([w.HBox(list(self.controls.values()), layout=shared("wrap")), self.out],
                         layout=shared("layout"))
        self.refresh()

    def _ck_notice(self, text: str) -> None:
        """One short error line above the table (widgets/guard.py calls it when a message failed)."""
        self.out.value = with_notice(self.out.value, text)

    def _table(self, opts):
        try:
            return cardkit.load_game(self.game_name, **opts).rule_tables()[self.table_name]
        except (CardkitError, KeyError):
            return None

    def _diff(self, t) -> set:
        base = self._base
        if t is None or base is None:
            return set()
        return {(ri, ci) for ri, (row, brow) in enumerate(zip(t.rows, base.rows))
                for ci, (c, b) in enumerate(zip(row, brow)) if c != b}

    def _ipython_display_(self) -> None:
        """With a rule: the rule above and its finer rules below go on the page as plain HTML output
        (no widget models); only the switches and the table are widgets."""
        from IPython.display import display
        head = rule_html(self.game_name, self.rule_id, children=False, table=False) if self.rule_id else ""
        display(html_output(head + self.switches_html()))
        display(self._repr_mimebundle_(), raw=True)
        if self.rule_id:
            display(html_output(rule_html(self.game_name, self.rule_id, only_children=True)))

    def refresh(self) -> None:
        opts = {**self.fixed, **{k: c.value for k, c in self.controls.items()}}
        try:
            t = cardkit.load_game(self.game_name, **opts).rule_tables()[self.table_name]
        except (CardkitError, KeyError) as e:
            self.out.value = f"<div class='ck-error'>{escape(str(e))}</div>"
            return
        changed, disputed = self._diff(t), self._disputed

        def mark(ri, ci):
            return "ck-changed" if (ri, ci) in changed else "ck-disputed" if (ri, ci) in disputed else ""
        legend = ""
        if disputed:
            legend = ("<p class='ck-legend'><small><span class='ck-disputed'>Outlined</span>: the cells the "
                      "switches above decide. " + (f"<span class='ck-changed'>Highlighted</span>: "
                      f"{len(changed)} {'cell differs' if len(changed) == 1 else 'cells differ'} from the kit's "
                      "default." if changed else "All at the kit's default.") + "</small></p>")
        self.out.value = scroll_x(t.html(mark, href=self._book.href), t.caption or "The rules' table") + legend

    def switches_html(self) -> str:
        """What the switches decide, in plain words with their rules (static HTML above them)."""
        from cardkit.rules import link_rule_ids
        switches = [escape(self._switch_text(name)) for name in self.controls]
        if not switches:
            return ""
        what = "Switch" if len(switches) == 1 else "The switches, left to right"
        return (f"<p class='ck-legend'><small>{what}: "
                f"{link_rule_ids('; '.join(switches), self._book.href)}.</small></p>")

    def _switch_text(self, name: str) -> str:
        o = next(o for o in cardkit.game_class(self.game_name).option_specs if o.name == name)
        text = o.help or o.name
        return f"{text[:1].upper()}{text[1:]}" + (f" ({o.rule})" if o.rule else "")
