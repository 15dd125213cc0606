"""Layers-model files between pytfweb and TensorFlow.js 4.22 (run under node as the peer): models
TF.js saves load here and predict the same; models saved here load in TF.js and predict the same;
the optimizer state travels with include_optimizer; broken files give clear errors and leave no
tensor behind."""
import json
import os
import subprocess

import numpy as np
import pytest

import pytfweb as tf

from tests.unit.helpers import TFJS, assert_same_outputs as _assert_same, need_tfjs as _need_node


# Inputs both sides compute the same way: sin(0), sin(1), ... in the input's shape (ints: i % 10).
def _input(shape, dtype="float32"):
    n = int(np.prod(shape))
    v = np.arange(n) % 10 if dtype == "int32" else np.sin(np.arange(n))
    return np.asarray(v, dtype=dtype).reshape(shape)


_NODE = r"""
const tf = require(process.argv[1]);
const fs = require('fs'), path = require('path');
const [mode, dir] = [process.argv[2], process.argv[3]];
function input(shape, dtype) {
  const n = shape.reduce((a, b) => a * b, 1);
  const v = Array.from({length: n}, (_, i) => dtype === 'int32' ? i % 10 : Math.sin(i));
  return tf.tensor(v, shape, dtype || 'float32');
}
function fileHandler(d) {
  return {
    save: async (a) => {
      fs.mkdirSync(d, {recursive: true});
      fs.writeFileSync(path.join(d, 'weights.bin'), Buffer.from(a.weightData));
      const j = {modelTopology: a.modelTopology, format: a.format, generatedBy: a.generatedBy,
                 convertedBy: a.convertedBy, weightsManifest: [{paths: ['weights.bin'], weights: a.weightSpecs}]};
      if (a.trainingConfig) j.trainingConfig = a.trainingConfig;
      fs.writeFileSync(path.join(d, 'model.json'), JSON.stringify(j));
      return {modelArtifactsInfo: {dateSaved: new Date(), modelTopologyType: 'JSON'}};
    },
    load: async () => {
      const j = JSON.parse(fs.readFileSync(path.join(d, 'model.json'), 'utf8'));
      const specs = [], bufs = [];
      for (const g of j.weightsManifest) {
        specs.push(...g.weights);
        for (const p of g.paths) bufs.push(fs.readFileSync(path.join(d, p)));
      }
      const all = Buffer.concat(bufs);
      return {modelTopology: j.modelTopology, weightSpecs: specs, trainingConfig: j.trainingConfig,
              weightData: all.buffer.slice(all.byteOffset, all.byteOffset + all.length), format: j.format};
    }};
}
const builders = {
  mlp: () => {
    const m = tf.sequential();
    m.add(tf.layers.dense({units: 8, activation: 'relu', inputShape: [4]}));
    m.add(tf.layers.batchNormalization());
    m.add(tf.layers.dropout({rate: 0.2}));
    m.add(tf.layers.dense({units: 3, activation: 'softmax'}));
    return [m, [[2, 4]]];
  },
  convnet: () => {
    const m = tf.sequential();
    m.add(tf.layers.conv2d({filters: 4, kernelSize: 3, activation: 'relu', inputShape: [8, 8, 2]}));
    m.add(tf.layers.maxPooling2d({poolSize: 2}));
    m.add(tf.layers.depthwiseConv2d({kernelSize: 3, padding: 'same', depthMultiplier: 2}));
    m.add(tf.layers.separableConv2d({filters: 3, kernelSize: 2}));
    m.add(tf.layers.flatten());
    m.add(tf.layers.dense({units: 2}));
    return [m, [[2, 8, 8, 2]]];
  },
  functional: () => {
    const a = tf.input({shape: [5], name: 'in_a'}), b = tf.input({shape: [5], name: 'in_b'});
    const shared = tf.layers.dense({units: 3, activation: 'tanh', name: 'shared'});
    const x = tf.layers.concatenate().apply([shared.apply(a), shared.apply(b)]);
    const y = tf.layers.add().apply([tf.layers.dense({units: 2, name: 'left'}).apply(x),
                                     tf.layers.dense({units: 2, name: 'right'}).apply(x)]);
    const z = tf.layers.dense({units: 1, activation: 'sigmoid', name: 'out2'}).apply(x);
    return [tf.model({inputs: [a, b], outputs: [y, z]}), [[3, 5], [3, 5]]];
  },
  recurrent: () => {
    const m = tf.sequential();
    m.add(tf.layers.lstm({units: 4, returnSequences: true, inputShape: [6, 3]}));
    m.add(tf.layers.bidirectional({layer: tf.layers.gru({units: 2, returnSequences: true}), mergeMode: 'concat'}));
    m.add(tf.layers.timeDistributed({layer: tf.layers.dense({units: 2})}));
    m.add(tf.layers.simpleRNN({units: 3}));
    return [m, [[2, 6, 3]]];
  },
  embedding: () => {
    const m = tf.sequential();
    m.add(tf.layers.embedding({inputDim: 10, outputDim: 4, inputLength: 5}));
    m.add(tf.layers.globalAveragePooling1d());
    m.add(tf.layers.dense({units: 2, activation: 'softmax'}));
    return [m, [[3, 5]], ['int32']];
  },
};
function predict(m, shapes, dtypes) {
  const xs = shapes.map((s, i) => input(s, (dtypes || [])[i]));
  let ys = m.predict(xs.length === 1 ? xs[0] : xs);
  ys = Array.isArray(ys) ? ys : [ys];
  return ys.map(y => ({shape: y.shape, values: Array.from(y.dataSync())}));
}
(async () => {
  await tf.setBackend('cpu');
  const out = {};
  if (mode === 'write') {
    for (const [name, build] of Object.entries(builders)) {
      const [m, shapes, dtypes] = build();
      if (name === 'mlp') {
        m.compile({optimizer: tf.train.adam(0.01), loss: 'categoricalCrossentropy', metrics: ['accuracy']});
        await m.fit(input([8, 4]), tf.oneHot(tf.tensor1d([0, 1, 2, 0, 1, 2, 0, 1], 'int32'), 3),
                    {epochs: 3, batchSize: 4, verbose: 0, shuffle: false});
      }
      await m.save(fileHandler(path.join(dir, name)), {includeOptimizer: name === 'mlp'});
      out[name] = {shapes, dtypes: dtypes || null, outputs: predict(m, shapes, dtypes),
                   weights: m.weights.map(w => w.originalName)};
    }
  } else {
    const cases = JSON.parse(fs.readFileSync(0, 'utf8'));
    for (const [name, c] of Object.entries(cases)) {
      const m = await tf.loadLayersModel(fileHandler(path.join(dir, name)));
      out[name] = {outputs: predict(m, c.shapes, c.dtypes), weights: m.weights.map(w => w.originalName),
                   optimizer: m.optimizer ? m.optimizer.getClassName() : null};
    }
  }
  process.stdout.write(JSON.stringify(out));
})().catch(e => { console.error(e.stack || e); process.exit(1); });
"""


def _run_node(mode, directory, stdin=""):
    r = subprocess.run(["node", "-e", _NODE, TFJS, mode, str(directory)], input=stdin, capture_output=True,
                       text=True, timeout=300)
    assert r.returncode == 0, r.stderr[-3000:]
    return json.loads(r.stdout)


def _predict(model, shapes, dtypes=None):
    xs = [tf.tensor(_input(s, (dtypes or [None] * len(shapes))[i] or "float32")) for i, s in enumerate(shapes)]
    ys = model.predict(xs[0] if len(xs) == 1 else xs)
    ys = ys if isinstance(ys, list) else [ys]
    out = [{"shape": list(y.shape), "values": y.numpy().ravel().tolist()} for y in ys]
    tf.dispose(xs + ys)
    return out


@pytest.fixture(scope="module")
def tfjs_saved(tmp_path_factory):
    _need_node()
    d = tmp_path_factory.mktemp("tfjs_saved")
    return d, _run_node("write", d)


@pytest.mark.parametrize("name", ["mlp", "convnet", "functional", "recurrent", "embedding"])
def test_models_saved_by_tfjs_load_and_predict_the_same(tfjs_saved, name):
    d, cases = tfjs_saved
    before = tf.memory()["num_tensors"]
    model = tf.load_layers_model_sync(str(d / name))
    assert [w["name"] for w in model.get_named_weights()] == cases[name]["weights"]
    _assert_same(_predict(model, cases[name]["shapes"], cases[name]["dtypes"]), cases[name]["outputs"])
    model.dispose()
    assert tf.memory()["num_tensors"] == before


def test_optimizer_state_saved_by_tfjs_is_restored(tfjs_saved):
    d, _ = tfjs_saved
    model = tf.load_layers_model_sync(str(d / "mlp"))
    opt = model.optimizer
    assert opt is not None and opt.get_class_name() == "Adam" and opt.learning_rate == pytest.approx(0.01)
    assert opt.iterations == 6   # 3 epochs of 2 batches
    weights = opt.get_weights()
    names = [w["name"] for w in weights]
    assert names[0] == "iter" and any(n.endswith("/kernel/m") for n in names)
    manifest = json.loads((d / "mlp" / "model.json").read_text())["weightsManifest"][0]["weights"]
    assert names == [s["name"] for s in manifest if s.get("group") == "optimizer"]
    tf.dispose(weights[0]["tensor"])
    assert model.metrics_names == ["loss", "acc"]
    model.dispose()


def _our_models():
    mlp = tf.sequential()
    mlp.add(tf.layers.dense(units=8, activation="relu", input_shape=[4]))
    mlp.add(tf.layers.batch_normalization())
    mlp.add(tf.layers.dense(units=3, activation="softmax"))
    conv = tf.sequential()
    conv.add(tf.layers.conv2d(filters=4, kernel_size=3, activation="relu", input_shape=[8, 8, 2]))
    conv.add(tf.layers.average_pooling2d(pool_size=2))
    conv.add(tf.layers.depthwise_conv2d(kernel_size=3, padding="same"))
    conv.add(tf.layers.flatten())
    conv.add(tf.layers.dense(units=2))
    a, b = tf.input(shape=[5], name="in_a"), tf.input(shape=[5], name="in_b")
    shared = tf.layers.dense(units=3, activation="tanh", name="shared")
    x = tf.layers.concatenate().apply([shared.apply(a), shared.apply(b)])
    y = tf.layers.multiply().apply([tf.layers.dense(units=2, name="l").apply(x),
                                    tf.layers.dense(units=2, name="r").apply(x)])
    functional = tf.model(inputs=[a, b], outputs=y)
    rnn = tf.sequential()
    rnn.add(tf.layers.gru(units=3, return_sequences=True, input_shape=[6, 3]))
    rnn.add(tf.layers.lstm(units=2))
    return {"mlp": (mlp, [[2, 4]]), "convnet": (conv, [[2, 8, 8, 2]]), "functional": (functional, [[3, 5], [3, 5]]),
            "recurrent": (rnn, [[2, 6, 3]])}


@pytest.mark.parametrize("quantization_bytes", [None, 2])
def test_models_saved_here_load_in_tfjs_and_predict_the_same(tmp_path, quantization_bytes):
    _need_node()
    before = tf.memory()["num_tensors"]
    cases, expected = {}, {}
    for name, (model, shapes) in _our_models().items():
        if name == "mlp":
            model.compile(optimizer="adam", loss="categorical_crossentropy", metrics=["accuracy"])
        result = model.save_sync(str(tmp_path / name), include_optimizer=name == "mlp",
                                 quantization_bytes=quantization_bytes)
        assert result.model_artifacts_info.weight_data_bytes > 0
        cases[name] = {"shapes": shapes, "dtypes": None}
        expected[name] = (_predict(model, shapes), [w["name"] for w in model.get_named_weights()])
        model.dispose()
    got = _run_node("read", tmp_path, json.dumps(cases))
    for name, (outputs, weight_names) in expected.items():
        assert got[name]["weights"] == weight_names
        # float16 weights: predictions agree to float16's precision
        _assert_same(got[name]["outputs"], outputs, atol=1e-5 if quantization_bytes is None else 2e-2)
    assert got["mlp"]["optimizer"] == "Adam"
    assert tf.memory()["num_tensors"] == before


def test_round_trip_here_with_uint8_and_shards(tmp_path):
    before = tf.memory()["num_tensors"]
    model = tf.sequential()
    model.add(tf.layers.dense(units=600, input_shape=[1000]))   # 2.4 MB of float32 weights
    model.add(tf.layers.dense(units=10))
    from pytfweb.io import files
    handler = files.file_system(str(tmp_path / "m"), shard_bytes=1 << 20)
    model.save_sync(handler)
    assert sorted(p.name for p in (tmp_path / "m").iterdir()) == [
        "group1-shard1of3.bin", "group1-shard2of3.bin", "group1-shard3of3.bin", "model.json"]
    loaded = tf.load_layers_model_sync(str(tmp_path / "m" / "model.json"))
    x = [[1000]]
    _assert_same(_predict(loaded, [[2, 1000]]), _predict(model, [[2, 1000]]), atol=1e-6)
    model.save_sync(str(tmp_path / "q"), quantization_bytes=1)
    spec = json.loads((tmp_path / "q" / "model.json").read_text())["weightsManifest"][0]["weights"][0]
    assert spec["quantization"]["dtype"] == "uint8" and os.path.getsize(tmp_path / "q" / "group1-shard1of1.bin") < 700_000
    q = tf.load_layers_model_sync(str(tmp_path / "q"))
    _assert_same(_predict(q, [[2, 1000]]), _predict(model, [[2, 1000]]), atol=0.2)
    for m in (model, loaded, q):
        m.dispose()
    del x
    assert tf.memory()["num_tensors"] == before


def _saved(tmp_path):
    model = tf.sequential()
    model.add(tf.layers.dense(units=3, input_shape=[2], name="d1"))
    model.add(tf.layers.dense(units=1, name="d2"))
    model.save_sync(str(tmp_path))
    model.dispose()
    return json.loads((tmp_path / "model.json").read_text())


@pytest.mark.parametrize("damage,match", [
    (lambda d, j: (d / "group1-shard1of1.bin").write_bytes((d / "group1-shard1of1.bin").read_bytes()[:-4]),
     "d2/bias.*truncated"),
    (lambda d, j: (j["weightsManifest"][0]["weights"][0].update(shape=[2, 4]), _dump(d, j)), "disagree|truncated"),
    (lambda d, j: (j["weightsManifest"][0]["weights"][0].update(dtype="float64"), _dump(d, j)), "d1/kernel.*dtype"),
    (lambda d, j: (j["modelTopology"]["config"]["layers"][0].update(class_name="NoSuchLayer"), _dump(d, j)),
     "NoSuchLayer"),
    (lambda d, j: (j["modelTopology"]["config"]["layers"][0].update(class_name="Lambda"), _dump(d, j)), "Lambda"),
    (lambda d, j: (d / "model.json").write_text("{not json"), "not valid JSON"),
    (lambda d, j: os.remove(d / "group1-shard1of1.bin"), "group1-shard1of1.bin"),
    (lambda d, j: (j["weightsManifest"][0]["weights"].pop(), _dump(d, j)), "d2/bias|disagree"),
])
def test_broken_files_raise_clear_errors_and_leave_nothing(tmp_path, damage, match):
    j = _saved(tmp_path)
    damage(tmp_path, j)
    before = tf.memory()["num_tensors"]
    with pytest.raises(ValueError, match=match) as e:
        tf.load_layers_model_sync(str(tmp_path))
    assert str(tmp_path) in str(e.value) or "NoSuchLayer" in str(e.value) or "Lambda" in str(e.value)
    assert tf.memory()["num_tensors"] == before
    # the engine still works
    assert tf.add(tf.scalar(1.0), 1).array_sync() == 2.0


def _dump(d, j):
    (d / "model.json").write_text(json.dumps(j))


def test_wrong_format_and_handlers(tmp_path):
    _saved(tmp_path)
    j = json.loads((tmp_path / "model.json").read_text())
    j["format"] = "graph-model"
    _dump(tmp_path, j)
    with pytest.raises(ValueError, match="load_graph_model"):
        tf.load_layers_model_sync(str(tmp_path))
    with pytest.raises(ValueError, match="quantization_bytes"):
        tf.sequential([tf.layers.dense(units=1, input_shape=[1])]).save_sync(str(tmp_path / "x"), quantization_bytes=3)


def test_memory_and_callback_handlers_and_async_forms(tmp_path):
    import asyncio
    model = tf.sequential()
    model.add(tf.layers.dense(units=2, input_shape=[3]))
    saved = []
    asyncio.run(model.save(tf.io.with_save_handler(saved.append)))
    art = saved[0]
    assert art.format == "layers-model" and art.generated_by.startswith("TensorFlow.js tfjs-layers")
    assert art.model_topology["class_name"] == "Sequential" and art.converted_by is None
    loaded = asyncio.run(tf.load_layers_model(tf.io.from_memory(art)))
    _assert_same(_predict(loaded, [[1, 3]]), _predict(model, [[1, 3]]), atol=0)
    model.dispose()
    loaded.dispose()


def test_a_weight_whose_shape_disagrees_with_the_topology_names_file_and_weight(tmp_path):
    j = _saved(tmp_path)
    j["modelTopology"]["config"]["layers"][0]["config"]["units"] = 4   # d1/kernel [2, 3] in the file
    _dump(tmp_path, j)
    before = tf.memory()["num_tensors"]
    with pytest.raises(ValueError, match=r"\(.*model.json\): weight 'd1/kernel' has shape \[2, 3\] in the file, "
                                         r"but the model expects \[2, 4\]"):
        tf.load_layers_model_sync(str(tmp_path / "model.json"))
    assert tf.memory()["num_tensors"] == before
