"""The hostile-files corpus: model files and arguments an attacker would hand a loader, made afresh in a
folder (nothing binary is committed). Each case is a folder holding what a stranger sent, and a Case
saying how a user would load it and which clear error must come out.

    python -m tests.hostile_corpus OUTDIR      writes every case into OUTDIR/<case name>/

tests/hostile_runner.py runs the cases in a subprocess with a memory cap, a time limit per case and an
audit hook that records every file opened; tests/unit/test_hostile_files.py checks what it reports.
Beside each case's folder lies `outside/secret.txt`, a file the case must never open.
"""
import copy
import dataclasses
import json
import os
import shutil
import struct
import sys
import zipfile
from pathlib import Path

SECRET = "the contents of a file outside the model's folder"


@dataclasses.dataclass
class Case:
    name: str
    load: str                      # how it is loaded: layers | graph | keras | call (see hostile_runner.LOADERS)
    target: str = "model.json"     # the file (relative to the case's folder) handed to the loader, or code for call
    match: str = ""                # a regex the error message must match
    error: str = "ValueError"      # the exception type expected (ValueError, TypeError)
    flags: dict = dataclasses.field(default_factory=dict)   # tf.env() flags set for this case only


# --- a valid model to start from -------------------------------------------------------------------------
def layers_model_files(folder):
    """A small Dense model saved in TF.js's layers format into folder; its model.json as a dict."""
    import pytfweb as tf
    model = tf.sequential()
    model.add(tf.layers.dense(units=3, input_shape=[4], name="d1"))
    model.add(tf.layers.dense(units=2, name="d2"))
    model.save_sync(f"file://{folder}")
    model.dispose() if hasattr(model, "dispose") else None
    return json.loads((Path(folder) / "model.json").read_text())


def _write_json(folder, model_json, name="model.json"):
    (Path(folder) / name).write_text(json.dumps(model_json))


def _mutated_case(kind, make, root, name, mutate, match, **kw):
    """A case whose folder holds the model make(folder) saves, its model.json edited by mutate(folder, j)
    (in place, or returning a replacement)."""
    folder = Path(root) / name
    folder.mkdir(parents=True)
    j = make(folder)
    result = mutate(folder, j)
    _write_json(folder, j if result is None else result)
    return Case(name, kind, match=match, **kw)


def _layers_case(root, name, mutate, match, **kw):
    return _mutated_case("layers", layers_model_files, root, name, mutate, match, **kw)


def _deep(depth, leaf=0):
    """A JSON text nested depth levels deep, built without recursion."""
    return "[" * depth + json.dumps(leaf) + "]" * depth


# --- weights manifests -----------------------------------------------------------------------------------
def _set_path(path):
    def mutate(folder, j):
        j["weightsManifest"][0]["paths"] = [path]
    return mutate


def _symlink_out(folder, j):
    os.symlink(Path(folder).parent.parent / "outside" / "secret.txt", Path(folder) / "link.bin")
    j["weightsManifest"][0]["paths"] = ["link.bin"]


def _symlink_dev_zero(folder, j):
    os.symlink("/dev/zero", Path(folder) / "zero.bin")
    j["weightsManifest"][0]["paths"] = ["zero.bin"]


def _fifo_shard(folder, j):
    os.mkfifo(Path(folder) / "fifo.bin")
    j["weightsManifest"][0]["paths"] = ["fifo.bin"]


def _directory_shard(folder, j):
    (Path(folder) / "adir.bin").mkdir()
    j["weightsManifest"][0]["paths"] = ["adir.bin"]


def _duplicate_names(folder, j):
    w = j["weightsManifest"][0]["weights"]
    w[1]["name"] = w[0]["name"]


def _duplicate_paths(folder, j):
    p = j["weightsManifest"][0]["paths"]
    p.append(p[0])


def _more_shards_than_files(folder, j):
    j["weightsManifest"][0]["paths"].append("group1-shard2of2.bin")


def _longer_shard(folder, j):
    shard = Path(folder) / j["weightsManifest"][0]["paths"][0]
    shard.write_bytes(shard.read_bytes() + b"\0" * 4096)


def _shorter_shard(folder, j):
    shard = Path(folder) / j["weightsManifest"][0]["paths"][0]
    shard.write_bytes(shard.read_bytes()[:-8])


def _nan_scale(folder, j):
    w = j["weightsManifest"][0]["weights"][0]
    n = 1
    for d in w["shape"]:
        n *= d
    w["quantization"] = {"dtype": "uint8", "scale": float("nan"), "min": 0.0}


def _huge_weight_shape(folder, j):
    j["weightsManifest"][0]["weights"][0]["shape"] = [10 ** 12]


def _many_parameters(folder, j):
    w = j["weightsManifest"][0]["weights"]
    w[0]["shape"] = [1 << 20, 600]   # each under MAX_TENSOR_ELEMENTS, together over MAX_MODEL_PARAMETERS
    w[1]["shape"] = [1 << 20, 600]


def _shape_not_ints(folder, j):
    j["weightsManifest"][0]["weights"][0]["shape"] = ["4", None]


def _manifest_not_list(folder, j):
    j["weightsManifest"] = {"paths": ["x"]}


# --- topologies ------------------------------------------------------------------------------------------
def _layer_config(j, index):
    return j["modelTopology"]["config"]["layers"][index]["config"]


def _huge_units(folder, j):
    _layer_config(j, 0)["units"] = 1000000000
    _layer_config(j, 1)["units"] = 2
    j.pop("weightsManifest")


def _huge_input(folder, j):
    _layer_config(j, 0)["batch_input_shape"] = [None, 10 ** 12]
    j.pop("weightsManifest")


def _deep_topology(folder, j):
    return None   # replaced by the text written below


def _deep_model_json(root, name, depth):
    folder = Path(root) / name
    folder.mkdir(parents=True)
    (folder / "model.json").write_text('{"modelTopology": ' + _deep(depth) + ', "weightsManifest": []}')
    return folder


def _deep_layers_config(root, name, depth):
    """A Sequential whose layer list holds a model nested `depth` times (a config that is valid JSON and
    of the right shape at every level)."""
    folder = Path(root) / name
    folder.mkdir(parents=True)
    inner = '{"class_name": "Dense", "config": {"units": 1, "name": "d"}}'
    text = inner
    for i in range(depth):
        text = '{"class_name": "Sequential", "config": {"name": "s%d", "layers": [%s]}}' % (i, text)
    (folder / "model.json").write_text('{"modelTopology": ' + text + ', "format": "layers-model"}')
    return folder


# --- graph models ----------------------------------------------------------------------------------------
def graph_model_files(folder):
    """A one-MatMul graph model saved in TF.js's graph format into folder; its model.json as a dict."""
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
    import numpy as np

    from tests.graph_builder import GraphBuilder, dt, flag
    b = GraphBuilder()
    x = b.placeholder("x", [-1, 4])
    w = b.const("w", np.ones((4, 2), np.float32))
    b.op("MatMul", "y", [x, w], T=dt("float32"), transpose_a=flag(False), transpose_b=flag(False))
    b.save(folder)
    return json.loads((Path(folder) / "model.json").read_text())


def _graph_case(root, name, mutate, match, **kw):
    return _mutated_case("graph", graph_model_files, root, name, mutate, match, **kw)


def _deep_graph_attr(folder, j):
    node = j["modelTopology"]["node"][-1]
    node["attr"]["deep"] = json.loads(_deep(900))


# --- Keras files -----------------------------------------------------------------------------------------
def _keras_bytes(folder):
    """A tiny .keras archive written by pytfweb: (config.json text, metadata.json text, weights bytes)."""
    import pytfweb as tf
    model = tf.sequential()
    model.add(tf.layers.dense(units=2, input_shape=[3], name="d"))
    path = Path(folder) / "base.keras"
    tf.io.save_keras(model, str(path)) if hasattr(tf.io, "save_keras") else _save_keras(model, path)
    with zipfile.ZipFile(path) as zf:
        parts = {n: zf.read(n) for n in zf.namelist()}
    path.unlink()
    return parts


def _save_keras(model, path):
    from pytfweb.keras_files.model_files import save_keras
    save_keras(model, str(path))


def _write_zip(path, parts, compress=zipfile.ZIP_DEFLATED):
    with zipfile.ZipFile(path, "w", compression=compress) as zf:
        for name, data in parts.items():
            zf.writestr(name, data)


def _keras_bomb(root, name, ratio_member_bytes):
    folder = Path(root) / name
    folder.mkdir(parents=True)
    parts = _keras_bytes(folder)
    # The weights member: a real HDF5 file's bytes followed by zeros that inflate ~1000:1, under the
    # old ratio check; a loader that trusts it holds ratio_member_bytes in memory.
    parts["model.weights.h5"] = parts["model.weights.h5"] + b"\0" * ratio_member_bytes
    _write_zip(folder / "model.keras", parts)
    return Case(name, "keras", target="model.keras", match="model.weights.h5.*(bytes|limit)")


def _keras_lying_header(root, name, real_bytes):
    """A member whose central directory and local header claim a few bytes while it inflates to
    real_bytes: a check of the header's sizes passes it."""
    folder = Path(root) / name
    folder.mkdir(parents=True)
    parts = _keras_bytes(folder)
    parts["model.weights.h5"] = parts["model.weights.h5"] + b"\0" * real_bytes
    path = folder / "model.keras"
    _write_zip(path, parts)
    data = bytearray(path.read_bytes())
    # The uncompressed size: at offset 22 of a local file header (PK\3\4, name length at 26, name at
    # 30), at offset 24 of a central directory header (PK\1\2, name length at 28, name at 46).
    _claim_size(data, b"PK\x03\x04", 26, 30, 22, b"model.weights.h5", 1000)
    _claim_size(data, b"PK\x01\x02", 28, 46, 24, b"model.weights.h5", 1000)
    path.write_bytes(bytes(data))
    return Case(name, "keras", target="model.keras", match="model.weights.h5")


def _claim_size(data, signature, name_len_at, name_at, size_at, member, size):
    """Write `size` as the uncompressed size of `member` in every zip header of the given signature."""
    pos = data.find(signature)
    while pos >= 0:
        n = struct.unpack_from("<H", data, pos + name_len_at)[0]
        if data[pos + name_at:pos + name_at + n] == member:
            struct.pack_into("<I", data, pos + size_at, size)
        pos = data.find(signature, pos + 4)


def _keras_deep_config(root, name):
    folder = Path(root) / name
    folder.mkdir(parents=True)
    parts = _keras_bytes(folder)
    parts["config.json"] = _deep(100000).encode()
    _write_zip(folder / "model.keras", parts)
    return Case(name, "keras", target="model.keras", match="config.json.*(nested|deep)")


def _h5_external_link(root, name):
    import h5py
    folder = Path(root) / name
    folder.mkdir(parents=True)
    outside = Path(root) / "outside" / "target.h5"
    if not outside.exists():
        with h5py.File(outside, "w") as f:
            f["secret"] = [1.0, 2.0]
    parts = _keras_bytes(folder)
    h5 = folder / "model.h5"
    with h5py.File(h5, "w") as f:
        f.attrs["model_config"] = parts["config.json"].decode()
        f.attrs["keras_version"] = "2.15.0"
        f.attrs["backend"] = "tensorflow"
        g = f.create_group("model_weights")
        g.attrs["layer_names"] = [b"d"]
        g["d"] = h5py.ExternalLink(str(outside), "/secret")
    return Case(name, "keras", target="model.h5", match="(external|link)")


def _h5_deep_config(root, name):
    import h5py
    folder = Path(root) / name
    folder.mkdir(parents=True)
    with h5py.File(folder / "model.h5", "w") as f:
        f.attrs["model_config"] = _deep(100000)
        f.attrs["keras_version"] = "2.15.0"
        f.create_group("model_weights")
    return Case(name, "keras", target="model.h5", match="(nested|deep)")


# --- arguments -------------------------------------------------------------------------------------------
CALLS = [
    Case("random_normal_2_40", "call", "tf.random_normal([2 ** 40])", match="MAX_TENSOR_ELEMENTS"),
    Case("zeros_10_12", "call", "tf.zeros([10 ** 6, 10 ** 6])", match="MAX_TENSOR_ELEMENTS"),
    Case("tensor_1000_deep", "call", "v = [1.0]\nfor _ in range(1000):\n    v = [v]\ntf.tensor(v)",
         match="(nest|deep)"),
    Case("dense_units_1e9_in_code", "call",
         "m = tf.sequential()\nm.add(tf.layers.dense(units=1000000000, input_shape=[1000]))", match="(dense|Dense)"),
]


def build(root):
    """Write every case into root (a new folder); the list of Cases."""
    root = Path(root)
    (root / "outside").mkdir(parents=True)
    (root / "outside" / "secret.txt").write_text(SECRET)
    cases = [
        _layers_case(root, "path_dotdot", _set_path("../outside/secret.txt"), "leaves the model's folder"),
        _layers_case(root, "path_dotdot_deep", _set_path("../../../../../../etc/passwd"), "leaves the model's folder"),
        _layers_case(root, "path_absolute", _set_path("/etc/passwd"), "absolute"),
        _layers_case(root, "path_percent_dotdot", _set_path("%2e%2e/outside/secret.txt"), "leaves the model's folder"),
        _layers_case(root, "path_backslash", _set_path("..\\outside\\secret.txt"), "backslash"),
        _layers_case(root, "path_scheme", _set_path("file:///etc/passwd"), "scheme"),
        _layers_case(root, "path_dev_zero", _set_path("/dev/zero"), "absolute"),
        _layers_case(root, "path_empty", _set_path(""), "non-empty"),
        _layers_case(root, "path_not_string", _set_path(7), "non-empty string"),
        _layers_case(root, "symlink_out_of_folder", _symlink_out, "outside the model's folder"),
        _layers_case(root, "symlink_to_dev_zero", _symlink_dev_zero, "outside the model's folder"),
        _layers_case(root, "shard_is_fifo", _fifo_shard, "not a regular file"),
        _layers_case(root, "shard_is_directory", _directory_shard, "not a regular file"),
        _layers_case(root, "duplicate_weight_names", _duplicate_names, "appears twice"),
        _layers_case(root, "duplicate_shard_paths", _duplicate_paths, "listed twice"),
        _layers_case(root, "more_shards_than_files", _more_shards_than_files, "cannot be read"),
        _layers_case(root, "shard_longer_than_declared", _longer_shard, "more than"),
        _layers_case(root, "shard_shorter_than_declared", _shorter_shard, "truncated"),
        _layers_case(root, "nan_quantization_scale", _nan_scale, "finite"),
        _layers_case(root, "weight_shape_10_12", _huge_weight_shape, "MAX_TENSOR_ELEMENTS"),
        _layers_case(root, "weights_over_parameter_limit", _many_parameters, "MAX_MODEL_PARAMETERS"),
        _layers_case(root, "weight_shape_not_ints", _shape_not_ints, "invalid shape"),
        _layers_case(root, "manifest_not_a_list", _manifest_not_list, "list of groups"),
        _layers_case(root, "dense_units_1e9", _huge_units, "(MAX_TENSOR_ELEMENTS|MAX_MODEL_PARAMETERS)"),
        _layers_case(root, "batch_input_shape_10_12", _huge_input, "(MAX_TENSOR_ELEMENTS|MAX_MODEL_PARAMETERS)"),
        _layers_case(root, "model_json_too_big", lambda f, j: j.update(padding="x" * 4096), "MAX_JSON_BYTES",
                     flags={"MAX_JSON_BYTES": 2048}),
    ]
    _deep_model_json(root, "json_100000_deep", 100000)
    cases.append(Case("json_100000_deep", "layers", match="MAX_NESTING_DEPTH"))
    _deep_model_json(root, "json_900_deep", 900)   # under json's own recursion limit, over ours
    cases.append(Case("json_900_deep", "layers", match="MAX_NESTING_DEPTH"))
    _deep_layers_config(root, "nested_models_60_deep", 60)
    cases.append(Case("nested_models_60_deep", "layers", match="MAX_NESTING_DEPTH"))
    fifo_json = root / "model_json_is_fifo"
    fifo_json.mkdir()
    os.mkfifo(fifo_json / "model.json")
    cases.append(Case("model_json_is_fifo", "layers", match="no model file"))
    cases += [
        _graph_case(root, "graph_path_dotdot", _set_path("../outside/secret.txt"), "leaves the model's folder"),
        _graph_case(root, "graph_path_absolute", _set_path("/etc/passwd"), "absolute"),
        _graph_case(root, "graph_shard_longer", _longer_shard, "more than"),
        _graph_case(root, "graph_weight_shape_10_12", _huge_weight_shape, "MAX_TENSOR_ELEMENTS"),
        _graph_case(root, "graph_deep_attribute", _deep_graph_attr, "MAX_NESTING_DEPTH"),
    ]
    _deep_model_json(root, "graph_json_100000_deep", 100000)
    cases.append(Case("graph_json_100000_deep", "graph", match="MAX_NESTING_DEPTH"))
    cases += [
        _keras_bomb(root, "keras_ratio_900_member", 64 << 20),
        _keras_lying_header(root, "keras_lying_header", 64 << 20),
        _keras_deep_config(root, "keras_deep_config"),
        _h5_external_link(root, "h5_external_link"),
        _h5_deep_config(root, "h5_deep_config"),
    ]
    cases += copy.deepcopy(CALLS)
    for c in CALLS:
        (root / c.name).mkdir()
    return cases


def save(root, cases):
    (Path(root) / "cases.json").write_text(json.dumps([dataclasses.asdict(c) for c in cases], indent=1))


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    if len(argv) != 1:
        print("usage: python -m tests.hostile_corpus OUTDIR", file=sys.stderr)
        return 2
    root = Path(argv[0])
    if root.exists():
        shutil.rmtree(root)
    cases = build(root)
    save(root, cases)
    print(f"{len(cases)} hostile cases in {root}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
