"""`pytfweb convert SRC DST [--quantize uint8|float16]`: model files from one format to another.

SRC and DST are each a Keras file (`.keras`, Keras 3's archive; `.h5`/`.hdf5`, the legacy layout)
or a TF.js layers model (a directory holding model.json and its weight shards, or a model.json
path). Converting Keras files here, in CPython, is how a browser gets them: Pyodide has no h5py,
and tf.load_layers_model reads the layers format anywhere. --quantize stores float32 weights of a
layers model as uint8 (affine) or float16, as TF.js's converter does.
"""
import os
import sys

from ..layers.saving import load_layers_model_sync, save_model_sync
from ..core.limits import load_json
from . import model_files as _keras

_QUANTIZE = {None: None, "uint8": 1, "float16": 2}


def _is_keras(path):
    return path.lower().endswith(_keras.KERAS_SUFFIXES + _keras.H5_SUFFIXES)


def _describe(path):
    lower = path.lower()
    if lower.endswith(_keras.KERAS_SUFFIXES):
        return "Keras 3 .keras"
    if lower.endswith(_keras.H5_SUFFIXES):
        return "legacy Keras .h5"
    return "TF.js layers model"


def _size(n):
    for unit in ("B", "kB", "MB", "GB"):
        if n < 1000 or unit == "GB":
            return f"{n:.0f} {unit}" if unit == "B" else f"{n:.1f} {unit}"
        n /= 1000


def _layers_dir(path):
    return path[:-len("model.json")] or "." if path.endswith("model.json") else path


def load_model(src):
    """The pytfweb model in src (a Keras file, or a TF.js layers model directory / model.json)."""
    if _is_keras(src):
        return _keras.load_keras_model(src, compile=False)
    return load_layers_model_sync(src)


def convert(src, dst, quantize=None, print_fn=print):
    """Convert the model in src to dst (formats by name, see the module doc); print a summary
    (layers, parameters, the files written with their sizes) and return it as a dict."""
    if isinstance(src, os.PathLike):
        src = os.fspath(src)
    if isinstance(dst, os.PathLike):
        dst = os.fspath(dst)
    if quantize not in _QUANTIZE:
        raise ValueError(f"convert: --quantize must be uint8 or float16, got {quantize!r}")
    if quantize is not None and _is_keras(dst):
        raise ValueError(f"convert: --quantize applies to TF.js layers models; {dst} is a Keras file, whose weights "
                         f"stay float32")
    if not os.path.exists(src):
        raise ValueError(f"convert: {src}: no such file or directory")
    model = load_model(src)
    try:
        if _is_keras(dst):
            _keras.save_keras(model, dst)
            files = [dst]
        else:
            directory = _layers_dir(dst)
            save_model_sync(model, directory, quantization_bytes=_QUANTIZE[quantize])
            files = [os.path.join(directory, "model.json")] + _shards(directory)
        summary = {"src": src, "dst": dst, "layers": len(model.layers), "parameters": model.count_params(),
                   "files": [(f, os.path.getsize(f)) for f in files], "quantize": quantize}
    finally:
        model.dispose()
    if print_fn is not None:
        weights = f", weights as {quantize}" if quantize else ""
        print_fn(f"{src} ({_describe(src)}) -> {dst} ({_describe(dst)}{weights})")
        print_fn(f"  layers: {summary['layers']}   parameters: {summary['parameters']:,}")
        width = max(len(f) for f, _ in summary["files"])
        for f, n in summary["files"]:
            print_fn(f"  {f:<{width}}  {_size(n):>9}")
    return summary


def _shards(directory):
    path = os.path.join(directory, "model.json")
    with open(path, "rb") as f:
        manifest = load_json(f.read(), f"convert: {path}").get("weightsManifest") or []
    return [os.path.join(directory, p) for group in manifest for p in group.get("paths", [])]


def main(src, dst, quantize=None):
    """The `pytfweb convert` command: 0 on success, 1 with the reason on stderr."""
    try:
        convert(src, dst, quantize)
    except (ValueError, TypeError, ImportError, OSError, NotImplementedError) as e:
        print(f"pytfweb convert: {e}", file=sys.stderr)
        return 1
    return 0
