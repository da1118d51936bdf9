"""Test yourself: the engine's questions on a game page, with a running score, the reasons, and a printable answer
sheet. Game-agnostic: it shows what `cardkit.exercises` makes (a scene, a prompt, choices) and what it marks."""
from __future__ import annotations

from html import escape

import ipywidgets as w

import cardkit
from cardkit import CardkitError
from cardkit import exercises as ex
from cardkit.rules import link_rule_ids
from cardkit.svg import card_svg

from .render import HTML, Box, Button, facts_html, html_output, shared, with_notice
from .rulecard import PRINT_CSS, print_button

CSS = """<style>
.ck-quiz{max-width:980px}
.ck-quiz .widget-html-content{line-height:1.45}
.ck-quiz .ck-quiz-start.widget-button{width:auto;padding:0 18px}
.ck-quiz>.widget-button{align-self:flex-start}
.ck-quiz-head{font-size:14px;color:#333;margin:4px 0}
.ck-quiz-head b{color:#1b5e20}
.ck-quiz-q{border:1px solid #c8d6c0;border-radius:8px;background:#f6faf4;padding:6px 10px;margin:4px 0;line-height:1.45}
.ck-quiz-q .ck-quiz-step{font-size:12px;color:#555;text-transform:uppercase;letter-spacing:.03em}
.ck-quiz-q .ck-quiz-prompt{font-size:16px;font-weight:bold;margin:6px 0 2px}
.ck-quiz-row{display:flex;flex-wrap:wrap;gap:4px 10px;align-items:center;margin:4px 0}
.ck-quiz-row .ck-quiz-title{font-size:13px;color:#333;min-width:10em}
.ck-quiz-played{display:inline-flex;flex-direction:column;align-items:center;font-size:11px;color:#333}
.ck-quiz-lines{margin:4px 0;padding-left:1.2em;font-size:14px}
.ck-quiz .ck-choice.widget-button{width:auto;min-width:3em;height:auto;min-height:32px;white-space:normal;
  line-height:1.25;padding:4px 10px;text-align:left;max-width:100%}
.ck-quiz .ck-choice.ck-card-choice{font-weight:bold;font-size:18px;min-width:3.2em;text-align:center}
.ck-quiz .ck-choice.ck-ink-red{color:#c62828}
.ck-quiz .ck-choice.ck-picked{box-shadow:0 0 0 3px #1565c0 inset;background:#e3f0ff}
.ck-quiz .ck-choice.ck-right{box-shadow:0 0 0 3px #2e7d32 inset;background:#e8f5e9;opacity:1}
.ck-quiz .ck-choice.ck-wrong{box-shadow:0 0 0 3px #b71c1c inset;background:#fdecea;opacity:1}
.ck-quiz .widget-button:disabled.ck-choice{opacity:.75}
.ck-quiz-choices{flex-wrap:wrap;gap:6px}
.ck-quiz-feedback{border-left:4px solid #90caf9;background:#f5f9ff;padding:4px 10px;margin:4px 0;line-height:1.45}
.ck-quiz-feedback.ck-quiz-right{border-color:#2e7d32;background:#f1f8f1}
.ck-quiz-feedback.ck-quiz-wrong{border-color:#b71c1c;background:#fdf3f2}
.ck-quiz-feedback .ck-quiz-verdict{font-weight:bold;font-size:15px}
.ck-quiz-feedback ul{margin:2px 0;padding-left:1.3em}
.ck-quiz-other{border-top:1px dashed #bbb;margin-top:4px;padding-top:2px}
.ck-quiz-tools .widget-text{width:auto}.ck-quiz-tools .widget-text input{width:4.5em}
.ck-quiz-tools .widget-text .widget-label{width:auto;min-width:0;margin-right:4px}
.ck-quiz .widget-button{width:auto;min-width:2.8em;flex:0 0 auto}
.ck-quiz-tools{flex-wrap:wrap;gap:6px;align-items:center}
.ck-quiz-options .widget-dropdown{flex-wrap:wrap;width:100%;max-width:40em;height:auto}
.ck-quiz-options .widget-dropdown>label.widget-label{width:100% !important;max-width:none;text-align:left;
  white-space:normal;line-height:1.3;height:auto;margin-top:4px}
.ck-quiz-options .widget-dropdown>select{flex:1 1 auto;max-width:100%}
.ck-sheet{max-width:980px;border:1px solid #ccc;border-radius:8px;padding:6px 12px;margin:6px 0;background:#fff}
.ck-sheet h3{margin:4px 0}.ck-sheet ol{padding-left:1.4em}
.ck-sheet li{margin:0 0 10px;break-inside:avoid}
.ck-sheet .ck-sheet-right{font-weight:bold;color:#1b5e20}
.ck-sheet .ck-sheet-choices{margin:2px 0;padding-left:0;list-style:none;display:flex;flex-wrap:wrap;gap:2px 16px}
.ck-sheet .ck-quiz-row svg{width:30px;height:auto}
@media (max-width:600px){.ck-quiz-row .ck-quiz-title{min-width:0;width:100%}.ck-quiz .ck-choice.widget-button{flex:1 1 40%}}
</style>"""

def _link(text: str, href) -> str:
    return link_rule_ids(escape(text), href)


def scene_html(q, href, width: int = 44) -> str:
    """A question's scene: the public facts, the rows of cards with who played them, the lines, your hand."""
    s = q.scene
    parts = [facts_html(s.facts)] if s.facts else []
    for r in s.rows:
        cards = "".join(f"<span class='ck-quiz-played'>{card_svg(c, width)}<small>{escape(o)}</small></span>"
                        if o else card_svg(c, width) for o, c in r.cards)
        note = f" <small>{_link(r.note, href)}</small>" if r.note else ""
        parts.append(f"<div class='ck-quiz-row'><span class='ck-quiz-title'>{escape(r.title)}{note}</span>"
                     f"<span class='ck-cards'>{cards}</span></div>")
    if s.lines:
        parts.append("<ul class='ck-quiz-lines'>" + "".join(f"<li>{_link(x, href)}</li>" for x in s.lines) + "</ul>")
    if s.hand:
        parts.append(f"<div class='ck-quiz-row'><span class='ck-quiz-title'>{escape(s.hand_title)}</span>"
                     f"<span class='ck-cards'>{''.join(card_svg(c, width) for c in s.hand)}</span></div>")
    return "".join(parts)


def feedback_html(q, m, href) -> str:
    """The marked answer: right or not, the engine's reasons with their rules, and other readings."""
    cls = "ck-quiz-right" if m.right else "ck-quiz-wrong"
    notes = "".join(f"<li>{_link(x, href)}</li>" for x in m.why_not)
    others = "".join(f"<p class='ck-quiz-other'>Under the other reading of {_link(o.rule, href)} ({escape(o.title)}), "
                     f"“{escape(o.reading)}”: {escape(o.answer)}.</p>" for o in m.others)
    rule = ""
    if m.rule:
        from cardkit.rules import md_html
        words = md_html(m.rule).removeprefix("<p>").removesuffix("</p>")
        rule = f"<p class='ck-quiz-rule'><small><b>The rule</b> ({_link(q.rule, href)}): {words}</small></p>"
    return (f"<div class='ck-quiz-feedback ck-live {cls}'><div class='ck-quiz-verdict'>{escape(m.headline)}</div>"
            f"<p>{_link(q.why, href)}</p>{'<ul>' + notes + '</ul>' if notes else ''}{others}{rule}</div>")


def options_words(game, options: dict) -> str:
    """The options in force that differ from the kit's defaults, in plain words."""
    g = cardkit.load_game(game, **options)
    book = g.rulebook
    out = []
    for o in g.option_specs:
        v = g.options[o.name]
        if v == o.default:
            continue
        label = f"{v} players" if o.name == "players" else o.label(v)
        if o.name == "players":
            out.append(label)
            continue
        if o.rule in book.ids():
            r = book.rule(o.rule)
            label = next((rd.label for rd in r.readings if rd.value == v), label)
        what = o.help or o.name
        out.append(f"{what[:1].upper()}{what[1:]}: {label}")
    return "; ".join(out)


def sheet_html(qs, href, sheet_id: str) -> str:
    """The answer sheet of a set: every question with its scene, choices, the right answer and the reasons;
    printable on its own (the print button prints only the sheet)."""
    g = cardkit.load_game(qs.game, **qs.options)
    opts = options_words(qs.game, qs.options)
    items = []
    for i, q in enumerate(qs.questions, 1):
        choices = "".join(f"<li{' class=ck-sheet-right' if c.key in q.answer else ''}>{escape(c.label)}"
                          f"{' ✓' if c.key in q.answer else ''}</li>" for c in q.choices)
        others = "".join(f"<p class='ck-quiz-other'>Under the other reading of {_link(o.rule, href)}, “{escape(o.reading)}”: "
                         f"{escape(o.answer)}.</p>" for o in q.others)
        items.append(f"<li><div class='ck-quiz-step'>{escape(ex.LEVELS[q.level])}</div>{scene_html(q, href, 30)}"
                     f"<p><b>{escape(q.prompt)}</b></p><ul class='ck-sheet-choices'>{choices}</ul>"
                     f"<p><span class='ck-sheet-right'>{escape(q.answer_text)}</span> {_link(q.why, href)}</p>{others}</li>")
    under = f"Under these options: {escape(opts)}." if opts else "Under the kit's default rules."
    return (f"<div class='ck-sheet' id='{sheet_id}'><h3>{escape(g.title)} — set {qs.number}: the answers</h3>"
            f"<p><small>{under} The same set number gives the same questions.</small></p>"
            f"<p class='ck-noprint'>{print_button(sheet_id, 'Print the answer sheet')}</p><ol>{''.join(items)}</ol></div>")


class TestYourself(w.VBox):
    """The questions of a game, one at a time, one click away: a reader who never starts them does not load
    their widgets (one button, like the play table's)."""
    children: tuple                                      # (ipywidgets has no types: the Box's trait)

    def __init__(self, game: str, number: int = 1, **options):
        self.game_name = game
        cardkit.load_game(game, **options)               # the game and options checked now
        ex.check_number(number)
        self._options, self._number = dict(options), number
        self.qs: ex.QuestionSet | None = None           # made by start()
        self._book = cardkit.load_game(game, **options).rulebook
        start = Button(description="Start the questions ▸", button_style="primary",
                       tooltip="a set of questions made and marked by the game")
        start.add_class("ck-quiz-start")
        start.on_click(lambda _: self.start())
        self._start = start
        super().__init__([start], layout=shared("layout"))
        self.add_class("ck-quiz")

    def _ipython_display_(self) -> None:
        from IPython.display import display
        display(html_output(CSS + PRINT_CSS))
        display(self._repr_mimebundle_(), raw=True)

    def _ck_notice(self, text: str) -> None:
        """One short error line (widgets/guard.py calls it when a message from the page failed)."""
        if getattr(self, "feedback", None) is not None:
            self.feedback.value = with_notice(self.feedback.value, text)
        else:
            self._notice = getattr(self, "_notice", None) or HTML()
            self._notice.value = with_notice("", text)
            if self._notice not in self.children:
                self.children = (*self.children, self._notice)

    # building ---------------------------------------------------------------------------------------------
    def start(self) -> None:
        if self.qs is not None:
            return
        self.head = HTML()
        self.number = w.Text(value=str(self._number), description="Set", continuous_update=False,
                             layout=shared("layout"))
        self.number.add_class("ck-quiz-set-number")
        self.number.observe(lambda ch: self._set_from_box(), names="value")
        new = Button(description="Another set", tooltip="the next set number")
        new.on_click(lambda _: self.load(self._number % ex.MAX_NUMBER + 1))
        self.sheet_button = Button(description="Answer sheet", tooltip="every question of this set with its answer")
        self.sheet_button.on_click(lambda _: self.toggle_sheet())
        self.options_button = Button(description="Readings…", tooltip="the readings of the disputed rules the "
                                     "questions follow")
        self.options_button.on_click(lambda _: self.toggle_options())
        self.options_box = Box(vertical=True)
        self.options_box.add_class("ck-quiz-options")
        tools = Box([self.number, new, self.sheet_button, self.options_button])
        tools.add_class("ck-quiz-tools")
        tools.add_class("ck-quiz-set")
        self.question = HTML()
        self.choice_box = Box()
        self.choice_box.add_class("ck-quiz-choices")
        self.check = Button(description="Check my answer", button_style="primary")
        self.check.on_click(lambda _: self.answer())
        self.feedback = HTML()
        self.next = Button(description="Next question ▸", button_style="primary")
        self.next.on_click(lambda _: self.go(self.i + 1))
        self.sheet = HTML()
        self.children = (tools, self.options_box, self.head, self.question, self.choice_box, self.feedback, self.next,
                         self.sheet)
        self.load(self._number)

    def _set_from_box(self) -> None:
        try:
            n = int(self.number.value.strip())
            ex.check_number(n)
        except (ValueError, CardkitError):
            self.feedback.value = with_notice("", f"A set's number is a whole number from 1 to {ex.MAX_NUMBER}.")
            self.number.value = str(self._number)
            return
        if n != self._number or self.qs is None:
            self.load(n)

    def load(self, number: int, **options) -> None:
        """Make set `number` under the options in force (or these) and show its first question."""
        opts = {**self._options, **options}
        self.qs = ex.question_set(self.game_name, number, **opts)
        self._options, self._number = opts, number
        self._book = cardkit.load_game(self.game_name, **opts).rulebook
        if self.number.value != str(number):
            self.number.value = str(number)
        self.results: list = [None] * len(self._set.questions)
        self.sheet.value = ""
        self.sheet_button.description = "Answer sheet"
        self.go(0)

    @property
    def _set(self) -> ex.QuestionSet:
        """The question set loaded: what reads it runs only once start() has made one."""
        qs = self.qs
        assert qs is not None
        return qs

    def go(self, i: int) -> None:
        self.i = i
        self.picked: set = set()
        n = len(self._set.questions)
        if i >= n:
            self._summary()
            return
        q = self._set.questions[i]
        self.question.value = (f"<div class='ck-quiz-q'><div class='ck-quiz-step'>Question {i + 1} of {n} · "
                               f"{escape(ex.LEVELS[q.level])}</div>{scene_html(q, self._book.href)}"
                               f"<div class='ck-quiz-prompt'>{escape(q.prompt)}</div></div>")
        buttons = []
        for c in q.choices:
            b = Button(description=c.label, tooltip=getattr(c.card, "name", "") or c.label)
            b.add_class("ck-choice")
            if c.card is not None:
                b.add_class("ck-card-choice")
                if getattr(c.card, "color", "") == "red":
                    b.add_class("ck-ink-red")
            b.on_click(lambda _, k=c.key: self.pick(k))
            b._ck_key = c.key
            buttons.append(b)
        self._buttons = buttons
        self.choice_box.children = [*buttons, *([self.check] if q.multiple else [])]
        self.check.disabled = False
        self.feedback.value = ""
        self.next.layout = _hidden()
        self._head()

    def _head(self) -> None:
        done = [r for r in self.results if r is not None]
        right = sum(done)
        score = f"<b>{right} right</b> of {len(done)} so far" if done else "no answer yet"
        opts = options_words(self.game_name, self._options)
        under = f" · under: {escape(opts)}" if opts else ""
        self.head.value = f"<div class='ck-quiz-head'>Set {self._set.number} · {score}{under}</div>"

    def pick(self, key: str) -> None:
        q = self._set.questions[self.i]
        if self.results[self.i] is not None:
            return
        if not q.multiple:
            self.picked = {key}
            self.answer()
            return
        self.picked ^= {key}
        for b in self._buttons:
            (b.add_class if b._ck_key in self.picked else b.remove_class)("ck-picked")

    def answer(self) -> None:
        q = self._set.questions[self.i]
        if self.results[self.i] is not None:
            return
        if not self.picked:
            self.feedback.value = "<div class='ck-quiz-feedback'>Pick the cards you think may be played, then check.</div>"
            return
        m = ex.mark(q, self.picked)
        self.results[self.i] = m.right
        for b in self._buttons:
            b.disabled = True
            b.remove_class("ck-picked")
            if b._ck_key in q.answer:
                b.add_class("ck-right")
            elif b._ck_key in self.picked:
                b.add_class("ck-wrong")
        self.check.disabled = True
        self.feedback.value = feedback_html(q, m, self._book.href)
        self.next.description = "Next question ▸" if self.i + 1 < len(self._set.questions) else "See your score ▸"
        self.next.layout = shared("layout")
        self._head()

    def _summary(self) -> None:
        right = sum(1 for r in self.results if r)
        n = len(self._set.questions)
        self.question.value = (f"<div class='ck-quiz-q'><div class='ck-quiz-prompt'>You answered {right} of {n} "
                               f"right.</div><p>Try another set, or read the answer sheet of this one.</p></div>")
        again = Button(description=f"Set {self._set.number % ex.MAX_NUMBER + 1} ▸", button_style="primary")
        again.on_click(lambda _: self.load(self._set.number % ex.MAX_NUMBER + 1))
        self.choice_box.children = [again]
        self.feedback.value = ""
        self.next.layout = _hidden()
        self._head()

    def toggle_sheet(self) -> None:
        if self.sheet.value:
            self.sheet.value = ""
            self.sheet_button.description = "Answer sheet"
            return
        self.sheet.value = sheet_html(self.qs, self._book.href, f"ck-sheet-{self.game_name}")
        self.sheet_button.description = "Hide the answer sheet"

    def toggle_options(self) -> None:
        if self.options_box.children:
            self.options_box.children = []
            return
        g = cardkit.load_game(self.game_name, **self._options)
        book = g.rulebook
        controls = []
        for o in g.option_specs:
            if o.name != "players" and not any(o is x for x, _ in ex.disputed_options(g)):
                continue
            if o.rule in book.ids() and book.rule(o.rule).readings:
                labels = {rd.value: rd.label for rd in book.rule(o.rule).readings}
            else:
                labels = {v: f"{v} players" if o.name == "players" else o.label(v) for v in o.choices}
            items = [(labels.get(v, o.label(v)), v) for v in o.choices]
            d = w.Dropdown(options=items, value=g.options[o.name],
                           description=(o.help or o.name)[:1].upper() + (o.help or o.name)[1:],
                           layout=shared("dropdown"), style=shared("description"))
            d.observe(lambda ch, name=o.name: self._switch(name, ch["new"]), names="value")
            controls.append(d)
        self.options_box.children = [HTML("<small>The questions follow the readings in force; switch one and the "
                                          "set is made again under it.</small>"), *controls]

    def _switch(self, name: str, value) -> None:
        try:
            self.load(self._number, **{name: value})
        except CardkitError as e:
            self.feedback.value = with_notice("", str(e))


_HIDDEN: dict = {}


def _hidden():
    if "layout" not in _HIDDEN:
        _HIDDEN["layout"] = w.Layout(display="none")
    return _HIDDEN["layout"]
