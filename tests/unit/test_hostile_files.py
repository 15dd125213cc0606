"""The hostile-files corpus (tests/hostile_corpus.py), run by tests/hostile_runner.py in a subprocess
capped at MEMORY_MB of address space and SECONDS a case: each case must end in the clear error it
names, within those bounds, without opening a file outside its folder and without leaking a tensor."""
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests import hostile_corpus

REPO = Path(__file__).resolve().parents[2]
MEMORY_MB = 3072
SECONDS = 20


@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    root = tmp_path_factory.mktemp("hostile")
    cases = hostile_corpus.build(root)
    hostile_corpus.save(root, cases)
    env = {**os.environ, "OPENBLAS_NUM_THREADS": "1", "OMP_NUM_THREADS": "1", "PYTHONPATH": str(REPO)}
    proc = subprocess.run([sys.executable, "-m", "tests.hostile_runner", str(root), str(MEMORY_MB), str(SECONDS)],
                          cwd=REPO, env=env, capture_output=True, text=True, timeout=SECONDS * len(cases) + 120)
    results = {}
    for line in proc.stdout.splitlines():
        if line.startswith("{"):
            r = json.loads(line)
            results[r["name"]] = r
    return {c.name: c for c in cases}, results, proc


def _problems(case, r, proc):
    if r is None:
        return [f"the runner died before this case: {proc.stderr[-3000:]}"]
    out = []
    if r["error"] != case.error or not re.search(case.match, r["message"] or ""):
        out.append(f"expected {case.error} matching {case.match!r}, got {r['error']}: {r['message']}")
    if hostile_corpus.SECRET in (r["message"] or ""):
        out.append("the message shows a secret file's contents")
    if r["opened_outside"]:
        out.append(f"opened files outside its folder: {r['opened_outside']}")
    if r["leaked"]:
        out.append(f"left {r['leaked']} tensors behind")
    if r["seconds"] >= SECONDS:
        out.append(f"took {r['seconds']} s")
    return out


def test_every_hostile_case_gives_a_clear_error_within_bounds(corpus):
    cases, results, proc = corpus
    assert len(cases) >= 40
    failures = {name: p for name, case in cases.items() if (p := _problems(case, results.get(name), proc))}
    assert not failures, "\n".join(f"{name}: {'; '.join(p)}" for name, p in failures.items())


def test_the_runner_sees_what_it_must_catch(tmp_path):
    """The bounds are real: a case that reads outside its folder, leaks, or raises the wrong error is
    reported as such (the runner's audit hook and checks are not blind)."""
    root = tmp_path / "c"
    (root / "outside").mkdir(parents=True)
    (root / "outside" / "secret.txt").write_text(hostile_corpus.SECRET)
    (root / "reads_outside").mkdir()
    (root / "leaks").mkdir()
    code_read = f"open({str(root / 'outside' / 'secret.txt')!r}).read()\nraise ValueError('x')"
    cases = [hostile_corpus.Case("reads_outside", "call", code_read, match="x"),
             hostile_corpus.Case("leaks", "call", "global kept\nkept = tf.ones([2])\nraise ValueError('y')", match="y")]
    hostile_corpus.save(root, cases)
    proc = subprocess.run([sys.executable, "-m", "tests.hostile_runner", str(root), str(MEMORY_MB), "5"], cwd=REPO,
                          capture_output=True, text=True, timeout=120, env={**os.environ, "PYTHONPATH": str(REPO)})
    results = {json.loads(x)["name"]: json.loads(x) for x in proc.stdout.splitlines() if x.startswith("{")}
    assert _problems(cases[0], results["reads_outside"], proc) == [
        f"opened files outside its folder: {[str(root / 'outside' / 'secret.txt')]}"]
    assert _problems(cases[1], results["leaks"], proc) == ["left 1 tensors behind"]


def test_the_corpus_script_writes_every_case(tmp_path):
    out = tmp_path / "corpus"
    proc = subprocess.run([sys.executable, "-m", "tests.hostile_corpus", str(out)], cwd=REPO, capture_output=True,
                          text=True, timeout=120, env={**os.environ, "PYTHONPATH": str(REPO)})
    assert proc.returncode == 0, proc.stderr
    listed = json.loads((out / "cases.json").read_text())
    assert len(listed) >= 40 and all((out / c["name"]).is_dir() for c in listed)
