"""What the static build assumes of other projects' internals, each checked where the build uses it.

The static site reaches into Voici, JupyterLite, jupyterlite-pyodide-kernel, Pyodide, Voilà's template, IPython
and Pygments at places none of them promises to keep: a minified chunk of the kernel's code, a private option of
Pyodide, a global function Voici calls. Each such place is an `Assumption` in the table below (docs/publishing.md
prints it): which package, the version it was checked against, where the build or the page uses it, what the check
looks at, and what the site does without it. The build runs each check as it comes to use the assumption
(`check(key, ...)`); a check that fails says so in ONE line naming the package and its installed version:

    jupyterlite-pyodide-kernel 0.8.6: no chunk creates the kernel's worker …; the static build expects …

Where the page can do without it (`fallback`), the build says that line as a warning, takes the plain upstream
path and records the fallback in the site's manifest (`TAKEN`); otherwise the build stops there.

The check functions read only what they are given (a chunk's text, a config), so the tests feed them a changed
input; `installed_inputs()` gathers the real ones from the installed tools: `python -m cardkit.static_site.upstream`
runs every check that needs no built site and prints one line each."""
from __future__ import annotations

import ast
import hashlib
import importlib.metadata
import json
import re
import sys
import zipfile
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
KERNEL_EXTENSION = "@jupyterlite/pyodide-kernel-extension"
KERNEL_PLUGIN = KERNEL_EXTENSION + ":kernel"


@dataclass(frozen=True)
class Assumption:
    key: str
    package: str        # as its registry names it (PyPI; `pyodide` is npm's)
    checked: str        # the version this was read against
    used_in: str        # where the build or the page relies on it
    expects: str        # what the build expects, in words (the second half of the one line)
    looks_at: str       # what the check reads
    fallback: str = ""  # what the site does without it ("" : nothing; the build stops)


K, P, V, L = "jupyterlite-pyodide-kernel", "pyodide", "voici-core", "jupyterlite-core"
TABLE = [
    Assumption("kernel-worker-chunk", K, "0.7.0", "build.kernel_worker; index.html.j2 (the early worker)",
               "one chunk that creates the kernel's worker as `crossOriginIsolated ? new Worker(…) : new Worker(new "
               "URL(<chunk>))`, the second the worker script the page starts early",
               "the extension's static/*.js, by a pattern over the minified code",
               "no early worker: Python starts when the kernel asks for it (about 1.5 s later)"),
    Assumption("worker-loads-pyodide", K, "0.7.0", "pyodide-preload.js (replaces self.loadPyodide); page_config's pyodideUrl",
               "the worker to load `pyodideUrl` with importScripts and call self.loadPyodide({indexURL, …, "
               "...loadPyodideOptions})",
               "the worker chunk: `importScripts(n),t=self.loadPyodide` and the spread of loadPyodideOptions",
               "pyodideUrl is Pyodide's own pyodide.js: no early worker, no snapshot, no imports ahead of the kernel"),
    Assumption("worker-packages", K, "0.7.0", "build.PRELOAD, build.PLACEHOLDERS (sqlite3, jedi, micropip)",
               "the worker to install only packages named in the build's PRELOAD (it installs the missing ones with piplite)",
               "the worker chunk: the list before `piplite.install(` and every `.includes(\"…\")` of loadPyodideOptions.packages"),
    Assumption("piplite-names", K, "0.7.0", "build.STAND_INS (the piplite stand-in)",
               "the kernel to use of piplite only what the stand-in defines",
               "every `piplite.piplite.X` / `piplite.cli.X` in the worker chunk and in the pyodide_kernel wheel"),
    Assumption("kernel-settings", K, "0.7.0", "build.page_config (litePluginSettings)",
               f"the plugin {KERNEL_PLUGIN} to read pyodideUrl, disablePyPIFallback, loadPyodideOptions, pipliteUrls",
               "the extension's static/*.js"),
    Assumption("kernel-messages", K, "0.7.0", "pyodide-preload.js (posts {ckStart} to the page)",
               "the page's side of the kernel to talk to its worker through Comlink, which ignores a message without its id",
               "the chunk that creates the worker"),
    Assumption("kernel-wheels", K, "0.7.0", "build.kernel_wheels",
               "static/pypi/all.json and one each of pyodide_kernel-*.whl, ipykernel-*.whl, widgetsnbextension-4.*.whl, "
               "each with the sha256 of that index", "the installed extension's static/pypi/"),
    Assumption("pyodide-version", K, "0.7.0", "package.json (the Pyodide core from npm)",
               "the Pyodide that package.json pins", "PYODIDE_VERSION in jupyterlite_pyodide_kernel/constants.py"),
    Assumption("pyodide-core", P, "0.29.0", "build.PYODIDE_FILES; pyodide-preload.js",
               "pyodide.js, pyodide.asm.js, pyodide.asm.wasm and python_stdlib.zip, pyodide.js defining loadPyodide",
               "the npm package's files"),
    Assumption("pyodide-snapshot", P, "0.29.0", "make_snapshot.js, build.memory_snapshot, pyodide-preload.js",
               "the private options _makeSnapshot / _loadSnapshot and makeMemorySnapshot(), a snapshot whose header "
               "length is its second uint32, and the wasm's data segments in it",
               "pyodide.js, pyodide.asm.js, the wasm's data section and the snapshot made",
               "no snapshot: Python starts from nothing (about 2 s later)"),
    Assumption("voici-cell-index", V, "0.10.0", "index.html.j2 (cell-index), build.build_pages (ck_index)",
               "Voici to put cell N's live output (N counted from 1 in notebookSrc) into [cell-index=\"N\"]",
               "voici_core/static/build/*.js"),
    Assumption("voici-progress", V, "0.10.0", "static-site.js (the line at the top: 'Ready')",
               "Voici to call window.update_loading_text(index, count, words) and window.display_cells()",
               "voici_core/static/build/*.js"),
    Assumption("voici-page-config", V, "0.10.0", "build.StaticExporter (notebookSrc: the notebook the browser runs)",
               "the page to read the notebook it runs from page_config's notebookSrc and include_output",
               "voici_core/static/build/*.js and the exporter's update_page_config"),
    Assumption("voici-exporter", V, "0.10.0", "build.StaticExporter; index.html.j2 (`frontend == \"voici\"`)",
               "VoiciExporter(voici_config=, page_config=, files_url_prefix=) with cell_generator(nb, kernel_id) and "
               "update_page_config(nb, resources, page_config), rendering with frontend='voici'",
               "voici_core.exporter's source"),
    Assumption("jl-service-worker", V, "0.10.0", "static-site.js (workbox-window registers the same address)",
               "JupyterLite (bundled in Voici) to register service-worker.js?enableCache=… at the site's root",
               "voici_core/static/build/*.js (@jupyterlite/apputils)"),
    Assumption("jl-service-worker-key", V, "0.10.0", "static-site.js (records the site's worker)",
               "JupyterLite to unregister every worker unless localStorage holds `<scriptURL>-version` = appVersion",
               "voici_core/static/build/*.js (@jupyterlite/apputils)"),
    Assumption("jl-drive-listing", V, "0.10.0", "build.prune (writes api/contents/all.json, an empty folder)",
               "JupyterLite's drive to read a folder's listing from api/contents/<path>/all.json, its files in `content`",
               "voici_core/static/build/*.js (@jupyterlite's drive)"),
    Assumption("jl-worker-script", L, "0.7.6", "build.offline_files, service-worker.js (importScripts at its end)",
               "JupyterLite's service-worker.js at the site's root, a classic script (no import/export)",
               "the built service-worker.js"),
    Assumption("jl-worker-broadcast", L, "0.7.6", "service-worker.js (answers a request of a kernel that is gone)",
               "JupyterLite's service-worker.js to pass the kernel's /api/drive requests to the page on the "
               "BroadcastChannel \"/sw-api.v1\" and take as its answer the first message there with the request's "
               "browsingContextId and requestId", "the built service-worker.js",
               "a page left while its kernel waits for the drive can keep a new version waiting until the browser "
               "stops the old worker (minutes)"),
    Assumption("lite-config", L, "0.7.6", "build.page_config; static-site.js (appVersion)",
               f"jupyter-lite.json's jupyter-config-data with appVersion and federated_extensions listing {KERNEL_EXTENSION}",
               "the built jupyter-lite.json"),
    Assumption("lite-layout", L, "0.7.6", "build.PRUNE, build.page_config (voici/build, build/schemas, build/themes, "
               "extensions)", "after the prune, only the files build.KEEP names, and the folders page_config points at",
               "the built site's top folders and extensions/"),
    Assumption("voila-template", "voila", "0.5.13", "index.html.j2 (the cardkit template)",
               "the lab template's blocks notebook_css, body_header, any_cell, footer_js, html_head_js_mermaidjs and "
               "voila_setup.macro's voila_setup_helper_functions", "Voilà's and nbconvert's lab and base templates"),
    Assumption("ipython-terminal", "ipython", "9.0.2", "pyodide-preload.js (IPython.terminal.embed stand-in); the lock "
               "(no prompt_toolkit)", "prompt_toolkit imported at a module's top only under IPython/terminal/",
               "the ipython wheel of browser-requirements.txt"),
    Assumption("pygments-mapping", "pygments", "2.19.1", "build.trimmed_pygments",
               "pygments/lexers/_mapping.py listing each lexer as `'Name': ('pygments.lexers.<module>', …`",
               "the pygments wheel of browser-requirements.txt"),
]
ASSUMPTIONS = {a.key: a for a in TABLE}
TAKEN: list[str] = []           # the fallbacks this build took (each its one line): written into the site's manifest


class UpstreamChanged(Exception):
    """An assumption no longer holds: the message is the one line (package, version, what changed, what is expected)."""


class Changed(Exception):
    """Raised by a check function: what it found instead (the first half of the line)."""


def version_of(package: str) -> str:
    """The version in use: npm's pyodide as package.json pins it (`npm ci` installs exactly that), a browser wheel as
    browser-requirements.txt pins it, a tool as installed here (or, read from elsewhere, in .venv-static)."""
    if package == "pyodide":
        return json.loads((HERE / "package.json").read_text())["dependencies"]["pyodide"]
    pins = dict(re.findall(r"^([\w.-]+)==(\S+)", (HERE / "browser-requirements.txt").read_text(), re.M))
    if package in pins:
        return pins[package]
    try:
        return importlib.metadata.version(package)
    except importlib.metadata.PackageNotFoundError:
        pass
    name = re.sub(r"[-_.]+", "_", package).lower()
    for info in sorted((ROOT / ".venv-static").glob(f"lib*/python*/site-packages/{name}-*.dist-info")):
        return info.name[len(name) + 1:-len(".dist-info")]
    return "(not installed)"


def line(key: str, found: str) -> str:
    a = ASSUMPTIONS[key]
    return f"{a.package} {version_of(a.package)}: {found}; the static build expects {a.expects}"


def check(key: str, fn, *args, fallback_ok: bool = True):
    """Run the check function `fn(*args)` of assumption `key`; its value, or None where the assumption has a fallback
    (the line printed as a warning and recorded in TAKEN); UpstreamChanged otherwise."""
    try:
        return fn(*args)
    except Changed as e:
        text = line(key, str(e))
        if ASSUMPTIONS[key].fallback and fallback_ok:
            text += f" — falling back: {ASSUMPTIONS[key].fallback}"
            print(f"cardkit build-static: warning: {text}", file=sys.stderr, flush=True)
            TAKEN.append(text)
            return None
        raise UpstreamChanged(text) from None


# --- the check functions: each reads only what it is given ----------------------------------------------------
WORKER_PATTERN = re.compile(r"crossOriginIsolated\?new Worker\(.{0,80}?\):new Worker\(new URL\(\w+\.p\+\w+\.u\((\d+)\)")


def kernel_worker_chunk(files: dict[str, str]) -> str:
    """The file name of the kernel's worker script, from the extension's static/*.js (name -> text)."""
    ids = {m.group(1) for text in files.values() for m in WORKER_PATTERN.finditer(text)}
    chunks = sorted(name for i in ids for name in files if re.fullmatch(rf"{i}\.\w+\.js", name))
    if len(chunks) != 1:
        raise Changed(f"{len(chunks)} chunks found where the kernel creates its worker ({', '.join(chunks) or 'none'})")
    return chunks[0]


def worker_loads_pyodide(chunk: str) -> bool:
    if not re.search(r"importScripts\(\w+\),\w+=self\.loadPyodide", chunk):
        raise Changed("the kernel's worker no longer loads pyodideUrl by importScripts and self.loadPyodide")
    if not re.search(r"\.\.\.\w+\.loadPyodideOptions", chunk):
        raise Changed("the kernel's worker no longer passes loadPyodideOptions to loadPyodide")
    return True


def worker_packages(chunk: str, preload) -> None:
    lists = [re.findall(r"\[((?:\"[\w.-]+\",?)+)\]", chunk[max(0, m.start() - 400):m.start()])
             for m in re.finditer(r"piplite\.install\(", chunk)]
    if not any(lists):
        raise Changed("no list of the packages the kernel's worker installs was found before piplite.install")
    names = {n for found in lists if found for n in re.findall(r'"([\w.-]+)"', found[-1])}
    names |= set(re.findall(r'\.includes\("([\w.-]+)"\)', chunk))
    missing = sorted(names - set(preload))
    if missing:
        raise Changed(f"the kernel's worker installs {', '.join(missing)}, which the build does not preload")


def piplite_names(sources: list[str], stand_in: dict[str, str]) -> None:
    defined = {}
    for path, text in stand_in.items():
        module = path.removesuffix(".py").replace("/", ".").removesuffix(".__init__")
        tree = ast.parse(text)
        defined[module] = {t.id for n in tree.body if isinstance(n, ast.Assign) for t in n.targets if isinstance(t, ast.Name)}
        defined[module] |= {n.name for n in tree.body if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))}
        defined[module] |= {a.asname or a.name for n in tree.body if isinstance(n, ast.ImportFrom) for a in n.names}
    used = {(m, name) for text in sources for m, name in re.findall(r"\b(piplite\.piplite|piplite\.cli)\.(\w+)", text)}
    missing = sorted(f"{m}.{name}" for m, name in used if name not in defined.get(m, ()))
    if missing:
        raise Changed(f"the kernel uses {', '.join(missing)}, which the piplite stand-in does not define")


def kernel_settings(files: dict[str, str]) -> None:
    text = "\n".join(files.values())
    missing = [k for k in (KERNEL_PLUGIN, "pyodideUrl", "disablePyPIFallback", "loadPyodideOptions", "pipliteUrls")
               if k not in text]
    if missing:
        raise Changed(f"the extension's code no longer names {', '.join(missing)}")


def kernel_messages(main_chunk: str) -> None:
    if "comlink" not in main_chunk.lower():
        raise Changed("the kernel's page side no longer speaks to its worker through Comlink")


def kernel_wheels(pypi: Path, patterns) -> list[Path]:
    if not (pypi / "all.json").is_file():
        raise Changed(f"no {pypi}/all.json (the kernel's own wheels)")
    index = json.loads((pypi / "all.json").read_text())
    digests = {r["filename"]: r["digests"]["sha256"] for p in index.values() for rs in p["releases"].values() for r in rs}
    out = []
    for pattern in patterns:
        found = sorted(pypi.glob(pattern))
        if len(found) != 1:
            raise Changed(f"{len(found)} files {pattern} in its static/pypi")
        if hashlib.sha256(found[0].read_bytes()).hexdigest() != digests.get(found[0].name):
            raise Changed(f"{found[0].name} does not match the hash in its index")
        out.append(found[0])
    return out


def pyodide_version(constants: str, pinned: str) -> None:
    m = re.search(r"^PYODIDE_VERSION\s*=\s*[\"']([^\"']+)", constants, re.M)
    if not m or m.group(1) != pinned:
        raise Changed(f"the kernel runs Pyodide {m.group(1) if m else '(no PYODIDE_VERSION)'}, package.json pins {pinned}")


def pyodide_core(core: Path, files) -> None:
    missing = [n for n in files if not (core / n).is_file()]
    if missing:
        raise Changed(f"the npm package lacks {', '.join(missing)}")
    if "loadPyodide" not in (core / "pyodide.js").read_text(encoding="utf-8"):
        raise Changed("pyodide.js does not define loadPyodide")


def pyodide_snapshot(pyodide_js: str, asm_js: str) -> None:
    missing = [n for n, text in (("_loadSnapshot", pyodide_js), ("_makeSnapshot", asm_js),
                                 ("makeMemorySnapshot", asm_js)) if n not in text]
    if missing:
        raise Changed(f"Pyodide no longer has {', '.join(missing)}")


def voici_cell_index(bundle: str) -> None:
    if not re.search(r'\[cell-index="\$\{\w+\+1\}"\]', bundle):
        raise Changed('Voici no longer puts a cell\'s output into [cell-index="<its index + 1>"]')


def voici_progress(bundle: str) -> None:
    missing = [f for f in ("window.update_loading_text(", "window.display_cells(") if f not in bundle]
    if missing:
        raise Changed(f"Voici no longer calls {', '.join(f[:-1] for f in missing)}")


def voici_page_config(bundle: str, exporter_source: str) -> None:
    missing = [k for k in ("notebookSrc", "include_output") if f'getOption("{k}")' not in bundle]
    if "page_config_copy['notebookSrc']" not in exporter_source.replace('"', "'") and "notebookSrc" not in exporter_source:
        missing.append("notebookSrc (in the exporter)")
    if missing:
        raise Changed(f"Voici's page no longer reads {', '.join(missing)} from its page_config")


def voici_exporter(exporter_source: str) -> None:
    wants = [r"def cell_generator\(self, nb, kernel_id\)", r"def update_page_config\(self, nb, resources, page_config\)",
             r"kwargs\.pop\('voici_config'\)", r"kwargs\.pop\('page_config'", r"kwargs\.pop\('files_url_prefix'",
             r"frontend=['\"]voici['\"]"]
    missing = [w for w in wants if not re.search(w, exporter_source.replace('"', "'") if "frontend" not in w
                                                 else exporter_source)]
    if missing:
        raise Changed("VoiciExporter no longer matches " + ", ".join(re.sub(r"\\(.)", r"\1", w) for w in missing))


def jl_service_worker(bundle: str) -> None:
    if '"service-worker.js"' not in bundle or 'searchParams.set("enableCache"' not in bundle:
        raise Changed("JupyterLite no longer registers service-worker.js?enableCache=…")


def jl_service_worker_key(bundle: str) -> None:
    if not re.search(r"`\$\{\w+\}-version`", bundle) or 'getOption("appVersion")' not in bundle:
        raise Changed("JupyterLite no longer keeps `<scriptURL>-version` with appVersion")


def jl_drive_listing(bundle: str) -> None:
    if not re.search(r'"api/contents",\w+,"all\.json"\).{0,200}?\.content\)', bundle):
        raise Changed("JupyterLite's drive no longer reads api/contents/<path>/all.json and its `content`")


def jl_worker_script(text: str | None) -> None:
    if text is None:
        raise Changed("the build wrote no service-worker.js at the site's root")
    if re.search(r"^\s*(import\s+[\w{*\"']|export\s)", text, re.M):
        raise Changed("JupyterLite's service-worker.js is a module (import/export), not a classic script")


def jl_worker_broadcast(text: str | None) -> None:
    text = text or ""
    if 'new BroadcastChannel("/sw-api.v1")' not in text or '"/api/drive"' not in text:
        raise Changed("JupyterLite's service-worker.js no longer passes /api/drive requests on BroadcastChannel "
                      "\"/sw-api.v1\"")
    if not re.search(r"\w+\.browsingContextId!==\w+\.browsingContextId\|\|\w+\.requestId!==\w+\.requestId", text):
        raise Changed("JupyterLite's service-worker.js no longer matches an answer by browsingContextId and requestId")


def lite_config(config: dict) -> None:
    data = config.get("jupyter-config-data")
    if not isinstance(data, dict):
        raise Changed("jupyter-lite.json has no jupyter-config-data")
    if "appVersion" not in data:
        raise Changed("jupyter-lite.json's config has no appVersion")
    if KERNEL_EXTENSION not in [e.get("name") for e in data.get("federated_extensions", [])]:
        raise Changed(f"jupyter-lite.json's federated_extensions do not list {KERNEL_EXTENSION}")


def lite_layout(site: Path, keep, needed) -> None:
    there = {p.name for p in site.iterdir()}
    for p in (site / "extensions").glob("*"):            # extensions/<name>, extensions/@<scope>/<name>
        there |= {f"extensions/{p.name}/{q.name}" for q in p.iterdir()} if p.name.startswith("@") and p.is_dir() \
            else {f"extensions/{p.name}"}
    new = sorted(there - set(keep))
    missing = [n for n in needed if not (site / n).is_dir()]
    if missing:
        raise Changed(f"the app has no {', '.join(missing)}")
    if new:
        raise Changed(f"the app now also writes {', '.join(new)} (neither pruned nor kept)")


VOILA_BLOCKS = ("notebook_css", "body_header", "any_cell", "footer_js", "html_head_js_mermaidjs")


def voila_template(templates: list[str], macros: str) -> None:
    defined = {m for text in templates for m in re.findall(r"{%-?\s*block\s+(\w+)", text)}
    missing = [b for b in VOILA_BLOCKS if b not in defined]
    if not re.search(r"{%-?\s*macro\s+voila_setup_helper_functions", macros):
        missing.append("voila_setup_helper_functions (voila_setup.macro.html.j2)")
    if missing:
        raise Changed(f"the lab template no longer defines {', '.join(missing)}")


def ipython_terminal(modules: dict[str, str]) -> None:
    outside = sorted(n for n, text in modules.items() if not n.startswith("IPython/terminal/")
                     and re.search(r"^(from|import) prompt_toolkit", text, re.M))
    if outside:
        raise Changed(f"{', '.join(outside)} imports prompt_toolkit, which the site does not ship")


def pygments_mapping(mapping: str, lexers) -> None:
    if not all(re.search(rf"^\s+'\w+': \('pygments\.lexers\.{name}'", mapping, re.M) for name in lexers):
        raise Changed("pygments/lexers/_mapping.py does not list its lexers as the build reads them")


# --- the real inputs, from the installed tools ------------------------------------------------------------------
def kernel_extension_dir() -> Path | None:
    from jupyter_core.paths import jupyter_path
    for base in jupyter_path("labextensions"):
        if (Path(base) / KERNEL_EXTENSION / "package.json").is_file():
            return Path(base) / KERNEL_EXTENSION
    return None


def extension_files(static: Path) -> dict[str, str]:
    return {p.name: p.read_text(encoding="utf-8") for p in sorted(static.glob("*.js"))}


def voici_bundle() -> str:
    import voici_core
    build = Path(voici_core.__file__).parent / "static" / "build"
    return "\n".join(p.read_text(encoding="utf-8", errors="replace") for p in sorted(build.glob("*.js")))


def wheel_sources(wheel: Path, prefix: str = "") -> dict[str, str]:
    with zipfile.ZipFile(wheel) as z:
        return {n: z.read(n).decode("utf-8", "replace") for n in z.namelist() if n.endswith(".py") and n.startswith(prefix)}


def voila_templates() -> tuple[list[str], str]:
    from jupyter_core.paths import jupyter_path
    texts, macros = [], ""
    for base in jupyter_path():
        for rel in ("voila/templates/lab/index.html.j2", "nbconvert/templates/lab/index.html.j2",
                    "nbconvert/templates/lab/base.html.j2", "nbconvert/templates/base/display_priority.j2",
                    "nbconvert/templates/base/null.j2"):
            if (Path(base) / rel).is_file():
                texts.append((Path(base) / rel).read_text(encoding="utf-8"))
        m = Path(base) / "voila/templates/base/voila_setup.macro.html.j2"
        if m.is_file() and not macros:
            macros = m.read_text(encoding="utf-8")
    return texts, macros


def installed_checks(cache: Path | None = None) -> list[tuple[str, str]]:
    """Every check that needs no built site, on the installed tools (and the wheels and Pyodide core in the build's
    cache, where a build has fetched them): (key, "ok" or its line) each. The build runs the same checks."""
    from cardkit.static_site import build
    cache = cache or build.DEFAULT_CACHE
    out = []

    def run(key, fn, *args):
        try:
            fn(*args)
            out.append((key, "ok"))
        except Changed as e:
            out.append((key, line(key, str(e))))
    ext = kernel_extension_dir()
    files = extension_files(ext / "static") if ext else {}
    run("kernel-worker-chunk", kernel_worker_chunk, files)
    try:
        chunk = files[kernel_worker_chunk(files)]
        main = next(t for t in files.values() if WORKER_PATTERN.search(t))
    except (Changed, StopIteration):           # (then every file is read, as the build does)
        chunk = main = "\n".join(files.values())
    run("worker-loads-pyodide", worker_loads_pyodide, chunk)
    run("worker-packages", worker_packages, chunk, build.PRELOAD)
    kernel_py = []
    if ext:
        kernel_py = list(wheel_sources(next((ext / "static" / "pypi").glob("pyodide_kernel-*.whl"))).values())
    run("piplite-names", piplite_names, [chunk, *kernel_py], build.STAND_INS["piplite"])
    run("kernel-settings", kernel_settings, files)
    run("kernel-messages", kernel_messages, main)
    run("kernel-wheels", kernel_wheels, (ext or Path("/nonexistent")) / "static" / "pypi", build.KERNEL_WHEELS)
    import jupyterlite_pyodide_kernel
    constants = (Path(jupyterlite_pyodide_kernel.__file__).parent / "constants.py").read_text()
    run("pyodide-version", pyodide_version, constants, version_of("pyodide"))
    core = cache / "npm" / "node_modules" / "pyodide"
    if (core / "pyodide.js").is_file():
        run("pyodide-core", pyodide_core, core, build.PYODIDE_FILES)
        run("pyodide-snapshot", pyodide_snapshot, (core / "pyodide.js").read_text(encoding="utf-8"),
            (core / "pyodide.asm.js").read_text(encoding="utf-8"))
    bundle = voici_bundle()
    import voici_core.exporter
    exporter = Path(voici_core.exporter.__file__).read_text(encoding="utf-8")
    run("voici-cell-index", voici_cell_index, bundle)
    run("voici-progress", voici_progress, bundle)
    run("voici-page-config", voici_page_config, bundle, exporter)
    run("voici-exporter", voici_exporter, exporter)
    run("jl-service-worker", jl_service_worker, bundle)
    run("jl-service-worker-key", jl_service_worker_key, bundle)
    run("jl-drive-listing", jl_drive_listing, bundle)
    run("voila-template", voila_template, *voila_templates())
    wheels = {name: next(iter(sorted((cache / "wheels").glob(f"{name}-*.whl"))), None) for name in ("ipython", "pygments")}
    if wheels["ipython"]:
        run("ipython-terminal", ipython_terminal, wheel_sources(wheels["ipython"], "IPython/"))
    if wheels["pygments"]:
        with zipfile.ZipFile(wheels["pygments"]) as z:
            mapping = z.read("pygments/lexers/_mapping.py").decode()
        run("pygments-mapping", pygments_mapping, mapping, build.PYGMENTS_LEXERS)
    return out


def markdown_table() -> str:
    """The table of assumptions as docs/publishing.md prints it."""
    rows = ["| assumption | package, checked against | where used | the check reads | without it |", "|---|---|---|---|---|"]
    for a in TABLE:
        rows.append(f"| {a.expects} | {a.package} {a.checked} | {a.used_in} | {a.looks_at} | "
                    f"{a.fallback or 'the build stops'} |")
    return "\n".join(rows)


if __name__ == "__main__":
    if sys.argv[1:] == ["--table"]:
        print(markdown_table())
        sys.exit(0)
    results = installed_checks()
    for key, result in results:
        print(f"{key}: {result}")
    sys.exit(0 if all(r == "ok" for _, r in results) else 1)
