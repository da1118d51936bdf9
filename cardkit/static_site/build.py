"""Build the static site: every page of notebooks/ as static files, Python running in the visitor's browser.

Run by `cardkit build-static DIR` (and `make static`) in a child process: it imports Voici, JupyterLite and
nbclient, which the kit itself never imports. docs/publishing.md explains the result; in short:

* **What a page is.** The same notebooks as the Voilà site, run once here (nbclient, with the kit installed
  on this machine): every output that is plain HTML — rules, citations, tables, plots — goes into the page
  as static HTML, so a reader sees it at once. Widgets (switches, replays, the play table) are drawn from
  their state as a still picture, marked as waiting; in the browser the page starts Python (Pyodide, in a
  web worker, through Voici and jupyterlite-pyodide-kernel), runs the cells that make widgets, and each such
  cell's live output takes the place of its picture. Cells whose every output is static HTML do not run
  again in the browser (only their imports do).
* **What comes from where.** The Pyodide core from npm's `pyodide` package (`package-lock.json`, checked by
  `npm ci`), the browser's Python packages from PyPI (`browser-requirements.txt`, checked by
  `pip download --require-hashes`), the in-browser kernel's own wheels from the installed
  jupyterlite-pyodide-kernel (checked against the hashes of its index), the kit's own wheel built here.
  The wheels are compiled to Python 3.13 bytecode by that same Pyodide (in Node.js), and Pyodide's lock file
  is written anew to list exactly the files shipped, each with the sha256 of its bytes. Nothing is fetched
  from a CDN, here or in the browser (`disablePyPIFallback`).
* **Python's start.** The page creates the kernel's worker from its head (`kernel-worker.js`), which starts
  Pyodide at once and imports what every page needs (`pyodide-preload.js`), and hands it to the kernel when
  the kernel asks for it: Python's start runs while the page's own scripts load.
* **Offline.** A service worker built on Workbox's precaching (npm, pinned) keeps the pages a visitor opened and
  what they loaded, and the whole site when the visitor asks (or installs the site as an app); every file is
  checked against the build's hash, and a new build waits for the visitor's reload. A web-app manifest with
  icons makes the site installable.
* **The page's own parts** are not all here: the static page is the `cardkit` template's `frontend == "voici"`
  branch (PAGE_TEMPLATE: its head starts the early worker, its cells carry `cell-index`) and its script
  (PAGE_SCRIPT, static-site.js: the line at the top, the still pictures, offline). The scripts here carry slots the
  build fills (SLOTS, one place for all of them).
* **Other projects' internals.** Every place where the build or the page relies on Voici, JupyterLite, the
  Pyodide kernel or Pyodide beyond what they promise is an assumption in upstream.py's table, checked here as
  the build comes to it: one line naming the package and its version if it no longer holds, and where the page
  can do without it, the plain upstream path instead (docs/publishing.md lists them).
"""
from __future__ import annotations

import argparse
import ast
import base64
import copy
import gzip
import hashlib
import html
import io
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path
from typing import Any

try:                                    # (run as a script by `cardkit build-static`, or imported as a module)
    from cardkit.static_site import upstream
except ImportError:                     # pragma: no cover
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent.parent))
    from cardkit.static_site import upstream

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
TEMPLATE_DIR = ROOT / "cardkit" / "voila_template"      # the Jupyter data dir with the `cardkit` template
# The static page's parts that live with the Voilà site's template (the same template, its `frontend == "voici"`
# branch): the page's head (the early worker), its cells (`cell-index`, the still pictures) and its script.
PAGE_TEMPLATE = TEMPLATE_DIR / "nbconvert" / "templates" / "cardkit" / "index.html.j2"
PAGE_SCRIPT = TEMPLATE_DIR / "nbconvert" / "templates" / "cardkit" / "static" / "static-site.js"
# The slots the build fills in its own scripts, each written once in its file (tests/test_static_checks.py checks
# that): file -> what it is -> the text there.
SLOTS = {
    "kernel-worker.js": {"packages": "/*PACKAGES*/[]", "chunk": '/*CHUNK*/""'},
    "pyodide-preload.js": {"snapshot": "/*SNAPSHOT*/null", "downloads": "/*DOWNLOADS*/null"},
    "service-worker.js": {"workbox": "importScripts(.../*WORKBOX*/[]);", "manifest": "/*MANIFEST*/[]",
                          "start": "/*START*/[]", "jupyterlite": '/*JUPYTERLITE*/"jupyterlite-service-worker.js"'},
}
NOTEBOOKS = ROOT / "notebooks"
DEFAULT_CACHE = ROOT / "build" / "static-cache"
PYODIDE_FILES = ("pyodide.js", "pyodide.asm.js", "pyodide.asm.wasm", "python_stdlib.zip")
KERNEL_EXTENSION = upstream.KERNEL_EXTENSION
KERNEL_PLUGIN = upstream.KERNEL_PLUGIN
# Where the kernel's worker loads Pyodide from: the site's preload (the early start, the snapshot), or Pyodide's
# own pyodide.js where the kernel no longer loads it as the preload expects (upstream: worker-loads-pyodide).
PYODIDE_URL = "./static/pyodide/pyodide-preload.js"
# The in-browser kernel's own wheels (shipped inside jupyterlite-pyodide-kernel): the kernel, and stand-ins for
# ipykernel and widgetsnbextension that only declare what ipywidgets asks for (its piplite: STAND_INS below).
KERNEL_WHEELS = ("pyodide_kernel-*.whl", "ipykernel-*.whl", "widgetsnbextension-4.*.whl")
# The kernel asks for these by name, but the site needs none of them: sqlite3 (IPython's input history, which
# jupyterlite's kernel keeps in memory) is on no package registry; jedi (code completion, 4.8 MB) has nothing to
# complete on a page; micropip installs packages (the site installs none: piplite below). Each is an empty
# placeholder wheel, so the kernel's request is met and importing it fails as where it is not installed.
# Not shipped at all, though IPython lists them: its terminal (prompt_toolkit, and wcwidth for it; a page has no
# terminal, and pyodide-preload.js keeps IPython from importing it) and ipython_pygments_lexers (IPython's own
# syntax for Sphinx and for terminals, used nowhere in a kernel).
PLACEHOLDERS = ("sqlite3", "jedi", "micropip")
# Of Pygments' 250 lexers (1.5 MB of a page's download) the kernel uses one, Python's (IPython's tracebacks and
# object help); the others are left out, and Pygments' list of lexers names only what is shipped, so asking for
# another one says that no lexer has that name, as Pygments does for any unknown name.
PYGMENTS_LEXERS = ("python",)
# The kernel's piplite (`%pip install` in a notebook's code) is replaced by a stand-in with its names: the site's
# pages install nothing (every package they use is loaded with Python, and a page has no place to type code),
# and the real one imports micropip and unittest as the kernel starts, about 0.4 s of every page's start.
_NO_INSTALL = "    raise RuntimeError('this site installs no packages: every package its pages use is loaded')\n"
STAND_INS = {"piplite": {
    "piplite/__init__.py": '"""A stand-in for piplite: the static site installs no packages."""\n'
                           "from .piplite import install\n",
    "piplite/piplite.py": "_PIPLITE_URLS = []\n_PIPLITE_DISABLE_PYPI = True\n\n\n"
                          "async def install(*requirements, **kwargs):\n" + _NO_INSTALL,
    "piplite/cli.py": "async def get_transformed_code(argv):\n" + _NO_INSTALL}}
# What the worker loads at once, in parallel, before the kernel starts (names as jupyterlite's worker checks
# them: it installs whatever of its own list is missing here, one after the other). segno draws the QR code of a
# reader's own example (widgets/example.py; the kit's `site` extra, so not among the kit's wheel's dependencies).
PRELOAD = ("micropip", "piplite", "ipykernel", "comm", "pyodide_kernel", "ipython", "sqlite3", "jedi",
           "ipywidgets", "cardkit", "segno")
# Files of the JupyterLite build that no page of the site uses (found by recording every request of every
# page; the static browser tests fail on any request that is not answered). Some are written only by other
# versions or settings of the tools; removed where they are there.
PRUNE = ("lab", "notebooks", "tree", "edit", "repl", "consoles", "doc", "files", "jupyter-lite.ipynb",
         "jupyterlite.schema.v0.json", "bootstrap.js", "config-utils.js", "index.html", "voici/index.html",
         "voici/render", "voici/tree", "voici/favicon.ico", "icon-120x120.png", "icon-512x512.png",
         "manifest.webmanifest", "package.json", "build", "static/favicons", "extensions/@voila-dashboards",
         "extensions/jupyterlab_pygments", "extensions/@jupyter-widgets", "jupyter-lite.json",
         "extensions/@jupyterlite/pyodide-kernel-extension/static/pypi", "api/workspaces")


class BuildError(Exception):
    """A build step failed; the message says which and why, in one line."""


def assume(key: str, fn, *args, fallback_ok: bool = True):
    """upstream.check, its one line a BuildError where the build cannot do without the assumption."""
    try:
        return upstream.check(key, fn, *args, fallback_ok=fallback_ok)
    except upstream.UpstreamChanged as e:
        raise BuildError(str(e)) from None


def fill(name: str, values: dict, text: str | None = None) -> str:
    """The build's script `name` (from here, or `text`) with each of its SLOTS filled by values[what]."""
    text = (HERE / name).read_text(encoding="utf-8") if text is None else text
    for what, slot in SLOTS[name].items():
        if text.count(slot) != 1:
            raise BuildError(f"{name} lacks its slot {slot}")
        text = text.replace(slot, values[what])
    return text


def run(cmd, **kw):
    """Run a command; on failure raise BuildError with its last lines."""
    done = subprocess.run([str(c) for c in cmd], capture_output=True, text=True, **kw)
    if done.returncode:
        tail = "\n".join((done.stdout + done.stderr).strip().splitlines()[-15:])
        raise BuildError(f"{' '.join(map(str, cmd[:3]))} … failed:\n{tail}")
    return done.stdout


def sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def say(text: str) -> None:
    print(text, flush=True)


# --- what the browser gets ------------------------------------------------------------------------------
def pyodide_core(cache: Path) -> Path:
    """The Pyodide core from npm, as package-lock.json pins it (npm ci checks every package's integrity)."""
    npm_dir = cache / "npm"
    lock = (HERE / "package-lock.json").read_bytes()
    stamp = npm_dir / ".lock-sha256"
    core = npm_dir / "node_modules" / "pyodide"
    if not (stamp.is_file() and stamp.read_text() == sha256(lock) and (core / "pyodide.asm.wasm").is_file()):
        if not shutil.which("npm"):
            raise BuildError("npm is needed to fetch the Pyodide core (Node.js with npm, e.g. Debian's nodejs)")
        npm_dir.mkdir(parents=True, exist_ok=True)
        for name in ("package.json", "package-lock.json"):
            shutil.copy(HERE / name, npm_dir / name)
        say("  npm ci: the Pyodide core and Workbox")
        run(["npm", "ci", "--ignore-scripts", "--no-audit", "--no-fund"], cwd=npm_dir)
        stamp.write_text(sha256(lock))
    return core


def pypi_wheels(cache: Path) -> list[Path]:
    """The browser's packages from PyPI, each checked against its pinned hash."""
    dest = cache / "wheels"
    dest.mkdir(parents=True, exist_ok=True)
    req = HERE / "browser-requirements.txt"
    pins = dict(re.findall(r"^([\w.-]+)==\S+\s*\\\s*\n\s*--hash=sha256:([0-9a-f]{64})", req.read_text(), re.M))
    have = {p: sha256(p.read_bytes()) for p in dest.glob("*.whl")}
    if sorted(have.values()) != sorted(pins.values()):
        say("  pip download: the browser's packages")
        for p in dest.glob("*.whl"):
            p.unlink()
        run([sys.executable, "-m", "pip", "download", "--quiet", "--require-hashes", "--no-deps",
             "--only-binary=:all:", "--python-version", "3.13", "--platform", "any", "--implementation", "py",
             "--abi", "none", "-r", req, "-d", dest])
    wheels = sorted(dest.glob("*.whl"))
    if sorted(sha256(p.read_bytes()) for p in wheels) != sorted(pins.values()):
        raise BuildError(f"the wheels in {dest} do not match browser-requirements.txt")
    return wheels


def kernel_wheels() -> list[Path]:
    """The in-browser kernel's own wheels, from the installed jupyterlite-pyodide-kernel, checked against
    the sha256 of its own index (all.json)."""
    from jupyter_core.paths import jupyter_path
    for base in jupyter_path("labextensions"):
        pypi = Path(base) / KERNEL_EXTENSION / "static" / "pypi"
        if (pypi / "all.json").is_file():
            break
    else:
        raise BuildError("jupyterlite-pyodide-kernel's wheels were not found (pip install -e '.[static]')")
    return assume("kernel-wheels", upstream.kernel_wheels, pypi, KERNEL_WHEELS, fallback_ok=False)


KIT_PACKAGES = ("cardkit", "widgets")
# The data files the browser reads (importlib.resources): the rulebooks, the worked examples, the measured effects
# of the disputed rules with their plots, the source texts. Not the fonts of the rules card's PDF (drawn here, at
# build time, into the page), nor the Voilà server's template, nor this build's own files.
BROWSER_DATA = ("cardkit/rules/", "cardkit/examples/", "cardkit/impact/", "cardkit/sources/")


def kit_modules(root: Path = ROOT) -> dict[str, Path]:
    """Every module of the kit's packages under `root`: dotted name -> file."""
    out = {}
    for package in KIT_PACKAGES:
        for path in sorted((root / package).rglob("*.py")):
            parts = path.relative_to(root).with_suffix("").parts
            out[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return out


def _kit_imports(source: str, module: str, is_package: bool, known) -> set[str]:
    """The kit's modules that this code (of `module`; a page's is "__main__") imports: by an import statement
    anywhere in it — at the top, or in a function that runs when a visitor clicks — or by its name in a string
    (`importlib.import_module(GAMES[name])`), each with the packages that hold it."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                package = module.split(".")[:None if is_package else -1]
                package = package[:len(package) - node.level + 1]
                base = ".".join(package + ([node.module] if node.module else []))
            found.add(base)
            found.update(f"{base}.{a.name}" for a in node.names)    # `from cardkit import impact`: a module
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and node.value in known:
            found.add(node.value)
    parts = [name.split(".") for name in found]
    return {".".join(p[:i]) for p in parts for i in range(1, len(p) + 1)} & set(known)


def browser_modules(root: Path = ROOT, notebooks: Path = NOTEBOOKS) -> set[str]:
    """The kit's modules a page can import in the browser: those the notebooks' code imports, and all that they
    import in turn. The others (the Voilà server, the command line, the tournaments and the measurements behind
    the rule cards, the bench, the kernel's guard, this build) are not shipped."""
    known = kit_modules(root)
    todo = set()
    for path in sorted(notebooks.glob("*.ipynb")):
        for cell in json.loads(path.read_text(encoding="utf-8"))["cells"]:
            if cell["cell_type"] == "code":
                code = "".join(cell["source"])
                code = "\n".join(ln for ln in code.splitlines() if not ln.lstrip().startswith(("%", "!")))
                todo |= _kit_imports(code, "__main__", False, known)
    seen = set()
    while todo:
        module = todo.pop()
        if module not in seen:
            seen.add(module)
            path = known[module]
            todo |= _kit_imports(path.read_text(encoding="utf-8"), module, path.name == "__init__.py", known)
    return seen


def kit_wheel(tmp: Path) -> Path:
    """The kit's own wheel (cardkit and widgets), built from a copy of this checkout's packages (pip builds in
    the source folder's `build/`, which keeps the modules of earlier builds, removed or renamed since), with
    only the modules a page imports (browser_modules) and the data it reads (BROWSER_DATA), without the command
    line's entry point, and without bytecode compiled for this machine's Python (compile_wheels makes the
    browser's; it rewrites the wheel's RECORD too)."""
    dest, src = tmp / "kit", tmp / "kit-source"
    src.mkdir(parents=True)
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, src / name)
    for package in KIT_PACKAGES:
        shutil.copytree(ROOT / package, src / package, ignore=shutil.ignore_patterns("__pycache__", "*.pyc"))
    run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "-w", dest, src])
    (built,) = dest.glob("cardkit-*.whl")
    known = kit_modules(src)
    modules = {known[m].relative_to(src).as_posix() for m in browser_modules(src)}
    wheel = tmp / built.name
    with zipfile.ZipFile(built) as zin, zipfile.ZipFile(wheel, "w", zipfile.ZIP_DEFLATED) as zout:
        names = set(zin.namelist())
        if modules - names:
            raise BuildError(f"the kit's wheel lacks modules its pages import: {sorted(modules - names)} "
                             "(pyproject.toml's packages)")
        for info in zin.infolist():
            name = info.filename
            if name.split("/")[0].endswith(".dist-info"):
                keep = not name.endswith("/entry_points.txt")      # the command line (cardkit.cli) is not shipped
            else:
                keep = name in modules or (name.startswith(BROWSER_DATA) and not name.endswith((".py", ".pyc")))
            if keep and "__pycache__/" not in name:
                zout.writestr(info, zin.read(info))
    return wheel


def trimmed_pygments(wheel: Path, tmp: Path) -> Path:
    """Pygments' wheel with only the lexers PYGMENTS_LEXERS names (its list of lexers rewritten to match)."""
    out = tmp / wheel.name
    keep = {f"pygments/lexers/{name}.py" for name in ("__init__", "_mapping", *PYGMENTS_LEXERS)}
    with zipfile.ZipFile(wheel) as zin, zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as zout:
        for info in zin.infolist():
            data = zin.read(info)
            if info.filename.startswith("pygments/lexers/") and info.filename not in keep:
                continue
            if info.filename == "pygments/lexers/_mapping.py":
                lines = data.decode("utf-8").splitlines(keepends=True)
                entry = re.compile(r"^\s+'\w+': \('pygments\.lexers\.(\w+)'")
                lines = [ln for ln in lines if not (m := entry.match(ln)) or m.group(1) in PYGMENTS_LEXERS]
                data = "".join(lines).encode("utf-8")
            zout.writestr(info, data)
    with zipfile.ZipFile(out) as z:
        text = z.read("pygments/lexers/_mapping.py").decode("utf-8")
    assume("pygments-mapping", upstream.pygments_mapping, text, PYGMENTS_LEXERS)
    return out


def placeholder_wheel(name: str, modules: dict | None = None) -> bytes:
    """An empty wheel for `name` (see PLACEHOLDERS), or a stand-in with these modules (STAND_INS): always the
    same bytes."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as z:
        info = f"{name}-0.dist-info"
        what = ("A stand-in: the static site installs no packages" if modules
                else f"An empty placeholder: the static site does not use {name}")
        files = {**(modules or {}),
                 f"{info}/METADATA": f"Metadata-Version: 2.1\nName: {name}\nVersion: 0\nSummary: {what}.\n",
                 f"{info}/WHEEL": "Wheel-Version: 1.0\nGenerator: cardkit\nRoot-Is-Purelib: true\nTag: py3-none-any\n"}
        files[f"{info}/RECORD"] = "".join(f"{n},,\n" for n in files) + f"{info}/RECORD,,\n"
        for n, text in files.items():
            z.writestr(zipfile.ZipInfo(n, (1980, 1, 1, 0, 0, 0)), text)
    return buf.getvalue()


def compile_wheels(core: Path, wheels: list[Path], dest: Path) -> list[Path]:
    """Each wheel with its modules compiled to Python 3.13 bytecode (sourceless `.pyc`, as Pyodide ships its
    own packages): importing IPython in the browser takes about half as long. Pyodide itself compiles them,
    in Node.js, so the bytecode is that of the Python that runs it."""
    dest.mkdir(parents=True, exist_ok=True)
    if not shutil.which("node"):
        raise BuildError("Node.js is needed to compile the browser's wheels")
    run(["node", HERE / "compile_wheels.js", core, dest, *wheels])
    return [dest / w.name for w in wheels]


def _leb128(data: bytes, i: int, signed: bool = False) -> tuple[int, int]:
    value = shift = 0
    while True:
        byte = data[i]
        i += 1
        value |= (byte & 0x7F) << shift
        shift += 7
        if not byte & 0x80:
            if signed and byte & 0x40:
                value -= 1 << shift
            return value, i


def wasm_data_segments(wasm: bytes) -> list[tuple[int, int]]:
    """Where the wasm's data segments are in the file, as (offset, length): the memory's starting contents."""
    if wasm[:4] != b"\0asm":
        raise BuildError("pyodide.asm.wasm is not a WebAssembly module")
    i, out = 8, []
    while i < len(wasm):
        section, (size, i) = wasm[i], _leb128(wasm, i + 1)
        if section == 11:                                   # the data section
            count, j = _leb128(wasm, i)
            for _ in range(count):
                flags, j = _leb128(wasm, j)
                if flags == 2:                              # active, in a memory given by index
                    _, j = _leb128(wasm, j)
                while flags in (0, 2) and wasm[j] != 0x0B:   # active: skip the expression placing it
                    op, j = wasm[j], j + 1
                    if op in (0x41, 0x42, 0x23):            # i32.const, i64.const, global.get: one number
                        _, j = _leb128(wasm, j)
                    elif op not in (0x6A, 0x6B, 0x6C, 0x7C, 0x7D, 0x7E):   # add, sub, mul (i32, i64)
                        raise BuildError("pyodide.asm.wasm places its data in a way this build does not read")
                j += flags in (0, 2)                        # the expression's end
                length, j = _leb128(wasm, j)
                out.append((j, length))
                j += length
        i += size
    return out


def _address_in(memory: bytes, data: bytes) -> int | None:
    """Where in memory `data` was placed (its address is Pyodide's to choose, as it starts), found from blocks
    of it that are still unchanged there; None if too few are."""
    block = 4096
    votes: dict[int, int] = {}
    for k in range(0, max(len(data) - block, 1), max(len(data) // 64, block)):
        found = memory.find(data[k:k + block], 0, k + block + (1 << 20))
        if found >= 0:
            votes[found - k] = votes.get(found - k, 0) + 1
    best = max(votes, key=votes.__getitem__, default=None)
    return best if best is not None and votes[best] >= 16 else None


def memory_snapshot(pyodide: Path) -> dict | None:
    """Pyodide's memory once Python has started (make_snapshot.js), for a page's Python to start from rather
    than start Python itself (2-3 s less on the machine it was measured on). Written as the changes from the
    memory's starting contents, which the wasm holds and every page downloads anyway (the browser takes them
    from that file), gzip-compressed: 3.8 MB rather than 5.2. The same site gives the same bytes (make_snapshot.js
    fixes what Python asks of the clock and of chance as it starts). Returns what pyodide-preload.js needs to know;
    None where Pyodide's snapshot is not as the build expects (upstream: pyodide-snapshot): the pages then start
    Python from nothing."""
    return assume("pyodide-snapshot", _memory_snapshot, pyodide)


def _memory_snapshot(pyodide: Path) -> dict:
    upstream.pyodide_snapshot((pyodide / "pyodide.js").read_text(encoding="utf-8"),
                              (pyodide / "pyodide.asm.js").read_text(encoding="utf-8"))
    raw = pyodide / "memory.raw"
    try:
        run(["node", HERE / "make_snapshot.js", pyodide, raw], env={**os.environ, "TZ": "UTC"})
    except BuildError as e:
        raise upstream.Changed(f"make_snapshot.js failed ({str(e).splitlines()[-1][:120]})") from None
    snap = bytearray(raw.read_bytes())
    raw.unlink()
    wasm = (pyodide / "pyodide.asm.wasm").read_bytes()
    head = int.from_bytes(snap[4:8], "little")              # the snapshot's header; memory follows it
    if not 8 <= head < len(snap):
        raise upstream.Changed(f"the snapshot's header length ({head}) is not its second uint32")
    memory = memoryview(snap)[head:]
    segments = []
    try:
        data = wasm_data_segments(wasm)
    except BuildError as e:
        raise upstream.Changed(str(e)) from None
    for at, length in data:
        address = _address_in(bytes(memory[:length + (2 << 20)]), wasm[at:at + length])
        if address is None:
            continue
        segments.append((at, address, length))
        start = head + address
        changed = int.from_bytes(snap[start:start + length], "little") ^ int.from_bytes(wasm[at:at + length], "little")
        snap[start:start + length] = changed.to_bytes(length, "little")
    if not segments:
        raise upstream.Changed("the wasm's data was not found in Pyodide's snapshot")
    del memory
    name = "pyodide-memory.gz"
    (pyodide / name).write_bytes(gzip.compress(bytes(snap), compresslevel=9, mtime=0))
    return {"file": name, "segments": segments}


def lock_spec(core: Path, sources: list[Path], dest: Path):
    """pyodide-lock.json's content for the wheels in `dest`, made with the `pyodide-lock` package (PyPI): each
    wheel's name, version, top-level imports and dependencies (Requires-Dist, markers evaluated for Pyodide's
    Python), read from its wheel before compiling (`sources`, the same file names: pyodide-lock finds a wheel's
    imports by its `.py` files, and the wheels shipped hold `.pyc` alone), with the sha256 of the bytes shipped.
    The empty placeholders hold no module, where pyodide-lock finds no import and refuses the wheel: their
    entries are written as its PackageSpec directly. A dependency the site does not ship is left out of
    `depends` (ipywidgets' jupyterlab-widgets, its JupyterLab extension, unused in a kernel; IPython's terminal)."""
    from pyodide_lock import PyodideLockSpec
    from pyodide_lock.spec import InfoSpec, PackageSpec
    from pyodide_lock.utils import add_wheels_to_spec, update_package_sha256
    info = json.loads((core / "pyodide-lock.json").read_text())["info"]
    spec = PyodideLockSpec(info=InfoSpec(**info), packages={})
    with tempfile.TemporaryDirectory(prefix="cardkit-lock-") as tmp:      # add_wheels_to_spec wants one folder
        copies = [Path(shutil.copy(w, Path(tmp) / w.name)) for w in sources]
        spec = add_wheels_to_spec(spec, copies, ignore_missing_dependencies=True)
    for name in PLACEHOLDERS:
        spec.packages[name] = PackageSpec(name=name, version="0", file_name=f"{name}-0-py3-none-any.whl",
                                          install_dir="site", imports=[], depends=[])
    for p in spec.packages.values():
        update_package_sha256(p, dest / p.file_name)
        p.imports, p.depends = sorted(p.imports), sorted({d for d in p.depends if d in spec.packages})
    spec.packages = dict(sorted(spec.packages.items()))
    spec.check_wheel_filenames()
    return spec


def pyodide_dir(core: Path, wheels: list[Path], dest: Path, sources: list[Path]) -> None:
    """static/pyodide of the site: the core files, the wheels (compiled; `sources`: the same before compiling),
    the placeholders, and pyodide-lock.json listing exactly these, each with the sha256 of the bytes shipped
    (Pyodide checks it)."""
    dest.mkdir(parents=True, exist_ok=True)
    for name in PYODIDE_FILES:
        shutil.copy(core / name, dest / name)
    for w in wheels:
        shutil.copy(w, dest / w.name)
    for name in PLACEHOLDERS + tuple(STAND_INS):
        (dest / f"{name}-0-py3-none-any.whl").write_bytes(placeholder_wheel(name, STAND_INS.get(name)))
    spec = lock_spec(core, [*sources, *(dest / f"{name}-0-py3-none-any.whl" for name in STAND_INS)], dest)
    spec.to_json(dest / "pyodide-lock.json", indent=1)
    lock = spec.model_dump()
    missing = [n for n in PRELOAD if re.sub(r"[-_.]+", "-", n) not in lock["packages"]]
    if missing:
        raise BuildError(f"the lock lacks what the kernel loads: {missing}")
    snapshot = memory_snapshot(dest)
    (dest / "pyodide-preload.js").write_text(fill("pyodide-preload.js", {
        "snapshot": json.dumps(snapshot), "downloads": json.dumps(start_downloads(dest, lock, snapshot))}))


def start_downloads(dest: Path, lock: dict, snapshot: dict | None) -> dict:
    """What Python's start fetches, each file with its size: the page counts them as they arrive ("Starting
    Python: 3.2 of 13.7 MB"). The WebAssembly file, the standard library, the lock file, the memory snapshot,
    and the wheels of what the worker loads at once with all they depend on (Pyodide's scripts are loaded by
    importScripts, where no page can count them)."""
    packages = lock["packages"]
    todo, wheels = [re.sub(r"[-_.]+", "-", n).lower() for n in PRELOAD], set()
    while todo:
        name = todo.pop()
        if name not in wheels:
            wheels.add(name)
            todo += packages[name]["depends"]
    files = ["pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json"] + ([snapshot["file"]] if snapshot else [])
    files += [packages[n]["file_name"] for n in wheels]
    return {f: (dest / f).stat().st_size for f in sorted(files)}


# --- the pages ------------------------------------------------------------------------------------------
def lite_shell(lite_dir: Path, out: Path) -> dict:
    """JupyterLite with Voici's app and the Pyodide kernel (no pages yet); returns the page config."""
    env = {**os.environ, "JUPYTER_PATH": os.pathsep.join([str(TEMPLATE_DIR), os.environ.get("JUPYTER_PATH", "")])}
    voici = "import sys; from voici_core.app import main; sys.argv[0] = 'voici'; sys.exit(main())"
    run([sys.executable, "-c", voici, "build", "--lite-dir", lite_dir, "--output-dir", out,
         "--no-sourcemaps", "--no-unused-shared-packages", "--source-date-epoch", "1"], cwd=lite_dir, env=env)
    jl_worker = (out / "service-worker.js").read_text(encoding="utf-8") if (out / "service-worker.js").is_file() else None
    assume("jl-worker-script", upstream.jl_worker_script, jl_worker)
    assume("jl-worker-broadcast", upstream.jl_worker_broadcast, jl_worker)
    config = json.loads((out / "jupyter-lite.json").read_text())
    assume("lite-config", upstream.lite_config, config)
    return config["jupyter-config-data"]


def kernel_worker(out: Path, kernel_wheel: Path | None = None) -> str:
    """static/pyodide/kernel-worker.js: the kernel's worker, which the page starts from its head (Pyodide's start
    then runs while the page's scripts load). It runs the kernel's own worker script, found here in the kernel
    extension's code: the script the kernel creates when the page is not cross-origin isolated. Returns that
    script's file name (the page hands its early worker to the kernel when the kernel asks for this one); "" where
    the kernel's code is not as the build expects (upstream's checks of the kernel, run here): the page then has
    no early worker and the kernel starts its own, and where the worker no longer loads Pyodide as the preload
    expects, the kernel loads Pyodide's own pyodide.js. `kernel_wheel`: the kernel's own pyodide_kernel wheel
    (what of piplite its Python uses)."""
    global PYODIDE_URL
    files = upstream.extension_files(out / "extensions" / KERNEL_EXTENSION / "static")
    assume("kernel-settings", upstream.kernel_settings, files)
    chunk = assume("kernel-worker-chunk", upstream.kernel_worker_chunk, files)
    worker = files[chunk] if chunk else "\n".join(files.values())
    main = next((t for t in files.values() if upstream.WORKER_PATTERN.search(t)), "\n".join(files.values()))
    assume("kernel-messages", upstream.kernel_messages, main)
    assume("worker-packages", upstream.worker_packages, worker, PRELOAD)
    kernel_py = list(upstream.wheel_sources(kernel_wheel).values()) if kernel_wheel else []
    assume("piplite-names", upstream.piplite_names, [worker, *kernel_py], STAND_INS["piplite"])
    if assume("worker-loads-pyodide", upstream.worker_loads_pyodide, worker) is None:
        PYODIDE_URL = "./static/pyodide/pyodide.js"
        return ""
    if not chunk:
        return ""
    script = fill("kernel-worker.js", {
        "packages": json.dumps(list(PRELOAD)),
        "chunk": json.dumps(f"../../extensions/{KERNEL_EXTENSION}/static/{chunk}")})
    (out / "static" / "pyodide" / "kernel-worker.js").write_text(script)
    return chunk


def page_config(lite: dict, notebook: str) -> dict:
    """The page config of a page at the site's root (voici's own pages sit two levels down)."""
    c = copy.deepcopy(lite)
    c.update(baseUrl="./", appUrl="./voici", fullStaticUrl="./voici/build", settingsUrl="./build/schemas",
             fullLabextensionsUrl="./extensions", themesUrl="./build/themes", faviconUrl="./icon-192.png",
             jpThemeName="JupyterLab Light", extensionConfig={}, notebookPath=notebook,
             include_output=True, include_output_prompt=False)
    c["federated_extensions"] = [e for e in c["federated_extensions"] if e["name"] == KERNEL_EXTENSION]
    kernel = c.setdefault("litePluginSettings", {}).setdefault(KERNEL_PLUGIN, {})
    kernel.update(pyodideUrl=PYODIDE_URL, disablePyPIFallback=True,
                  loadPyodideOptions={"packages": list(PRELOAD)})
    kernel.pop("pipliteUrls", None)       # every package comes from the lock; piplite has no index to read
    for key in ("fileTypes", "licensesUrl"):
        c.pop(key, None)
    return c


def execute(nb, name: str):
    """Run a notebook here, with the kit on this machine, as the static site's pages link (`.html`)."""
    from nbclient import NotebookClient
    os.environ["CARDKIT_STATIC_SITE"] = "1"
    client = NotebookClient(nb, kernel_name="python3", timeout=600, store_widget_state=True,
                            resources={"metadata": {"path": str(NOTEBOOKS)}})
    try:       # (the kernel's own log, a warning about its local TCP transport, is not the build's business)
        client.execute(stderr=subprocess.DEVNULL)
    except Exception as e:      # a cell's error: the page must not be built from it
        raise BuildError(f"{name}.ipynb failed to run: {str(e).strip().splitlines()[-1]}") from None
    for cell in nb.cells:
        for o in cell.get("outputs", []):
            if o.get("output_type") == "error" or o.get("name") == "stderr":
                raise BuildError(f"{name}.ipynb wrote an error: {''.join(o.get('text', o.get('evalue', '')))[:200]}")
    return nb


WIDGET = "application/vnd.jupyter.widget-view+json"


def static_cell(cell, states: dict) -> tuple[str, bool]:
    """A code cell's outputs as static HTML, and whether any of them is a widget (then the cell runs again
    in the browser, and its live output takes the place of this picture). Each output sits in the elements
    and classes JupyterLab's output area gives it, so the page's style treats the two alike."""
    parts, live = [], False
    for o in cell.get("outputs", []):
        data = o.get("data", {})
        if WIDGET in data:
            live = True
            body = (f"<div class='jp-OutputArea-output ck-still' aria-busy='true'>"
                    f"{widget_html(data[WIDGET]['model_id'], states)}</div>")
        elif "text/html" in data:
            text = data["text/html"] if isinstance(data["text/html"], str) else "".join(data["text/html"])
            body = (f"<div class='jp-RenderedHTMLCommon jp-RenderedHTML jp-mod-trusted jp-OutputArea-output' "
                    f"data-mime-type='text/html'>{text}</div>")
        elif o.get("output_type") == "stream" and o.get("text"):
            body = (f"<div class='jp-RenderedText jp-OutputArea-output' data-mime-type='text/plain'>"
                    f"<pre>{html.escape(''.join(o['text']))}</pre></div>")
        else:
            continue
        parts.append(f"<div class='jp-OutputArea-child'>{body}</div>")
    if not parts:
        return "", live
    return (f"<div class='jp-Collapser jp-OutputCollapser jp-Cell-outputCollapser'></div><div class='jp-OutputArea "
            f"jp-Cell-outputArea' style='display:flex;flex-direction:column'>{''.join(parts)}</div>"), live


def widget_html(model_id: str, states: dict) -> str:
    """A still picture of a widget from its state, drawn with ipywidgets' own class names so the page's
    style applies; controls are drawn disabled (they work once Python has started)."""
    st = states.get(model_id)
    if st is None:
        return ""
    model, s = st["model_name"], st["state"]
    if states.get(s.get("layout", "").removeprefix("IPY_MODEL_"), {}).get("state", {}).get("display") == "none":
        return ""                                   # hidden (a reader's own example's inbox): not drawn
    e = html.escape
    cls = " ".join(s.get("_dom_classes", ()))

    def kids():
        return "".join(widget_html(ref.removeprefix("IPY_MODEL_"), states) for ref in s.get("children", ()))
    if model in ("VBoxModel", "HBoxModel", "BoxModel", "GridBoxModel"):
        kind = {"VBoxModel": "widget-vbox", "HBoxModel": "widget-hbox"}.get(model, "widget-box")
        layout = states.get(s.get("layout", "").removeprefix("IPY_MODEL_"), {}).get("state", {})
        wrap = " style='flex-wrap:wrap'" if layout.get("flex_flow") == "row wrap" else ""
        return f"<div class='lm-Widget jupyter-widgets widget-container widget-box {kind} {cls}'{wrap}>{kids()}</div>"
    if model in ("HTMLModel", "HTMLMathModel"):
        return f"<div class='lm-Widget jupyter-widgets widget-inline-hbox widget-html {cls}'><div class='widget-html-content'>{s.get('value', '')}</div></div>"
    if model == "LabelModel":
        return f"<div class='lm-Widget jupyter-widgets widget-label {cls}'>{e(s.get('value', ''))}</div>"
    if model == "ButtonModel":
        style = {"primary": " mod-primary"}.get(s.get("button_style", ""), "")
        return (f"<button class='lm-Widget jupyter-widgets jupyter-button widget-button{style} {cls}' disabled "
                f"title='{e(s.get('tooltip') or '')}'>{e(s.get('description', ''))}</button>")
    if model == "ToggleButtonsModel":
        labels, index = s.get("_options_labels", []), s.get("index")
        buttons = "".join(f"<button class='lm-Widget jupyter-widgets jupyter-button widget-toggle-button"
                          f"{' mod-active' if i == index else ''}' disabled>{e(label)}</button>"
                          for i, label in enumerate(labels))
        return f"<div class='lm-Widget jupyter-widgets widget-inline-hbox widget-toggle-buttons {cls}'>{buttons}</div>"
    if model == "DropdownModel":
        labels, index = s.get("_options_labels", []), s.get("index")
        options = "".join(f"<option{' selected' if i == index else ''}>{e(label)}</option>" for i, label in enumerate(labels))
        label = f"<label class='widget-label'>{e(s['description'])}</label>" if s.get("description") else ""
        return (f"<div class='lm-Widget jupyter-widgets widget-inline-hbox widget-dropdown {cls}'>{label}"
                f"<select disabled title='{e(s.get('tooltip') or '')}'>{options}</select></div>")
    if model == "TextModel":
        label = f"<label class='widget-label'>{e(s['description'])}</label>" if s.get("description") else ""
        return (f"<div class='lm-Widget jupyter-widgets widget-inline-hbox widget-text {cls}'>{label}"
                f"<input type='text' disabled value='{e(s.get('value', ''))}' placeholder='{e(s.get('placeholder', ''))}'></div>")
    if model == "IntSliderModel":
        return f"<div class='lm-Widget jupyter-widgets widget-inline-hbox widget-slider {cls}'>{e(s.get('description', ''))} {s.get('value')}</div>"
    raise BuildError(f"no still picture for a {model} (add it to widget_html)")


class StaticExporter:
    """Voici's exporter for a page at the site's root, with the static outputs in the template's hands."""

    def __init__(self, lite_config: dict, kernel_chunk: str):
        from traitlets.config import Config
        from voici_core.exporter import VoiciExporter
        from voila.configuration import VoilaConfiguration

        class Exporter(VoiciExporter):
            def cell_generator(self, nb, kernel_id):
                yield from nb.cells          # the static HTML is in each cell's metadata (ck_static)

            def update_page_config(self, nb, resources, page_config):
                config = super().update_page_config(nb, resources, page_config)
                config["notebookSrc"] = self.browser_notebook
                return config

        conf = VoilaConfiguration(config=Config({"VoilaConfiguration": {"template": "cardkit", "strip_sources": True}}))
        self.lite_config, self.kernel_chunk = lite_config, kernel_chunk     # (kernel_chunk: see kernel_worker)
        self._cls, self._conf = Exporter, conf

    def page(self, nb, browser_nb: dict, name: str) -> str:
        exporter = self._cls(voici_config=self._conf, page_config=page_config(self.lite_config, f"{name}.ipynb"),
                             base_url="./", files_url_prefix="")
        exporter.browser_notebook = browser_nb
        body, _ = exporter.from_notebook_node(nb, {"metadata": {"name": name}, "ck_kernel_chunk": self.kernel_chunk})
        return body


def browser_source(source: str) -> str:
    """A static-only cell as it runs in the browser: its imports alone (later cells may use them)."""
    tree = ast.parse(source)
    lines = source.splitlines()
    keep = [ "\n".join(lines[n.lineno - 1:n.end_lineno]) for n in tree.body if isinstance(n, (ast.Import, ast.ImportFrom))]
    return "\n".join(keep)


def build_pages(out: Path, lite: dict, kernel_chunk: str) -> list[str]:
    import nbformat
    runs = []
    for path in sorted(NOTEBOOKS.glob("*.ipynb")):
        say(f"  running {path.name}")
        runs.append((path, execute(nbformat.read(path, as_version=4), path.stem)))
    # the template is found on the Jupyter path (set only now: nbclient would find the Voilà site's kernel there)
    os.environ["JUPYTER_PATH"] = os.pathsep.join([str(TEMPLATE_DIR), os.environ.get("JUPYTER_PATH", "")])
    exporter = StaticExporter(lite, kernel_chunk)
    names = []
    for path, nb in runs:
        name = path.stem
        states = nb.metadata.get("widgets", {}).get("application/vnd.jupyter.widget-state+json", {}).get("state", {})
        browser = nbformat.read(path, as_version=4)
        browser.metadata.pop("widgets", None)
        first, play, rest = [], [], []
        for k, (cell, plain) in enumerate(zip(nb.cells, browser.cells)):
            if cell.cell_type != "code":
                rest.append(k)
                continue
            text, live = static_cell(cell, states)
            cell.metadata["ck_static"] = text
            cell.metadata["ck_live"] = live
            cell.outputs = []
            plain.outputs, plain.execution_count = [], None
            if not live:
                plain.source = browser_source(plain.source)
                first.append(k)
            elif _makes_play_table(cell_models(cell), states):
                play.append(k)
            else:
                rest.append(k)
        # The order the browser runs the cells in: the imports, then the play table, then the rest of the page
        # (a reader who came to play waits for nothing else). Each cell of the page carries its place in that
        # order (ck_index), where Voici puts the cell's live output.
        order = first + play + sorted(rest)
        for place, k in enumerate(order, 1):
            nb.cells[k].metadata["ck_index"] = place
        browser.cells = [browser.cells[k] for k in order]
        nb.metadata.pop("widgets", None)
        (out / f"{name}.html").write_text(exporter.page(nb, json.loads(nbformat.writes(browser)), name), encoding="utf-8")
        names.append(name)
    return names


def cell_models(cell) -> list:
    """The widget models a code cell's outputs show."""
    return [o["data"][WIDGET]["model_id"] for o in cell.get("outputs", []) if WIDGET in o.get("data", {})]


def _makes_play_table(models: list, states: dict) -> bool:
    """Whether these widgets hold the button that deals the play table (`widgets.Play`: class ck-play-start)."""
    seen, todo = set(), list(models)
    while todo:
        m = todo.pop()
        if m in seen or m not in states:
            continue
        seen.add(m)
        st = states[m]["state"]
        if "ck-play-start" in st.get("_dom_classes", ()):
            return True
        todo += [ref.removeprefix("IPY_MODEL_") for ref in st.get("children", ())]
    return False


# --- offline and installable ----------------------------------------------------------------------------
# Workbox's browser builds (npm, package-lock.json): precaching (with the core, routing and strategies it needs)
# for the service worker, workbox-window for the page (registration and the update's messages).
WORKBOX_WORKER = ("workbox-core", "workbox-routing", "workbox-strategies", "workbox-precaching")
WORKBOX_PAGE = "workbox-window/build/workbox-window.prod.umd.js"
WORKBOX_DIR = "static/workbox"


def offline_files(out: Path, pages: list[str], node_modules: Path) -> None:
    """The web-app manifest, the icons, Workbox's scripts (from npm), and the service worker with the list of
    every file and its hash (`service_worker`). JupyterLite's own service worker is loaded behind the site's."""
    for icon in (HERE / "icons").glob("*.png"):
        shutil.copy(icon, out / icon.name)
    (out / "manifest.webmanifest").write_text((HERE / "manifest.webmanifest").read_text())
    jl_sw = out / "service-worker.js"
    jl_sw.rename(out / "jupyterlite-service-worker.js")
    (out / WORKBOX_DIR).mkdir(parents=True, exist_ok=True)
    for rel in [f"{name}/build/{name}.prod.js" for name in WORKBOX_WORKER] + [WORKBOX_PAGE]:
        src = node_modules / rel
        if not src.is_file():
            raise BuildError(f"{rel} is not in npm's workbox packages (package-lock.json): has Workbox changed?")
        text = re.sub(r"\n?//# sourceMappingURL=\S+\s*$", "\n", src.read_text(encoding="utf-8"))   # (not shipped)
        (out / WORKBOX_DIR / src.name).write_text(text, encoding="utf-8")
    service_worker(out)


def start_files(out: Path) -> list[str]:
    """What any page's Python start fetches, from the site's root: the kernel's worker and the scripts it imports
    (kernel-worker.js names them), and the files pyodide-preload.js counts (`self.ckDownloads`). A page keeps
    these with itself: they are fetched by its worker, where the page's own list of what it loaded cannot see."""
    folder = "static/pyodide/"
    early = out / folder / "kernel-worker.js"       # (none where the page has no early worker: upstream's checks)
    worker = early.read_text(encoding="utf-8") if early.is_file() else ""
    names = {"kernel-worker.js", "pyodide-preload.js", "pyodide.js", "pyodide.asm.js"}
    names |= set(re.findall(r'importScripts\(\s*(?:/\*\w+\*/)?"([^"]+)"', worker))
    preload = (out / folder / "pyodide-preload.js").read_text(encoding="utf-8")
    counted = re.search(r"self\.ckDownloads = (\{.*?\});", preload)
    if counted:
        names |= set(json.loads(counted.group(1)))
    else:                           # no list: the whole folder (more than a start needs, never less)
        names |= {p.name for p in (out / folder).iterdir() if p.is_file()}
    files = {os.path.normpath(folder + n).replace(os.sep, "/") for n in names}
    return sorted(f for f in files if (out / f).is_file())


def service_worker(out: Path) -> None:
    """Write the site's service worker (service-worker.js) for the files now in `out`: Workbox's precache manifest
    (each file's address, revision, integrity and size), what a page's Python start fetches, and the scripts it
    imports, each address carrying its content's hash (imported scripts go through the HTTP cache: a new build
    must not get an old one). Run last, on the finished site; running it again on a changed copy of a site makes
    that copy's service worker (the tests' second build)."""
    def digest(data: bytes) -> str:
        return hashlib.sha256(data).hexdigest()

    manifest = []
    for p in sorted(out.rglob("*")):
        rel = p.relative_to(out).as_posix()
        if p.is_file() and rel not in ("service-worker.js", MANIFEST):   # (nor the list of the build's files)
            data = p.read_bytes()
            manifest.append({"url": rel, "revision": digest(data)[:16], "size": len(data),
                             "integrity": "sha256-" + base64.b64encode(hashlib.sha256(data).digest()).decode()})
    revision = {e["url"]: e["revision"] for e in manifest}
    imports = [f"{WORKBOX_DIR}/{name}.prod.js" for name in WORKBOX_WORKER]
    missing = [rel for rel in [*imports, "jupyterlite-service-worker.js"] if rel not in revision]
    if missing:
        raise BuildError(f"the service worker's scripts are not in the site: {missing}")
    sw = fill("service-worker.js", {
        "workbox": "importScripts(" + ", ".join(json.dumps(f"{rel}?v={revision[rel]}") for rel in imports) + ");",
        "manifest": "[\n" + ",\n".join(json.dumps(e, separators=(",", ":")) for e in manifest) + "]",
        "start": json.dumps(start_files(out)),
        "jupyterlite": json.dumps(f"jupyterlite-service-worker.js?v={revision['jupyterlite-service-worker.js']}")})
    (out / "service-worker.js").write_text(sw, encoding="utf-8")


# What is left of the app once PRUNE has gone (before the pages, the site's own files and the Pyodide folder are
# added): anything else is new in the tools (upstream: lite-layout), and the folders the pages load from.
KEEP = ("api", "extensions", "static", "voici", "service-worker.js", f"extensions/{KERNEL_EXTENSION}")
NEEDED = ("voici/build", f"extensions/{KERNEL_EXTENSION}/static")


def prune(out: Path) -> None:
    for rel in PRUNE:
        p = out / rel
        if p.is_dir():
            shutil.rmtree(p)
        elif p.exists():
            p.unlink()
    assume("lite-layout", upstream.lite_layout, out, KEEP, NEEDED)
    # JupyterLite's in-browser contents (its "drive") reads this listing at start: the site keeps no files there
    listing: dict[str, Any] = {"content": [], "created": "1980-01-01T00:00:00Z", "format": "json", "hash": None,
               "hash_algorithm": None, "last_modified": "1980-01-01T00:00:00Z", "mimetype": None, "name": "",
               "path": "", "size": None, "type": "directory", "writable": True}
    (out / "api" / "contents").mkdir(parents=True, exist_ok=True)
    (out / "api" / "contents" / "all.json").write_text(json.dumps(listing, indent=1) + "\n")


# --- where the site goes: a folder it made, or a new one; nothing else is ever touched -------------------------
MANIFEST = ".cardkit-site.json"         # written into every built site: the files that build wrote there
MANIFEST_FORMAT = "cardkit-static-site"


def _listed(out: Path) -> dict | None:
    """The files an earlier build of this kit wrote into `out` (relative path -> sha256), from its manifest;
    None if `out` holds no such manifest (or one that is not this kit's, or lists a path outside `out`)."""
    try:
        data = json.loads((out / MANIFEST).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or data.get("format") != MANIFEST_FORMAT or not isinstance(data.get("files"), dict):
        return None
    files = data["files"]
    for rel in files:
        parts = Path(rel).parts
        if not isinstance(rel, str) or not parts or Path(rel).is_absolute() or ".." in parts or rel == MANIFEST:
            return None
    return files


def check_target(out: Path) -> dict:
    """Before any work: `out` must be a new folder, an empty one, or an earlier build of this kit (its manifest
    lists the files that build wrote). Returns the files listed there ({} for a new or empty folder); anything
    else is refused in one line."""
    if out.is_symlink() and not out.exists():
        raise BuildError(f"{out} is a broken link: choose a folder for the site")
    if out.exists() and not out.is_dir():
        raise BuildError(f"{out} is a file, not a folder: choose a new or empty folder for the site")
    if not out.exists():
        parent = next((p for p in out.parents if p.exists()), None)
        if parent is None or not parent.is_dir() or not os.access(parent, os.W_OK | os.X_OK):
            raise BuildError(f"cannot make the folder {out} (no writable folder above it)")
        return {}
    if not os.access(out, os.W_OK | os.X_OK):
        raise BuildError(f"cannot write into {out}")
    if not any(out.iterdir()):
        return {}
    listed = _listed(out)
    if listed is None:
        raise BuildError(f"{out} is not empty and is not a site this kit built (it has no {MANIFEST}): nothing was "
                         "changed; choose a new or empty folder (a site built before the kit kept that list: remove "
                         "it yourself)")
    return listed


def install_site(stage: Path, out: Path, listed: dict) -> None:
    """Put the built site (`stage`) in `out`. A new folder is filled beside it and renamed into place. An
    earlier build is replaced file by file: only the files its manifest lists are overwritten or removed (and
    the folders they leave empty); every other file in `out` stays. A new file that would overwrite a file the
    earlier build did not write stops the install before anything is changed."""
    new = {p.relative_to(stage).as_posix(): p for p in sorted(stage.rglob("*")) if p.is_file()}
    manifest = {"format": MANIFEST_FORMAT, "version": 1,
                "files": {rel: sha256(p.read_bytes()) for rel, p in new.items()},
                "fallbacks": list(upstream.TAKEN)}        # where the tools were not as the build expects: upstream.py
    if not out.exists() or (not listed and out.is_dir() and not any(out.iterdir())):
        out.parent.mkdir(parents=True, exist_ok=True)
        fresh = Path(tempfile.mkdtemp(prefix=f".{out.name}.cardkit-new-", dir=out.parent))
        try:
            shutil.copytree(stage, fresh, dirs_exist_ok=True)
            (fresh / MANIFEST).write_text(json.dumps(manifest, indent=1, sort_keys=True) + "\n", encoding="utf-8")
            fresh.chmod(0o755)
            if out.exists():
                out.rmdir()             # empty (checked above): the new site takes its place
            fresh.rename(out)
        finally:
            if fresh.exists():
                shutil.rmtree(fresh)
        return
    for rel in new:                     # nothing of the reader's is ever overwritten, nothing outside `out` written
        for up in reversed(Path(rel).parents[:-1]):
            q = out / up
            if q.is_symlink() or (q.exists() and not q.is_dir()):
                if up.as_posix() not in listed:
                    raise BuildError(f"the new site needs the folder {q}, but a file or link the earlier build did "
                                     "not write is there: nothing was changed; move it away or choose another folder")
        target = out / rel
        if (target.exists() or target.is_symlink()) and (rel not in listed or target.is_dir()):
            raise BuildError(f"the new site would overwrite {target}, which the earlier build did not write: "
                             "nothing was changed; move it away or choose another folder")
    for rel, src in new.items():        # each file replaced whole (a reader never gets half a file)
        target = out / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        tmp = target.with_name(f".{target.name}.cardkit-new")
        shutil.copyfile(src, tmp)
        os.replace(tmp, target)
    dirs: set[Path] = set()
    for rel in listed:                  # the earlier build's files that this one no longer has
        if rel not in new:
            p = out / rel
            if p.is_symlink() or p.is_file():
                p.unlink()
            dirs.update(out / d for d in Path(rel).parents[:-1])
    for d in sorted(dirs, key=lambda d: len(d.parts), reverse=True):
        try:
            d.rmdir()                   # only if empty: a reader's file keeps its folder
        except OSError:
            pass
    tmp = out / f".{MANIFEST}.new"
    tmp.write_text(json.dumps(manifest, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    os.replace(tmp, out / MANIFEST)


def preflight() -> None:
    """Before any work, what the installed tools' code must be for the page (upstream's table): the Pyodide the
    kernel runs, Voici's page, JupyterLite's service worker, Voilà's template. The kernel's chunk is checked where
    the build reads it (kernel_worker), Pyodide's files once fetched, the app's files once built."""
    import jupyterlite_pyodide_kernel
    import voici_core.exporter
    constants = (Path(jupyterlite_pyodide_kernel.__file__).parent / "constants.py").read_text(encoding="utf-8")
    assume("pyodide-version", upstream.pyodide_version, constants, upstream.version_of("pyodide"))
    bundle = upstream.voici_bundle()
    exporter = Path(voici_core.exporter.__file__).read_text(encoding="utf-8")
    for key, fn, args in (("voici-cell-index", upstream.voici_cell_index, (bundle,)),
                          ("voici-progress", upstream.voici_progress, (bundle,)),
                          ("voici-page-config", upstream.voici_page_config, (bundle, exporter)),
                          ("voici-exporter", upstream.voici_exporter, (exporter,)),
                          ("jl-service-worker", upstream.jl_service_worker, (bundle,)),
                          ("jl-service-worker-key", upstream.jl_service_worker_key, (bundle,)),
                          ("jl-drive-listing", upstream.jl_drive_listing, (bundle,)),
                          ("voila-template", upstream.voila_template, upstream.voila_templates())):
        assume(key, fn, *args)


def build(out: Path, cache: Path = DEFAULT_CACHE) -> None:
    out = Path(os.path.abspath(out))
    check_target(out)                   # before any work: refuse a folder this kit did not make
    upstream.TAKEN.clear()
    preflight()
    cache.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(prefix="cardkit-static-") as tmp_name:
        tmp = Path(tmp_name)
        say("Fetching and checking what the browser runs")
        core = pyodide_core(cache)
        assume("pyodide-core", upstream.pyodide_core, core, PYODIDE_FILES)
        fetched = pypi_wheels(cache)
        ipython = next(w for w in fetched if w.name.startswith("ipython-"))
        assume("ipython-terminal", upstream.ipython_terminal, upstream.wheel_sources(ipython, "IPython/"))
        wheels = [trimmed_pygments(w, tmp) if w.name.startswith("pygments-") else w for w in fetched]
        wheels += kernel_wheels() + [kit_wheel(tmp)]
        say("Compiling the browser's Python packages")
        compiled = compile_wheels(core, wheels, tmp / "compiled")
        lite_dir = tmp / "lite"
        pyodide_dir(core, compiled, lite_dir / "static" / "pyodide", wheels)
        say("Building the app (Voici, JupyterLite, the Pyodide kernel)")
        stage = tmp / "site"
        lite = lite_shell(lite_dir, stage)
        prune(stage)
        kernel_chunk = kernel_worker(stage, next(w for w in wheels if w.name.startswith("pyodide_kernel-")))
        say("Running the pages")
        pages = build_pages(stage, lite, kernel_chunk)
        offline_files(stage, pages, core.parent)
        size = sum(p.stat().st_size for p in stage.rglob("*") if p.is_file())
        install_site(stage, out, check_target(out))     # checked again: the folder may have changed meanwhile
    say(f"The static site is in {out} ({len(pages)} pages, {size / 1e6:.1f} MB). Serve that folder with any "
        f"web server, e.g. python -m http.server -d {out}")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="cardkit build-static", description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path)
    parser.add_argument("--cache", type=Path, default=DEFAULT_CACHE)
    args = parser.parse_args(argv)
    try:
        build(args.out, args.cache)
    except (BuildError, OSError) as e:
        print(f"cardkit build-static: {e}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
