"""`make specs` fetches tfjs's tag for the converter and layers specs where GitHub answers
(tests/tfjs_specs/source.py): here from a local repository standing in for GitHub."""
import subprocess

from tests.tfjs_specs import source


def _repo(path, tag):
    path.mkdir()
    (path / "tfjs-layers" / "src").mkdir(parents=True)
    (path / "tfjs-layers" / "src" / "a_test.ts").write_text("describe('a', () => {});\n")
    git = ["git", "-C", str(path), "-c", "user.email=t@example.com", "-c", "user.name=t"]
    for args in (["init", "-q"], ["add", "."], ["commit", "-qm", "specs"], ["tag", tag]):
        subprocess.run(git + args, check=True, capture_output=True)


def test_the_tag_is_fetched_once_and_read_as_a_source(tmp_path, monkeypatch):
    _repo(tmp_path / "tfjs", source.TAG)
    dest = tmp_path / "build" / "tfjs-src.git"
    assert source.fetch(f"file://{tmp_path / 'tfjs'}", dest) is None
    monkeypatch.delenv("TFJS_SRC", raising=False)
    monkeypatch.setattr(source, "FETCHED", dest)
    assert source.source().list("tfjs-layers/src") == ["tfjs-layers/src/a_test.ts"]
    # complete: not fetched again (the URL is not even tried)
    assert source.fetch("file:///nowhere", dest) is None


def test_an_unreachable_or_tagless_remote_leaves_nothing(tmp_path, monkeypatch):
    _repo(tmp_path / "tfjs", "some-other-tag")
    dest = tmp_path / "build" / "tfjs-src.git"
    for url in (f"file://{tmp_path / 'tfjs'}", f"file://{tmp_path / 'missing'}"):
        assert source.fetch(url, dest)   # why, as git said it
        assert not dest.exists() and not dest.with_name(dest.name + ".part").exists()
    monkeypatch.delenv("TFJS_SRC", raising=False)
    monkeypatch.setattr(source, "FETCHED", dest)
    assert source.source() is None
