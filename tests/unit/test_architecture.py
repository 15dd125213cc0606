"""The import contracts of .importlinter (the core below ops and autodiff; backends and kernels
below ops, the backends independent of each other, the GPU core below webgl and webgpu, each GPU
backend's own layers; layers, train, io, the Keras files, converter, vis and tf.data through
api.py and ops; the floors above ops, util and the Keras files on top; the router below its
handlers; the library below the tooling: host, the pytest plugin, the command), checked by import-linter on this
checkout's pytfweb, so that `make test` fails on a new upward import."""
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# lint-imports, run by this interpreter (the venv's), without its cache folder in the checkout.
_LINT = ("import sys; from importlinter.cli import lint_imports_command; "
         "sys.argv = ['lint-imports', '--no-cache', *sys.argv[1:]]; sys.exit(lint_imports_command())")


def _lint(*args):
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    return subprocess.run([sys.executable, "-c", _LINT, *args], cwd=ROOT, env=env, capture_output=True,
                          text=True, timeout=300)


def test_import_contracts_are_kept():
    r = _lint()
    assert r.returncode == 0, f"lint-imports: a contract of .importlinter is broken\n{r.stdout}\n{r.stderr}"
    assert "BROKEN" not in r.stdout and "0 broken" in r.stdout


def test_a_broken_contract_fails(tmp_path):
    """The check is not vacuous: a contract the code breaks (ops import the engine) fails it."""
    config = tmp_path / "broken.ini"
    config.write_text("[importlinter]\nroot_package = pytfweb\n\n"
                      "[importlinter:contract:broken]\nname = ops never import the engine\ntype = forbidden\n"
                      "source_modules =\n    pytfweb.ops\nforbidden_modules =\n    pytfweb.core.engine\n")
    r = _lint("--config", str(config))
    assert r.returncode == 1 and "BROKEN" in r.stdout, r.stdout + r.stderr
