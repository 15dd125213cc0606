"""How much of TensorFlow.js 4.22 exists here: every TF.js kernel with its status on each
backend, and every TF.js function (by namespace) with whether pytfweb has it.

    pytfweb ops [--missing] [--json]      (or: python -m pytfweb.host.coverage)
"""
import argparse
import functools
import json
import os
import sys
import types

import pytfweb as tf


@functools.lru_cache(maxsize=None)
def tfjs_api():
    """The TF.js 4.22 names, read from the npm package: python_names, kernels_cpu, kernels_webgl."""
    path = os.path.join(os.path.dirname(os.path.dirname(__file__)), "data", "tfjs-4.22-api.json")
    with open(path, encoding="utf-8") as f:
        return json.load(f)


def kernel_table():
    """[(kernel, on TF.js cpu, on TF.js webgl, here on cpu, here on webgl)] for every TF.js kernel."""
    # The backends' kernel modules load here, not at the top: registering the webgl and webgpu
    # programs in CPython costs ~90 ms that the other `pytfweb` commands (cli imports this module)
    # should not pay.
    from ..backends.cpu import kernels as _cpu  # noqa: F401  (registered at import where numpy exists)
    from ..backends.webgl import programs as _webgl  # noqa: F401  (importable without a browser)
    api = tfjs_api()
    tfjs_cpu, tfjs_webgl = set(api["kernels_cpu"]), set(api["kernels_webgl"])
    ours_cpu, ours_webgl = set(tf.get_kernels_for_backend("cpu")), set(tf.get_kernels_for_backend("webgl"))
    return [(k, k in tfjs_cpu, k in tfjs_webgl, k in ours_cpu, k in ours_webgl)
            for k in sorted(tfjs_cpu | tfjs_webgl)]


def webgpu_kernels():
    """The kernels of pytfweb's webgpu backend (WGSL programs, and the host kernels of
    webgpu_host_kernels; registered in CPython too, for this table). Anything else raises
    NotImplementedError on webgpu: there is no fallback."""
    from ..backends.webgpu import programs as _webgpu  # noqa: F401  (importable without a browser)
    return set(tf.get_kernels_for_backend("webgpu"))


def webgpu_host_kernels():
    """The webgpu kernels that need input values CPU-side: the host kernels (value-dependent sizes)
    and those computing positions host-side (CropAndResize, Transform)."""
    from ..backends.webgpu.programs.host import NEEDS_CPU_VALUES  # (importable without a browser; loads the webgpu programs)
    return set(NEEDS_CPU_VALUES)


def op_table():
    """[(namespace, TF.js name, python name, exists here)] for every TF.js function."""
    rows = []
    for ns, names in tfjs_api()["python_names"].items():
        target = tf if ns == "tf" else getattr(tf, ns, None)
        for js_name, py_name in sorted(names.items()):
            found = getattr(target, py_name, None)  # a function, or a namespace such as tf.train
            here = target is not None and (callable(found) or isinstance(found, types.ModuleType))
            rows.append((ns, js_name, py_name, here))
    return rows


def summary():
    kernels = kernel_table()
    ops = op_table()
    per_ns = {}
    for ns, _, _, here in ops:
        done, total = per_ns.get(ns, (0, 0))
        per_ns[ns] = (done + here, total + 1)
    return {
        "kernels_cpu": (sum(1 for k in kernels if k[1] and k[3]), sum(1 for k in kernels if k[1])),
        "kernels_webgl": (sum(1 for k in kernels if k[2] and k[4]), sum(1 for k in kernels if k[2])),
        # TF.js's webgpu kernel list is not in the API file: counted against its webgl list
        "kernels_webgpu": (sum(1 for k in kernels if k[2] and k[0] in webgpu_kernels()), sum(1 for k in kernels if k[2])),
        "kernels_webgpu_host": len(webgpu_host_kernels()),
        "ops": (sum(1 for o in ops if o[3]), len(ops)),
        "ops_by_namespace": per_ns,
    }


def _mark(in_tfjs, here):
    if not in_tfjs:
        return "-" if not here else "extra"
    return "yes" if here else "MISSING"


def main(argv=None):
    p = argparse.ArgumentParser(prog="pytfweb ops", description=__doc__.splitlines()[0])
    p.add_argument("--missing", action="store_true", help="list only what is missing")
    p.add_argument("--json", action="store_true", help="print the summary as JSON")
    args = p.parse_args(argv)
    s = summary()
    if args.json:
        print(json.dumps(s, indent=2))
        return 0
    out = sys.stdout
    gpu, host = webgpu_kernels(), webgpu_host_kernels()
    out.write(f"{'kernel':34} {'cpu':8} {'webgl':8} {'webgpu':8}\n")
    for k, tc, tw, oc, ow in kernel_table():
        if args.missing and not ((tc and not oc) or (tw and not ow)):
            continue
        mark = "-" if k not in gpu else "host" if k in host else "native"
        out.write(f"{k:34} {_mark(tc, oc):8} {_mark(tw, ow):8} {mark:8}\n")
    out.write(f"\n{'function':44} here\n")
    for ns, js_name, py_name, here in op_table():
        if args.missing and here:
            continue
        name = py_name if ns == "tf" else f"{ns}.{py_name}"
        out.write(f"{'tf.' + name:44} {'yes' if here else 'MISSING'}\n")
    out.write("\nTotals (here / in TF.js 4.22):\n")
    out.write(f"  kernels on cpu:   {s['kernels_cpu'][0]} / {s['kernels_cpu'][1]}\n")
    out.write(f"  kernels on webgl: {s['kernels_webgl'][0]} / {s['kernels_webgl'][1]}\n")
    out.write(f"  kernels on webgpu: {s['kernels_webgpu'][0]} / {s['kernels_webgpu'][1]} (of TF.js's webgl kernels; "
              f"{s['kernels_webgpu_host']} of them (host) need inputs' values CPU-side, the others WGSL; the rest raise "
              "NotImplementedError on webgpu)\n")
    out.write(f"  functions:        {s['ops'][0]} / {s['ops'][1]}\n")
    for ns, (done, total) in s["ops_by_namespace"].items():
        label = "tf" if ns == "tf" else f"tf.{ns}"
        out.write(f"    {label + ':':17} {done} / {total}\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
