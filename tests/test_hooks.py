"""Issue 36: what bots, exercises, the table and the pages need from a game is part of its public protocol. No module
outside a game (cardkit/games/, and the protocol's own cardkit/game.py) reads a game's underscored names: not
an attribute or method a game defines (`state._coups`, `game._deck`, `s._copy()`), nor a private function
imported from a game module (`from ..games.vingt_et_un import _ev_best`)."""
import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GAMES = sorted((ROOT / "cardkit" / "games").glob("*.py")) + [ROOT / "cardkit" / "game.py"]
OUTSIDE = [p for p in sorted((ROOT / "cardkit").rglob("*.py")) + sorted((ROOT / "widgets").rglob("*.py"))
           if p not in GAMES and "games" not in p.relative_to(ROOT).parts[:2]]


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def game_names() -> set[str]:
    """Every underscored name the games define: attributes set on self or a class, methods, __slots__ entries,
    module-level functions and constants."""
    names = set()
    for path in GAMES:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)) and _private(node.name):
                names.add(node.name)
            elif isinstance(node, ast.Attribute) and isinstance(node.ctx, ast.Store) and _private(node.attr):
                names.add(node.attr)
            elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store) and _private(node.id):
                names.add(node.id)
            elif isinstance(node, ast.Constant) and isinstance(node.value, str) and _private(node.value) \
                    and node.value.isidentifier():
                names.add(node.value)                   # __slots__ = ("_stage", …)
    return names


def violations(path: Path, names: set[str]) -> list[str]:
    bad = []
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and node.attr in names:
            if isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"):
                continue                                # its own (a bot's, a widget's), not a game's
            bad.append(f"line {node.lineno}: {ast.unparse(node)}")
        elif isinstance(node, ast.ImportFrom) and node.module and "games" in node.module.split("."):
            bad += [f"line {node.lineno}: imports {a.name} from {node.module}" for a in node.names if _private(a.name)]
    return bad


def test_the_games_names_are_found():
    names = game_names()
    assert {"_apply", "_legal", "_view"} <= names            # the protocol's hooks, which the games define


def test_no_module_outside_a_game_reads_its_underscored_names():
    names = game_names()
    found = {str(p.relative_to(ROOT)): v for p in OUTSIDE if (v := violations(p, names))}
    assert not found, "\n".join(f"{p}: {', '.join(v)}" for p, v in found.items())
