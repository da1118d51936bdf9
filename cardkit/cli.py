"""The `cardkit` command: serve, games, rules, play, bench."""
from __future__ import annotations

import argparse
import ast
import sys

import cardkit
from cardkit import CardkitError, IllegalActionError


def _option_args(pairs: list[str]) -> dict:
    out = {}
    for p in pairs or []:
        if "=" not in p:
            raise CardkitError(f"options are NAME=VALUE, not {p!r}")
        k, v = p.split("=", 1)
        try:
            out[k] = ast.literal_eval(v)
        except (ValueError, SyntaxError):
            out[k] = v
    return out


def view_text(view) -> str:
    lines = []
    for s in view.seats:
        hand = " ".join("##" if c is None else c.label for c in s.hand)
        extra = " · ".join(x for x in (s.team, s.score, s.info) if x)
        lines.append(f"{'>' if s.current else ' '} {s.name:<9} [{hand}]  {extra}")
    for p in view.piles:
        if p.count is not None and not p.cards:
            lines.append(f"  {p.name}: {p.count} cards")
        elif p.cards:
            lines.append(f"  {p.name}: " + ", ".join(f"{o}: {c.label if c else '##'}" for o, c in p.cards)
                         + (f" ({p.note})" if p.note else ""))
    lines.append(view.result if view.terminal else view.status)
    return "\n".join(lines)


def cmd_play(args) -> int:
    game = cardkit.load_game(args.game, **_option_args(args.option))
    human = args.seat
    factories = game.bots()
    if args.bot not in factories:
        raise CardkitError(f"no bot {args.bot!r}; bots: {', '.join(factories)}")
    bots = {p: factories[args.bot](seed=p) for p in range(game.num_players) if p != human}
    state = game.new_state(seed=args.seed)
    print(f"{game.title} — you are {game.player_names()[human]}. Type a card or action; "
          "'?' lists legal actions, 'undo', 'quit'.")
    while not state.is_terminal():
        p = state.current_player
        if p != human:
            a = bots[p].choose(state)
            print("  " + state.describe(a))
            state.apply(a)
            continue
        print(view_text(state.view(human)))
        try:
            text = input("your move> ").strip()
        except EOFError:
            print()
            return 1
        if text in ("quit", "q"):
            return 0
        if text == "?":
            print("legal: " + ", ".join(a.text for a in state.legal_actions()))
            continue
        if text == "undo":
            try:
                while True:
                    state.undo()
                    if state.current_player == human:
                        break
                # the unseen cards are dealt anew: a take-back never shows what is hidden
                state = state.resample(human)
                print("  taken back; the cards you have not seen were shuffled again")
            except CardkitError as e:
                print(e)
            continue
        try:
            a = state.parse_action(text)
            print("  " + state.describe(a))
            state.apply(a)
        except IllegalActionError as e:
            print(f"  ✗ {e.why} (rule {e.rule})")
    print(view_text(state.view(None)))
    return 0


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="cardkit", description=cardkit.__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("serve", help="start the Voilà site on 127.0.0.1")
    s.add_argument("--port", type=int, default=8866)
    s.add_argument("--open", action="store_true", help="open a browser")
    sub.add_parser("games", help="list the games")
    r = sub.add_parser("rules", help="print a game's rulebook as Markdown (or HTML)")
    r.add_argument("game")
    r.add_argument("--html", action="store_true")
    p = sub.add_parser("play", help="play a hand in the terminal against bots")
    p.add_argument("game")
    p.add_argument("-o", "--option", action="append", metavar="NAME=VALUE", help="a game option, e.g. players=4")
    p.add_argument("--seed", type=int, default=None)
    p.add_argument("--seat", type=int, default=0)
    p.add_argument("--bot", default="rule-based")
    b = sub.add_parser("bench", help="engine throughput and page time-to-interactive")
    b.add_argument("--seconds", type=float, default=2.0)
    b.add_argument("--no-pages", action="store_true", help="skip the browser measurement")
    args = ap.parse_args(argv)
    try:
        if args.cmd == "serve":
            from .site import serve
            return serve(port=args.port, open_browser=args.open) or 0
        if args.cmd == "games":
            for g in cardkit.list_games():
                print(f"{g['name']:<12} {g['title']:<18} players {'/'.join(map(str, g['players']))}  {g['summary']}")
            return 0
        if args.cmd == "rules":
            book = cardkit.load_game(args.game).rulebook
            print(book.to_html() if args.html else book.to_markdown())
            return 0
        if args.cmd == "play":
            return cmd_play(args)
        if args.cmd == "bench":
            from .bench import run
            run(seconds=args.seconds, pages=not args.no_pages)
            return 0
    except CardkitError as e:
        print(f"cardkit: {e}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
