"""tf.io core: weight encoding/decoding (with quantization), manifests, model.json, the file and
memory handlers and the router, in CPython; TF.js's own io_utils under node is the peer for the
byte layout."""
import json
import os
import shutil
import subprocess

import numpy as np
import pytest

import pytfweb as tf
from pytfweb.io import weights as W
from pytfweb.io.artifacts import ModelArtifacts, model_json_for, parse_model_json

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
TFJS = os.path.join(ROOT, "node_modules", "@tensorflow", "tfjs")
needs_node = pytest.mark.skipif(not os.path.isdir(TFJS) or shutil.which("node") is None,
                                reason="TF.js (npm ci) and node are needed for the peer comparison")


@pytest.fixture
def leak_check():
    before = tf.memory()["num_tensors"]
    yield
    assert tf.memory()["num_tensors"] == before


def _tensors():
    rng = np.random.default_rng(0)
    return {
        "a/kernel": tf.tensor(rng.normal(size=(3, 4)).astype("float32")),
        "b": tf.tensor(np.float32([-0.0, np.inf, -np.inf, 1e-40, 3.4e38])),
        "i": tf.tensor(np.int32([-2**31, 2**31 - 1, 0, 7]), dtype="int32"),
        "flag": tf.tensor([True, False, True]),
        "s": tf.tensor(["", "héllo", "a\u1234b"]),
        "scalar": tf.scalar(2.5),
        "empty": tf.zeros([0, 3]),
    }


def test_round_trip_every_dtype(leak_check):
    ts = _tensors()
    data, specs = tf.io.encode_weights(ts)
    assert [s["name"] for s in specs] == list(ts)
    assert specs[0] == {"name": "a/kernel", "shape": [3, 4], "dtype": "float32"}
    out = tf.io.decode_weights(data, specs)
    for k, t in ts.items():
        assert out[k].dtype == t.dtype and out[k].shape == t.shape
        if t.dtype == "string":
            assert out[k].array_sync() == t.array_sync()
        else:
            np.testing.assert_array_equal(out[k].numpy(), t.numpy())
    tf.dispose(list(out.values()) + list(ts.values()))


def test_complex_and_group(leak_check):
    c = tf.tidy(lambda: tf.complex(tf.tensor([1.0, 2.0]), tf.tensor([-1.0, 0.5])))
    data, specs = tf.io.encode_weights([("c", c)], group="optimizer")
    assert specs == [{"name": "c", "shape": [2], "dtype": "complex64", "group": "optimizer"}]
    assert np.frombuffer(data, "<f4").tolist() == [1.0, -1.0, 2.0, 0.5]
    out = tf.io.decode_weights(data, specs)["c"]
    np.testing.assert_array_equal(tf.tidy(lambda: tf.real(out).numpy()), [1, 2])
    np.testing.assert_array_equal(tf.tidy(lambda: tf.imag(out).numpy()), [-1, 0.5])
    tf.dispose([out, c])


@pytest.mark.parametrize("qdtype,bits", [("uint8", 8), ("uint16", 16)])
def test_affine_quantization_error_within_half_a_step(qdtype, bits, leak_check):
    rng = np.random.default_rng(1)
    v = rng.uniform(-3, 5, size=1000).astype("float32")
    t = tf.tensor(v)
    data, specs = tf.io.encode_weights({"w": t}, quantization=qdtype)
    q = specs[0]["quantization"]
    assert q["dtype"] == qdtype and len(data) == 1000 * bits // 8
    # zero is represented exactly (the converter's nudged minimum)
    assert abs(round(-q["min"] / q["scale"]) * q["scale"] + q["min"]) < 1e-9
    out = tf.io.decode_weights(data, specs)["w"]
    assert np.abs(out.numpy() - v).max() <= q["scale"] / 2 + 1e-6
    tf.dispose([t, out])


@pytest.mark.parametrize("qdtype,dtype", [("uint8", "float32"), ("uint8", "int32"), ("uint16", "float32"),
                                          ("uint16", "int32"), ("float16", "float32")])
def test_quantized_weights_decode_alike_without_numpy(qdtype, dtype, monkeypatch, leak_check):
    """The page has no numpy: its decoding (uint8 by translate tables, uint16 and float16 by struct)
    gives the very values the numpy path gives, for every possible uint8 value and random others."""
    rng = np.random.default_rng(5)
    if qdtype == "float16":
        data = rng.standard_normal(700).astype("<f2").tobytes()
        quant = {"dtype": "float16"}
    else:
        width = 1 if qdtype == "uint8" else 2
        q = np.concatenate([np.arange(256), rng.integers(0, 256 ** width, 500)]).astype("<u1" if width == 1 else "<u2")
        data = q.tobytes()
        quant = {"dtype": qdtype, "scale": 0.0123456, "min": -1.7 if dtype == "float32" else -3.0}
    count = len(data) // (1 if qdtype == "uint8" else 2)
    specs = [{"name": "w", "shape": [count], "dtype": dtype, "quantization": quant}]
    with_numpy = tf.io.decode_weights(data, specs)["w"]
    monkeypatch.setattr(W, "np", None)
    without = tf.io.decode_weights(data, specs)["w"]
    try:
        assert without.dtype == with_numpy.dtype == dtype
        np.testing.assert_array_equal(without.numpy(), with_numpy.numpy())
    finally:
        tf.dispose([with_numpy, without])


def test_float16_quantization(leak_check):
    v = np.float32([0.1, -2.5, 65504, 1e-8, 70000])
    t = tf.tensor(v)
    data, specs = tf.io.encode_weights({"w": t}, quantization="float16")
    assert specs[0]["quantization"] == {"dtype": "float16"} and len(data) == 10
    out = tf.io.decode_weights(data, specs)["w"]
    with np.errstate(over="ignore"):
        np.testing.assert_array_equal(out.numpy(), v.astype("float16").astype("float32"))
    tf.dispose([t, out])


def test_int_weights_stay_unquantized(leak_check):
    t = tf.tensor([1, 2, 3], dtype="int32")
    data, specs = tf.io.encode_weights({"i": t}, quantization="uint8")
    assert "quantization" not in specs[0] and len(data) == 12
    t.dispose()


def test_quantizing_nan_is_an_error(leak_check):
    t = tf.tensor([1.0, float("nan")])
    with pytest.raises(ValueError, match="NaN"):
        tf.io.encode_weights({"w": t}, quantization="uint8")
    t.dispose()


@pytest.mark.parametrize("specs,data,match", [
    ([{"name": "w", "shape": [4], "dtype": "float32"}], b"\0" * 12, "truncated"),
    ([{"name": "w", "shape": [2], "dtype": "float32"}], b"\0" * 12, "disagree"),
    ([{"name": "w", "shape": [2], "dtype": "float64"}], b"\0" * 16, "unsupported dtype"),
    ([{"name": "w", "shape": [-1], "dtype": "float32"}], b"", "invalid shape"),
    ([{"name": "w", "dtype": "float32"}], b"", "name, shape and dtype"),
    ([{"name": "w", "shape": [2], "dtype": "float32", "quantization": {"dtype": "uint8"}}], b"\0\0", "scale"),
    ([{"name": "w", "shape": [2], "dtype": "float32", "quantization": {"dtype": "int4"}}], b"\0\0", "quantization"),
    ([{"name": "a", "shape": [1], "dtype": "float32"}, {"name": "s", "shape": [1], "dtype": "string"}],
     b"\0\0\0\0\x09\0\0\0ab", "string weight 's'"),
])
def test_decode_errors_name_the_weight_and_leak_nothing(specs, data, match, leak_check):
    with pytest.raises(ValueError, match=match) as e:
        tf.io.decode_weights(data, specs, source="m/model.json")
    assert "m/model.json" in str(e.value)


def test_shards_and_manifest():
    data = bytes(range(256)) * 40
    shards = W.split_shards(data, 4096)
    assert [len(s) for s in shards] == [4096, 4096, 2048] and b"".join(shards) == data
    names = W.shard_names(3)
    assert names == ["group1-shard1of3.bin", "group1-shard2of3.bin", "group1-shard3of3.bin"]
    manifest = W.weights_manifest([{"name": "x", "shape": [1], "dtype": "float32"}], names)
    assert W.manifest_specs(manifest) == ([{"name": "x", "shape": [1], "dtype": "float32"}], names)
    assert tf.io.get_weight_specs(manifest + manifest) == [manifest[0]["weights"][0]] * 2
    assert tf.io.concatenate_array_buffers([b"ab", bytearray(b"c")]) == b"abc"


def test_composite_array_buffer():
    data = tf.io.CompositeArrayBuffer([b"ab", bytearray(b"cde")])
    assert data.byte_length == 5 and data.slice(1, 4) == b"bcd" and data.slice(-2) == b"de"
    assert tf.io.CompositeArrayBuffer(b"xy").byte_length == 2 and tf.io.CompositeArrayBuffer().byte_length == 0
    assert tf.io.CompositeArrayBuffer.join([b"a", b"b"]) == b"ab"
    with pytest.raises(TypeError, match="CompositeArrayBuffer"):
        tf.io.CompositeArrayBuffer(5)
    with pytest.raises(ValueError, match="group 0"):
        W.manifest_specs([{"paths": "x"}], "m.json")


def test_model_json_keys_and_parse_errors():
    a = ModelArtifacts(model_topology={"x": 1}, format="layers-model", generated_by="g", converted_by=None,
                       training_config={"loss": "mse"})
    mj = model_json_for(a, [{"paths": [], "weights": []}])
    assert list(mj) == ["modelTopology", "format", "generatedBy", "convertedBy", "weightsManifest", "trainingConfig"]
    with pytest.raises(ValueError, match="not valid JSON"):
        parse_model_json(b"{oops", "http://x/model.json")
    with pytest.raises(ValueError, match="neither"):
        parse_model_json("{}", "m.json")


def test_file_handler_round_trip_with_shards(tmp_path, leak_check):
    t = tf.tensor(np.arange(3000, dtype="float32"))
    data, specs = tf.io.encode_weights({"w": t})
    art = ModelArtifacts(model_topology={"k": [1, 2]}, weight_specs=specs, weight_data=data, format="layers-model")
    handler = tf.io.file_system(str(tmp_path / "m"), shard_bytes=5000)
    result = handler.save_sync(art)
    assert result.model_artifacts_info.weight_data_bytes == 12000
    assert sorted(os.listdir(tmp_path / "m")) == ["group1-shard1of3.bin", "group1-shard2of3.bin",
                                                  "group1-shard3of3.bin", "model.json"]
    fractions = []
    loaded = tf.io.file_system("file://" + str(tmp_path / "m" / "model.json"), on_progress=fractions.append).load_sync()
    assert loaded.model_topology == {"k": [1, 2]} and loaded.weight_data == data
    assert loaded.weight_specs == specs and loaded.format == "layers-model"
    assert fractions == pytest.approx([1 / 3, 2 / 3, 1])
    # a missing shard names the file
    os.remove(tmp_path / "m" / "group1-shard2of3.bin")
    with pytest.raises(ValueError, match="group1-shard2of3.bin"):
        tf.io.file_system(str(tmp_path / "m")).load_sync()
    t.dispose()


def test_router_resolves_paths_and_rejects_unknown(tmp_path):
    from pytfweb.io.router import resolve_load_handler, resolve_save_handler
    assert isinstance(resolve_load_handler(str(tmp_path), "load_layers_model"), tf.io.FileSystem)
    assert isinstance(resolve_save_handler("file://" + str(tmp_path), "save"), tf.io.FileSystem)
    with pytest.raises(ValueError, match="cannot find any save handlers for URL 'nosuch://x'"):
        resolve_save_handler("nosuch://x", "save")
    with pytest.raises(TypeError, match="load method"):
        resolve_load_handler(42, "load_layers_model")
    seen = []
    tf.io.register_load_router(lambda url, **kw: seen.append(url) or (object() if url.startswith("mine://") else None))
    assert tf.io.get_load_handlers("mine://a") and "mine://a" in seen


def test_memory_handlers():
    a = ModelArtifacts(model_topology={"t": 1})
    assert tf.io.from_memory(a).load_sync() is a
    b = tf.io.from_memory({"modelTopology": {"t": 2}, "weightSpecs": [], "weightData": b""}).load_sync()
    assert b.model_topology == {"t": 2} and b.weight_data == b""
    c = tf.io.from_memory({"t": 3}, [{"name": "x", "shape": [], "dtype": "float32"}], [b"\0\0", b"\0\0"]).load_sync()
    assert c.weight_data == b"\0" * 4
    saved = []
    res = tf.io.with_save_handler_sync(saved.append).save_sync(a)
    assert saved == [a] and res.model_artifacts_info.model_topology_type == "JSON"


_NODE_ENCODE = r"""
const tf = require(process.argv[1]);
(async () => {
  const ts = {f: tf.tensor2d([[1.5, -2], [0.25, 3e38]]), i: tf.tensor1d([-7, 2147483647], 'int32'),
              b: tf.tensor1d([true, false, true], 'bool'), s: tf.tensor1d(['', 'héllo', 'xyz'], 'string')};
  const {data, specs} = await tf.io.encodeWeights(ts);
  process.stdout.write(JSON.stringify({specs, data: Buffer.from(data).toString('base64')}));
})();
"""

_NODE_DECODE = r"""
const tf = require(process.argv[1]);
const input = JSON.parse(require('fs').readFileSync(0, 'utf8'));
const buf = Buffer.from(input.data, 'base64');
const out = tf.io.decodeWeights(buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.length), input.specs);
const res = {};
for (const k of Object.keys(out)) res[k] = {shape: out[k].shape, dtype: out[k].dtype,
  values: out[k].dtype === 'string' ? out[k].dataSync().map(b => Buffer.from(b).toString('utf8')) : Array.from(out[k].dataSync())};
process.stdout.write(JSON.stringify(res));
"""


def _node(script, stdin=None):
    r = subprocess.run(["node", "-e", script, TFJS], input=stdin, capture_output=True, text=True, timeout=120)
    assert r.returncode == 0, r.stderr
    return json.loads(r.stdout)


@needs_node
def test_tfjs_encoded_bytes_decode_here(leak_check):
    import base64
    got = _node(_NODE_ENCODE)
    out = tf.io.decode_weights(base64.b64decode(got["data"]), got["specs"])
    assert out["f"].array_sync() == [[1.5, -2.0], [0.25, pytest.approx(3e38, rel=1e-7)]]
    assert out["i"].array_sync() == [-7, 2147483647] and out["b"].array_sync() == [True, False, True]
    assert out["s"].array_sync() == ["", "héllo", "xyz"]
    # and our encoding of the same tensors is byte for byte TF.js's
    data, specs = tf.io.encode_weights(out)
    assert specs == got["specs"] and data == base64.b64decode(got["data"])
    tf.dispose(list(out.values()))


@needs_node
def test_our_quantized_weights_decode_in_tfjs(leak_check):
    import base64
    rng = np.random.default_rng(3)
    ts = {"u8": tf.tensor(rng.normal(size=50).astype("float32")),
          "u16": tf.tensor(rng.uniform(1, 2, size=7).astype("float32")),
          "f16": tf.tensor(rng.normal(size=9).astype("float32"))}
    parts = [tf.io.encode_weights({k: ts[k]}, quantization=q) for k, q in
             (("u8", "uint8"), ("u16", "uint16"), ("f16", "float16"))]
    data = b"".join(p[0] for p in parts)
    specs = [p[1][0] for p in parts]
    theirs = _node(_NODE_DECODE, json.dumps({"specs": specs, "data": base64.b64encode(data).decode()}))
    ours = tf.io.decode_weights(data, specs)
    for k in ts:
        assert theirs[k]["shape"] == list(ts[k].shape) and theirs[k]["dtype"] == "float32"
        np.testing.assert_allclose(ours[k].numpy(), np.float32(theirs[k]["values"]), rtol=1e-6, atol=1e-7)
    tf.dispose(list(ours.values()) + list(ts.values()))


def test_register_save_router_routes_model_save():
    # the save twin of register_load_router (no parity case: routers act on URLs both runners cannot share)
    from pytfweb.io import router
    saved = []
    handler = tf.io.with_save_handler_sync(saved.append)

    def mine(url):
        return handler if url.startswith("mysave://") else None
    tf.io.register_save_router(mine)
    try:
        assert tf.io.get_save_handlers("mysave://m") == [handler] and tf.io.get_save_handlers("other://m") == []
        model = tf.sequential(layers=[tf.layers.dense({"units": 1, "inputShape": [2]})])
        model.save_sync("mysave://m")
        assert len(saved) == 1 and saved[0].model_topology["class_name"] == "Sequential"
        model.dispose()
    finally:
        router._SAVE_ROUTERS.remove(mine)


def test_a_stream_plan_takes_manifest_groups_checks_as_it_would_make_them():
    """A StreamPlan made from the checks manifest_groups made (WeightGroup.checked, as the page's
    http load makes it) plans the bytes, kinds, offsets and sizes of one that checks the specs itself,
    and keeps those checks for decode_weights."""
    specs = [{"name": "h", "shape": [3], "dtype": "float32", "quantization": {"dtype": "float16"}},
             {"name": "a", "shape": [], "dtype": "int32"},
             {"name": "q", "shape": [2, 2], "dtype": "int32",
              "quantization": {"dtype": "uint8", "scale": 0.5, "min": -1.0}},
             {"name": "w", "shape": [5], "dtype": "float32"}]
    group, = W.manifest_groups([{"paths": ["w.bin"], "weights": specs}])
    given, own = W.StreamPlan(group.specs, group.checked), W.StreamPlan(specs)
    assert given.nbytes == own.nbytes == group.max_bytes == 6 + 4 + 4 + 20
    assert list(given.ends) == list(own.ends) == [6, 10, 14, 34]
    rows = lambda p: [tuple(p.meta[k:k + 6]) for k in range(0, len(p.meta), 6)]   # (kind, offset, n, -, scale, min)
    assert [r[:3] + r[4:] for r in rows(given)] == [r[:3] + r[4:] for r in rows(own)]
    assert given.checked_for(group.specs) == own.checked_for(specs) == [W._check_spec(s, i, None) for i, s in enumerate(specs)]
