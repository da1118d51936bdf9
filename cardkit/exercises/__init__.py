"""Test yourself: questions the engine makes and marks, from positions of real play, under the options in force.

    qs = cardkit.exercises.question_set("magische7", 12)          # set 12, the kit's defaults
    q = qs.questions[0]; q.prompt; q.choices; q.scene
    cardkit.exercises.mark(q, {q.choices[0].key})                  # right?, and why in plain words

How a question is made. A seeded game is played at random through the public protocol until a moment of the
question's kind comes up (a trick about to be completed, a player to choose a card, a round about to be
scored, a bank to draw …). The kind reads what the learner may know at that moment (the view of one seat: its
own hand, the cards on the table, the public facts) and the engine then makes the move: the answer is what the
engine did (who took the trick, which cards it offered as legal, what the ledger paid), never a rule written
again here. The same moves are replayed at once under every other reading of each disputed rule (a conflict
or a gap of the rulebook): where the engine's answer differs there, the question says so — "under the other
reading, West would take it" — and the question belongs to the third step.

Steps (``LEVELS``): 1 the basic rules, 2 the special cards (each game says which: trumps, a Joker, a 7, a
doublet …), 3 where the readings differ. A set (``question_set``) is reproducible by its number: the same
game, number and options give the same questions everywhere, Pyodide included (the deals come from cardkit's
own ``Rng``); it steps from 1 to 3, and a game whose answers no reading changes keeps to steps 1 and 2.

Hidden means hidden: a question shows only what its seat has seen (``Question.viewer``); a question about a
position shown whole says so (``Question.whole``). ``tests/test_exercises.py`` checks both over every game.
"""
from __future__ import annotations

import hashlib
import importlib
import re
from dataclasses import dataclass, field

from ..errors import CardkitError, IllegalActionError
from ..game import CHANCE, Deal
from ..rng import Rng

LEVELS = {1: "The basic rules", 2: "The special cards", 3: "Where the readings differ"}
DISPUTED = ("conflict", "gap")          # rule kinds whose readings are disputed
SET_SIZE = 8
PLAN = (1, 1, 1, 2, 2, 2, 3, 3)          # the steps of a set, in order
MAX_NUMBER = 9999

# game name -> the module of its question kinds
MODULES = {
    "magische7": "cardkit.exercises.magische7",
    "sieben": "cardkit.exercises.sieben",
    "whist": "cardkit.exercises.whist",
    "ecarte": "cardkit.exercises.ecarte",
    "vierundzwanzig": "cardkit.exercises.vierundzwanzig",
    "vingt_et_un": "cardkit.exercises.vingt_et_un",
    "bakkarat": "cardkit.exercises.bakkarat",
    "faro": "cardkit.exercises.faro",
}


# --- what a question is ---------------------------------------------------------------------------------
@dataclass
class Choice:
    key: str
    label: str                  # plain words ("West", "2 points", "K♠")
    card: object = None         # the card a choice stands for (drawn as a card button), if any


@dataclass
class Row:
    """A row of cards the question shows: a trick in the order played, a hand shown, the cards of a turn."""
    title: str
    cards: list                 # (owner's name or "", Card)
    note: str = ""


@dataclass
class Scene:
    """What a question shows, all of it known to its seat (or the position shown whole)."""
    facts: list = field(default_factory=list)      # (label, value): trump, rank order, score …
    rows: list = field(default_factory=list)       # Row
    lines: list = field(default_factory=list)      # plain-word lines: stakes, counters, tricks taken …
    hand: list = field(default_factory=list)       # the learner's own hand
    hand_title: str = ""

    def cards(self) -> list:
        """Every card the scene shows."""
        return [c for r in self.rows for _, c in r.cards] + list(self.hand)


@dataclass
class Other:
    """The answer under another reading of a disputed rule."""
    rule: str                   # the rule ID
    title: str                  # the rule's title
    reading: str                # the reading's label
    answer: str                 # plain words: "West would take the trick"
    key: str = ""               # what the engine did there, as the kind compares it (for the tests)


@dataclass
class Refused:
    """The engine's answer under another reading where it refuses the move the question is about: the
    question's position cannot come about there, and the other reading says so."""
    error: IllegalActionError
    move: str = ""              # the move in words ("J♠", "Lappé: back to the first stake")

    def key(self):
        return ("refused", self.error.rule)

    def words(self) -> str:
        why = self.error.why
        return f"{self.move or 'this move'} would not be allowed: {why} [{self.error.rule}]"


def answer_key(kind, result):
    """What is compared between readings: the kind's key, or a refusal's."""
    return result.key() if isinstance(result, Refused) else kind.key(result)


@dataclass
class Question:
    game: str
    kind: str                   # the kind's name ("trick", "play", "points" …)
    level: int                  # 1, 2, 3 (LEVELS)
    prompt: str
    scene: Scene
    choices: list               # Choice
    answer: frozenset           # the keys of the right choices
    multiple: bool              # pick every right choice (the answer is the whole set)
    rule: str                   # the rule ID the answer rests on
    why: str                    # the right answer explained, in plain words with rule IDs
    answer_text: str            # the right answer in words ("West takes it", "J♠ and 9♠")
    why_not: dict = field(default_factory=dict)    # key of a wrong choice -> why it is wrong
    others: list | None = None  # Other: the answer under another reading (None until the walk fills it in)
    viewer: int | None = None   # the seat whose knowledge the question shows
    whole: bool = False         # the position is shown whole (every card), and the question says so
    options: dict = field(default_factory=dict)    # the game's options in force
    history: tuple = ()         # the actions up to the position (with `action`: the engine's move)
    action: object = None       # the move the engine made from the position (its answer)
    seed: int = 0               # the game's seed
    # what the engine must show once the move is made from the position, for the tests to check the answer
    # against the engine through its public protocol: ("legal", {card texts}) the position's legal cards;
    # ("delta", seat, n) the change of scores()[seat]; ("standing", seat, x) of standing()[seat]; ("says", text)
    # words of the engine (the move's narration, the table's notes, status and seat lines after it);
    # ("before", method, args, value) a public method of the state at the position; ("legal_of", seat, {texts})
    # the next player and his legal actions after the move; ("shown", name, (least, most)) how many cards of a
    # player the table's last finished trick, coup or showdown shows
    checks: list = field(default_factory=list)
    result_key: str = ""        # what the engine did, as the kind compares it between readings

    def choice(self, key: str) -> Choice:
        for c in self.choices:
            if c.key == key:
                return c
        raise CardkitError(f"no choice {key!r}; choices: {', '.join(c.key for c in self.choices)}")


@dataclass
class Mark:
    right: bool
    headline: str               # "Right." / "Not quite: West takes it."
    why: str                    # the engine's reasons, plain words with rule IDs
    why_not: list               # a line for each wrong choice picked (or right one missed)
    others: list                # Other
    rule: str = ""              # the rule the answer rests on, as played under the question's options (the rulebook's words)


def mark(q: Question, picked) -> Mark:
    """Mark an answer: `picked` is the set of choice keys (one for a single-answer question)."""
    picked = set(picked if not isinstance(picked, str) else {picked})
    unknown = picked - {c.key for c in q.choices}
    if unknown:
        raise CardkitError(f"no such choice: {', '.join(sorted(unknown))}")
    if not picked:
        raise CardkitError("pick an answer first")
    if not q.multiple and len(picked) != 1:
        raise CardkitError("pick one answer")
    # one pick: right if it is a right answer (a puzzle may have several choices the expert finds as good);
    # several: right only if they are the whole answer
    right = picked <= set(q.answer) if not q.multiple else picked == set(q.answer)
    notes = []
    for k in [c.key for c in q.choices]:
        if k in picked and k not in q.answer and q.why_not.get(k):
            notes.append(q.why_not[k])
        elif q.multiple and k in q.answer and k not in picked:
            notes.append(sentences(f"{q.choice(k).label} is right too."))
    head = "Right." if right else f"Not quite. {q.answer_text}"
    assert q.others is not None                          # (a question set's walk filled them in)
    return Mark(right, head, q.why, notes, list(q.others), rule_as_played(q))


def rule_as_played(q: Question) -> str:
    """The rule a question's answer rests on, in the rulebook's statement of it as played under the question's
    options ("" where the rule has none): what a learner takes away, never cut from the discussion."""
    import cardkit
    book = cardkit.load_game(q.game, **q.options).rulebook
    if not q.rule or q.rule not in book.ids():
        return ""
    return book.as_played(q.rule)


# --- a set of questions -------------------------------------------------------------------------------
@dataclass
class QuestionSet:
    game: str
    number: int
    options: dict
    questions: list

    @property
    def title(self) -> str:
        return f"Set {self.number}"


def sheet_text(qs: QuestionSet) -> str:
    """A set with its answers as plain text (`cardkit questions GAME --set N`): the scene in words (cards by
    their labels), the question, the choices with the right ones marked, and the reasons."""
    import cardkit
    g = cardkit.load_game(qs.game, **qs.options)
    out = [f"{g.title}: set {qs.number}, the answers", ""]
    for i, q in enumerate(qs.questions, 1):
        out.append(f"{i}. [{LEVELS[q.level]}] {q.prompt}")
        out += [f"   {k}: {v}" for k, v in q.scene.facts]
        out += [f"   {r.title}: " + ", ".join(f"{c.label}" + (f" ({o})" if o else "") for o, c in r.cards)
                for r in q.scene.rows]
        out += [f"   {line}" for line in q.scene.lines]
        if q.scene.hand:
            out.append(f"   {q.scene.hand_title}: " + ", ".join(c.label for c in q.scene.hand))
        out.append("   Choices: " + " · ".join(("✓ " if c.key in q.answer else "") + c.label for c in q.choices))
        out.append(f"   {q.answer_text} {q.why}")
        played = rule_as_played(q)
        if played:
            out.append(f"   The rule: {re.sub(r'[*]+', '', played)}")
        out += [f"   Under the other reading of {o.rule}, “{o.reading}”: {o.answer}." for o in q.others]
        out.append("")
    return "\n".join(out)


def _seed(*parts) -> int:
    """A seed from words and numbers, the same on every Python (unlike hash())."""
    return int.from_bytes(hashlib.sha256(":".join(map(str, parts)).encode()).digest()[:8], "big")


def check_number(number) -> int:
    if isinstance(number, bool) or not isinstance(number, int) or not 1 <= number <= MAX_NUMBER:
        raise CardkitError(f"a set's number is a whole number from 1 to {MAX_NUMBER}, not {number!r}")
    return number


def kinds(game: str) -> list:
    """The question kinds of a game, in the order a set cycles through them."""
    if game not in MODULES:
        raise CardkitError(f"no questions for {game!r}; games: {', '.join(MODULES)}")
    return importlib.import_module(MODULES[game]).KINDS


def question_set(game: str, number: int, size: int = SET_SIZE, **options) -> QuestionSet:
    """Set `number` of a game under `options`: `size` questions stepping from the basic rules to the
    disputed readings, the same every time."""
    import cardkit
    check_number(number)
    g = cardkit.load_game(game, **options)        # the options checked
    out = []
    plan = [PLAN[i * len(PLAN) // size] for i in range(size)] if size != len(PLAN) else list(PLAN)
    ks = kinds(game)
    used: dict = {}
    for slot, level in enumerate(plan):
        q = None
        # a step no position of any kind reaches: the step below, and only then the one above
        for lv in [*range(level, 0, -1), *range(level + 1, max(LEVELS) + 1)]:
            order = sorted(range(len(ks)), key=lambda k: (used.get((lv, ks[k].name), 0), (k - slot) % len(ks)))
            for k in order:
                kind = ks[k]
                q = make_question(g, kind, lv, Rng(_seed(game, number, slot, lv, kind.name)))
                if q is not None:
                    used[(lv, kind.name)] = used.get((lv, kind.name), 0) + 1
                    break
            if q is not None:
                break
        if q is None:
            raise CardkitError(f"no question could be made for {game} (set {number}, question {slot + 1})")
        out.append(q)
    out.sort(key=lambda q: q.level)
    return QuestionSet(game, number, dict(g.options), out)


# --- the walk: random play, the same moves under the other readings -----------------------------------
def disputed_options(game) -> list:
    """(option, rule) for every option that switches a disputed rule's readings (a conflict or a gap)."""
    book = game.rulebook
    ids = set(book.ids())
    out = []
    for o in game.option_specs:
        if o.rule in ids:
            r = book.rule(o.rule)
            if r.kind in DISPUTED and len(r.readings) >= 2 and o.name != "players":
                out.append((o, r))
    return out


class Alt:
    """The same game under another reading, following the main game's moves while they stay legal there and
    each is made by the same player: the same position, only the reading differs."""
    __slots__ = ("option", "value", "rule", "reading", "state", "live", "error")

    def __init__(self, game, option, rule, value):
        import cardkit
        self.option, self.value, self.rule = option, value, rule
        self.reading = rule.reading(value).label
        self.state = cardkit.load_game(game.name, **{**game.options, option.name: value}).blank_state()
        self.live = True
        self.error = None           # the engine's refusal of the main game's move here, where that parted them

    def follow(self, main, movers: dict, upto=None) -> None:
        """Make the main game's new moves here too (up to history index `upto`). `movers`: history index ->
        the seat that made that move in the main game; a move this game gives to another player (a "draw"
        names no seat) or refuses means the games have parted, and this one follows no more."""
        if not self.live:
            return
        st = self.state
        hist = main.history
        for i in range(len(st.history), len(hist) if upto is None else upto):
            a = hist[i]
            if a.__class__ is not Deal and st.current_player != movers.get(i):
                self.live = False
                return
            try:
                st.apply(a)
            except CardkitError as e:
                self.live = False
                self.error = e
                return


def alts_for(game, only=None) -> list:
    out = []
    for o, r in disputed_options(game):
        if only is not None and o.name not in only:
            continue
        for rd in r.readings:
            if rd.value != game.options[o.name]:
                out.append(Alt(game, o, r, rd.value))
    return out


MAX_GAMES = 30          # games a kind plays to find a position of the step asked for
MAX_STEPS = 400         # moves of one game


def make_question(game, kind, level: int, rng: Rng) -> Question | None:
    """A question of `kind` at step `level`, from random games of `game` seeded by `rng` (None: no such
    position came up)."""
    if level not in kind.levels:
        return None
    if level == 3 and not alts_for(game, kind.options):
        return None                           # no reading of a disputed rule can change this kind's answers
    budget = [kind.budget]
    for _ in range(kind.games):
        seed = rng.next64() >> 1
        q = walk(game, kind, level, seed, rng, budget=budget)
        if q is not None or budget[0] <= 0:
            return q
    return None


def walk(game, kind, level: int | None, seed: int, rng: Rng, collect: list | None = None, budget=None):
    """Play one game from `seed`, choosing moves with `rng`; at each moment of `kind` make its question and
    return the first one at `level` (with `collect`, every question is appended to it and None returned).

    The other readings follow the same moves, each made by the same player (`Alt.follow`): at a moment, a
    reading's answer is the engine's at the very position the question shows, or, where the engine refuses
    the move under that reading, what the kind says of the refusal (`Kind.refused`)."""
    main = game.new_state(seed=seed)
    movers: dict = {}                             # history index -> the seat that made that move
    alts = alts_for(game, kind.options)
    for alt in alts:
        alt.follow(main, movers)
    steps = 0
    while not main.is_terminal() and steps < kind.steps:
        if budget is not None:
            budget[0] -= 1
            if budget[0] < 0:
                return None
        if alts and not all(alt.live for alt in alts):
            return None                           # another reading has parted from this game: no answer can
                                                  # be compared with every reading's any more
        steps += 1
        legal = main.legal_actions()
        a = legal[rng.below(len(legal))] if len(legal) > 1 else legal[0]
        cp = main.current_player
        if kind.moment(main, a):
            history = tuple(main.history)
            snap = kind.before(main, a, True)
            here = position(main) if alts else None
            live = [alt for alt in alts if alt.live and len(alt.state.history) == len(history)
                    and position(alt.state) == here]
            asnaps = [(alt, kind.before(alt.state, a, False)) if not alt.state.is_chance() else (alt, None)
                      for alt in live]
            movers[len(main.history)] = cp
            main.apply(a)
            res = kind.after(snap, main)
            others = []
            known = len(asnaps) == len(alts)      # every other reading still at this very position
            for alt, s in asnaps:
                alt.follow(main, movers, len(history) + 1)      # the move alone: its answer there, then the deals
                if s is None:
                    r = None
                elif alt.live:
                    r = kind.after(s, alt.state)
                elif isinstance(alt.error, IllegalActionError) and len(alt.state.history) == len(history):
                    r = kind.refused(s, Refused(alt.error, a.label))       # the move itself refused there
                else:
                    r = None
                if r is None:
                    known = False
                elif res is not None and answer_key(kind, r) != kind.key(res):
                    others.append((alt, r))
            for alt in alts:
                alt.follow(main, movers)
            if res is not None and snap is not None and known:
                special = kind.special(snap, res)
                lv = 3 if others else 2 if special else 1
                if level is None or lv == level or (lv == 3 and level < 3):
                    q = kind.make(game, snap, res, others, rng)
                    if q is not None:
                        if q.others is None:
                            q.others = [kind.other(alt, r) for alt, r in others]
                        q.result_key = repr(kind.key(res))
                        lv = 3 if q.others else 2 if special else 1
                        q.level, q.options, q.history, q.action, q.seed = lv, dict(game.options), history, a, seed
                        if level is None or lv == level:
                            if collect is None:
                                return q
                            collect.append(q)
            continue
        movers[len(main.history)] = cp
        main.apply(a)
        for alt in alts:
            alt.follow(main, movers)
    return None


def position(state) -> tuple:
    """What two games under different readings must share to be at the same position: the player to act and
    every seat's hand (the same moves by the same players can still leave other cards in the hands: a draw
    order, a redeal, a card dealt earlier). Read from the engine's `hands` where it keeps them (a view of each
    seat is much slower: it works out odds), else from each seat's view of its own hand."""
    cp = state.current_player
    hands = getattr(state, "hands", None)
    if isinstance(hands, list):
        return (cp, *(tuple(h) if h is not None else None for h in hands))
    if cp < 0:
        return (cp,)
    n = len(state.view(cp).seats)
    return (cp, *(tuple(state.view(p).seats[p].hand) for p in range(n)))


def answer_at(game, kind_name: str, history, action, same_as=None):
    """The engine's answer (`Kind.after`, or `Kind.refused` where it refuses the move) at a position under
    `game`'s options: `history` replayed, then `action`. With `same_as` (the same game under other options, the
    question's), None unless `game` reaches the very position `same_as` does: each move made by the same
    player, the same hands at the end."""
    kind = kind_of(game.name, kind_name)
    st = game.blank_state()
    ref = same_as.blank_state() if same_as is not None else None
    for a in history:
        if ref is not None:
            if a.__class__ is not Deal and st.current_player != ref.current_player:
                return None
            ref.apply(a)
            try:
                st.apply(a)
            except IllegalActionError:
                return None                       # refused before the position: not the same position
        else:
            st.apply(a)
    if ref is not None and position(st) != position(ref):
        return None
    snap = kind.before(st, action, False)
    try:
        st.apply(action)
    except IllegalActionError as e:
        return kind.refused(snap, Refused(e, getattr(action, "label", str(action))))
    return kind.after(snap, st)


def kind_of(game_name: str, kind_name: str):
    kind = next((k for k in kinds(game_name) if k.name == kind_name), None)
    if kind is None:
        raise CardkitError(f"{game_name} has no questions of the kind {kind_name!r}")
    return kind


def question_at(game, kind_name: str, history, action, seed: int = 0) -> Question | None:
    """The question of a kind at a given position (`history`, then the engine's move `action`), without the
    other readings (its step is 1 or 2). The tests ask it under another reading to check that reading's
    answer."""
    kind = kind_of(game.name, kind_name)
    st = game.blank_state()
    for a in history:
        st.apply(a)
    snap = kind.before(st, action, True)
    st.apply(action)
    res = kind.after(snap, st) if snap is not None else None
    if res is None:
        return None
    q = kind.make(game, snap, res, [], Rng(seed))
    if q is not None:
        q.level = 2 if kind.special(snap, res) else 1
        q.options, q.history, q.action, q.seed, q.others = dict(game.options), tuple(history), action, seed, []
        q.result_key = repr(kind.key(res))
    return q


class Kind:
    """A kind of question. A game's module lists its kinds in KINDS; each kind says when its moment comes
    (`moment`, before a move), what it reads before the move (`before`) and what the engine did
    (`after`), and makes the question from them (`make`)."""
    name = ""
    title = ""
    options: tuple[str, ...] | None = None   # the disputed options whose readings may change the answer (None: all)
    games = MAX_GAMES
    steps = MAX_STEPS
    budget = 4000           # moves in all that a search for one question may play
    levels: tuple[int, ...] = (1, 2, 3)   # the steps its questions can reach (a kind whose answer always depends on a
                            # disputed reading reaches only the third)

    def moment(self, state, action) -> bool:
        raise NotImplementedError

    def before(self, state, action, full: bool):
        """What the kind reads before the move; `full`: the main game (the question is made from it), else a
        game under another reading (only what `after` needs to compare the answers)."""
        raise NotImplementedError

    def after(self, snap, state):
        raise NotImplementedError

    def key(self, result):
        """What is compared between readings (by default the result itself)."""
        return result

    def refused(self, snap, refusal):
        """The answer where the engine refuses the move under another reading (`refusal`, a Refused), from
        that reading's `before` snapshot: by default the refusal itself (the position cannot come about
        there, and the question says so); a kind whose answer does not rest on the move gives its answer."""
        return refusal

    def special(self, snap, result) -> bool:
        return False

    def make(self, game, snap, result, others, rng) -> Question | None:
        raise NotImplementedError

    def other(self, alt, result) -> Other:
        if isinstance(result, Refused):
            return Other(alt.rule.id, alt.rule.title, alt.reading, result.words(), repr(result.key()))
        return Other(alt.rule.id, alt.rule.title, alt.reading, self.words(result), repr(self.key(result)))

    def words(self, result) -> str:
        return str(result)


# --- helpers for the kinds ----------------------------------------------------------------------------
RULE_IN = re.compile(r"\[([A-Z][A-Z0-9]*-\d+(?:\.\d+)*)(?:,[^\]]*)?\]")


def rule_of(text: str, default: str = "") -> str:
    """The first rule ID in a narration's brackets ("… takes it [WH-4.3]")."""
    m = RULE_IN.search(text or "")
    return m.group(1) if m else default


def sentence(text: str) -> str:
    text = (text or "").strip()
    if not text:
        return ""
    text = text[0].upper() + text[1:]
    return text if text.endswith((".", "!", "?")) else text + "."


SENTENCE_END = re.compile(r"([.!?])\s+(\S)")


def sentences(text: str) -> str:
    """Text of several sentences, each begun with a capital (a card or a number stays as it is)."""
    text = (text or "").strip()
    if not text:
        return ""
    text = text[0].upper() + text[1:]
    return SENTENCE_END.sub(lambda m: f"{m.group(1)} {m.group(2).upper()}", text)


def shuffled_choices(choices: list, rng: Rng) -> list:
    """Choices whose order means nothing (draw, stand, choose …) in a random order: the right one's place
    tells nothing."""
    out = list(choices)
    rng.shuffle(out)
    return out


def rotated_choices(choices: list, rng: Rng) -> list:
    """Choices in their own round (the players in seat order) starting at a random one: the order stays the
    table's, and the right one's place is uniform."""
    k = rng.below(len(choices)) if len(choices) > 1 else 0
    return list(choices[k:]) + list(choices[:k])


def number_choices(right: int, near, rng: Rng, words, k: int = 4) -> tuple[list, str]:
    """Choices for a number: the right one and up to k-1 others from `near` (distinct, the likelier mistakes
    first). The right one's place is drawn at random (from the question's rng, so a set is the same every
    time) and the others chosen around it: below it as many as that place needs, the rest above, and shown
    in order. Where `near` has too few on one side for that place (a count of 0 has nothing below it), the
    choices come in a random order with the right one at its drawn place: either way every place is equally
    likely, and the order gives nothing away."""
    cands = []
    for v in near:
        if v != right and v not in cands:
            cands.append(v)
    n = min(k, 1 + len(cands))
    t = rng.below(n) if n > 1 else 0
    below = [v for v in cands if v < right]
    above = [v for v in cands if v > right]
    if len(below) >= t and len(above) >= n - 1 - t:
        picked = sorted(below[:t]) + [right] + sorted(above[:n - 1 - t])
    else:
        rest = cands[:n - 1]
        rng.shuffle(rest)
        picked = rest[:t] + [right] + rest[t:]
    return [Choice(f"n{v}", words(v)) for v in picked], f"n{right}"
