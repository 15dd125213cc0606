"""Runs the hostile-files corpus (tests/hostile_corpus.py) in this process, under the bounds a test sets:

    python -m tests.hostile_runner CORPUS_DIR MEMORY_MB SECONDS_PER_CASE

The address space is capped at MEMORY_MB before pytfweb is imported, each case gets SECONDS_PER_CASE
(SIGALRM: a hang becomes an exception), and an audit hook records every file the case opens. One JSON
line per case on stdout: its name, the exception type and message it raised (or none), the seconds it
took, the files it opened outside its own folder, and the tensors it left behind.
"""
import json
import os
import resource
import signal
import sys
import time
from pathlib import Path


class CaseTimeout(Exception):
    pass


def _on_alarm(signum, frame):
    raise CaseTimeout("the case ran past its time limit")


LOADERS = {
    "layers": lambda tf, path: tf.load_layers_model_sync(f"file://{path}"),
    "graph": lambda tf, path: tf.load_graph_model_sync(f"file://{path}"),
    "keras": lambda tf, path: tf.load_keras_model(str(path)),
}


def main(argv):
    root, memory_mb, seconds = Path(argv[0]).resolve(), int(argv[1]), float(argv[2])
    limit = memory_mb << 20
    resource.setrlimit(resource.RLIMIT_AS, (limit, limit))
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

    # Files Python itself may open while a case runs (lazy imports of modules, h5py's, numpy's).
    allowed = tuple({str(Path(p).resolve()) for p in (sys.prefix, sys.base_prefix, sys.exec_prefix)}
                    | {str(Path(p).resolve()) for p in sys.path if p and Path(p).is_dir()}
                    | {"/proc/", "/sys/", "/dev/null", "/dev/urandom", "/usr/lib", "/usr/share", "/etc/localtime"})
    opened = []
    recording = [False]

    def hook(event, args):
        if recording[0] and event == "open" and args and isinstance(args[0], (str, bytes, os.PathLike)):
            opened.append(os.fsdecode(args[0]))
    sys.addaudithook(hook)

    import pytfweb as tf
    tf.set_backend("cpu")
    signal.signal(signal.SIGALRM, _on_alarm)
    cases = json.loads((root / "cases.json").read_text())
    for case in cases:
        folder = root / case["name"]
        before = tf.memory()["num_tensors"]
        saved = {k: tf.env().get(k) for k in case["flags"]}
        for k, v in case["flags"].items():
            tf.env().set(k, v)
        error = message = None
        opened.clear()
        start = time.perf_counter()
        signal.setitimer(signal.ITIMER_REAL, seconds)
        recording[0] = True
        try:
            if case["load"] == "call":
                exec(case["target"], {"tf": tf})
            else:
                LOADERS[case["load"]](tf, folder / case["target"] if case["load"] == "keras" else folder)
        except BaseException as e:  # noqa: BLE001 - every outcome is reported, the test judges it
            error, message = type(e).__name__, str(e)[:2000]
        finally:
            recording[0] = False
            signal.setitimer(signal.ITIMER_REAL, 0)
            for k, v in saved.items():
                tf.env().set(k, v)
        elapsed = time.perf_counter() - start
        outside = sorted({p for p in opened
                          if not os.path.realpath(p).startswith(str(folder) + os.sep)
                          and not os.path.realpath(p).startswith(allowed)})
        print(json.dumps({"name": case["name"], "error": error, "message": message, "seconds": round(elapsed, 3),
                          "opened_outside": outside, "leaked": tf.memory()["num_tensors"] - before}), flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
