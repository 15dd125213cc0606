"""Where TF.js's own specs come from for the packages npm ships without them (tfjs-converter,
tfjs-layers: their 4.22.0 tarballs hold no test files).

TFJS_SRC names a tfjs checkout at tag tfjs-v4.22.0 (a work tree) or a git directory holding that
tag (read with `git show tfjs-v4.22.0:<path>`). Nothing of it is copied into the repository: the
specs are read and translated each run. Without TFJS_SRC the converter and layers spec modules
report NOT_RUN instead of running.
"""
import json
import os
import subprocess
from pathlib import Path

TAG = "tfjs-v4.22.0"
NOT_RUN = f"not run: no {TAG} checkout (tfjs-converter/tfjs-layers ship no specs on npm); set TFJS_SRC"
ROOT = Path(__file__).resolve().parents[2]


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
    """The Source named by TFJS_SRC, or None when it is not set."""
    location = os.environ.get("TFJS_SRC")
    return Source(location) if location else None


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
