"""The `cardkit` command: serve, build-static, games, rules, play, bench, match, impact."""
from __future__ import annotations

import argparse
import ast
import os
import sys

import cardkit
from cardkit import CardkitError, IllegalActionError
from cardkit.bots import game_bots


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
    lines = [" · ".join(f"{k}: {v}" for k, v in view.facts)] if view.facts else []
    for s in view.seats:
        hand = " ".join("##" if c is None else c.label for c in s.hand)
        extra = " · ".join(x for x in (s.team, s.score, s.info) if x)
        lines.append(f"{'>' if s.current else ' '} {s.name:<9} [{hand}]  {extra}")
    for p in view.piles:
        if p.count is not None and not p.cards:
            lines.append(f"  {p.name}: {p.count} cards")
        elif p.cards:
            lines.append(f"  {p.name}: " + ", ".join(f"{o}: {c.label if c else '##'}" if o else (c.label if c else "##")
                                                   for o, c in p.cards)
                         + (f" ({p.note})" if p.note else ""))
    lines.append(view.result if view.terminal else view.status)
    return "\n".join(lines)


def cmd_play(args) -> int:
    """A game in the terminal: the same session as the play table of the pages (`cardkit.table.Table`), told
    as the seat played sees it."""
    from .table import Refused, Table
    options = _option_args(args.option)
    game = cardkit.load_game(args.game, **options)
    human = args.seat
    names = game.player_names()
    if not 0 <= human < game.num_players:
        raise CardkitError(f"no seat {human} in {game.name} with {game.num_players} players; --seat is one of "
                           + ", ".join(f"{p} ({names[p]})" for p in range(game.num_players)))
    factories = game_bots(game)
    if args.bot not in factories:
        raise CardkitError(f"no bot {args.bot!r}; bots: {', '.join(factories)}")
    # a seat that never chooses (Faro's bank) watches the computer play the game
    people = [human] if human in game.deciders() else []
    table = Table(game.name, people=people, bot=args.bot, seed=args.seed, human=human, **options)
    print(f"{game.title} — you are {names[human]}. Type a card or action; "
          "'?' lists legal actions, 'undo', 'quit'.")

    def tell() -> None:
        """What happened since the last move: each round that ended with its result, then the rest."""
        for m in table.moments():
            for _, line in m["since"]:
                print("  " + line)
            print(f"  — {m['ended']} is over." + (f" {m['result']}" if m["result"] else ""))
        for line in table.since():
            print("  " + line)
        table.my_notes.fresh()
    tell()
    while not table.state.is_terminal():
        state = table.state
        print(view_text(state.view(human)))
        try:
            text = input("your move> ").strip()
        except EOFError:
            print()
            return 1
        except KeyboardInterrupt:
            print()                            # off the prompt's line, for main's one line
            raise
        if text in ("quit", "q"):
            return 0
        if text == "?":
            print("legal: " + ", ".join(a.text for a in state.legal_actions()))
            continue
        if text == "undo":
            try:
                # the unseen cards are dealt anew: a take-back never shows what is hidden
                print("  " + table.undo())
            except Refused as e:
                print(f"  {e}")
            continue
        try:
            table.play(text)
        except IllegalActionError as e:
            print(f"  ✗ {e.why} (rule {e.rule})")
            continue
        tell()
    print(view_text(table.state.view(None)))
    return 0


def _check_all(args, all_alone: str) -> None:
    """--games is at least 1, and --all comes without a game or options (`all_alone` says so)."""
    if args.games < 1:
        raise CardkitError(f"--games must be at least 1, not {args.games}")
    if args.all and (args.game or args.option):
        raise CardkitError(all_alone)


def cmd_match(args) -> int:
    from .tournament import evidence, markdown_table, match
    _check_all(args, "--all plays every game and player count: give no game or options with it")
    if args.all:
        results = evidence(games=args.games, seed=args.seed)
    else:
        if not args.game:
            raise CardkitError("name a game (cardkit games lists them), or give --all")
        bots = args.bots.split(",")
        if len(bots) != 2 or not all(bots):
            raise CardkitError(f"--bots is two bot names A,B, not {args.bots!r}")
        r = match(args.game, _option_args(args.option), bots[0], bots[1], games=args.games, seed=args.seed)
        lo, hi = r.ci
        print(f"{r.game} {', '.join(f'{k}={v}' for k, v in r.options.items())}: {r.a} vs {r.b}, {r.games} games "
              f"(seats rotated)")
        print(f"{r.a}: {r.wins} won, {r.draws} drawn, {r.losses} lost — win rate {r.win_rate:.1%} "
              f"(draws count half), 95 % CI {lo:.1%} – {hi:.1%}; an even result is {r.fair:.1%}"
              + ("" if r.significant else " (not significantly different)"))
        print(f"{r.decisions:,} decisions in {r.seconds:.1f} s ({r.cpu_seconds:.1f} s CPU): "
              f"{r.decisions_per_s:,.0f} decisions/s")
        results = [r]
    if args.markdown:
        print(markdown_table(results))
    return 0


def cmd_impact(args) -> int:
    try:
        return _impact(args)
    except KeyboardInterrupt:
        if not args.no_bar:
            print(file=sys.stderr)             # off the progress bar's line, for main's one line
        raise


def _impact(args) -> int:
    from . import impact
    from .impact import measure
    _check_all(args, "--all measures every option of every game: give no game or option with it")
    if args.all:
        measure.run(games=args.games, all_games=True, bar=not args.no_bar, replace=args.replace)
        return 0
    if not args.game:
        raise CardkitError("name a game (cardkit games lists them), or give --all")
    cardkit.game_class(args.game)
    if args.plots:
        for f in measure.redraw(args.game):
            print(f"wrote {f}", file=sys.stderr)
        return 0
    if not impact.disputed(args.game):
        print(f"{args.game} has no conflict or gap switched by an option: nothing to measure", file=sys.stderr)
        return 0
    measure.run(args.game, games=args.games, option=args.option, bar=not args.no_bar, replace=args.replace)
    return 0


def cmd_card(args) -> int:
    from . import rulecard
    card = rulecard.rule_card(args.game, **_option_args(args.option))
    if args.pdf:
        path = os.path.abspath(args.pdf)
        if os.path.isdir(path):
            raise CardkitError(f"{args.pdf} is a folder: give a file name for the card, e.g. {args.game}-rules.pdf")
        if not os.path.isdir(os.path.dirname(path)):
            raise CardkitError(f"cannot write {args.pdf}: there is no folder {os.path.dirname(path)}")
        if os.path.lexists(path) and not args.force:
            raise CardkitError(f"{args.pdf} exists: nothing was written (--force replaces it)")
        data = rulecard.card_pdf(card)
        tmp = f"{path}.cardkit-new"          # written whole, then put in place: a full disk leaves the old file
        try:
            with open(tmp, "wb") as f:
                f.write(data)
            os.replace(tmp, path)
        except OSError as e:
            if os.path.exists(tmp):
                os.unlink(tmp)
            raise CardkitError(f"cannot write {args.pdf}: {e.strerror or e}") from None
        print(f"wrote {args.pdf} ({rulecard.page_count(data)} page(s), {len(data) // 1000} kB)", file=sys.stderr)
        return 0
    print(rulecard.card_text(card))
    return 0


def cmd_questions(args) -> int:
    from . import exercises
    qs = exercises.question_set(args.game, args.set, **_option_args(args.option))
    print(exercises.sheet_text(qs))
    return 0


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(prog="cardkit", description=cardkit.__doc__.splitlines()[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("serve", help="start the Voilà site on 127.0.0.1")
    s.add_argument("--port", type=int, default=8866)
    s.add_argument("--open", action="store_true", help="open a browser")
    s.add_argument("--max-kernels", type=int, default=None, metavar="N",
                   help="the most pages (kernels) open at once; more visitors get a 'busy' page (default 24)")
    s.add_argument("--pool-size", type=int, default=None, metavar="N",
                   help="kernels kept ready, notebook already run, per page (Voilà's preheat; default 0)")
    bs = sub.add_parser("build-static", help="build the whole site as static files (Python runs in the browser): "
                                            "publish the folder on any web host")
    bs.add_argument("out", metavar="DIR", help="the folder to write (made anew; an existing built site is replaced)")
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
    b.add_argument("--no-load", action="store_true", help="skip the 10-visitor burst (several minutes)")
    b.add_argument("--no-static", action="store_true", help="skip the static site (it builds one, a minute)")
    b.add_argument("--static-site", metavar="DIR", help="measure this built static site instead of building one")
    m = sub.add_parser("match", help="bots against bots: win rate with a 95 %% confidence interval")
    m.add_argument("game", nargs="?", help="the game (omit with --all)")
    m.add_argument("-o", "--option", action="append", metavar="NAME=VALUE", help="a game option, e.g. players=4")
    m.add_argument("--games", type=int, default=1000)
    m.add_argument("--bots", default="rule-based,random", metavar="A,B", help="bot A against bot B")
    m.add_argument("--seed", type=int, default=0)
    m.add_argument("--all", action="store_true",
                   help="every game and player count: rule-based vs random and vs careful (the figures in docs/bots.md)")
    m.add_argument("--markdown", action="store_true", help="also print the results as a Markdown table")
    im = sub.add_parser("impact", help="does a disputed reading matter? paired bot games under each reading "
                                       "(writes cardkit/impact/GAME.json and the plots)")
    im.add_argument("game", nargs="?", help="the game (omit with --all)")
    im.add_argument("--games", type=int, default=10_000, help="games per reading (seeds 0 … N-1; default 10000)")
    im.add_argument("--option", metavar="NAME", action="append",
                    help="only this option (repeat for several; the others already stored are kept)")
    im.add_argument("--all", action="store_true", help="every game, cheapest first")
    im.add_argument("--no-bar", action="store_true", help="no progress bar")
    im.add_argument("--plots", action="store_true", help="only draw the plots again from the stored data")
    im.add_argument("--replace", action="store_true",
                    help="replace a stored measurement even with one of fewer games (refused otherwise)")
    c = sub.add_parser("card", help="a game's rules card (the rules as the kit plays them): text, or a PDF file")
    c.add_argument("game")
    c.add_argument("-o", "--option", action="append", metavar="NAME=VALUE", help="a game option, e.g. players=4")
    c.add_argument("--pdf", metavar="FILE", help="write the card as a PDF of one or two pages (needs fpdf2)")
    c.add_argument("--force", action="store_true", help="with --pdf: replace FILE if it exists")
    q = sub.add_parser("questions", help="a set of Test-yourself questions with the answers (a teacher's sheet)")
    q.add_argument("game")
    q.add_argument("--set", type=int, default=1, metavar="N", help="the set's number, 1 to 9999 (default 1)")
    q.add_argument("-o", "--option", action="append", metavar="NAME=VALUE", help="a game option, e.g. players=4")
    args = ap.parse_args(argv)
    try:
        if args.cmd == "serve":
            from .site import MAX_KERNELS, POOL_SIZE, serve
            return serve(port=args.port, open_browser=args.open,
                         max_kernels=MAX_KERNELS if args.max_kernels is None else args.max_kernels,
                         pool_size=POOL_SIZE if args.pool_size is None else args.pool_size) or 0
        if args.cmd == "build-static":
            from .site import build_static
            return build_static(args.out)
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
            run(seconds=args.seconds, pages=not args.no_pages, load=not args.no_load, static=not args.no_static,
                static_site=args.static_site)
            if not args.no_static:     # the same in Pyodide, and the expert there (cardkit/bench_pyodide.py)
                from . import bench_pyodide
                try:
                    bench_pyodide.report()
                except Exception as e:  # no Node.js, or npm could not fetch Pyodide
                    print(f"Pyodide: not measured ({type(e).__name__}: {e})")
            return 0
        if args.cmd == "match":
            return cmd_match(args)
        if args.cmd == "impact":
            return cmd_impact(args)
        if args.cmd == "card":
            return cmd_card(args)
        if args.cmd == "questions":
            return cmd_questions(args)
    except CardkitError as e:
        print(f"cardkit: {e}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:          # Ctrl-C: one line, not a traceback
        print(f"cardkit: stopped{STOPPED.get(args.cmd, '')}", file=sys.stderr)
        return 130
    return 0


# what Ctrl-C leaves behind, said after "cardkit: stopped"
STOPPED = {"impact": " (the chunks of seeds finished are kept: the same command goes on from them)"}


if __name__ == "__main__":
    sys.exit(main())
