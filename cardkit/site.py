"""`cardkit serve`: the Voilà site, and the helpers that start it and time its pages in a browser.

Nothing here imports Jupyter, Voilà or Playwright at module level: the server is ``python -m voila``
in a child process, and the browser helpers take the Playwright object from their caller.
docs/site.md gives the reason for every setting.
"""
from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path
from typing import IO

from .errors import CardkitError

HOST = "127.0.0.1"
PACKAGE_DIR = Path(__file__).resolve().parent
NOTEBOOKS_DIR = PACKAGE_DIR.parent / "notebooks"
# Voilà's files: the `cardkit` template (this is a Jupyter data directory, the template is at
# nbconvert/templates/cardkit/) and voila.py, the settings the command line cannot carry.
VOILA_DIR = PACKAGE_DIR / "voila_template"
# The static site's build (`cardkit build-static`): a script run in a child process, like the Voilà server.
STATIC_BUILD = PACKAGE_DIR / "static_site" / "build.py"
# the static build's own venv (`make static`): its tools, Voici and JupyterLite, are kept out of the site's
STATIC_VENV = PACKAGE_DIR.parent / ".venv-static"
INDEX_PATH = "voila/render/index.ipynb"

# /voila/files/ serves only images and style sheets whose path is made of plain names: no dot files,
# no "..", no notebooks or Python sources. Voilà's own denylist stays as the second fence.
FILE_ALLOWLIST = [r"[\w-]+(/[\w-]+)*\.(png|jpe?g|gif|svg|webp|css)"]
FILE_DENYLIST = [r".*\.(ipynb|py)"]
# A kernel nobody has used for five minutes is shut down, even if its tab is still open; the page then
# says the table was closed (docs/site.md gives the reasons for these numbers).
CULL_IDLE_TIMEOUT = 5 * 60
CULL_INTERVAL = 30
# The most kernels at once (one per open page, the preheated pool included): docs/site.md.
MAX_KERNELS = 24
# The most kernels one browser may hold (a third of the places, at most 8): docs/site.md.
PER_BROWSER = 8


def per_browser(max_kernels: int) -> int:
    return max(1, min(PER_BROWSER, max_kernels // 3))


# Kernels kept started, with their notebook already run, for each page (Voilà's preheated pool). Off:
# under a burst of visitors it made pages slower (docs/site.md); `cardkit serve --pool-size N` turns it on.
POOL_SIZE = 0

CHROMIUM = os.environ.get("CARDKIT_CHROMIUM", "/usr/bin/chromium")
# Debian's old headless shell of the same Chromium (the same Blink and V8 without the browser's windows; what
# Playwright itself runs headless by default): `launch_chromium` takes it where it is installed (`make test`
# installs it), as a page of the static site costs about 18 % less CPU in it and a launch 0.4 s instead of 1.1 s
# (docs/benchmarks.md). The browser itself stays for what only it does: an app window (`--app=URL`).
CHROMIUM_SHELL = os.environ.get("CARDKIT_CHROMIUM_SHELL", "/usr/bin/chromium-headless-shell")
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]

# "Interactive": Voilà's spinner (#loading, removed by window.display_cells once every cell has run)
# is gone and at least one widget is visible and enabled. The value is ms since navigation start.
_READY_JS = """() => {
  if (document.getElementById("loading")) return false;
  const ready = [...document.querySelectorAll(".jupyter-widgets")]
    .some((el) => el.checkVisibility() && !el.matches(":disabled"));
  return ready && performance.now();
}"""


def voila_command(notebooks_dir: str | os.PathLike | None = None, port: int = 8866,
                  open_browser: bool = False, max_kernels: int = MAX_KERNELS,
                  pool_size: int = POOL_SIZE, connect_deadline: float | None = None) -> list[str]:
    """The command line of the site's server; run it with ``env=voila_env()``.

    The server is Voilà run through ``voila_template/site_app.py`` (Voilà's application with a kernel
    cap, a page handler that starts kernels only for real page visits, and the Host check and
    security headers on every response); the kernels are ``voila_template/kernels/python3``, which
    runs ``widgets/guard.py``. `connect_deadline`: the seconds by which a page must have connected to its
    kernel, if not the server's 60 (a test's shorter wait).

    Code sent by a browser is refused without any setting: Voilà 0.5.13 builds its kernel manager
    with allowed_message_types = comm_open/close/msg, comm_info_request, kernel_info_request and
    shutdown_request (voila/app.py:662, a constructor argument, so config cannot widen it), and
    jupyter_server 2 drops any other message from the kernel websocket, execute_request included
    (jupyter_server/services/kernels/connection/channels.py:543-553: "Received message of type
    ... which is not allowed. Ignoring.").
    """
    notebooks_dir = Path(notebooks_dir or NOTEBOOKS_DIR).resolve()
    if not notebooks_dir.is_dir():
        raise CardkitError(f"no notebooks folder at {notebooks_dir}")
    check_settings(port, max_kernels, pool_size)
    return [
        sys.executable, str(VOILA_DIR / "site_app.py"), str(notebooks_dir),
        # only cardkit's voila.py (Host check, the xsrf cookie's SameSite), no
        # voila.py/voila.json from the working or user directory
        f"--Voila.config_file_paths={VOILA_DIR}",
        f"--Voila.ip={HOST}", f"--Voila.port={port}", "--Voila.port_retries=0",
        f"--Voila.open_browser={open_browser}",
        "--VoilaConfiguration.template=cardkit",
        "--VoilaConfiguration.allow_template_override=NO",
        "--VoilaConfiguration.strip_sources=True",
        "--VoilaConfiguration.show_tracebacks=False",
        *(f"--VoilaConfiguration.file_allowlist={p}" for p in FILE_ALLOWLIST),
        *(f"--VoilaConfiguration.file_denylist={p}" for p in FILE_DENYLIST),
        f"--MappingKernelManager.cull_idle_timeout={CULL_IDLE_TIMEOUT}",
        f"--MappingKernelManager.cull_interval={CULL_INTERVAL}",
        "--MappingKernelManager.cull_connected=True",
        # a kernel that dies is not restarted: it would come back under the same id without its page
        "--KernelRestarter.restart_limit=0",
        f"--SiteKernelManager.max_kernels={max_kernels}",
        f"--SiteKernelManager.max_kernels_per_browser={per_browser(max_kernels)}",
        *([f"--VoilaConfiguration.preheat_kernel=True", f"--VoilaConfiguration.default_pool_size={pool_size}"]
          if pool_size > 0 else []),
        *([f"--SiteKernelManager.connect_deadline={connect_deadline:g}"] if connect_deadline is not None else []),
    ]


def _whole(x) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def check_settings(port, max_kernels, pool_size) -> None:
    """The serve settings a server can honour, else a CardkitError in one line."""
    if not _whole(port) or not 1 <= port <= 65535:
        raise CardkitError(f"--port must be a port number from 1 to 65535, not {port!r}")
    if not _whole(max_kernels) or max_kernels < 1:
        raise CardkitError(f"--max-kernels must be at least 1, not {max_kernels!r}")
    if not _whole(pool_size) or pool_size < 0:
        raise CardkitError(f"--pool-size must be 0 (no preheated kernels) or more, not {pool_size!r}")


def check_port_free(port: int) -> None:
    """A CardkitError in one line if this machine's `port` cannot be listened on (in use, or not allowed)."""
    with socket.socket() as s:
        try:
            s.bind((HOST, port))
        except PermissionError:
            raise CardkitError(f"port {port} may not be used by this user (ports below 1024 need root): "
                               "give --port N") from None
        except OSError:
            raise CardkitError(f"port {port} on {HOST} is in use (another server, or the site already "
                               "running?): stop it, or give --port N") from None


def _wait_until_answering(proc: subprocess.Popen, base: str, timeout: float | None) -> bool:
    """Wait until the server at `base` answers HTTP: True, or False once `proc` has ended (or `timeout`)."""
    deadline = None if timeout is None else time.monotonic() + timeout
    while True:
        try:
            urllib.request.urlopen(f"{base}/voila/static/voila.js", timeout=2).close()
            return True
        except urllib.error.HTTPError:  # an answer all the same
            return True
        except OSError:
            if proc.poll() is not None or deadline is not None and time.monotonic() > deadline:
                return False
            time.sleep(0.1)


def voila_env() -> dict[str, str]:
    """The environment for `voila_command`: Voilà finds templates, and jupyter_client the site's
    `python3` kernel spec (which runs widgets/guard.py), through JUPYTER_PATH."""
    paths = [str(VOILA_DIR), *filter(None, os.environ.get("JUPYTER_PATH", "").split(os.pathsep))]
    return {**os.environ, "JUPYTER_PATH": os.pathsep.join(paths)}


def serve(port: int = 8866, open_browser: bool = False, notebooks_dir=None,
          max_kernels: int = MAX_KERNELS, pool_size: int = POOL_SIZE) -> int:
    """Run the site in the foreground until Ctrl-C; returns Voilà's exit code. Settings the server cannot
    honour, and a port it cannot listen on, raise a CardkitError before it starts; the address is printed
    once the server answers on it."""
    command = voila_command(notebooks_dir, port, open_browser, max_kernels, pool_size)
    check_port_free(port)
    proc = subprocess.Popen(command, env=voila_env())
    signal.signal(signal.SIGTERM, lambda *_: proc.terminate())  # pass a supervisor's stop on to Voilà
    started = False
    while True:
        try:
            if not started:
                started = True
                if not _wait_until_answering(proc, f"http://{HOST}:{port}", None):
                    code = proc.wait()
                    raise CardkitError(f"the site did not start on port {port} (Voilà's messages above; "
                                       f"exit code {code})")
                print(f"cardkit site: http://{HOST}:{port}/{INDEX_PATH}  (Ctrl-C to stop)", flush=True)
            return proc.wait()
        except KeyboardInterrupt:  # Ctrl-C reached Voilà too: wait while it shuts its kernels down
            pass


def _free_port() -> int:
    with socket.socket() as s:
        s.bind((HOST, 0))
        return s.getsockname()[1]


class SiteURL(str):
    """The base URL of a running site; `.pid` is its server process, `.log()` the server's log so far
    (Voilà's and, through the kernels' original stderr, the kernels' own: see widgets/guard.py)."""
    pid: int
    log_file: IO[bytes] | None = None

    def log(self) -> str:
        log_file = self.log_file
        assert log_file is not None             # (set by running_site)
        log_file.flush()
        with open(log_file.name, "rb") as f:
            return f.read().decode(errors="replace")


@contextlib.contextmanager
def running_site(notebooks_dir=None, port: int | None = None, timeout: float = 60.0,
                 max_kernels: int = MAX_KERNELS, pool_size: int = POOL_SIZE, connect_deadline: float | None = None):
    """Start the site on a free port, yield its base URL (a `SiteURL`) once it answers HTTP, then
    stop it. The settings as `voila_command` takes them."""
    port = port or _free_port()
    base = f"http://{HOST}:{port}"
    with tempfile.NamedTemporaryFile(prefix="cardkit-site-", suffix=".log") as log:
        proc = subprocess.Popen(voila_command(notebooks_dir, port, max_kernels=max_kernels, pool_size=pool_size,
                                              connect_deadline=connect_deadline), env=voila_env(), stdout=log,
                                stderr=subprocess.STDOUT, start_new_session=True)
        try:
            if not _wait_until_answering(proc, base, timeout):
                log.seek(0)
                raise RuntimeError("the Voilà server did not start:\n" + log.read().decode(errors="replace"))
            url = SiteURL(base)
            url.pid, url.log_file = proc.pid, log
            yield url
        finally:
            _stop(proc)


@contextlib.contextmanager
def serving_static(folder: str | os.PathLike, port: int | None = None):
    """Serve a built static site (`cardkit build-static`) as any static host would: Python's own `http.server`
    on a free port of this machine (it serves `.wasm` as application/wasm). Yields the base URL, stops on exit;
    `port`: the same address again (a browser keeps a site's data per address)."""
    port = port or _free_port()
    with serving_process([sys.executable, "-m", "http.server", str(port), "--bind", HOST, "-d", str(folder)],
                         f"http://{HOST}:{port}") as base:
        yield base


@contextlib.contextmanager
def serving_process(cmd: list, base: str):
    """Run a web server (`cmd`) until it answers at `base`, yield `base`, stop it on exit."""
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 20
        while True:
            try:
                urllib.request.urlopen(base + "/", timeout=2).close()
                break
            except urllib.error.HTTPError:          # an answer all the same
                break
            except OSError:
                if proc.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError("the static server did not start") from None
                time.sleep(0.1)
        yield base
    finally:
        proc.terminate()
        proc.wait(10)


def _stop(proc: subprocess.Popen) -> None:
    """SIGTERM lets Voilà shut its kernels down (they run in sessions of their own); then SIGKILL."""
    for sig, grace in ((signal.SIGTERM, 15), (signal.SIGKILL, 5)):
        with contextlib.suppress(ProcessLookupError):
            os.killpg(proc.pid, sig)
        try:
            proc.wait(grace)
            return
        except subprocess.TimeoutExpired:
            pass


def chromium_executable(args=()) -> str:
    """The headless Chromium to drive with the command-line `args`: Debian's headless shell where installed, else
    the browser (`CHROMIUM_SHELL`); the browser for an app window (`--app=URL`), which the shell does not open."""
    if any(a.startswith("--app=") for a in args):
        return CHROMIUM
    return CHROMIUM_SHELL if os.path.exists(CHROMIUM_SHELL) else CHROMIUM


def launch_chromium(playwright):
    """Debian's headless Chromium through Playwright (Playwright's own browser download is not used; see
    `chromium_executable`). Playwright gives every launch a fresh temporary profile."""
    return playwright.chromium.launch(executable_path=chromium_executable(), headless=True, args=CHROMIUM_ARGS)


def page_ready_time(page, url: str, timeout: float = 60.0) -> float:
    """Seconds from navigation start until the page is interactive (see _READY_JS)."""
    page.goto(url, wait_until="commit", timeout=timeout * 1000)
    handle = page.wait_for_function(_READY_JS, polling="raf", timeout=timeout * 1000)
    return handle.json_value() / 1000


def static_python() -> str:
    """The Python that runs the static build: this one where the build's tools (Voici) are installed, else the
    one of the static build's own venv beside the checkout (`make static` makes it, with the kit in it). The
    tools are kept out of the site's venv: where Voilà runs, JupyterLite's kernel extension would be loaded into
    every page, and fail there. A CardkitError in one line where neither has them."""
    import importlib.util
    if importlib.util.find_spec("voici_core") is not None:
        return sys.executable
    python = STATIC_VENV / ("Scripts/python.exe" if os.name == "nt" else "bin/python")
    if not python.is_file():
        raise CardkitError(f"the static build needs its tools, which are neither here nor in {STATIC_VENV}: "
                           "`make static` (or `make install-static`) installs them there")
    probe = "import voici_core, cardkit; print(cardkit.__file__)"
    found = subprocess.run([str(python), "-c", probe], capture_output=True, text=True)
    if found.returncode != 0:
        raise CardkitError(f"{STATIC_VENV} lacks the static build's tools or the kit: `make install-static` installs them")
    if Path(found.stdout.strip()).resolve().parent != PACKAGE_DIR.resolve():
        raise CardkitError(f"{STATIC_VENV} has the kit of another folder ({Path(found.stdout.strip()).parent}): "
                           "`make install-static` installs this one there")
    return str(python)


def build_static(out: str | os.PathLike) -> int:
    """`cardkit build-static DIR`: every page of notebooks/ as a static site in DIR (Voici and Pyodide: Python
    runs in the visitor's browser). The build runs in a child process (it imports Voici and nbclient, which
    the kit never does), with the Python that has the build's tools (`static_python`); docs/publishing.md says
    how to publish the folder."""
    python = static_python()
    if not NOTEBOOKS_DIR.is_dir():
        raise CardkitError(f"no notebooks folder at {NOTEBOOKS_DIR}: build the static site from a checkout of the kit")
    return subprocess.call([python, str(STATIC_BUILD), str(Path(out))])
