"""Where `cardkit build-static DIR` puts the site: a new folder, an empty one, or an earlier build of this kit
(its manifest lists the files it wrote). Anything else is refused in one line before any work, and replacing an
earlier build touches only the files that build wrote. Fast: the site's build itself is replaced by a small
stage folder (the whole build is tested in tests/test_static_site.py)."""
from __future__ import annotations

import json
import os

import pytest

from cardkit.static_site import build as b


def _stage(tmp_path, files: dict):
    stage = tmp_path / "stage"
    for rel, text in files.items():
        p = stage / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(text)
    return stage


def _install(tmp_path, out, files: dict):
    stage = _stage(tmp_path / f"s{len(list(tmp_path.iterdir()))}", files)
    b.install_site(stage, out, b.check_target(out))


def _tree(root) -> dict:
    return {p.relative_to(root).as_posix(): p.read_text() for p in sorted(root.rglob("*")) if p.is_file()}


def test_a_folder_that_is_not_a_build_of_the_kit_is_refused_before_any_work(tmp_path, monkeypatch, capsys):
    out = tmp_path / "mysite"
    (out / "blog").mkdir(parents=True)
    (out / "blog" / "post.html").write_text("my post")
    (out / "service-worker.js").write_text("// someone else's")          # the old test of "a built site"
    (tmp_path / "photos.zip").write_text("zip")

    def no_work(*a, **k):
        raise AssertionError("the build started before the folder was checked")
    monkeypatch.setattr(b, "pyodide_core", no_work)
    assert b.main([str(out), "--cache", str(tmp_path / "cache")]) == 1
    err = capsys.readouterr().err.strip()
    assert err.count("\n") == 0 and "is not a site this kit built" in err and "nothing was changed" in err
    assert _tree(out) == {"blog/post.html": "my post", "service-worker.js": "// someone else's"}
    assert (tmp_path / "photos.zip").read_text() == "zip"


@pytest.mark.parametrize("what", ["file", "broken link"])
def test_a_file_given_as_the_folder_is_refused_in_one_line(tmp_path, monkeypatch, capsys, what):
    out = tmp_path / "README.md"
    if what == "file":
        out.write_text("mine")
    else:
        out.symlink_to(tmp_path / "nowhere")
    monkeypatch.setattr(b, "pyodide_core", lambda *a: pytest.fail("the build started"))
    assert b.main([str(out), "--cache", str(tmp_path / "cache")]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "Traceback" not in err and str(out) in err
    if what == "file":
        assert out.read_text() == "mine"


def test_a_forged_manifest_that_reaches_outside_the_folder_is_not_an_earlier_build(tmp_path):
    out = tmp_path / "site"
    out.mkdir()
    (tmp_path / "precious.txt").write_text("keep")
    (out / b.MANIFEST).write_text(json.dumps({"format": b.MANIFEST_FORMAT, "version": 1,
                                              "files": {"../precious.txt": "x"}}))
    with pytest.raises(b.BuildError, match="not a site this kit built"):
        b.check_target(out)
    (out / b.MANIFEST).write_text("{not json")
    with pytest.raises(b.BuildError, match="not a site this kit built"):
        b.check_target(out)
    assert (tmp_path / "precious.txt").read_text() == "keep"


def test_a_new_or_empty_folder_gets_the_site_and_its_manifest(tmp_path):
    for out in (tmp_path / "deep" / "new" / "site", tmp_path / "empty"):
        if out.name == "empty":
            out.mkdir()
        _install(tmp_path, out, {"index.html": "one", "static/app.js": "js"})
        assert _tree(out) == {"index.html": "one", "static/app.js": "js",
                              b.MANIFEST: (out / b.MANIFEST).read_text()}
        listed = b.check_target(out)
        assert set(listed) == {"index.html", "static/app.js"}
        assert not [p for p in out.parent.iterdir() if ".cardkit-new-" in p.name]      # nothing left beside it


def test_a_rebuild_touches_only_the_files_the_earlier_build_wrote(tmp_path):
    out = tmp_path / "site"
    _install(tmp_path, out, {"index.html": "v1", "old/page.html": "gone next time", "static/app.js": "js1"})
    (out / "CNAME").write_text("cards.example.org")                 # the publisher's own files
    (out / "old" / "notes.txt").write_text("mine")
    (out / "blog").mkdir()
    (out / "blog" / "post.html").write_text("my post")
    _install(tmp_path, out, {"index.html": "v2", "static/app.js": "js2", "new.html": "new"})
    tree = _tree(out)
    assert tree["index.html"] == "v2" and tree["static/app.js"] == "js2" and tree["new.html"] == "new"
    assert "old/page.html" not in tree                              # the earlier build's file, not in this one
    assert tree["CNAME"] == "cards.example.org" and tree["old/notes.txt"] == "mine"
    assert tree["blog/post.html"] == "my post"
    assert set(b.check_target(out)) == {"index.html", "static/app.js", "new.html"}
    _install(tmp_path, out, {"index.html": "v3"})                   # folders the build alone filled go with it
    assert not (out / "static").exists() and (out / "old" / "notes.txt").exists()


def test_a_rebuild_never_overwrites_a_file_the_earlier_build_did_not_write(tmp_path):
    out = tmp_path / "site"
    _install(tmp_path, out, {"index.html": "v1"})
    (out / "about.html").write_text("my own about page")
    before = _tree(out)
    with pytest.raises(b.BuildError, match="would overwrite .*about.html.*nothing was changed"):
        _install(tmp_path, out, {"index.html": "v2", "about.html": "the kit's"})
    assert _tree(out) == before
    os.symlink(tmp_path, out / "static")                             # a link would lead the build outside
    with pytest.raises(b.BuildError, match="nothing was changed"):
        _install(tmp_path, out, {"index.html": "v2", "static/app.js": "js"})
    assert _tree(out) == before and not (tmp_path / "app.js").exists()
