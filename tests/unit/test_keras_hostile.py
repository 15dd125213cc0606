"""Keras files are data from a stranger: hostile .keras and .h5 files, each generated here, are
refused with a ValueError naming the file, and what they ask for is never spent. Zip members
inflate under a hard limit counted on the real bytes (model.weights.h5 under what the model built
from config.json declares), whatever the zip headers say; JSON nested too deep is a ValueError, not
a RecursionError; HDF5 links, virtual datasets and external storage that lead outside the file are
refused before anything is read; files written by save_keras get the umask's mode.

The cases that could exhaust memory, should a check regress, load in a subprocess whose address
space is limited (RLIMIT_AS) and which is timed out, and that reports how much its peak memory grew."""
import io
import json
import os
import random
import stat
import struct
import subprocess
import sys
import warnings
import zipfile
import zlib
from pathlib import Path

import h5py
import numpy as np
import pytest

import pytfweb as tf
from pytfweb.keras_files import convert as kc
from pytfweb.keras_files import model_files as kf

MIB = 1 << 20
_REPO = Path(tf.__file__).resolve().parents[1]


@pytest.fixture(autouse=True)
def _cpu():
    tf.set_backend("cpu")
    yield


def _model():
    return tf.sequential([tf.layers.dense(units=4, input_shape=[3], name="d1"), tf.layers.dense(units=2, name="d2")])


def _saved(tmp_path, ext=".keras", name="good"):
    model = _model()
    path = tmp_path / f"{name}{ext}"
    kf.save_keras(model, str(path))
    model.dispose()
    return path


def _members(path):
    with zipfile.ZipFile(path) as zf:
        return {n: zf.read(n) for n in zf.namelist()}


def _fails(path, match, **kwargs):
    before = tf.memory()["num_tensors"]
    with pytest.raises(ValueError, match=match) as e:
        kf.load_keras_model(str(path), **kwargs)
    assert tf.memory()["num_tensors"] == before
    return str(e.value)


# --- zip archives written by hand, so their headers can say what they like -----------------------------
def _stored(data):
    """A member entry (method, bytes as stored, crc, size claimed) holding data uncompressed."""
    return (0, data, zlib.crc32(data), len(data))


def _deflated_bomb(mib, random_per_mib=120):
    """A member entry of `mib` MiB, nearly all zeros, deflated: one MiB compressed once with a full
    flush (so its blocks stand alone), repeated, then a final empty block. random_per_mib bytes of
    noise per MiB set the ratio (120 gives about 900:1, under the 1000:1 a ratio check would allow)."""
    chunk = bytearray(MIB)
    chunk[:random_per_mib] = random.Random(0).randbytes(random_per_mib)
    chunk = bytes(chunk)
    c = zlib.compressobj(9, zlib.DEFLATED, -15)
    block = c.compress(chunk) + c.flush(zlib.Z_FULL_FLUSH)
    end = zlib.compressobj(9, zlib.DEFLATED, -15).flush()
    crc = 0
    for _ in range(mib):
        crc = zlib.crc32(chunk, crc)
    return (8, block * mib + end, crc, mib * MIB)


def _write_zip(path, members):
    """A zip of members [(name, (method, data as stored, crc, size claimed))], with the sizes the
    entries claim in both the local and the central headers."""
    out, central = bytearray(), bytearray()
    for name, (method, data, crc, size) in members:
        raw = name.encode()
        offset = len(out)
        out += struct.pack("<4s5H3L2H", b"PK\x03\x04", 20, 0, method, 0, 0x21, crc, len(data), size, len(raw), 0)
        out += raw + data
        central += struct.pack("<4s6H3L5H2L", b"PK\x01\x02", 20, 20, 0, method, 0, 0x21, crc, len(data), size,
                               len(raw), 0, 0, 0, 0, 0, offset) + raw
    eocd = struct.pack("<4s4H2LH", b"PK\x05\x06", 0, 0, len(members), len(members), len(central), len(out), 0)
    Path(path).write_bytes(bytes(out + central + eocd))


def _hostile_archive(tmp_path, name, weights_entry, **replace):
    """A .keras of the tiny model's config and metadata, with weights_entry as model.weights.h5."""
    good = _members(_saved(tmp_path))
    entries = [(n, replace.get(n) or _stored(good[n])) for n in ("metadata.json", "config.json")]
    path = tmp_path / name
    _write_zip(path, entries + [("model.weights.h5", weights_entry)])
    return path


_GUARD = r"""
import json, resource, sys
resource.setrlimit(resource.RLIMIT_AS, (3 << 30, 3 << 30))
import h5py, numpy
import pytfweb as tf
from pytfweb.keras_files import model_files as kf
tf.set_backend("cpu")
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
try:
    kf.load_keras_model(sys.argv[1]).dispose()
    outcome, message = "loaded", ""
except BaseException as e:
    outcome, message = type(e).__name__, str(e)
grew = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) * 1024
print(json.dumps({"outcome": outcome, "message": message, "grew": grew}))
"""


def _load_guarded(path, timeout=120):
    """Load path in a subprocess limited to 3 GB of address space and `timeout` seconds: (outcome,
    message, bytes its peak memory grew by while loading)."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(_REPO), os.environ.get("PYTHONPATH", "")])}
    r = subprocess.run([sys.executable, "-c", _GUARD, str(path)], capture_output=True, text=True, timeout=timeout,
                       env=env, cwd=str(_REPO))
    assert r.returncode == 0, r.stderr[-3000:]
    report = json.loads(r.stdout.strip().splitlines()[-1])
    return report["outcome"], report["message"], report["grew"]


# --- 1. zip members inflate under a hard limit ------------------------------------------------------------
def test_ratio_900_bomb_under_a_ratio_check_is_refused_by_the_models_weight_budget(tmp_path):
    entry = _deflated_bomb(200)
    ratio = entry[3] / len(entry[1])
    assert 800 < ratio < 1000, ratio   # what a 1000:1 ratio check lets through
    path = _hostile_archive(tmp_path, "bomb.keras", entry)
    outcome, message, grew = _load_guarded(path)
    assert outcome == "ValueError", (outcome, message)
    assert str(path) in message and "'model.weights.h5'" in message and "limit of" in message
    assert grew < 64 * MIB, f"loading grew memory by {grew / MIB:.0f} MiB"


def test_lying_header_sizes_do_not_let_a_member_inflate(tmp_path):
    method, data, crc, size = _deflated_bomb(200, random_per_mib=0)
    # the headers claim 1000 bytes (an honest ratio check sees nothing); the stream holds 200 MiB
    path = _hostile_archive(tmp_path, "liar.keras", (method, data, crc, 1000))
    outcome, message, grew = _load_guarded(path)
    assert outcome == "ValueError", (outcome, message)
    assert str(path) in message and "model.weights.h5" in message
    assert grew < 64 * MIB, f"loading grew memory by {grew / MIB:.0f} MiB"
    # and claiming more than is there changes nothing: the real bytes are counted
    path = _hostile_archive(tmp_path, "liar2.keras", (method, data, crc, (1 << 32) - 1))
    outcome, message, grew = _load_guarded(path)
    assert outcome == "ValueError" and "'model.weights.h5'" in message and "limit of" in message, message
    assert grew < 64 * MIB


def test_weights_member_budget_follows_the_declared_weights(tmp_path):
    # 3 MiB of real data behind a model whose weights take 26 floats: refused, by what it claims ...
    path = _hostile_archive(tmp_path, "padded.keras", _stored(b"\0" * (3 * MIB)))
    msg = _fails(path, r"member 'model\.weights\.h5' claims 3145728 bytes, beyond the limit of \d+ bytes "
                       r"\(the model's 4 weights hold 26 values")
    assert str(path) in msg
    # ... and, if the header says less, by what it holds (zipfile stops at the claim: a CRC error)
    method, data, crc, _ = _stored(b"\0" * (3 * MIB))
    path = _hostile_archive(tmp_path, "padded2.keras", (method, data, crc, 100))
    _fails(path, "model.weights.h5.*(cannot be read|limit of)")
    # should the zip reader ever yield more than the header claims, the count still stops it
    with zipfile.ZipFile(_hostile_archive(tmp_path, "p3.keras", _stored(b"\0" * 100))) as zf:
        zf.open = lambda info: io.BytesIO(b"\0" * (4 * MIB))
        with pytest.raises(ValueError, match=r"p3.keras: member 'model.weights.h5' inflates to more than 1048576 "
                                             r"bytes, beyond the limit of 1048576 bytes \(test\)"):
            kf._zip_member(zf, "model.weights.h5", MIB, "api", "p3.keras", "test")


def test_the_flag_caps_every_member(tmp_path):
    path = _saved(tmp_path)
    size = zipfile.ZipFile(path).getinfo("model.weights.h5").file_size
    old = tf.env().get("MAX_ARCHIVE_MEMBER_BYTES")
    try:
        tf.env().set("MAX_ARCHIVE_MEMBER_BYTES", size - 1)
        _fails(path, r"'model\.weights\.h5' claims \d+ bytes, beyond the limit of \d+ bytes \(tf.env\(\) flag "
                     r"MAX_ARCHIVE_MEMBER_BYTES\)")
        tf.env().set("MAX_ARCHIVE_MEMBER_BYTES", 100)
        _fails(path, r"'config\.json' claims \d+ bytes, beyond the limit of 100 bytes")
    finally:
        tf.env().set("MAX_ARCHIVE_MEMBER_BYTES", old)
    kf.load_keras_model(str(path)).dispose()


def test_json_members_have_a_small_cap(tmp_path):
    big = b" " * (65 * MIB)
    c = zlib.compressobj(1, zlib.DEFLATED, -15)
    entry = (8, c.compress(big) + c.flush(), zlib.crc32(big), len(big))
    del big
    path = _hostile_archive(tmp_path, "bigconfig.keras", _stored(b""), **{"config.json": entry})
    msg = _fails(path, r"'config\.json' claims 68157440 bytes, beyond the limit of 67108864 bytes")
    assert str(path) in msg


def test_duplicate_members_and_foreign_compression_are_refused(tmp_path):
    good = _members(_saved(tmp_path))
    dup = tmp_path / "dup.keras"
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")   # zipfile warns about the duplicate it writes
        with zipfile.ZipFile(dup, "w") as zf:
            for n, data in good.items():
                zf.writestr(n, data)
            zf.writestr("config.json", b'{"class_name": "Sequential"}')
    msg = _fails(dup, "two members named 'config.json'")
    assert str(dup) in msg
    bz = tmp_path / "bz.keras"
    with zipfile.ZipFile(bz, "w", compression=zipfile.ZIP_BZIP2) as zf:
        for n, data in good.items():
            zf.writestr(n, data)
    _fails(bz, "member 'config.json' is compressed with method 12")


def test_memory_dangerous_shapes_are_refused_before_reading(tmp_path):
    """A dataset that declares 4 GiB of (unwritten, so free to store) values where the layer wants
    12: refused by its shape, before a byte is read."""
    src = _saved(tmp_path)
    good = _members(src)
    buf = tmp_path / "w.h5"
    buf.write_bytes(good["model.weights.h5"])
    with h5py.File(buf, "r+") as f:
        del f["layers/dense/vars/0"]
        f["layers/dense/vars"].create_dataset("0", shape=(1 << 20, 1 << 10), dtype="float32", chunks=(256, 256),
                                              compression="gzip")
    path = tmp_path / "huge.keras"
    _write_zip(path, [(n, _stored(good[n])) for n in ("metadata.json", "config.json")] +
               [("model.weights.h5", _stored(buf.read_bytes()))])
    outcome, message, grew = _load_guarded(path)
    assert outcome == "ValueError", (outcome, message)
    assert "shape [1048576, 1024] in the file but the layer expects [3, 4]" in message and str(path) in message
    assert grew < 64 * MIB


def test_chunks_bigger_than_the_dataset_are_refused(tmp_path):
    """A compressed chunk is inflated whole: a [3, 4] weight in 16 MiB chunks is refused unread."""
    src = _saved(tmp_path, ".h5")
    with h5py.File(src, "r+") as f:
        g = f["model_weights/d1"]
        name = [n.decode() if isinstance(n, bytes) else n for n in g.attrs["weight_names"]][0]
        del g[name]
        g.create_dataset(name, data=np.ones((3, 4), "float32"), maxshape=(None, None), chunks=(2048, 2048),
                         compression="gzip")
    msg = _fails(src, r"stored in chunks of \[2048, 2048\] \(16777216 bytes\), bigger than the dataset")
    assert str(src) in msg and name in msg


# --- 2. JSON nesting ----------------------------------------------------------------------------------------
def test_deep_config_json_is_a_value_error(tmp_path):
    good = _members(_saved(tmp_path))
    for depth in (100_000, 150):
        deep = ("[" * depth + "]" * depth).encode() if depth > 1000 else \
            json.dumps({"class_name": "Sequential", "config": {"layers": [json.loads("[" * depth + "]" * depth)]}}
                       ).encode()
        path = tmp_path / f"deep{depth}.keras"
        _write_zip(path, [("metadata.json", _stored(good["metadata.json"])), ("config.json", _stored(deep)),
                          ("model.weights.h5", _stored(good["model.weights.h5"]))])
        msg = _fails(path, "config.json.*nested more than 100 levels deep.*MAX_NESTING_DEPTH")
        assert str(path) in msg
    deep = {"a": None}
    for _ in range(200):
        deep = {"a": deep}
    with pytest.raises(ValueError, match="nested more than 100 levels"):
        kf.keras_config_to_topology({"class_name": "Sequential", "config": {"layers": [deep]}})


def test_deep_model_config_in_h5_is_a_value_error(tmp_path):
    path = _saved(tmp_path, ".h5")
    with h5py.File(path, "r+") as f:
        f.attrs["model_config"] = "[" * 20_000 + "]" * 20_000
    msg = _fails(path, "model_config.*nested more than 100 levels deep")
    assert str(path) in msg
    with h5py.File(path, "r+") as f:
        f.attrs["model_config"] = "{not json"
    _fails(path, "model_config is not valid JSON")


# --- 3. only data inside the HDF5 file is read -----------------------------------------------------------------
@pytest.fixture
def outside(tmp_path_factory):
    """A directory apart from the test's tmp_path, holding an HDF5 file with data that fits the
    model (so a followed link would load, not fail) and a raw float file."""
    d = tmp_path_factory.mktemp("outside")
    with h5py.File(d / "target.h5", "w") as f:
        g = f.create_group("vars")
        g.create_dataset("0", data=np.full((3, 4), 7, "float32"))
        g.create_dataset("1", data=np.full((4,), 7, "float32"))
        f.create_dataset("kernel", data=np.full((3, 4), 7, "float32"))
    np.full((3, 4), 7, "float32").tofile(d / "raw.bin")
    return d


def _keras_with_h5_edit(tmp_path, name, edit):
    src = _saved(tmp_path)
    good = _members(src)
    h5 = tmp_path / f"{name}.weights.h5"
    h5.write_bytes(good["model.weights.h5"])
    with h5py.File(h5, "r+") as f:
        edit(f)
    path = tmp_path / f"{name}.keras"
    with zipfile.ZipFile(path, "w") as zf:
        for n, data in good.items():
            zf.writestr(n, h5.read_bytes() if n == "model.weights.h5" else data)
    return path


def test_external_links_are_refused_in_keras_archives(tmp_path, outside):
    target = str(outside / "target.h5")

    def group_link(f):
        del f["layers/dense/vars"]
        f["layers/dense/vars"] = h5py.ExternalLink(target, "/vars")
    path = _keras_with_h5_edit(tmp_path, "glink", group_link)
    msg = _fails(path, r"'/layers/dense/vars' is a ExternalLink, a link to elsewhere")
    assert str(path) in msg

    def dataset_link(f):
        del f["layers/dense/vars/0"]
        f["layers/dense/vars/0"] = h5py.ExternalLink(target, "/kernel")
    _fails(_keras_with_h5_edit(tmp_path, "dlink", dataset_link), r"'/layers/dense/vars/0' is a ExternalLink")

    def soft_link(f):
        f["elsewhere"] = np.ones((3, 4), "float32")
        del f["layers/dense/vars/0"]
        f["layers/dense/vars/0"] = h5py.SoftLink("/elsewhere")
    _fails(_keras_with_h5_edit(tmp_path, "soft", soft_link), r"'/layers/dense/vars/0' is a SoftLink")


def test_virtual_and_external_storage_datasets_are_refused(tmp_path, outside):
    def virtual(f):
        layout = h5py.VirtualLayout(shape=(3, 4), dtype="float32")
        layout[:] = h5py.VirtualSource(str(outside / "target.h5"), "kernel", shape=(3, 4))
        del f["layers/dense/vars/0"]
        f["layers/dense/vars"].create_virtual_dataset("0", layout)
    path = _keras_with_h5_edit(tmp_path, "vds", virtual)
    msg = _fails(path, r"'/layers/dense/vars/0' stores its data outside the file")
    assert str(path) in msg

    def external(f):
        del f["layers/dense/vars/0"]
        f["layers/dense/vars"].create_dataset("0", shape=(3, 4), dtype="float32",
                                              external=[(str(outside / "raw.bin"), 0, 48)])
    _fails(_keras_with_h5_edit(tmp_path, "ext", external), r"'/layers/dense/vars/0' stores its data outside")


def test_external_links_are_refused_in_h5_files(tmp_path, outside):
    path = _saved(tmp_path, ".h5")
    with h5py.File(path, "r+") as f:
        names = [n.decode() if isinstance(n, bytes) else n for n in f["model_weights/d1"].attrs["weight_names"]]
        del f["model_weights/d1"]
        g = f["model_weights"].create_group("d1")
        g.attrs["weight_names"] = [n.encode() for n in names]
        # every weight of d1 a link to data that fits, outside the test's directory
        for n, ds in zip(names, ("/vars/0", "/vars/1")):
            parent, leaf = n.rsplit("/", 1) if "/" in n else ("", n)
            (g.require_group(parent) if parent else g)[leaf] = h5py.ExternalLink(str(outside / "target.h5"), ds)
    msg = _fails(path, "is a ExternalLink, a link to elsewhere; only data inside the file is read")
    assert str(path) in msg
    with h5py.File(path, "r+") as f:
        del f["model_weights"]
        f["model_weights"] = h5py.ExternalLink(str(outside / "target.h5"), "/")
    _fails(path, "'/model_weights' is a ExternalLink")


# --- 4. written files get the umask's mode ------------------------------------------------------------------
@pytest.mark.parametrize("umask, mode", [(0o022, 0o644), (0o077, 0o600), (0o002, 0o664)])
def test_written_files_get_the_umasks_mode(tmp_path, umask, mode):
    old = os.umask(umask)
    try:
        written = [_saved(tmp_path, ".keras"), _saved(tmp_path, ".h5")]
        kc.convert(str(written[0]), str(tmp_path / "copy.h5"), print_fn=None)
        written.append(tmp_path / "copy.h5")
    finally:
        os.umask(old)
    for path in written:
        assert stat.S_IMODE(os.stat(path).st_mode) == mode, path
    assert not [p for p in os.listdir(tmp_path) if p.startswith(".pytfweb-")]
    model = kf.load_keras_model(str(written[0]))
    model.dispose()


def test_saving_stays_atomic(tmp_path, monkeypatch):
    path = _saved(tmp_path)
    before = path.read_bytes()

    def broken(h5py, model, config, target):
        target.write(b"half a file")
        raise OSError("disk full")
    monkeypatch.setattr(kf, "_write_keras", broken)
    model = _model()
    with pytest.raises(OSError, match="disk full"):
        kf.save_keras(model, str(path))
    model.dispose()
    assert path.read_bytes() == before
    assert sorted(os.listdir(tmp_path)) == [path.name]


# --- real Keras files stay within their budget ----------------------------------------------------------------
@pytest.mark.filterwarnings("ignore:__array__ implementation:DeprecationWarning")   # Keras's numpy backend
def test_keras_files_with_optimizer_state_and_many_layers_load(tmp_path):
    os.environ.setdefault("KERAS_BACKEND", "numpy")
    keras = pytest.importorskip("keras")
    L = keras.layers
    km = keras.Sequential([keras.Input((30,)), L.Dense(300), L.Dense(30)])
    km.compile(optimizer=keras.optimizers.Adam(amsgrad=True, use_ema=True), loss="mse")
    km.optimizer.build(km.trainable_variables)   # its slots are saved beside the weights: 4 per weight
    x = np.random.default_rng(0).normal(size=(2, 30)).astype("float32")
    inp = keras.Input((8,))
    h = inp
    for _ in range(300):
        h = L.BatchNormalization()(h)
    deep = keras.Model(inp, h)
    for m, name, data in ((km, "adam.keras", x), (deep, "bn.keras", x[:, :8])):
        path = tmp_path / name
        m.save(str(path))
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            model = kf.load_keras_model(str(path), compile=False)
        try:
            out = model.predict(tf.tensor(data))
            got = np.asarray(out.data_sync(), 'float32').reshape(out.shape)
            out.dispose()
            np.testing.assert_allclose(got, np.asarray(m.predict(data, verbose=0)), atol=1e-4)
        finally:
            model.dispose()
