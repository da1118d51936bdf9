"""The question kinds the trick games share: "Who takes this trick?" and "Which of your cards may you play?".

Each is made through the public protocol: the trick's winner is the one the engine gave the trick to (a
game names its last finished trick: `last`), the playable cards are the engine's legal actions, and a
card that may not be played is explained by the engine's own error (the rule it breaks). A game gives only
what is its own: where its last trick lies, which cards are special, and a word for them.
"""
from __future__ import annotations

from collections import Counter

from ..errors import IllegalActionError
from . import Choice, Kind, Question, Row, Scene, rotated_choices, rule_of, sentence, sentences


def _unstop(text: str) -> str:
    """A reason without its closing full stop (a rule ID follows it)."""
    return (text or "").strip().rstrip(".")


def names(state) -> list:
    return state.game.player_names()


def list_words(items) -> str:
    items = list(items)
    if not items:
        return "none"
    if len(items) == 1:
        return items[0]
    return ", ".join(items[:-1]) + " and " + items[-1]


def trick_pile(view):
    return next((p for p in view.piles if p.kind == "trick"), None)


class TrickKind(Kind):
    """Who takes this trick? The trick is shown whole as played (every card of it is face up); the choices
    are the players who played to it."""
    name = "trick"
    title = "Who takes this trick?"

    def __init__(self, ends, last=None, unpack=None, special=lambda snap, cards: False, options=None, why=None,
                 level2=""):
        self._ends = ends                # (state, action) -> may this move end a trick? (cheap; `after` checks)
        # state -> its last finished trick as the game keeps it (None: none yet); most keep `last_trick`
        self._last = last or (lambda state: state.last_trick)
        # that object -> (((seat, card), …), winner); most keep the played cards first and the winner second
        self._unpack = unpack or (lambda last: (tuple(last[0]), last[1]))
        self._special = special
        self.options = options
        self._why = why
        self.level2 = level2

    def moment(self, state, action) -> bool:
        return self._ends(state, action)

    def before(self, state, action, full):
        p = state.current_player
        if not full:
            return {"last": self._last(state), "names": None}
        view = state.view(p)
        return {"last": self._last(state), "facts": list(view.facts), "viewer": p,
                "describe": state.describe(action), "names": names(state)}

    def after(self, snap, state):
        last = self._last(state)
        if last is None or last is snap["last"]:
            return None
        cards, w = self._unpack(last)
        note = ""
        if snap["names"] is None:
            return {"cards": tuple(cards), "winner": w, "note": "", "names": names(state)}
        try:
            v = state.view(snap["viewer"])
            pile = next((p for p in v.piles if p.kind == "last-trick"), None)
            if pile is not None and [c for _, c in pile.cards] == [c for _, c in cards]:
                note = pile.note
        except Exception:   # noqa: BLE001 - a view is only read for its words
            note = ""
        return {"cards": tuple(cards), "winner": w, "note": note, "names": snap["names"]}

    def key(self, result):
        return result["winner"]

    def special(self, snap, result) -> bool:
        return self._special(snap, result["cards"])

    def words(self, result) -> str:
        return f"{result['names'][result['winner']]} would take the trick"

    def make(self, game, snap, result, others, rng) -> Question:
        nm = snap["names"]
        cards, w = result["cards"], result["winner"]
        seats = sorted(dict.fromkeys(q for q, _ in cards))     # in seat order, from a seat drawn at random
        choices = rotated_choices([Choice(f"p{q}", nm[q]) for q in seats], rng)
        why = self._why(snap, result) if self._why else sentence(result["note"] or snap["describe"])
        rule = rule_of(result["note"]) or rule_of(snap["describe"])
        scene = Scene(facts=snap["facts"], rows=[Row("The trick, in the order played", [(nm[q], c) for q, c in cards])])
        return Question(game.name, self.name, 0, "Who takes this trick?", scene, choices, frozenset({f"p{w}"}),
                        False, rule, why, f"{nm[w]} takes it.", viewer=snap["viewer"],
                        checks=[("says", (f"won by {nm[w]}", f"{nm[w]} takes the trick", f"{nm[w]} takes it"))])


class PlayKind(Kind):
    """Which of your cards may you play here? The learner holds the current player's hand and sees what that
    player sees; the answer is the engine's legal cards, and each card it refuses is explained by the
    engine's own error (the rule the card would break)."""
    name = "play"
    title = "Which of your cards may you play?"

    def __init__(self, asked, special=lambda snap: False, options=None, level2="", words=None):
        self._asked = asked              # (state, action) -> is a card to be chosen here with some refused? (cheap)
        self.cw = words or (lambda c: c.label)     # a card in words (24: "the red 11")
        self._special = special
        self.options = options
        self.level2 = level2

    def moment(self, state, action) -> bool:
        return action.card is not None and self._asked(state, action)

    def before(self, state, action, full):
        p = state.current_player
        legal = state.legal_actions()
        playable = {a.card for a in legal if a.card is not None}
        if not full:
            return {"playable": frozenset(playable), "boring": False}
        view = state.view(p)
        hand = [c for c in view.seats[p].hand if c is not None]
        if not playable or len(hand) != len(view.seats[p].hand):
            return None
        refused = {}
        for c in dict.fromkeys(hand):
            if c not in playable:
                try:
                    state.parse_action(c.text)
                except IllegalActionError as e:
                    refused[c] = e
        if not refused:
            return {"playable": frozenset(playable), "refused": {}, "boring": True}
        others = [a.label for a in legal if a.card is None]
        trick = trick_pile(view)
        rows = [Row("The trick so far", list(trick.cards), trick.note)] if trick is not None and trick.cards else []
        return {"playable": frozenset(playable), "refused": refused, "hand": hand, "viewer": p,
                "facts": list(view.facts), "rows": rows, "others": others, "names": names(state),
                "status": view.status, "boring": False}

    def after(self, snap, state):
        if snap is None or snap["boring"]:
            return None
        return snap["playable"]

    def key(self, result):
        return result

    def refused(self, snap, refusal):
        """The playable cards are the position's, before the move: a reading that refuses the card then
        played still has its answer."""
        return snap["playable"] if snap is not None and not snap["boring"] else None

    def special(self, snap, result) -> bool:
        return self._special(snap)

    def words(self, result) -> str:
        cards = sorted(result, key=lambda c: c.index)
        return ("only " if len(cards) == 1 else "") + list_words([self.cw(c) for c in cards]) + " would be playable"

    def make(self, game, snap, result, others, rng) -> Question:
        p = snap["viewer"]
        hand = list(dict.fromkeys(snap["hand"]))
        playable = [c for c in hand if c in result]
        cw = self.cw
        choices = [Choice(f"c{c.index}", cw(c), c) for c in hand]
        refused = snap["refused"]
        rules = Counter(e.rule for e in refused.values())
        rule = rules.most_common(1)[0][0]
        groups: dict = {}                  # the same reason for several cards, said once
        for c, e in refused.items():
            groups.setdefault((e.rule, e.why.replace(c.label, "\x00")), []).append((c, e))
        lines = []
        for (r, _), items in groups.items():
            c0, e0 = items[0]
            these = list_words([cw(c) for c, _ in items])
            why0 = e0.why if len(items) == 1 else (e0.why.replace(f"{c0.label} is not", "they are not")
                                                   .replace(c0.label, "these cards"))
            lines.append(f"{these} may not be played: {_unstop(why0)} [{r}].")
        extra = f"Besides a card, you may also {list_words(snap['others'])}." if snap["others"] else ""
        why = sentences(" ".join(lines + [extra]))
        may = list_words([cw(c) for c in playable])
        why_not = {f"c{c.index}": sentences(f"{cw(c)} may not be played: {_unstop(e.why)} [{e.rule}].")
                   for c, e in refused.items()}
        scene = Scene(facts=snap["facts"], rows=snap["rows"], hand=snap["hand"], lines=[snap["status"]],
                      hand_title=f"Your hand ({snap['names'][p]})")
        prompt = "It is your turn. Which of your cards may you play? Pick every one."
        return Question(game.name, self.name, 0, prompt, scene, choices, frozenset(f"c{c.index}" for c in playable),
                        True, rule, why, f"You may play {may}.", why_not=why_not, viewer=p,
                        checks=[("legal", frozenset(c.text for c in playable))])
