"""The cardkit site's server: Voilà 0.5 (``python site_app.py`` takes Voilà's command line) with what
its configuration cannot express. docs/site.md gives the reasons; cardkit/site.py starts it.

- ``SiteKernelManager``: at most ``max_kernels`` kernels (the preheated pool included); a page visit
  beyond that gets a "busy" page (HTTP 503) instead of a kernel.
- ``SitePageHandler`` (``/voila/render/...``): only a real page visit starts a kernel. A request whose
  Fetch Metadata says it is not a top-level navigation (a no-cors fetch, an iframe, a prefetch) is
  refused with 403 before any kernel starts; requests without those headers (curl) are served. It
  also sets the ``_xsrf`` cookie the page's kernel shutdown on ``beforeunload`` needs.
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
import hashlib
import hmac
import ipaddress
import os
import re
import shutil
import sys
import tempfile
import time

if sys.path and os.path.abspath(sys.path[0]) == os.path.dirname(os.path.abspath(__file__)):
    del sys.path[0]   # run as a script: voila.py beside it (a config file) must not hide the voila package

from jupyter_server._tz import utcnow
from jupyter_server.services.kernels.kernelmanager import AsyncMappingKernelManager
from tornado import web
from traitlets import Int
from voila.app import Voila
from voila.tornado.handler import TornadoVoilaHandler

LOCAL_HOSTNAMES = ("localhost",)
FLUSH_INTERVAL = 1.0   # seconds between flushes of a page being rendered (SitePageHandler.get)
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
    host = re.match(r"^(.*?)(:\d+)?$", host_header or "").group(1)
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
    """jupyter_server's kernel manager with a cap. A page visit is admitted (a slot reserved) before
    its kernel starts; the slot turns into the kernel when a kernel is started for a request (Voilà
    passes VOILA_REQUEST_URL in its environment, both for a visitor's own kernel and for the pool's
    refill when a visitor took a preheated kernel), or is given back when the visit ends without."""

    max_kernels = Int(24, config=True, help="The most kernels running at once, the preheated pool "
                      "included; a page visit beyond that gets the 'busy' page (503).")

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self._admitted: list[int] = []

    def kernels_in_use(self) -> int:
        return len(set(self._kernels) | set(self._pending_kernels)) + len(self._admitted)

    def admit(self, token: int) -> bool:
        if self.kernels_in_use() >= self.max_kernels:
            return False
        self._admitted.append(token)
        return True

    def release(self, token: int) -> None:
        if token in self._admitted:
            self._admitted.remove(token)

    async def start_kernel(self, **kwargs):
        if (kwargs.get("env") or {}).get("VOILA_REQUEST_URL") and self._admitted:
            self._admitted.pop(0)   # an admitted visit's slot is now this kernel
        return await super().start_kernel(**kwargs)


class SitePageHandler(TornadoVoilaHandler):
    """/voila/render/<notebook>: only a real page visit, and only while there is room, gets a kernel."""

    async def prepare(self):
        await super().prepare()   # jupyter_server's Host check and user
        headers = self.request.headers
        dest, mode = headers.get("Sec-Fetch-Dest"), headers.get("Sec-Fetch-Mode")
        purpose = f"{headers.get('Sec-Purpose', '')} {headers.get('Purpose', '')}".lower()
        if (dest and dest != "document") or (mode and mode != "navigate") or "prefetch" in purpose:
            raise web.HTTPError(403, "not a page visit (Sec-Fetch-Dest %s, Sec-Fetch-Mode %s)", dest, mode)
        admit = getattr(self.kernel_manager, "admit", None)
        if admit is not None and not admit(id(self)):
            raise web.HTTPError(503, "kernel limit reached", reason="Busy")
        self._admitted = True
        self.xsrf_token   # sets the _xsrf cookie: the page's shutdown POST on beforeunload carries it
        # the visitor's key for the kernel (replacing whatever the request brought under that name)
        user = self.current_user
        name = getattr(user, "username", None) or ""
        self.request.headers[VISITOR_HEADER] = visitor_key(name) if name else ""

    @web.authenticated
    async def get(self, path=None):
        """Voilà's TornadoVoilaHandler.get, flushing the page at most every FLUSH_INTERVAL seconds
        instead of after every cell: the browser re-parses and re-lays out the page at each flush,
        which under a burst of visitors cost a long page (33 cells) far more than a short one."""
        last = float("-inf")
        async for html in self.get_generator(path=path):
            self.write(html)
            now = time.monotonic()
            if now - last >= FLUSH_INTERVAL:
                self.flush()
                last = now

    def on_finish(self):
        if getattr(self, "_admitted", False):
            self.kernel_manager.release(id(self))
        super().on_finish()

    def write_error(self, status_code, **kwargs):
        if status_code == 503:
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
                return render_task, rendered_cache, kernel_id

            km.get_rendered_notebook = get_rendered_notebook
        return settings

    def init_handlers(self):
        # Voilà calls this right after it has built its tornado Application (Voila.start)
        self.app.add_transform(SiteResponses)
        return [(pattern, SitePageHandler if handler is TornadoVoilaHandler else handler, *rest)
                for pattern, handler, *rest in super().init_handlers()]


if __name__ == "__main__":
    SiteVoila.launch_instance()
