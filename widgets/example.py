"""Your own worked example (issue 37): lay out a hand, step through it with every card open, see where the
game's disputed rules part on it, play it on, and share it as a link, a QR code or a file.

The engine does the work (`cardkit.share`: the deal laid out, the record in a link, the puzzle); this widget is
its view. A link reaches it through the page's address: the page script (cardkit.js) writes the address into a
hidden text box (`ck-example-inbox`), as JSON ``{"page": …, "fragment": …}``; everything in it is untrusted and
anything wrong is one plain line. Nothing is built before the reader asks for it (or a link opens it): the page
loads one button and that box."""
from __future__ import annotations

import base64
import json
from html import escape
from typing import Any

import ipywidgets as w

import cardkit
from cardkit import CardkitError, Record
from cardkit.documents import STATIC_SITE
from cardkit.share import MAX_LINK, PREFIX, ShareError, deal_from_hands, puzzle_question, read_link, to_link

from .render import HTML, Box, Button, shared, with_notice

MAX_TEXT = 1_000_000          # characters of a pasted or uploaded record or set
MAX_SET = 200                 # examples in one set file
ALL_OPEN = ("<div class='ck-note ck-example-open'>An example shows every card: all hands are open, as in the "
            "sources' worked examples.</div>")


def holders(game) -> list:
    """Who the laid-out deal gives cards to, in the order the editor asks: each seat that is dealt cards, then
    the stock (the cards not dealt to a hand), with how many each receives."""
    owners = deal_from_hands(game.name, {}, dict(game.options), seed=0).final_state().deal_owners()
    seats = [(p, owners.count(p)) for p in range(game.num_players) if owners.count(p)]
    stock = owners.count(None)
    return seats + ([("stock", stock)] if stock else [])


def holder_words(game, key, n: int) -> str:
    if key == "stock":
        return f"The rest of the pack, in the order it is dealt ({n} cards)"
    return f"{game.player_names()[key]} ({n} cards{', in the order dealt' if n > 13 else ''})"


def qr_svg(url: str) -> str:
    """The link as a QR code (inline SVG), for a teacher's projector; "" if it cannot be made."""
    try:
        import segno
        svg = segno.make(url, error="l").svg_inline(scale=3, title="QR code of the link to this example")
    except Exception:             # (no segno, or a link too long for a QR code: the link itself still works)
        return ""
    return f"<div class='ck-share-qr' role='img' aria-label='QR code of the link to this example'>{svg}</div>"


def data_link(text: str, filename: str, words: str, cls: str) -> str:
    data = base64.b64encode(text.encode()).decode()
    return (f"<a class='{cls}' download='{escape(filename)}' href='data:application/json;base64,{data}'>"
            f"{escape(words)}</a>")


def read_records(text: str, game: str) -> list[Record]:
    """A pasted or uploaded text as records of `game`: a link to an example, a record, or a set (a list of
    records). Untrusted: anything wrong raises ShareError with one plain line."""
    if not isinstance(text, str) or not text.strip():
        raise ShareError("paste a link to an example or a game record first")
    text = text.strip()
    if len(text) > MAX_TEXT:
        raise ShareError(f"that is too long to be an example ({len(text):,} characters; at most {MAX_TEXT:,})")
    if PREFIX in text or text.startswith("v1~"):
        record, step, _ = read_link(text)
        record.meta["_step"] = step
        records = [record]
    else:
        try:
            data = json.loads(text)
        except (ValueError, RecursionError):
            raise ShareError("that is neither a link to an example nor a game record") from None
        items = data if isinstance(data, list) else [data]
        if not items:
            raise ShareError("the set holds no example")
        if len(items) > MAX_SET:
            raise ShareError(f"the set holds {len(items)} examples; at most {MAX_SET}")
        records = []
        for i, item in enumerate(items):
            where = f"example {i + 1} of the set: " if len(items) > 1 else ""
            try:
                record = Record.from_dict(item)
                record.final_state()            # it replays (a record is checked by playing it)
            except CardkitError as e:
                raise ShareError(f"{where}not a game record the kit can replay ({e})") from None
            records.append(record)
    for record in records:
        if record.game != game:
            title = cardkit.game_class(record.game).title if record.game in cardkit.GAMES else record.game
            raise ShareError(f"that is an example of {title}: open it on the page of {title}")
    return records


class Example(w.VBox):
    """The reader's own worked example of one game, one click away ("Set up a hand ▸"), or opened by a link."""

    children: Any

    def __init__(self, game: str, **options):
        self.game_name = game
        self._options = dict(cardkit.load_game(game, **options).options)   # checked now
        self.page = ""                       # the page's address (from the page script): links made absolute
        self.record: Record | None = None
        self.kept: list[Record] = []         # the reader's set
        self.replay: Any = None
        self.table: Any = None
        # the static site works out the Hint at the step shown while the reader looks at it (Python runs in the
        # reader's browser there), as its play table does; on `cardkit serve` on the click
        self.think_ahead = STATIC_SITE
        self._ahead: Any = None              # the Hint at the step shown, worked out ahead (`play.WorkAhead`)
        self._built = False
        self.inbox = w.Text(value="", continuous_update=False, layout=w.Layout(display="none"))
        self.inbox.add_class("ck-example-inbox")
        self.inbox.observe(lambda ch: self.from_page(ch["new"]), names="value")
        start = Button(description="Set up a hand ▸", button_style="primary",
                       tooltip="lay out the cards of a hand you had, step through it and share it")
        start.add_class("ck-example-start")
        start.on_click(lambda _: self.start())
        self._start = start
        self.msg = HTML()
        super().__init__([start, self.msg, self.inbox], layout=shared("layout"))
        self.add_class("ck-example")

    # what the page tells ------------------------------------------------------------------------------------
    def from_page(self, text: str) -> None:
        """The page's address as the page script sends it (untrusted)."""
        if not text:
            return
        try:
            if len(text) > MAX_LINK + 4000:
                raise ValueError
            data = json.loads(text)
            page, fragment = data.get("page", ""), data.get("fragment", "")
            if not isinstance(page, str) or not isinstance(fragment, str):
                raise ValueError
        except (ValueError, AttributeError, RecursionError):
            self.notice("The page's address could not be read, so nothing changed.")
            return
        if page.startswith(("http://", "https://")) and len(page) <= 2000:
            self.page = page.split("#", 1)[0]
        if fragment.startswith(PREFIX):
            self.open_link(fragment)
        elif self.record is not None:
            self._share()

    def notice(self, text: str) -> None:
        self.msg.value = f"<div class='ck-error ck-alert'>{escape(text)}</div>" if text else ""

    def _ck_notice(self, text: str) -> None:
        """One short error line (widgets/guard.py calls it when a message from the page failed)."""
        self.msg.value = with_notice("", text)

    # the editor -----------------------------------------------------------------------------------------------
    def start(self) -> None:
        """Build the editor (once)."""
        if self._built:
            return
        self._built = True
        game = cardkit.load_game(self.game_name, **self._options)
        from .play import option_controls, option_heading
        self._controls = option_controls(type(game), self._options)
        specs = {o.name: o for o in type(game).option_specs}
        rows: list = [HTML("<div class='ck-note'>The options and the readings of the disputed rules this example is "
                           "dealt and played under (the link keeps them).</div>")]
        for name, dd in self._controls.items():
            dd.observe(lambda ch: self._options_changed(), names="value")
            rows += [HTML(option_heading(specs[name])), dd]
        opts = Box(rows, vertical=True)
        opts.add_class("ck-example-options")
        opts.layout = w.Layout(display="none")
        self._opts_box = opts
        self._opts_button = Button(description="Options and readings…", tooltip="the player count and the "
                                   "readings of the disputed rules; click again to close them")
        self._opts_button.on_click(lambda _: self._toggle_options())
        self.under = HTML()
        self.hands_box = Box(vertical=True)
        self.hands_box.add_class("ck-example-hands")
        self.target = w.ToggleButtons(options=[], layout=shared("layout"))
        self.target.add_class("ck-example-target")
        self.picker = w.ToggleButtons(options=[], value=None, layout=shared("layout"))
        self.picker.add_class("ck-example-picker")
        self.picker.observe(self._tapped, names="value")
        back = Button(description="Take back the last card", tooltip="remove the last card of the hand chosen above")
        back.on_click(lambda _: self._take_back())
        deal = Button(description="Deal it ▸", button_style="primary",
                      tooltip="deal these cards (every card not placed at random) and show the example")
        deal.add_class("ck-example-deal")
        deal.on_click(lambda _: self.deal())
        self.paste = w.Textarea(placeholder="or paste a link to an example, or the text of a game record",
                                layout=w.Layout(width="calc(100% - 8px)", max_width="640px", height="4em"))
        self.paste.add_class("ck-example-paste")
        open_ = Button(description="Open it", tooltip="open the pasted link or record")
        open_.add_class("ck-example-open-paste")
        open_.on_click(lambda _: self.open_text(self.paste.value))
        self.upload = w.FileUpload(accept=".json,application/json", multiple=False,
                                   description="Upload a record or a set", layout=shared("layout"))
        self.upload.observe(lambda ch: self._uploaded(), names="value")
        self.set_choice = w.Dropdown(options=[], layout=w.Layout(width="auto", max_width="100%", display="none"),
                                     description="In the set")
        self.set_choice.observe(lambda ch: self._choose_from_set(ch["new"]), names="value")
        self._set: list[Record] = []
        intro = HTML("<div class='ck-example-intro'>Type the cards of each hand (for example <b>AS KH 10D</b>: "
                     "rank, then suit) or tap them below; cards you do not place are dealt at random. Then "
                     "<b>Deal it</b>.</div>")
        tap = HTML("<div class='ck-opt-label'>Tap cards into</div>")
        self.editor = Box([intro, Box([self._opts_button]), self.under, opts, self.hands_box, tap, self.target, self.picker,
                           Box([back, deal]), self.paste, Box([open_, self.upload]), self.set_choice], vertical=True)
        self.editor.add_class("ck-example-editor")
        self.view = Box(vertical=True)
        self.view.add_class("ck-example-view")
        self._fill_hands({})
        self._edit_button = Button(description="Change the hand ▸", tooltip="back to the cards of each hand "
                                   "(what you typed is still there)")
        self._edit_button.add_class("ck-example-edit")
        self._edit_button.on_click(lambda _: self.edit())
        self.children = [self.editor, self.msg, self.view, self.inbox]

    def _toggle_options(self) -> None:
        shown = self._opts_box.layout.display != "none"
        self._opts_box.layout.display = "none" if shown else None
        self._opts_button.description = "Options and readings…" if shown else "Close the options"

    def edit(self) -> None:
        """Show the editor again (after a deal), above the example."""
        self.editor.layout = shared("layout")
        self.children = [self.editor, self.msg, self.view, self.inbox]

    def _options_changed(self) -> None:
        texts = {k: t.value for k, t in getattr(self, "_texts", {}).items()}
        self._options = {k: dd.value for k, dd in self._controls.items()}
        self._fill_hands(texts)

    def _say_options(self) -> None:
        from .exercises import options_words
        try:
            words = options_words(self.game_name, self._options)
        except CardkitError:
            words = ""
        self.under.value = f"<div class='ck-note'><small>Under: {escape(words)}.</small></div>" if words else \
            "<div class='ck-note'><small>Under the kit's default rules.</small></div>"

    def _fill_hands(self, texts: dict) -> None:
        """One text box per holder of the deal under the options in force; what was typed is kept."""
        try:
            game = cardkit.load_game(self.game_name, **self._options)
            self._holders = holders(game)
        except CardkitError as e:
            self.notice(f"These options do not go together: {e}")
            return
        self._texts = {}
        rows = []
        for key, n in self._holders:
            t = w.Text(value=texts.get(key, ""), placeholder="cards, e.g. AS KH 10D", continuous_update=False,
                       layout=w.Layout(width="calc(100% - 8px)", max_width="640px"))
            t.add_class("ck-example-hand")
            self._texts[key] = t
            rows.append(Box([HTML(f"<div class='ck-opt-label'>{escape(holder_words(game, key, n))}</div>"), t],
                            vertical=True))
        self.hands_box.children = rows
        self._say_options()
        names = [("the rest" if k == "stock" else game.player_names()[k], k) for k, _ in self._holders]
        self.target.options = names
        self.target.value = names[0][1]
        cards = sorted(set(game.full_deck()), key=lambda c: c.index)
        self.picker.options = [(c.label, c.text) for c in cards]
        self.picker.value = None

    def _tapped(self, change) -> None:
        card = change["new"]
        if card is None:
            return
        box = self._texts.get(self.target.value)
        if box is not None:
            box.value = f"{box.value.strip()} {card}".strip()
        self.picker.value = None

    def _take_back(self) -> None:
        box = self._texts.get(self.target.value)
        if box is not None:
            box.value = " ".join(box.value.split()[:-1])

    def deal(self, seed: int | None = None) -> None:
        """Deal the laid-out cards (the rest at random) and show the example; an impossible layout is one line,
        and what was typed stays."""
        hands = {k: t.value for k, t in self._texts.items() if t.value.strip()}
        try:
            record = deal_from_hands(self.game_name, hands, self._options, seed=seed)
        except ShareError as e:
            self.notice(f"That deal cannot be: {e}.")
            return
        self.notice("")
        self.show(record, step=len(record.actions))

    # opening ------------------------------------------------------------------------------------------------
    def open_link(self, text: str) -> None:
        try:
            record, step, puzzle = read_link(text)
        except ShareError as e:
            self.start()
            self.notice(f"This link does not open an example: {e}.")
            return
        self.start()
        if record.game != self.game_name:
            title = cardkit.game_class(record.game).title
            self.notice(f"That is an example of {title}: open it on the page of {title}.")
            return
        self.notice("")
        if puzzle and step is not None:
            self.ask(record, step)
        else:
            self.show(record, step)

    def open_text(self, text: str) -> None:
        try:
            records = read_records(text, self.game_name)
        except ShareError as e:
            self.notice(f"That cannot be opened: {e}.")
            return
        self.notice("")
        self._offer_set(records)

    def _uploaded(self) -> None:
        files = self.upload.value
        if not files:
            return
        f = files[0]
        self.upload.value = ()                   # read once: the file is not kept in the page's state
        try:
            content = bytes(f["content"])
            if len(content) > MAX_TEXT:
                raise ShareError(f"the file is too large to be an example ({len(content):,} bytes)")
            text = content.decode("utf-8")
            records = read_records(text, self.game_name)
        except UnicodeDecodeError:
            self.notice("That file cannot be opened: it is not a text file.")
            return
        except ShareError as e:
            self.notice(f"That file cannot be opened: {e}.")
            return
        except (KeyError, TypeError):
            self.notice("That file cannot be opened.")
            return
        self.notice("")
        self._offer_set(records)

    def _offer_set(self, records: list[Record]) -> None:
        self._set = records
        if len(records) > 1:
            self.set_choice.options = [(f"{i + 1}. {r.title}", i) for i, r in enumerate(records)]
            self.set_choice.layout.display = None
            self.set_choice.value = 0
            self._choose_from_set(0)
        else:
            self.set_choice.layout.display = "none"
            r = records[0]
            self.show(r, r.meta.pop("_step", None))

    def _choose_from_set(self, i) -> None:
        if i is None or not 0 <= i < len(self._set):
            return
        r = self._set[i]
        self.show(r, r.meta.get("start"))

    # the example -------------------------------------------------------------------------------------------
    def show(self, record: Record, step: int | None = None) -> None:
        """Step through `record` with every card open, from `step`; the readings compared; the link to it."""
        from .replay import Replay
        self.start()
        self.record = record
        self.table = None
        self.editor.layout = w.Layout(display="none")
        self.children = [self._edit_button, self.msg, self.view, self.inbox]
        self.replay = Replay(record)
        if step is not None:
            self.replay.go(step)
        self.replay._slider.observe(lambda ch: self._moved(), names="value")
        play = Button(description="Play on from here ▸", tooltip="a play table from this step: you take the seat "
                      "whose turn it is, the computer the others")
        play.add_class("ck-example-play")
        play.on_click(lambda _: self.play_on())
        hint = Button(description="Hint at this step", tooltip="what the expert would choose here, from the "
                      "seat whose turn it is (it sees only that player's cards)")
        hint.add_class("ck-example-hint")
        hint.on_click(lambda _: self.hint())
        keep = Button(description="Add to my set", tooltip="collect examples into one file to download")
        keep.on_click(lambda _: self.keep())
        self.puzzle = w.Checkbox(value=False, description="Ask it as a puzzle at this step", indent=False,
                                 layout=shared("layout"))
        self.puzzle.observe(lambda ch: self._share(), names="value")
        self.hint_box = HTML()
        self.table_box = Box(vertical=True)
        self.share_box = HTML()
        self.readings = HTML(self.readings_html())
        self.moves_head = HTML()
        self.moves = Box()
        self.moves.layout = shared("wrap")
        self.moves.add_class("ck-example-moves")
        rest = Button(description="Play the round out", tooltip="the computer plays every seat by the book, to the "
                      "end of this round (a hand, a coup, a deal); the moves after this step are replaced")
        rest.add_class("ck-example-rest")
        rest.on_click(lambda _: self.play_round_out())
        self._rest = rest
        self.view.children = [HTML(ALL_OPEN), self.replay, self.moves_head, self.moves, Box([rest, play, hint, keep]),
                              self.hint_box, self.readings,
                              HTML("<h4 class='ck-share-head'>Share it</h4>"), self.puzzle, self.share_box,
                              self.table_box]
        self._moved()

    def _moved(self) -> None:
        """The step shown changed: the moves that may follow it, the link; the Hint at the new step begun."""
        self.hint_box.value = ""
        self._show_moves()
        self._share()
        self._plan_hint()

    def _hint_key(self) -> tuple:
        """What the Hint at the step shown depends on: the game, its options and the moves up to the next one."""
        assert self.record is not None
        step = self.step()
        return self.record.game, tuple(sorted(self.record.options.items())), tuple(self.record.actions[:step + 1]), step

    def _plan_hint(self) -> None:
        """With `think_ahead`: begin the Hint at the step shown, a sample at a time on the kernel's event loop."""
        from cardkit.share import puzzle_steps
        from cardkit.bots import Steps
        from .play import WorkAhead
        state = self.replay.state if self.replay is not None else None
        if (not self.think_ahead or self.record is None or state is None or state.is_terminal()
                or state.current_player < 0 or len(state.legal_actions()) < 2):
            return
        record, step = self.record, self.step()
        self._ahead = self._ahead or WorkAhead()
        self._ahead.begin(self._hint_key(), lambda: Steps(puzzle_steps(record, step, to_player=False)),
                         self._hint_key)

    def _show_moves(self) -> None:
        """The legal moves at the step shown, as buttons labelled with who makes them: a click makes that move the
        example's next (the moves after this step are replaced), as on an analysis board."""
        state = self.replay.state
        if state is None or state.is_terminal() or state.current_player < 0:
            self.moves_head.value = ""
            self.moves.children = []
            self._rest.disabled = True
            return
        self._rest.disabled = False
        name = state.game.player_names()[state.current_player]
        later = len(self.record.actions) - self.step() if self.record is not None else 0
        note = (f" <small>(a move other than the example's replaces its {later} later "
                f"{'step' if later == 1 else 'steps'})</small>" if later else "")
        self.moves_head.value = f"<div class='ck-opt-label'>{escape(name)} to move: make the next move{note}</div>"
        buttons = []
        for i, a in enumerate(state.legal_actions()[:80]):
            b = Button(description=a.label, tooltip=f"{name}: {a.label}")
            b.add_class("ck-example-move")
            if getattr(a.card, "color", "") == "red":
                b.add_class("ck-ink-red")
            b.on_click(lambda _, t=a.text: self.extend([t]))
            buttons.append(b)
        self.moves.children = buttons

    def extend(self, moves: list[str]) -> None:
        """The example up to the step shown, then `moves` (action texts; the deals the game makes by itself after
        them follow), shown after them."""
        from cardkit.events import step
        assert self.record is not None
        state = self.replay.state.clone()
        at = len(state.history)
        try:
            for text in moves:
                step(state, text)
        except CardkitError as e:
            self.notice(f"That move cannot be made: {e}.")
            return
        self.notice("")
        self.grown(state, at + len(moves))

    def grown(self, state, at: int) -> None:
        """Show the example as `state`'s history, at step `at` (its title kept)."""
        assert self.record is not None
        record = state.to_record()
        record.meta = {"title": self.record.title}
        self.show(record, at)

    def play_round_out(self) -> None:
        """Every seat by the book (the game's rule-based bot) from the step shown to the end of its round."""
        from cardkit.bots import bots_for
        from cardkit.events import step
        state = self.replay.state
        if state is None or state.is_terminal():
            return
        s = state.clone()
        factories = bots_for(s.game)
        bots = {p: factories["rule-based"](seed=p) for p in range(s.game.num_players)}
        at = len(s.history)
        while not s.is_terminal() and s.current_player >= 0 and len(s.history) < at + 2000:
            if any(e.ended for e in step(s, bots[s.current_player].choose(s))):
                break
        self.grown(s, len(s.history))

    def step(self) -> int:
        return self.replay._slider.value if self.replay is not None else 0

    def link(self, puzzle: bool | None = None) -> str:
        """The link's text: the page's address (when the page has said it) and the fragment."""
        assert self.record is not None
        at = self.step()
        ask = self.puzzle.value if puzzle is None else puzzle
        state = self.replay.state
        ask = ask and state is not None and state.current_player >= 0
        fragment = to_link(self.record, at, puzzle=ask)
        return f"{self.page}#{fragment}"

    def _share(self) -> None:
        if self.record is None:
            return
        try:
            url = self.link()
        except CardkitError as e:
            self.share_box.value = f"<div class='ck-error'>This example cannot be put in a link: {escape(str(e))}</div>"
            return
        state = self.replay.state
        puzzle_note = ""
        if self.puzzle.value and (state is None or state.current_player < 0):
            puzzle_note = "<br><small>Nobody chooses at this step: the link opens the example itself.</small>"
        qr = qr_svg(url) if self.page else ""
        qr = f"<details class='ck-share-qr-box'><summary>QR code of the link</summary>{qr}</details>" if qr else ""
        name = f"{self.game_name}-example"
        files = data_link(self.record.dumps(), f"{name}.json", "Download this example", "ck-download")
        if self.kept:
            text = json.dumps([r.to_dict() for r in self.kept], ensure_ascii=False, indent=1) + "\n"
            files += " · " + data_link(text, f"{name}s.json", f"Download my set ({len(self.kept)})", "ck-download")
        self.share_box.value = (
            f"<div class='ck-share'><a class='ck-share-link' href='{escape(url)}'>Link to this example at step "
            f"{self.step()}</a> <small>(copy it to send it: it holds every card and move, and opens the same step "
            f"under the same readings)</small>{puzzle_note}"
            f"<div><input class='ck-share-text' readonly aria-label='the link to copy' value='{escape(url)}' "
            f"style='width:calc(100% - 8px);max-width:640px;box-sizing:border-box'></div>{qr}<div>{files}</div></div>")

    def readings_html(self) -> str:
        """For each disputed rule of the game, whether this hand touches it: where its readings part and what
        each leads to (`compare_readings`), or that it decides nothing here."""
        from .rules import compare_readings, first_parting
        assert self.record is not None
        book = self.record.load_game().rulebook
        touched: list = []
        untouched: list = []
        for rule in book.rules:
            if not (rule.readings and rule.option) or rule.option not in self.record.load_game().options:
                continue
            parted = first_parting(self.record, rule, dict(self.record.options))
            (touched if parted is not None else untouched).append((rule, parted))
        if not touched and not untouched:
            return ""
        link = lambda rid: f"<a href='{escape(book.href(rid) or '#')}'>{escape(rid)}</a>"  # noqa: E731
        glance = "".join(f"<li class='ck-touched'><b>{escape(r.title)}</b> ({link(r.id)}): the readings part at step "
                         f"{p[0] + 1}</li>" for r, p in touched)
        glance += "".join(f"<li class='ck-untouched'>{escape(r.title)} ({link(r.id)}): the same under every reading "
                          "here</li>" for r, _ in untouched)
        n = len(touched)
        head = (f"This hand touches {n} of the game's {n + len(untouched)} disputed rules."
                if n else "None of the game's disputed rules changes anything in this hand.")
        cmp = "".join(f"<h5>{escape(r.title)} ({link(r.id)})</h5>"
                      + compare_readings(self.record, r, href=book.href, **self.record.options) for r, _ in touched)
        return (f"<div class='ck-example-readings'><h4>Under every reading</h4><p>{head}</p><ul>{glance}</ul>"
                f"{cmp}</div>")

    def play_on(self) -> None:
        """A play table from the step shown: the seat whose turn it is is the reader's, the others the computer's."""
        from .play import PlayTable
        state = self.replay.state
        assert self.record is not None
        if state is None or state.is_terminal():
            self.notice("The game is over at this step: step back to play on.")
            return
        self.notice("")
        seat = state.current_player if state.current_player >= 0 else 0
        deciders = list(state.game.deciders())
        seat = seat if seat in deciders else (deciders[0] if deciders else 0)
        self.table = PlayTable(self.game_name, human=seat, keep=False, resume=state.clone(), **self.record.options)
        self.table_box.children = [HTML("<h4>Played on from here</h4>"), self.table]

    def hint(self) -> None:
        state = self.replay.state
        if state is None or state.current_player < 0 or state.is_terminal():
            self.hint_box.value = "<div class='ck-note'>Nobody chooses at this step.</div>"
            return
        assert self.record is not None
        ahead = self._ahead.get(self._hint_key()) if self._ahead is not None else None
        try:
            q = ahead.finish() if ahead is not None else puzzle_question(self.record, self.step(), to_player=False)
        except CardkitError as e:
            self.hint_box.value = f"<div class='ck-error'>{escape(str(e))}</div>"
            return
        from cardkit.rules import link_rule_ids
        href = self.record.load_game().rulebook.href
        why = q.why
        self.hint_box.value = f"<div class='ck-note ck-example-hint-text ck-live'>{link_rule_ids(escape(why), href)}</div>"

    def keep(self) -> None:
        assert self.record is not None
        self.kept.append(Record(self.record.game, dict(self.record.options), list(self.record.actions),
                                {**self.record.meta, "start": self.step()}))
        self._share()

    # a puzzle -----------------------------------------------------------------------------------------------
    def ask(self, record: Record, step: int) -> None:
        """The example as a question to the player whose turn it is at `step`: only what that player has seen;
        the deal, the expert's choice and the rule after the answer."""
        from .exercises import feedback_html, scene_html
        from cardkit import exercises as ex
        self.start()
        self.record, self.replay, self.table = None, None, None
        self.editor.layout = w.Layout(display="none")
        self.children = [self._edit_button, self.msg, self.view, self.inbox]
        try:
            q = puzzle_question(record, step)
        except CardkitError as e:
            self.notice(f"This puzzle cannot be asked: {e}.")
            return
        href = record.load_game().rulebook.href
        who = record.load_game().player_names()[q.viewer] if q.viewer is not None else ""
        head = (f"<div class='ck-quiz-head'>A puzzle: the position as {escape(who)} saw it, nothing more. Every card "
                "and the expert's choice show after your answer.</div>")
        question = HTML(f"<div class='ck-quiz ck-puzzle'>{head}<div class='ck-quiz-q'>{scene_html(q, href)}"
                        f"<div class='ck-quiz-prompt'>{escape(q.prompt)}</div></div></div>")
        feedback = HTML()
        buttons: list = []

        def answer(key: str) -> None:
            if feedback.value:
                return
            m = ex.mark(q, {key})
            for b in buttons:
                b.disabled = True
            feedback.value = feedback_html(q, m, href)
            reveal = Button(description="Show every card ▸", button_style="primary",
                            tooltip="the example with every card open, at this step")
            reveal.on_click(lambda _: self.show(record, step))
            self.view.children = (*self.view.children, reveal)

        for c in q.choices:
            b = Button(description=c.label, tooltip=getattr(c.card, "name", "") or c.label)
            b.add_class("ck-choice")
            if getattr(c.card, "color", "") == "red":
                b.add_class("ck-ink-red")
            b.on_click(lambda _, k=c.key: answer(k))
            buttons.append(b)
        choices = Box(buttons)
        choices.layout = shared("wrap")
        self.view.children = [question, choices, feedback]
