"""tf.io.weights_loader_factory and decode_weights_stream, which take functions and streams the parity
suite cannot pass to TF.js and pytfweb alike (load_weights, built on the factory, has parity cases in
tests/parity/cases/io.py); load_weights from a file:// prefix and from a local HTTP server."""
import asyncio
import struct

import pytest

import pytfweb as tf

SPECS = [{"name": "w", "shape": [2], "dtype": "float32"}, {"name": "i", "shape": [3], "dtype": "int32"}]
DATA = struct.pack("<2f3i", 1.5, -2.0, 7, 8, -9)
MANIFEST = [{"paths": ["a.bin", "b.bin"], "weights": SPECS[:1]},
            {"paths": ["c.bin"], "weights": SPECS[1:]}]
SHARDS = {"a.bin": DATA[:3], "b.bin": DATA[3:8], "c.bin": DATA[8:]}


def run(coro):
    return asyncio.run(coro)


def test_factory_asks_for_the_wanted_groups_only():
    asked = []

    def fetch_weights(urls):
        asked.append(list(urls))
        return [SHARDS[u.rsplit("/", 1)[1]] for u in urls]
    load = tf.io.weights_loader_factory(fetch_weights)
    out = run(load(MANIFEST, "prefix"))
    assert asked == [["prefix/a.bin", "prefix/b.bin", "prefix/c.bin"]]
    assert out["w"].array_sync() == [1.5, -2.0] and out["i"].array_sync() == [7, 8, -9]
    tf.dispose(list(out.values()))
    out = run(load(MANIFEST, "dir/", ["i"]))   # a prefix ending in '/' gets no second one
    assert asked[-1] == ["dir/c.bin"] and list(out) == ["i"]
    tf.dispose(list(out.values()))

    async def fetch_async(urls):   # an async fetcher is awaited
        return [SHARDS[u.rsplit("/", 1)[1]] for u in urls]
    before = tf.memory()["num_tensors"]
    with pytest.raises(ValueError, match="Could not find weights in manifest with names: x"):
        run(tf.io.weights_loader_factory(fetch_async)(MANIFEST, "p", ["w", "x"]))
    assert tf.memory()["num_tensors"] == before
    with pytest.raises(TypeError):
        tf.io.weights_loader_factory(3)


def test_decode_weights_stream_takes_chunks_as_they_come():
    want = tf.io.decode_weights(DATA, SPECS)
    chunks = [DATA[:5], DATA[5:6], DATA[6:]]

    async def agen():
        for c in chunks:
            yield c
    for stream in (chunks, iter(chunks), agen(), DATA):
        got = run(tf.io.decode_weights_stream(stream, SPECS))
        assert {k: v.array_sync() for k, v in got.items()} == {k: v.array_sync() for k, v in want.items()}
        tf.dispose(list(got.values()))
    tf.dispose(list(want.values()))


def test_load_weights_from_files(tmp_path):
    for name, data in SHARDS.items():
        (tmp_path / name).write_bytes(data)
    out = run(tf.io.load_weights(MANIFEST, f"file://{tmp_path}", ["w"]))
    assert out["w"].array_sync() == [1.5, -2.0] and list(out) == ["w"]
    tf.dispose(list(out.values()))


def test_util_fetch_and_repeated_try():
    r = run(tf.util.fetch("data:,a%20b"))
    assert (r.ok, r.status, r.status_text) == (True, 200, "OK") and run(r.text()) == "a b"
    with pytest.raises(ValueError, match="util.fetch"):
        run(tf.util.fetch("http://127.0.0.1:1/nothing"))
    with pytest.raises(TypeError):
        run(tf.util.fetch(3))
    calls = []

    def schedule(fn, ms):   # a scheduler of the caller's: runs the next try at once
        calls.append(ms)
        fn()
    k = [0]

    def check():
        k[0] += 1
        return k[0] >= 4
    assert run(tf.util.repeated_try(check, lambda n: n * 10, None, schedule)) is None
    assert calls == [10, 20, 30]
    with pytest.raises(RuntimeError, match="after 2 tries"):
        run(tf.util.repeated_try(lambda: False, None, 2))
    with pytest.raises(ZeroDivisionError):   # a failing check reaches the caller
        run(tf.util.repeated_try(lambda: 1 / 0))
