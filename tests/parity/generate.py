"""TF.js 4.22's answers to every parity case: `python -m tests.parity.generate` (or `make parity-refs`)
runs tests/parity/tfjs_run.js under node on the cases and writes build/parity/references.json. A build
product, not committed: the tests regenerate it when the cases or the runner change."""
import hashlib
import json
import os
import shutil
import subprocess
import sys

from .cases import all_cases

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
OUT = os.path.join(ROOT, "build", "parity", "references.json")
TFJS = os.path.join(ROOT, "node_modules", "@tensorflow", "tfjs")


def _digest(cases):
    h = hashlib.sha256(json.dumps(cases, sort_keys=True).encode())
    with open(os.path.join(HERE, "tfjs_run.js"), "rb") as f:
        h.update(f.read())
    return h.hexdigest()


def references(cases=None):
    """{case id: TF.js's result}, regenerated when stale."""
    cases = all_cases() if cases is None else cases
    digest = _digest(cases)
    if os.path.exists(OUT):
        with open(OUT, encoding="utf-8") as f:
            data = json.load(f)
        if data.get("digest") == digest:
            return data["results"]
    if shutil.which("node") is None or not os.path.isdir(TFJS):
        raise RuntimeError("node and node_modules/@tensorflow/tfjs are needed to make the parity references "
                           "(make setup installs them)")
    try:
        r = subprocess.run(["node", os.path.join(HERE, "tfjs_run.js"), TFJS], input=json.dumps(cases),
                           capture_output=True, text=True, timeout=600)
    except subprocess.TimeoutExpired:   # all cases take seconds: a case sends TF.js into an endless loop
        raise RuntimeError("tfjs_run.js ran for 10 minutes: a case makes TF.js loop forever (seen: frame with a "
                           "step of 0); run the families one at a time to find it") from None
    if r.returncode != 0:
        raise RuntimeError(f"tfjs_run.js failed:\n{r.stderr[-3000:]}")
    results = json.loads(r.stdout)
    os.makedirs(os.path.dirname(OUT), exist_ok=True)
    tmp = f"{OUT}.{os.getpid()}.tmp"   # several test runs may regenerate at once
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump({"digest": digest, "results": results}, f)
    os.replace(tmp, OUT)
    return results


# The namespaces of TF.js 4.22's API the parity suite is meant to cover: the ops, then the layers API
# (initializers, regularizers, constraints, layers, train) and the helpers (io, util, data); and the tf.*
# names that are not ops (engine, backends, models, gradients' own machinery: tested elsewhere)
OP_NAMESPACES = ("tf", "image", "linalg", "signal", "spectral", "losses", "sparse", "string", "fused", "math",
                 "metrics")
NAMESPACES = OP_NAMESPACES + ("initializers", "regularizers", "constraints", "layers", "train", "io", "util", "data")
NOT_OPS = set("""backend copyRegisteredKernels customGrad deprecationWarn deregisterOp disableDeprecationWarnings
dispose disposeVariables enableDebugMode enableProdMode engine env findBackend findBackendFactory forceHalfFloat
getBackend getGradient getKernel getKernelsForBackend grad grads input keep loadGraphModel loadGraphModelSync
loadLayersModel memory model nextFrame op print profile ready registerBackend registerCallbackConstructor
registerGradient registerKernel registerOp removeBackend sequential setBackend setPlatform setWebGLContext tidy time
train unregisterGradient unregisterKernel valueAndGrad valueAndGrads variable variableGrads buffer
enclosingPowerOfTwo""".split())


# The listed functions without a parity case, and where they are tested instead (or why not at all); the
# family docstrings in cases/ (io.py, util.py, data.py) give the reasons at length.
_IO_HANDLERS = "tests/unit/test_io_http.py, tests/browser/test_io_browser.py (servers, files, browser storage)"
_RANDOM = "tests/unit/test_util.py (Math.random / Python's random: no two runs agree)"
ELSEWHERE = {
    **{f"tf.io.{n}": _IO_HANDLERS for n in ("browserFiles", "browserHTTPRequest", "http", "getLoadHandlers",
                                            "getSaveHandlers", "listModels", "copyModel", "moveModel",
                                            "removeModel")},
    **{f"tf.io.{n}": "tests/unit/test_io_weights.py, test_layers_model_files.py"
       for n in ("registerLoadRouter", "registerSaveRouter", "withSaveHandler", "withSaveHandlerSync")},
    "tf.io.decodeWeightsStream": "tests/unit/test_io_weights_loader.py (it takes a ReadableStream)",
    "tf.io.weightsLoaderFactory": "tests/unit/test_io_weights_loader.py (it takes and returns functions)",
    **{f"tf.util.{n}": _RANDOM for n in ("createShuffledIndices", "randUniform", "shuffle", "shuffleCombo")},
    "tf.util.now": "tests/unit/test_util.py (a clock)",
    "tf.util.swap": "tests/unit/test_util.py (it only mutates its argument)",
    "tf.util.isPromise": "tests/unit/test_util.py (TF.js returns undefined, not false: only truthiness compares)",
    **{f"tf.data.{n}": "tests/browser/test_data_devices.py (beside TF.js on Chromium's fake devices)"
       for n in ("microphone", "webcam")},
}


def _listed():
    """{namespace: [TF.js path of each function the suite should cover]}."""
    with open(os.path.join(ROOT, "pytfweb", "data", "tfjs-4.22-api.json"), encoding="utf-8") as f:
        names = json.load(f)["python_names"]
    return {ns: [f"tf.{n}" if ns == "tf" else f"tf.{ns}.{n}" for n in names.get(ns, {})
                 if not (ns == "tf" and n in NOT_OPS)] for ns in NAMESPACES}


def coverage(cases, namespaces=OP_NAMESPACES):
    """(functions with a case, the functions of `namespaces` in the API list without one)."""
    covered = {c["fn"] for c in cases}
    listed = _listed()
    return sorted(covered), [w for ns in namespaces for w in listed[ns] if w not in covered]


def coverage_by_namespace(cases):
    """[(namespace, functions with a case, functions listed, cases, the functions without a case)]."""
    covered = {c["fn"] for c in cases}
    out = []
    for ns, wanted in _listed().items():
        n_cases = sum(c["fn"] in wanted for c in cases)
        missing = [w for w in wanted if w not in covered]
        out.append((ns, len(wanted) - len(missing), len(wanted), n_cases, missing))
    return out


def main():
    cases = all_cases()
    results = references(cases)
    errors = sum("error" in r for r in results.values())
    rows = coverage_by_namespace(cases)
    print(f"{len(cases)} cases, TF.js raises in {errors}: {OUT}")
    print(f"{'namespace':<13} {'covered':>7} / listed  cases")
    for ns, n_cov, n_listed, n_cases, _ in rows:
        print(f"{ns:<13} {n_cov:>7} / {n_listed:<6} {n_cases:>5}")
    print(f"{'total':<13} {sum(r[1] for r in rows):>7} / {sum(r[2] for r in rows):<6} "
          f"{sum(r[3] for r in rows):>5}")
    for ns, _, _, _, missing in rows:
        unexplained = [m for m in missing if m not in ELSEWHERE]
        if unexplained:
            print(f"without a case in {ns} ({len(unexplained)}): {' '.join(unexplained)}")
    elsewhere = [m for r in rows for m in r[4] if m in ELSEWHERE]
    if elsewhere:
        print(f"without a case, tested elsewhere or absent ({len(elsewhere)}):")
        for m in elsewhere:
            print(f"  {m:<34} {ELSEWHERE[m]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
