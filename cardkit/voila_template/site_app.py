"""The cardkit site's server: Voilà 0.5 (``python site_app.py`` takes Voilà's command line) with what
its configuration cannot express. docs/site.md gives the reasons; cardkit/site.py starts it.

- ``SiteKernelManager``: at most ``max_kernels`` kernels (the preheated pool included), and at most
  ``max_kernels_per_browser`` for one browser; a page visit beyond that gets a "busy" page (HTTP 503) or
  a "too many pages open" page (429) instead of a kernel. A kernel is never restarted (a restarted kernel
  has lost its page: ``KernelRestarter.restart_limit=0`` on the command line makes a dead kernel leave the
  map), and a kernel whose page has not connected to it ``connect_deadline`` seconds after the page was
  sent is shut down (a navigation replaced before its page loaded).
- ``SitePageHandler`` (``/voila/render/...``): only a real page visit starts a kernel. A request whose
  Fetch Metadata says it is not a top-level navigation (a no-cors fetch, an iframe, a prefetch) is
  refused with 403 before any kernel starts; a navigation from another site that no person made (no
  ``Sec-Fetch-User``) gets a page with a link to open it instead; requests without those headers (curl)
  are served. It sets the ``_xsrf`` cookie the page's kernel shutdown on ``beforeunload`` needs, and the
  browser's own cookie the per-browser cap counts by.
- ``SiteTemplateFiles``: Voilà's template static files, with 404 for a path that is not
  ``<template>/static/<file>`` (Voilà's own handler answered some with a 500).
- Tables kept for their visitor (``VISITOR_HEADER``, ``TABLES``): the page handler gives each page's kernel a
  key for the visitor (an HMAC, under a secret of this server's run, of jupyter_server's anonymous identity,
  never the cookie itself) and the folder where a play table keeps its game for an hour; so a table closed
  by the culler, or a reload, can offer the visitor his game again (widgets/play.py). The game stays in
  the server's folder: nothing of it but the table's own view ever goes to the page.
- ``SiteResponses``: an output transform on every response of the tornado application, static files
  included (Voilà's ``/voila/static``, ``/voila/templates`` and ``/voila/files`` handlers are plain
  tornado handlers without jupyter_server's Host check): a ``Host`` other than a local name gets 403,
  and every response carries the site's security headers.

It is a script, not part of the ``cardkit`` package: the kit itself never imports Jupyter.
"""
from __future__ import annotations

import atexit
import contextvars
import hashlib
import hmac
import ipaddress
import os
import re
import secrets
import shutil
import sys
import tempfile
import time

if sys.path and os.path.abspath(sys.path[0]) == os.path.dirname(os.path.abspath(__file__)):
    del sys.path[0]   # run as a script: voila.py beside it (a config file) must not hide the voila package

from jupyter_server._tz import utcnow
from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager
from tornado import web
from tornado.ioloop import IOLoop
from traitlets import Float, Int
from voila.app import Voila
from voila.static_file_handler import TemplateStaticFileHandler
from voila.tornado.handler import TornadoVoilaHandler

LOCAL_HOSTNAMES = ("localhost",)
FLUSH_INTERVAL = 1.0   # seconds between flushes of a page being rendered (SitePageHandler.get)
BROWSER_COOKIE = "cardkit_browser"   # one browser's random name, for the per-browser cap
# the page visit a kernel is being started for (set by SitePageHandler.get, read by SiteKernelManager)
VISIT: contextvars.ContextVar = contextvars.ContextVar("cardkit_visit", default=None)
# the request header that carries the visitor's key to the kernel's environment (Voilà's http_header_envs,
# set in voila.py, copies it to HTTP_X_CARDKIT_VISITOR); the page handler always sets it itself, so a
# visitor cannot send another's key
VISITOR_HEADER = "X-Cardkit-Visitor"
_SECRET = os.urandom(32)     # the keys hold for this run of the server only
# where the play tables keep their games: a private folder of this run, outside anything the site serves,
# removed when the server stops
if "CARDKIT_TABLES" not in os.environ:
    os.environ["CARDKIT_TABLES"] = tempfile.mkdtemp(prefix="cardkit-tables-")
    atexit.register(shutil.rmtree, os.environ["CARDKIT_TABLES"], True)
TABLES = os.environ["CARDKIT_TABLES"]


def visitor_key(username: str) -> str:
    """The visitor's key: an HMAC of jupyter_server's anonymous identity under this run's secret."""
    return hmac.new(_SECRET, username.encode(), hashlib.sha256).hexdigest()


def security_headers(host: str) -> dict[str, str]:
    """The headers every response carries. Voilà's page needs inline scripts (its loading and
    cell-progress scripts are inline) and inline styles (JupyterLab's widgets set style attributes),
    data: fonts and images (Font Awesome and the themes embed some), and a websocket to its own host."""
    csp = "; ".join([
        "default-src 'self'",
        "script-src 'self' 'unsafe-inline'",
        "style-src 'self' 'unsafe-inline'",
        "img-src 'self' data:",
        "font-src 'self' data:",
        f"connect-src 'self' ws://{host}",
        "object-src 'none'",
        "base-uri 'self'",
        "form-action 'self'",
        "frame-ancestors 'none'",
    ])
    return {"Content-Security-Policy": csp, "Referrer-Policy": "same-origin",
            "X-Content-Type-Options": "nosniff", "X-Frame-Options": "DENY"}


def is_local_host(host_header: str) -> bool:
    """jupyter_server's check_host rule with allow_remote_access off: a loopback address or a local
    host name (JupyterHandler.check_host, jupyter_server/base/handlers.py)."""
    m = re.match(r"^(.*?)(:\d+)?$", host_header or "")
    assert m is not None                        # (any text of one line matches)
    host = m.group(1)
    if host.startswith("[") and host.endswith("]"):
        host = host[1:-1]
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return host in LOCAL_HOSTNAMES


class SiteResponses(web.OutputTransform):
    """Every response: 403 for a non-local Host (the body replaced), and the security headers."""

    REFUSED = b"403: Forbidden\n"

    def __init__(self, request):
        super().__init__(request)
        self.host = request.host
        self.refused = not is_local_host(request.host)

    def transform_first_chunk(self, status_code, headers, chunk, finishing):
        if self.refused:
            status_code, chunk = 403, self.REFUSED
            for name in ("Content-Encoding", "Etag", "Last-Modified", "Content-Range", "Accept-Ranges",
                         "Content-Disposition", "Location", "Set-Cookie"):
                if name in headers:
                    del headers[name]
            headers["Content-Type"] = "text/plain; charset=UTF-8"
            headers["Content-Length"] = str(len(chunk))
            if "Transfer-Encoding" in headers:
                del headers["Transfer-Encoding"]
        for name, value in security_headers(self.host if not self.refused else "127.0.0.1").items():
            headers[name] = value
        return status_code, headers, chunk

    def transform_chunk(self, chunk, finishing):
        return b"" if self.refused else chunk


class SiteKernelManager(AsyncMappingKernelManager):
    """jupyter_server's kernel manager with caps. A page visit is admitted (a slot reserved) before its
    kernel starts; the slot turns into the kernel when a kernel is started for it (the visit is known
    through `VISIT`; the pool's refill when a visitor took a preheated kernel takes the visit's slot), or
    is given back when the visit ends without. The kernels (and admitted visits) of one browser, known by
    its cookie, are counted too. A kernel its page never connected to is shut down after
    `connect_deadline` seconds."""

    max_kernels = Int(24, config=True, help="The most kernels running at once, the preheated pool "
                      "included; a page visit beyond that gets the 'busy' page (503).")
    max_kernels_per_browser = Int(8, config=True, help="The most kernels one browser (its cookie) may "
                                  "hold; a page visit beyond that gets the 'too many pages' page (429).")
    connect_deadline = Float(60.0, config=True, help="Seconds after a page was sent by which it must have "
                             "connected to its kernel; a kernel nobody connected to by then is shut down.")

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self._admitted: list[tuple[int, str | None]] = []     # (visit token, its browser)
        self._browser_of: dict[str, str] = {}                   # kernel id -> the browser it was started for
        self._connected: set[str] = set()                       # kernels a page has connected to

    def _live(self) -> set:
        return set(self._kernels) | set(self._pending_kernels)

    def kernels_in_use(self) -> int:
        return len(self._live()) + len(self._admitted)

    def kernels_of(self, browser: str) -> int:
        live = self._live()
        for k in [k for k in self._browser_of if k not in live]:
            del self._browser_of[k]
        return (sum(1 for b in self._browser_of.values() if b == browser)
                + sum(1 for _, b in self._admitted if b == browser))

    def admit(self, token: int, browser: str | None = None) -> int | None:
        """Reserve a slot for a visit: None, or the HTTP status that refuses it (429: this browser holds
        its share already; 503: the site is full)."""
        if browser is not None and self.kernels_of(browser) >= self.max_kernels_per_browser:
            return 429
        if self.kernels_in_use() >= self.max_kernels:
            return 503
        self._admitted.append((token, browser))
        return None

    def release(self, token: int) -> None:
        self._admitted = [(t, b) for t, b in self._admitted if t != token]

    async def start_kernel(self, *args, **kwargs):  # type: ignore[override]  # async here; jupyter_client types the sync one
        env = kwargs.get("env") or {}
        visit = VISIT.get()
        if visit is not None and any(t == visit.token for t, _ in self._admitted):
            self.release(visit.token)   # the visit's slot is now this kernel (its own, or the pool's refill)
        elif env.get("VOILA_REQUEST_URL") and self._admitted:
            self._admitted.pop(0)
        kernel_id = await super().start_kernel(*args, **kwargs)
        if visit is not None and visit.kernel_id is None and env.get("VOILA_PREHEAT") != "True":
            self.taken(visit, kernel_id)
        return kernel_id

    def taken(self, visit, kernel_id: str) -> None:
        """`kernel_id` is the kernel of page visit `visit` (started for it, or taken from the pool)."""
        visit.kernel_id = kernel_id
        if visit.browser is not None:
            self._browser_of[kernel_id] = visit.browser

    def notify_connect(self, kernel_id):
        self._connected.add(kernel_id)
        super().notify_connect(kernel_id)

    def expect_connection(self, kernel_id: str) -> None:
        """The page of `kernel_id` has been sent: shut the kernel down if it has not connected to it by the
        deadline (the browser went elsewhere before the page loaded, or nobody loads pages here)."""
        async def check():
            if kernel_id in self._kernels and kernel_id not in self._connected:
                self.log.info("Kernel %s: its page never connected within %g s; shutting it down",
                              kernel_id, self.connect_deadline)
                await self.shutdown_kernel(kernel_id)
        IOLoop.current().call_later(self.connect_deadline, check)

    def remove_kernel(self, kernel_id):
        self._connected.discard(kernel_id)
        self._browser_of.pop(kernel_id, None)
        return super().remove_kernel(kernel_id)


class SiteTemplateFiles(TemplateStaticFileHandler):
    """Voilà's /voila/templates/<template>/static/<file> handler. Voilà's own answered a path of another
    form (``cardkit/conf.json``, ``cardkit/static/../conf.json`` however encoded) with a 500 and a
    traceback in the log: 404 instead."""

    def parse_url_path(self, path):
        parts = path.split("/")
        if (len(parts) < 3 or parts[1] != "static" or any(p in ("", ".", "..") for p in parts)
                or "\\" in path or any(ord(ch) < 32 or ord(ch) == 127 for ch in path)):
            raise web.HTTPError(404)
        return super().parse_url_path(path)


class _Visit:
    """A page visit while its page is rendered: its admission token, its browser, and its kernel."""
    __slots__ = ("token", "browser", "kernel_id")

    def __init__(self, token: int, browser: str | None):
        self.token, self.browser, self.kernel_id = token, browser, None


class SitePageHandler(TornadoVoilaHandler):
    """/voila/render/<notebook>: only a page visit a person made, and only while there is room (on the
    site and in this browser's share), gets a kernel."""

    _visit = None

    async def prepare(self):
        await super().prepare()   # jupyter_server's Host check and user
        if any(ord(ch) < 32 or ord(ch) == 127 for arg in self.path_args for ch in (arg or "")):
            raise web.HTTPError(404)   # Voilà would redirect to /voila/files/<path>: a 500 on a NUL
        headers = self.request.headers
        dest, mode = headers.get("Sec-Fetch-Dest"), headers.get("Sec-Fetch-Mode")
        purpose = f"{headers.get('Sec-Purpose', '')} {headers.get('Purpose', '')}".lower()
        if (dest and dest != "document") or (mode and mode != "navigate") or "prefetch" in purpose:
            raise web.HTTPError(403, "not a page visit (Sec-Fetch-Dest %s, Sec-Fetch-Mode %s)", dest, mode)
        site, user = headers.get("Sec-Fetch-Site"), headers.get("Sec-Fetch-User")
        if site not in (None, "same-origin", "none") and user != "?1":
            # a navigation from another site (a popup, a script, a redirect) that no person made: the
            # page with a link to open it, and no kernel
            self.log.info("not started: a navigation from another site without a click (%s)", self.request.path)
            self.finish(self.render_template("open.html", href=self.request.uri))
            return
        browser = self.get_cookie(BROWSER_COOKIE)
        if not (browser and re.fullmatch(r"[0-9a-f]{32}", browser)):   # a first visit: the browser's name
            browser = secrets.token_hex(16)
            self.set_cookie(BROWSER_COOKIE, browser, httponly=True, samesite="Lax", expires_days=30)
        admit = getattr(self.kernel_manager, "admit", None)
        if admit is not None:
            refused = admit(id(self), browser)
            if refused == 429:
                raise web.HTTPError(429, "this browser's kernels reached the cap", reason="Too Many Pages")
            if refused:
                raise web.HTTPError(503, "kernel limit reached", reason="Busy")
        self._visit = _Visit(id(self), browser)
        self.xsrf_token   # sets the _xsrf cookie: the page's shutdown POST on beforeunload carries it
        # the visitor's key for the kernel (replacing whatever the request brought under that name)
        user = self.current_user
        name = getattr(user, "username", None) or ""
        self.request.headers[VISITOR_HEADER] = visitor_key(name) if name else ""

    @web.authenticated
    async def get(self, path=None):
        """Voilà's TornadoVoilaHandler.get, flushing the page at most every FLUSH_INTERVAL seconds
        instead of after every cell: the browser re-parses and re-lays out the page at each flush,
        which under a burst of visitors cost a long page (33 cells) far more than a short one. The
        kernel manager learns which visit a kernel is started for through `VISIT`."""
        VISIT.set(self._visit)
        last = float("-inf")
        async for html in self.get_generator(path=path):
            self.write(html)
            now = time.monotonic()
            if now - last >= FLUSH_INTERVAL:
                self.flush()
                last = now

    def on_finish(self):
        visit = self._visit
        if visit is not None:
            km = self.kernel_manager
            km.release(visit.token)
            if visit.kernel_id is not None:
                km.expect_connection(visit.kernel_id)
        super().on_finish()

    def write_error(self, status_code, **kwargs):
        if status_code in (429, 503):
            self.set_header("Retry-After", "60")
        super().write_error(status_code, **kwargs)


class SiteVoila(Voila):
    """Voilà with the classes above in place of its own."""

    def init_settings(self):
        self.voila_configuration.multi_kernel_manager_class = SiteKernelManager
        settings = super().init_settings()
        km = self.kernel_manager
        if hasattr(km, "get_rendered_notebook"):   # the preheated pool (VoilaKernelManager)
            take = km.get_rendered_notebook

            async def get_rendered_notebook(*args, **kwargs):
                """A pooled kernel's last activity is its notebook run, maybe long ago: a visitor's
                taking it is activity, or the culler could shut it before the page connects."""
                render_task, rendered_cache, kernel_id = await take(*args, **kwargs)
                km.get_kernel(kernel_id).last_activity = utcnow()
                visit = VISIT.get()
                if visit is not None and visit.kernel_id is None:
                    km.taken(visit, kernel_id)
                return render_task, rendered_cache, kernel_id

            km.get_rendered_notebook = get_rendered_notebook
        return settings

    def init_handlers(self):
        # Voilà calls this right after it has built its tornado Application (Voila.start)
        self.app.add_transform(SiteResponses)
        ours = {TornadoVoilaHandler: SitePageHandler, TemplateStaticFileHandler: SiteTemplateFiles}
        # jupyter_server's /logout (the site has no login) rendered a template the site cannot: a 500
        return [(pattern, ours.get(handler, handler), *rest) for pattern, handler, *rest in super().init_handlers()
                if not pattern.rstrip("$").endswith("/logout")]


if __name__ == "__main__":
    SiteVoila.launch_instance()
