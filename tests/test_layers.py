"""The layer direction: notebooks -> widgets -> cardkit's public API, never the other way.

* cardkit/ (the engine) imports nothing of Jupyter and nothing of the UI: it runs anywhere, Pyodide too;
* widgets/ use cardkit only through its public modules and names, never a game module or a private name;
* notebooks/ stay thin: their code cells call widgets, they do not reach into cardkit.games;
* no import circle in cardkit/ or widgets/, counting the imports inside functions (they run too, only later).

widgets/ and notebooks/ may still be partial: a missing or empty directory passes, a file breaking the
rule fails.
"""
from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
ENGINE, WIDGETS, NOTEBOOKS = ROOT / "cardkit", ROOT / "widgets", ROOT / "notebooks"

# top-level modules the engine must never import (plus anything named jupyter*)
FORBIDDEN = {"ipywidgets", "IPython", "ipykernel", "voila", "nbformat", "traitlets", "widgets", "notebooks",
             "nbclient", "nbconvert"}
# cardkit modules the widgets may use
PUBLIC = {"cardkit", "cardkit.view", "cardkit.cards", "cardkit.rules", "cardkit.record", "cardkit.errors",
          "cardkit.documents",
          "cardkit.svg", "cardkit.bots", "cardkit.exercises", "cardkit.rulecard", "cardkit.table", "cardkit.events",
          "cardkit.share"}


def forbidden(module: str) -> bool:
    top = module.split(".")[0]
    return top in FORBIDDEN or top.lower().startswith("jupyter")


def imports(tree: ast.AST):
    """(module, names, level, lineno) for every import anywhere in the tree (functions included), and for
    importlib.import_module("…") / __import__("…") with a constant name."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for a in node.names:
                yield a.name, [], 0, node.lineno
        elif isinstance(node, ast.ImportFrom):
            yield node.module or "", [a.name for a in node.names], node.level, node.lineno
        elif isinstance(node, ast.Call) and node.args and isinstance(node.args[0], ast.Constant) \
                and isinstance(node.args[0].value, str):
            f = node.func
            name = f.attr if isinstance(f, ast.Attribute) else f.id if isinstance(f, ast.Name) else ""
            if name in ("import_module", "__import__"):
                yield node.args[0].value, [], 0, node.lineno


def py_files(d: Path) -> list[Path]:
    return sorted(p for p in d.rglob("*.py") if "__pycache__" not in p.parts) if d.is_dir() else []


def parse(path: Path) -> ast.AST:
    return ast.parse(path.read_text(encoding="utf-8"), filename=str(path))


# --- the engine --------------------------------------------------------------------------------------
def test_the_checker_catches_forbidden_imports():
    bad = "import ipywidgets\nfrom IPython.display import HTML\ndef f():\n    import jupyter_client\n" \
          "    importlib.import_module('voila.app')\nimport traitlets as t\nfrom widgets import PlayTable\n"
    found = [m for m, _, _, _ in imports(ast.parse(bad)) if forbidden(m)]
    assert sorted(found) == sorted(["ipywidgets", "IPython.display", "jupyter_client", "voila.app", "traitlets",
                                    "widgets"])
    assert not [m for m, _, _, _ in imports(ast.parse("import json, html\nfrom .cards import Card")) if forbidden(m)]


def test_engine_files_exist():
    assert (ENGINE / "__init__.py").is_file() and (ENGINE / "game.py").is_file()


# cardkit/voila_template/ is a Jupyter data directory for the site's server (Voilà's config file and its
# launcher, site_app.py), and cardkit/static_site/ holds the static site's build script: both run as child
# processes, never imported by cardkit: they are not engine code.
SITE_TOOLS = {"voila_template", "static_site"}


@pytest.mark.parametrize("path", [p for p in py_files(ENGINE) if not SITE_TOOLS & set(p.relative_to(ENGINE).parts)],
                         ids=lambda p: str(p.relative_to(ROOT)))
def test_engine_imports_no_jupyter_and_no_ui(path):
    bad = [f"line {ln}: {m}" for m, _, level, ln in imports(parse(path)) if level == 0 and forbidden(m)]
    assert not bad, f"{path.relative_to(ROOT)} imports UI/Jupyter modules: {bad}"


def test_importing_cardkit_and_playing_imports_no_jupyter_module():
    """In a clean interpreter, import cardkit and play a game; record every import *attempt* too (a guarded
    `try: import ipywidgets` would pass unnoticed where Jupyter is not installed)."""
    code = f"""
import sys
sys.path.insert(0, {str(ROOT)!r})
attempts = []
class Spy:
    def find_spec(self, name, path=None, target=None):
        attempts.append(name)
        return None
sys.meta_path.insert(0, Spy())
import cardkit, cardkit.view, cardkit.record, cardkit.bots
from cardkit.bots import game_bots
for players in (2, 4):
    for name in cardkit.GAMES:
        game = cardkit.load_game(name, **({{"players": players}} if name == "magische7" else {{}}))
        state = game.new_state(seed=1)
        bot = game_bots(game)["random"](1)
        while not state.is_terminal():
            state.apply(bot.choose(state))
        state.view(0); state.view(None); state.scores(); state.to_record().dumps()
        cardkit.Record.loads(state.to_record().dumps()).final_state()
print("\\n".join(sorted(set(attempts) | set(sys.modules))))
"""
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": os.environ.get("HOME", "/tmp")}
    out = subprocess.run([sys.executable, "-I", "-c", code], capture_output=True, text=True, env=env, cwd="/",
                         timeout=120)
    assert out.returncode == 0, out.stderr
    seen = out.stdout.split()
    assert "cardkit.games.magische7" in seen
    bad = sorted(m for m in seen if forbidden(m))
    assert not bad, f"importing/playing cardkit imported {bad}"


# --- no import circle ------------------------------------------------------------------------------
def type_checking_only(tree: ast.AST) -> set[int]:
    """ids of the nodes under ``if TYPE_CHECKING:`` (imports for annotations, which never run)."""
    out: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and (
                isinstance(node.test, ast.Name) and node.test.id == "TYPE_CHECKING"
                or isinstance(node.test, ast.Attribute) and node.test.attr == "TYPE_CHECKING"):
            out |= {id(n) for stmt in node.body for n in ast.walk(stmt)}
    return out


def import_graph(sources: dict[str, tuple[str, bool]]) -> dict[str, dict[str, int]]:
    """module -> {module it imports: line}, among the given modules only, for imports anywhere in a module
    (inside functions too) except under ``if TYPE_CHECKING:``. `sources`: module name -> (its source, whether it
    is a package's __init__). ``from p import x`` is an import of p.x where that is a module, else of p."""
    graph: dict[str, dict[str, int]] = {}
    for mod, (src, is_package) in sources.items():
        tree = ast.parse(src)
        skip = type_checking_only(tree)
        package = mod if is_package else mod.rpartition(".")[0]
        edges: dict[str, int] = {}
        for node in ast.walk(tree):
            if id(node) in skip:
                continue
            found: list[str] = []
            if isinstance(node, ast.Import):
                found = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    parts = package.split(".")
                    parts = parts[:len(parts) - (node.level - 1)]
                    base = ".".join(parts + ([node.module] if node.module else []))
                found = [f"{base}.{a.name}" if f"{base}.{a.name}" in sources else base for a in node.names]
            else:
                found = [m for m, _, _, _ in imports(ast.Module(body=[ast.Expr(node)], type_ignores=[]))] \
                    if isinstance(node, ast.Call) else []
            for target in found:
                while target and target not in sources:        # import a.b.c: a.b.c's own module, or its package
                    target = target.rpartition(".")[0]
                if target and target != mod:
                    edges.setdefault(target, node.lineno)
        graph[mod] = edges
    return graph


def circles(graph: dict[str, dict[str, int]]) -> list[list[str]]:
    """The import circles: for each strongly connected group of two or more modules (Tarjan), a shortest
    circle through its first module, written [a, b, …, a] (break it, and the next one in the group shows)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    groups: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    out = []
    for group in groups:                                    # one circle through the group: a shortest way back
        start, members = group[0], set(group)
        paths = {start: [start]}
        todo = [start]
        while todo:
            v = todo.pop(0)
            for w in sorted(graph[v]):
                if w == start:
                    out.append(paths[v] + [start])
                    todo = []
                    break
                if w in members and w not in paths:
                    paths[w] = paths[v] + [w]
                    todo.append(w)
    return out


def module_sources(*dirs: Path) -> dict[str, tuple[str, bool]]:
    out = {}
    for d in dirs:
        for p in py_files(d):
            rel = p.relative_to(ROOT)
            if SITE_TOOLS & set(rel.parts):
                continue
            parts = list(rel.with_suffix("").parts)
            is_package = parts[-1] == "__init__"
            out[".".join(parts[:-1] if is_package else parts)] = (p.read_text(encoding="utf-8"), is_package)
    return out


def test_the_circle_checker_sees_imports_inside_functions():
    """The circle documents.py and record.py made until 28 Nov: each imported the package inside a function,
    and the package imports record, record's game imports rules, rules imports documents."""
    pkg = {"kit": ("from .game import Game\nfrom .record import Record\nGAMES = {}", True),
           "kit.game": ("from .record import Record\nfrom .rules import book", False),
           "kit.rules": ("from .documents import text", False),
           "kit.documents": ("def links():\n    from . import GAMES\n", False),
           "kit.record": ("class Record:\n    def game(self):\n        import kit\n", False),
           "kit.errors": ("", False)}
    assert circles(import_graph(pkg)) == [["kit", "kit.record", "kit"]]
    pkg["kit.record"] = ("from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import kit\n", False)
    assert circles(import_graph(pkg)) == [["kit", "kit.game", "kit.rules", "kit.documents", "kit"]]
    pkg["kit.documents"] = ("from .errors import x", False)
    assert circles(import_graph(pkg)) == []                 # an import for annotations only never runs
    pkg["kit.errors"] = ("import importlib\nimportlib.import_module('kit.game')", False)
    pkg["kit.game"] = ("from . import errors", False)
    assert circles(import_graph(pkg)) == [["kit.errors", "kit.game", "kit.errors"]]


def test_no_import_circle():
    graph = import_graph(module_sources(ENGINE, WIDGETS))
    assert "cardkit.impact" in graph["cardkit.cli"]         # imported inside a function: the graph sees it
    found = [" -> ".join(f"{a} (line {graph[a][b]})" for a, b in zip(c, c[1:])) + f" -> {c[-1]}"
             for c in circles(graph)]
    assert not found, "import circles (a (line n) -> b: a imports b on its line n):\n" + "\n".join(found)


# --- the widgets -------------------------------------------------------------------------------------
def widget_violations(tree: ast.AST) -> list[str]:
    bad = []
    for module, names, level, ln in imports(tree):
        where = f"line {ln}"
        if level >= 2:
            bad.append(f"{where}: relative import out of widgets/ ({'.' * level}{module})")
            continue
        if level == 1:
            continue                                  # widgets' own modules
        top = module.split(".")[0]
        if top == "notebooks":
            bad.append(f"{where}: imports from notebooks ({module})")
        if top != "cardkit":
            continue
        if module not in PUBLIC:
            bad.append(f"{where}: imports {module} (only {', '.join(sorted(PUBLIC))} are public)")
        for n in names:
            if n.startswith("_") or (module == "cardkit" and n == "games"):
                bad.append(f"{where}: imports {n} from {module}")
    for node in ast.walk(tree):                       # cardkit.games.x / cardkit._x reached by attribute
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "cardkit" \
                and (node.attr == "games" or node.attr.startswith("_")):
            bad.append(f"line {node.lineno}: uses cardkit.{node.attr}")
    return bad


def test_the_widget_checker_catches_violations():
    for src in ("from cardkit.games.magische7 import trick_outcome", "import cardkit.games.magische7",
                "from cardkit import games", "from cardkit.game import _deal_cards", "from cardkit.rng import Rng",
                "from notebooks import x", "from .. import cardkit", "import cardkit\ncardkit.games.magische7.GAME",
                "import importlib\nimportlib.import_module('cardkit.games.magische7')"):
        assert widget_violations(ast.parse(src)), src
    ok = "import cardkit\nfrom cardkit import CardkitError, Record\nfrom cardkit.svg import card_svg\n" \
         "from cardkit.view import View\nfrom .render import CSS\nimport ipywidgets as w\ncardkit.load_game('x')"
    assert widget_violations(ast.parse(ok)) == []


@pytest.mark.parametrize("path", py_files(WIDGETS) or [None],
                         ids=lambda p: str(p.relative_to(ROOT)) if p else "no-widgets-yet")
def test_widgets_use_only_the_public_api(path):
    if path is None:
        return                                        # widgets/ does not exist or is empty yet
    bad = widget_violations(parse(path))
    assert not bad, f"{path.relative_to(ROOT)}: {bad}"


# --- the notebooks -----------------------------------------------------------------------------------
MAX_CELL_LINES = 6


def notebooks() -> list[Path]:
    return sorted(p for p in NOTEBOOKS.rglob("*.ipynb") if ".ipynb_checkpoints" not in p.parts) \
        if NOTEBOOKS.is_dir() else []


def code_cells(path: Path) -> list[str]:
    nb = json.loads(path.read_text(encoding="utf-8"))
    out = []
    for cell in nb.get("cells", []):
        if cell.get("cell_type") == "code":
            src = cell.get("source", "")
            out.append("".join(src) if isinstance(src, list) else src)
    return out


def notebook_cell_violations(src: str) -> list[str]:
    bad = []
    lines = [ln for ln in src.splitlines() if ln.strip()]
    if len(lines) > MAX_CELL_LINES:
        bad.append(f"{len(lines)} non-empty lines (at most {MAX_CELL_LINES}: put the code in widgets/)")
    python = "\n".join("" if ln.lstrip().startswith(("%", "!")) else ln for ln in src.splitlines())
    try:
        tree = ast.parse(python)
    except SyntaxError as e:
        return bad + [f"does not parse: {e}"]
    for module, names, _, ln in imports(tree):
        if module.split(".")[:2] == ["cardkit", "games"] or (module == "cardkit" and "games" in names):
            bad.append(f"line {ln}: imports {module} directly (use widgets / cardkit.load_game)")
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "cardkit" \
                and node.attr == "games":
            bad.append(f"line {node.lineno}: uses cardkit.games")
    return bad


def test_the_notebook_checker_catches_violations():
    assert notebook_cell_violations("from cardkit.games.magische7 import GAME")
    assert notebook_cell_violations("import cardkit.games.magische7 as m")
    assert notebook_cell_violations("from cardkit import games")
    assert notebook_cell_violations("\n".join(f"x{i} = {i}" for i in range(7)))
    assert notebook_cell_violations("x = (")
    assert notebook_cell_violations("%matplotlib inline\nfrom widgets import PlayTable\n\nPlayTable('magische7')") == []


@pytest.mark.parametrize("path", notebooks() or [None],
                         ids=lambda p: str(p.relative_to(ROOT)) if p else "no-notebooks-yet")
def test_notebook_cells_are_thin(path):
    if path is None:
        return                                        # notebooks/ does not exist or is empty yet
    bad = {i: v for i, src in enumerate(code_cells(path)) if (v := notebook_cell_violations(src))}
    assert not bad, f"{path.relative_to(ROOT)}: code cells {bad}"
