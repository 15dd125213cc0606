"""Model files on webgl: a model of every layer family (tests/layer_families.py) is built in the
page, saved in TF.js's layers format (one through indexeddb://, the others to memory) and loaded
back: the loaded model predicts what the original predicted on webgl, and the same file loaded here
on the cpu backend predicts the same within float32 GPU arithmetic. Nothing is left behind."""
import base64
from pathlib import Path

import numpy as np

import pytfweb as tf
from tests import layer_families as families

FAMILIES_SRC = (Path(__file__).resolve().parents[1] / "layer_families.py").read_text()

PAGE = '''
import base64
ns = {}
exec(families_src, ns)
start = tf.memory().num_tensors
out = {}
for name in ns["NAMES"]:
    model = ns["build"](tf, name)
    values, dtype = ns["inputs"](name)
    xs = [tf.tensor(v, dtype=dtype) for v in values]
    x = xs[0] if len(xs) == 1 else xs
    saved = []
    if name == "recurrent":
        await model.save("indexeddb://pytfweb-test-families")
        loaded = await tf.load_layers_model("indexeddb://pytfweb-test-families")
        await tf.io.remove_model("indexeddb://pytfweb-test-families")
        art = None
    else:
        await model.save(tf.io.with_save_handler(saved.append))
        art = saved[0]
        loaded = await tf.load_layers_model(tf.io.from_memory(art))
    ys = [y for y in (lambda r: r if isinstance(r, list) else [r])(model.predict(x))]
    zs = [z for z in (lambda r: r if isinstance(r, list) else [r])(loaded.predict(x))]
    if art is None:   # the weights as the store gave them, for the cpu side
        art_saved = []
        await loaded.save(tf.io.with_save_handler(art_saved.append))
        art = art_saved[0]
    out[name] = {"original": [await y.array() for y in ys], "loaded": [await z.array() for z in zs],
                 "topology": art.model_topology, "specs": art.weight_specs,
                 "data": base64.b64encode(bytes(art.weight_data)).decode()}
    tf.dispose(xs + ys + zs)
    model.dispose()
    loaded.dispose()
out["left"] = tf.memory().num_tensors - start
out
'''


def test_every_layer_family_saves_and_loads_on_webgl_and_matches_cpu(run_py):
    page = run_py(PAGE, families_src=FAMILIES_SRC)
    assert page.pop("left") == 0
    previous = tf.get_backend()
    tf.set_backend("cpu")
    try:
        for name in families.NAMES:
            got = page[name]
            for o, z in zip(got["original"], got["loaded"]):   # same backend, same weights
                np.testing.assert_allclose(z, o, rtol=1e-6, atol=1e-6, err_msg=name)
            art = tf.io.ModelArtifacts(model_topology=got["topology"], weight_specs=got["specs"],
                                       weight_data=base64.b64decode(got["data"]), format="layers-model")
            model = tf.load_layers_model_sync(tf.io.from_memory_sync(art))
            values, dtype = families.inputs(name)
            xs = [tf.tensor(v, dtype=dtype) for v in values]
            ys = model.predict(xs[0] if len(xs) == 1 else xs)
            ys = ys if isinstance(ys, list) else [ys]
            for y, z in zip(ys, got["loaded"]):
                np.testing.assert_allclose(z, y.numpy(), rtol=1e-3, atol=1e-4, err_msg=name)
            tf.dispose(xs + ys)
            model.dispose()
    finally:
        tf.set_backend(previous)
