"""Where TF.js's own specs come from for the packages npm ships without them (tfjs-converter,
tfjs-layers: their 4.22.0 tarballs hold no test files).

TFJS_SRC names a tfjs checkout at tag tfjs-v4.22.0 (a work tree) or a git directory holding that
tag (read with `git show tfjs-v4.22.0:<path>`). Without it, FETCHED: the tag fetched from GitHub by
`make specs` (`python -m tests.tfjs_specs.source --fetch`, a shallow bare clone in build/, never
committed) where GitHub can be reached. Nothing of it is copied into the repository: the specs are
read and translated each run. With neither, the converter and layers spec modules report NOT_RUN
instead of running.
"""
import json
import os
import shutil
import subprocess
from pathlib import Path

TAG = "tfjs-v4.22.0"
NOT_RUN = (f"not run: no {TAG} checkout (tfjs-converter/tfjs-layers ship no specs on npm, and `make specs` "
           f"could not fetch the tag from GitHub); set TFJS_SRC")
ROOT = Path(__file__).resolve().parents[2]
FETCHED = ROOT / "build" / "tfjs-src.git"
URL = os.environ.get("TFJS_GIT_URL", "https://github.com/tensorflow/tfjs.git")


class Source:
    """Reads files of the tfjs tree at TAG from a checkout or a git directory."""

    def __init__(self, location):
        self.location = Path(location)
        self.is_git = not (self.location / "tfjs-converter").is_dir()
        if self.is_git and not self._git("rev-parse", "--verify", "-q", TAG + "^{commit}").strip():
            raise RuntimeError(f"TFJS_SRC={location}: neither a tfjs checkout nor a git directory with tag {TAG}")

    def _git(self, *args):
        return subprocess.run(["git", "--git-dir", str(self.location), *args], check=True, capture_output=True,
                              text=True).stdout

    def read(self, path):
        if self.is_git:
            return self._git("show", f"{TAG}:{path}")
        return (self.location / path).read_text()

    def list(self, folder, recursive=False):
        """Paths of the files under folder (relative to the tree's root), sorted."""
        if self.is_git:
            args = ["ls-tree", "--name-only"] + (["-r"] if recursive else []) + [f"{TAG}", folder.rstrip("/") + "/"]
            return sorted(p for p in self._git(*args).splitlines() if p)
        base = self.location / folder
        files = base.rglob("*") if recursive else base.iterdir()
        return sorted(str(p.relative_to(self.location)) for p in files if p.is_file())


def source():
    """The Source named by TFJS_SRC, else the fetched one, else None."""
    location = os.environ.get("TFJS_SRC")
    if location:
        return Source(location)
    return Source(FETCHED) if (FETCHED / "shallow").is_file() else None


def fetch(url=URL, dest=FETCHED):
    """A shallow bare clone of TAG alone into dest (once; its "shallow" file marks it complete), or why
    it could not be made. The spec tests run without it: this only lets them run where GitHub answers."""
    if (dest / "shallow").is_file():
        return None
    tmp = dest.with_name(dest.name + ".part")
    shutil.rmtree(tmp, ignore_errors=True)
    env = dict(os.environ, GIT_TERMINAL_PROMPT="0")
    try:
        subprocess.run(["git", "init", "-q", "--bare", str(tmp)], check=True, capture_output=True)
        subprocess.run(["git", "--git-dir", str(tmp), "fetch", "-q", "--depth", "1", "--no-tags", url,
                        f"refs/tags/{TAG}:refs/tags/{TAG}"], check=True, capture_output=True, text=True,
                       env=env, timeout=900)
    except subprocess.CalledProcessError as exc:
        shutil.rmtree(tmp, ignore_errors=True)
        return (exc.stderr or str(exc)).strip().splitlines()[-1] if exc.stderr else str(exc)
    except subprocess.TimeoutExpired:
        shutil.rmtree(tmp, ignore_errors=True)
        return "timed out"
    os.replace(tmp, dest)
    return None


if __name__ == "__main__":
    import sys
    if sys.argv[1:] != ["--fetch"]:
        sys.exit("usage: python -m tests.tfjs_specs.source --fetch")
    if os.environ.get("TFJS_SRC"):
        print(f"tfjs specs: TFJS_SRC={os.environ['TFJS_SRC']}")
    else:
        why = fetch()
        print(f"tfjs specs: {TAG} at {FETCHED.relative_to(ROOT)}" if why is None else
              f"tfjs specs: could not fetch {TAG} from {URL} ({why}): the converter and layers specs will not run")


_FRONT_END = ROOT / "tests" / "tfjs_specs" / "extract.mjs"


def estree(ts_text, name="spec.ts"):
    """A spec's whole ESTree (types stripped, parsed by acorn: the shared front end, extract.mjs
    --program) as JSON data."""
    import tempfile
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / Path(name).name
        path.write_text(ts_text)
        out = subprocess.run(["node", str(_FRONT_END), "--program", str(path)], capture_output=True, text=True,
                             cwd=ROOT)
    if out.returncode:
        raise RuntimeError(f"the spec front end failed on {name}: {out.stderr.strip()[-2000:]}")
    return json.loads(out.stdout)
