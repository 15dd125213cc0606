"""The `pytfweb` command.

    pytfweb run [--backend webgl|webgpu|auto|cpu] [--files DIR] SCRIPT.py [ARGS...]
                                                             run a script (in headless Chromium but on cpu)
    pytfweb serve [--port N]                                 serve the web pages, Pyodide and the bundle
    pytfweb build-web OUTDIR [--app SCRIPT.py] [--worker]    a static site (any static server can host it)
    pytfweb repl [--memory]                                  a Python REPL on webgl in headless Chromium
    pytfweb startup [--backend B] [--repeat N]               time a first and a second visit: each phase to the first result
    pytfweb soak [--backend webgl|cpu] [--iterations N]      training steps in a row, memory watched
    pytfweb convert SRC DST [--quantize uint8|float16]       Keras .keras/.h5 <-> TF.js layers model
"""
import argparse
import sys

from .host import bench, coverage, repl, runner, site, soak
from .host.server import Server
from .keras_files import convert as keras_convert


def _int(text, what):
    try:
        return int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected {what}, got {text!r}") from None


def _port(text):
    value = _int(text, "a port number from 0 to 65535 (0: any free port)")
    if not 0 <= value <= 65535:
        raise argparse.ArgumentTypeError(f"expected a port number from 0 to 65535 (0: any free port), got {text!r}")
    return value


def _positive(text):
    """An int >= 1: for counts of runs, steps and repeats, where 0 would leave nothing to report."""
    value = _int(text, "a positive integer")
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a positive integer, got {text!r}")
    return value


def _parser():
    p = argparse.ArgumentParser(prog="pytfweb", description="pytfweb: TensorFlow.js for Python.")
    sub = p.add_subparsers(dest="command", required=True)

    r = sub.add_parser("run", help="run a script on webgl or webgpu in headless Chromium (Pyodide) or on cpu here")
    r.add_argument("--backend", choices=["webgl", "webgpu", "auto", "cpu"], default="webgl",
                   help="auto: the engine's choice in the page (webgpu on a hardware adapter, else webgl)")
    r.add_argument("--verbose", action="store_true", help="show the page's console and the server's log")
    r.add_argument("--files", metavar="DIR", help="webgl: serve DIR at /files/ (e.g. model files the script loads)")
    r.add_argument("script")
    r.add_argument("args", nargs=argparse.REMAINDER)

    s = sub.add_parser("serve", help="serve web/, Pyodide (/pyodide/) and the bundle (/pytfweb.zip.gz)")
    s.add_argument("--port", type=_port, default=8000, help="0 takes any free port")
    s.add_argument("--quiet", action="store_true", help="do not log requests")

    w = sub.add_parser("build-web", help="write a static site: pages, loader, bundle and Pyodide's files")
    w.add_argument("outdir")
    w.add_argument("--app", metavar="SCRIPT", help="the index page runs this script (a text/python block)")
    w.add_argument("--worker", action="store_true", help="run the app in a Web Worker (the page stays responsive)")

    q = sub.add_parser("repl", help="a Python REPL with tf imported, on webgl in headless Chromium (Pyodide)")
    q.add_argument("--memory", action="store_true", help="print tf.memory() after each entry")
    q.add_argument("--verbose", action="store_true", help="show the page's console and the server's log")

    b = sub.add_parser("bench", help="pytfweb vs TensorFlow.js in one headless Chromium, both on webgl or both on "
                                     "webgpu (or --backend cpu: vs numpy)")
    b.add_argument("--backend", choices=["webgl", "webgpu", "cpu"], default="webgl")
    b.add_argument("--runs", type=_positive, default=5, help="timed runs per case after one warm-up (median)")
    b.add_argument("--only", action="append",
                   help="run only the cases whose name contains this text (any case); repeat it for several")
    b.add_argument("--breakdown", action="store_true",
                   help="instead of timing against TF.js: where each steady case's time goes in the page "
                        "(JS calls + GL, kernels, engine, plan replay, ops, Python runtime, outside Python)")
    b.add_argument("--verbose", action="store_true")

    k = sub.add_parser("soak", help="many training steps in a row; fails if memory (tensors, bytes, textures, JS heap) "
                                    "grows after a warm-up")
    k.add_argument("--backend", choices=["webgl", "cpu"], default="webgl")
    k.add_argument("--iterations", type=_positive, default=1000)
    k.add_argument("--every", type=_positive, help="report every N iterations (default: a tenth of them); the "
                                                   "first report is the warm-up baseline")
    k.add_argument("--verbose", action="store_true")

    o = sub.add_parser("ops", help="every TF.js 4.22 kernel and function, with its status here per backend")
    o.add_argument("--missing", action="store_true", help="list only what is missing")
    o.add_argument("--json", action="store_true", help="print the totals as JSON")
    o.add_argument("--specs", action="store_true", help="instead: how much of TF.js's own test suite is translated "
                                                         "and passes here, per package and backend (from build/specs)")
    o.add_argument("--specs-dir", default=None, help="with --specs: the generated specs (default build/specs)")

    c = sub.add_parser("convert", help="convert a model between Keras files (.keras, .h5) and TF.js's layers format "
                                       "(a directory)")
    c.add_argument("src", help="a .keras or .h5 file, or a TF.js layers model (directory or model.json)")
    c.add_argument("dst", help="a .keras or .h5 file, or a directory for a TF.js layers model")
    c.add_argument("--quantize", choices=["uint8", "float16"], help="store float32 weights of a layers model so")

    t = sub.add_parser("startup", help="time each phase of a page's start (fetch, Pyodide, bundle, "
                                        "import, backend, first result) on a first and a second visit, beside "
                                        "Pyodide alone")
    t.add_argument("--backend", default="webgl", help="backend to set; 'none' to only import pytfweb")
    t.add_argument("--repeat", type=_positive, default=3)
    t.add_argument("--verbose", action="store_true")
    return p


def main(argv=None):
    args = _parser().parse_args(argv)
    if args.command == "run":
        return runner.run(args.script, args.args, backend=args.backend, verbose=args.verbose, files=args.files)
    if args.command == "serve":
        try:
            server = Server(port=args.port, verbose=not args.quiet)
        except (FileNotFoundError, OSError) as exc:
            print(f"pytfweb serve: {exc}", file=sys.stderr)
            return 1
        print(f"Serving pytfweb at {server.url} (demo: {server.url}index.html, REPL: {server.url}repl.html, "
              f"training in a worker: {server.url}examples/train.html); Ctrl-C stops.", flush=True)
        try:
            server.serve_forever()
        except KeyboardInterrupt:
            pass
        return 0
    if args.command == "build-web":
        return site.main(args.outdir, args.app, args.worker)
    if args.command == "repl":
        return repl.repl(show_memory=args.memory, verbose=args.verbose)
    if args.command == "bench":
        if args.breakdown and args.backend != "webgl":
            print("pytfweb bench: --breakdown profiles the webgl page only", file=sys.stderr)
            return 2
        if args.backend == "cpu":
            return bench.run_cpu(args.runs)
        if args.breakdown:
            return bench.run_breakdown(args.runs, args.only, args.verbose)
        return bench.run_webgl(args.runs, args.only, args.verbose, backend=args.backend)
    if args.command == "soak":
        if args.backend == "cpu":
            return soak.run_cpu(args.iterations, args.every)
        return soak.run_webgl(args.iterations, args.every, args.verbose)
    if args.command == "ops" and args.specs:
        from .host import spec_coverage
        return spec_coverage.main((["--json"] if args.json else []) +
                                  (["--specs-dir", args.specs_dir] if args.specs_dir else []))
    if args.command == "ops":
        return coverage.main((["--missing"] if args.missing else []) + (["--json"] if args.json else []))
    if args.command == "convert":
        try:
            return keras_convert.main(args.src, args.dst, args.quantize)
        except RecursionError:
            # a file nested past the interpreter's stack (JSON, a Keras config) is the file's fault: report, not crash
            print(f"pytfweb convert: {args.src}: nested too deeply to read", file=sys.stderr)
            return 1
    if args.command == "startup":
        return runner.startup(backend=None if args.backend == "none" else args.backend, repeat=args.repeat,
                       verbose=args.verbose)
    return 2


if __name__ == "__main__":
    sys.exit(main())
