"""Voilà configuration for the cardkit site, loaded by `--Voila.config_file_paths` (see cardkit/site.py,
which passes the other settings on the command line, and docs/site.md)."""
c = get_config()  # noqa: F821 - provided by traitlets when it loads this file

# Answer only requests whose Host is 127.0.0.1 or localhost, so a web page that points its own DNS
# name at 127.0.0.1 (DNS rebinding) cannot load the site. (On the command line this dict could only be
# given in a form traitlets reports as deprecated.)
c.Voila.tornado_settings = {"allow_remote_access": False}


def set_xsrf_cookie(request_handler, notebook, cwd):
    """A page shuts its kernel down on `beforeunload` with a POST carrying the `_xsrf` cookie, but
    Voilà 0.5 never sets that cookie, so the POST is refused (403) and the kernel lives on until the
    culler finds it (voila-dashboards/voila#1458). Reading `xsrf_token` makes tornado set it."""
    request_handler.xsrf_token


c.VoilaConfiguration.prelaunch_hook = set_xsrf_cookie
