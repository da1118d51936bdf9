"""Voilà configuration for the cardkit site, loaded by `--Voila.config_file_paths` (see cardkit/site.py,
which passes the other settings on the command line, site_app.py beside this file, and docs/site.md)."""
c = get_config()  # type: ignore[name-defined]  # noqa: F821 - provided by traitlets when it loads this file

c.Voila.tornado_settings = {
    # Answer only requests whose Host is 127.0.0.1 or localhost, so a web page that points its own DNS
    # name at 127.0.0.1 (DNS rebinding) cannot load the site. This is jupyter_server's check on its
    # handlers; site_app.SiteResponses applies the same rule to every other response (static files).
    # (On the command line this dict could only be given in a form traitlets reports as deprecated.)
    "allow_remote_access": False,
    # The _xsrf cookie (set by site_app.SitePageHandler for the page's kernel shutdown on
    # beforeunload) is only ever needed by the site's own pages: no other site's request carries it.
    "xsrf_cookie_kwargs": {"samesite": "Strict"},
}
# jupyter_server also gives every visitor an (anonymous) identity cookie; it too is only for this site.
c.IdentityProvider.cookie_options = {"samesite": "Strict"}
# the page handler's key for the visitor (site_app.VISITOR_HEADER, never a cookie) reaches the page's
# kernel as HTTP_X_CARDKIT_VISITOR: a play table keeps its game for its visitor (widgets/play.py)
c.VoilaConfiguration.http_header_envs = ["X-Cardkit-Visitor"]
