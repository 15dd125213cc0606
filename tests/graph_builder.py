"""Build TF.js graph models (model.json + weights) by hand, in the exact JSON form TF.js's converter
writes, for tests: the Python `tensorflowjs` converter is too heavy to install here.

    b = GraphBuilder()
    x = b.placeholder("x", [-1, 4])
    w = b.const("w", np.ones((4, 2), np.float32))
    y = b.op("MatMul", "y", [x, w], T=dt("float32"), transpose_a=flag(False), transpose_b=flag(False))
    artifacts = b.artifacts()            # for tf.io.from_memory (Python) / tf.io.fromMemory (TF.js)
    b.save(directory)                    # model.json + group1-shard1of1.bin

Attribute encoders (dt, i, f, flag, s, ints, floats, strs, shape, func, dts) give the protobuf
JSON forms: {"type": "DT_FLOAT"}, {"i": "1"}, {"f": 0.5}, {"b": true}, {"s": base64},
{"list": {"i": ["1", "2"]}}, {"shape": {"dim": [{"size": "-1"}]}}, {"func": {"name": ...}}.

run_tfjs(cases) runs TF.js 4.22 itself under node on the same models (the peer check).
"""
import base64
import json
import os
import shutil
import subprocess
from pathlib import Path

import numpy as np

REPO = Path(__file__).resolve().parents[1]

DT = {"float32": "DT_FLOAT", "int32": "DT_INT32", "bool": "DT_BOOL", "string": "DT_STRING", "int64": "DT_INT64",
      "complex64": "DT_COMPLEX64", "variant": "DT_VARIANT", "resource": "DT_RESOURCE"}
_NP = {"float32": "<f4", "int32": "<i4", "bool": "u1"}


# --- attribute encoders ----------------------------------------------------------------------------------
def dt(dtype):
    return {"type": DT[dtype]}


def i(v):
    return {"i": str(int(v))}


def f(v):
    return {"f": float(v)}


def flag(v):
    return {"b": bool(v)}


def _b64(text):
    return base64.b64encode(text.encode("utf-8") if isinstance(text, str) else text).decode("ascii")


def s(text):
    return {"s": _b64(text)}


def ints(vs):
    return {"list": {"i": [str(int(v)) for v in vs]}} if len(vs) else {"list": {}}


def floats(vs):
    return {"list": {"f": [float(v) for v in vs]}}


def strs(vs):
    return {"list": {"s": [_b64(v) for v in vs]}} if len(vs) else {"list": {}}


def dts(dtypes):
    return {"list": {"type": [DT[d] for d in dtypes]}}


def shape_proto(dims):
    if dims is None:
        return {"unknownRank": True}
    return {"dim": [{"size": str(int(d))} for d in dims]} if len(dims) else {}


def shape(dims):
    return {"shape": shape_proto(dims)}


def func(name):
    return {"func": {"name": name}}


def tensor_proto(value, dtype, with_values=False):
    """A TensorProto: dtype and shape (the converter moves the values to the weights); with
    with_values the values too, as TensorFlow writes small constants."""
    value = np.asarray(value)
    proto = {"dtype": DT[dtype], "tensorShape": shape_proto(value.shape)}
    if with_values:
        flat = value.ravel().tolist()
        key = {"float32": "floatVal", "int32": "intVal", "bool": "boolVal", "string": "stringVal"}[dtype]
        proto[key] = [_b64(v) for v in flat] if dtype == "string" else flat
    return proto


def _dtype_of(value):
    value = np.asarray(value)
    if value.dtype == np.bool_:
        return "bool"
    if value.dtype.kind in "iu":
        return "int32"
    if value.dtype.kind in "US":
        return "string"
    return "float32"


class GraphBuilder:
    def __init__(self, producer=1482, min_consumer=12):
        self.nodes = []
        self.weights = []  # (name, ndarray, dtype)
        self.functions = []
        self.versions = {"producer": producer, "minConsumer": min_consumer} if producer is not None else None

    # --- nodes ---------------------------------------------------------------------------------------------
    def op(self, op, name, inputs=(), **attr):
        node = {"name": name, "op": op}
        if inputs:
            node["input"] = list(inputs)
        if attr:
            node["attr"] = attr
        self.nodes.append(node)
        return name

    def placeholder(self, name, dims, dtype="float32"):
        return self.op("Placeholder", name, dtype=dt(dtype), shape=shape(dims))

    def const(self, name, value, dtype=None, inline=False, control=()):
        """A Const node; its value goes to the weights manifest (as the converter does) unless inline."""
        dtype = dtype or _dtype_of(value)
        value = np.asarray(value, dtype=_NP.get(dtype, object) if dtype != "string" else object)
        if not inline:
            self.weights.append((name, value, dtype))
        attr = {"dtype": dt(dtype), "value": {"tensor": tensor_proto(value, dtype, with_values=inline)}}
        return self.op("Const", name, [f"^{c}" for c in control], **attr)

    def function(self, name, args, rets, body):
        """A library function: args [(name, dtype)], rets [(output name, dtype, 'node:arg:i')], body
        a GraphBuilder holding its nodes (its consts' values go to this model's weights, named as
        the converter renames them: '<function>/<node>')."""
        renamed = {}
        for wname, value, dtype in body.weights:
            renamed[wname] = f"{name}/{wname}"
            self.weights.append((renamed[wname], value, dtype))
        nodes = []
        for node in body.nodes:
            node = json.loads(json.dumps(node))
            if node["name"] in renamed:
                node["name"] = renamed[node["name"]]
            node["input"] = [_rename_input(s_, renamed) for s_ in node.get("input", [])]
            if not node["input"]:
                del node["input"]
            nodes.append(node)
        self.functions.append({
            "signature": {"name": name, "inputArg": [{"name": a, "type": DT[d]} for a, d in args],
                          "outputArg": [{"name": r, "type": DT[d]} for r, d, _ in rets]},
            "nodeDef": nodes,
            "ret": {r: _rename_input(ref, renamed) for r, _, ref in rets},
        })
        return name

    # --- output --------------------------------------------------------------------------------------------
    def graph_def(self):
        g = {"node": self.nodes}
        if self.functions:
            g["library"] = {"function": self.functions}
        if self.versions is not None:
            g["versions"] = self.versions
        return g

    def weight_data(self):
        specs, chunks = [], []
        for name, value, dtype in self.weights:
            specs.append({"name": name, "shape": list(value.shape), "dtype": dtype})
            if dtype == "string":
                for v in value.ravel():
                    b = str(v).encode("utf-8")
                    chunks.append(len(b).to_bytes(4, "little") + b)
            else:
                chunks.append(np.ascontiguousarray(value, dtype=_NP[dtype]).tobytes())
        return specs, b"".join(chunks)

    def artifacts(self, signature=None, metadata=None, initializer=None):
        """TF.js's ModelArtifacts as a dict (weightData bytes) for tf.io.from_memory."""
        specs, data = self.weight_data()
        out = {"modelTopology": self.graph_def(), "format": "graph-model", "generatedBy": "2.15.0",
               "convertedBy": "TensorFlow.js Converter v4.22.0", "weightSpecs": specs, "weightData": data}
        if signature is not None:
            out["signature"] = signature
        if metadata is not None:
            out["userDefinedMetadata"] = metadata
        if initializer is not None:
            out["modelInitializer"] = initializer
        return out

    def model_json(self, signature=None, shard="group1-shard1of1.bin"):
        specs, data = self.weight_data()
        mj = {"format": "graph-model", "generatedBy": "2.15.0", "convertedBy": "TensorFlow.js Converter v4.22.0",
              "signature": signature or {}, "modelTopology": self.graph_def(),
              "weightsManifest": [{"paths": [shard], "weights": specs}]}
        return mj, data

    def save(self, directory, signature=None):
        directory = Path(directory)
        directory.mkdir(parents=True, exist_ok=True)
        mj, data = self.model_json(signature)
        (directory / "model.json").write_text(json.dumps(mj))
        (directory / "group1-shard1of1.bin").write_bytes(data)
        return directory


def _rename_input(ref, renamed):
    ctrl = ref.startswith("^")
    name = ref[1:] if ctrl else ref
    head, sep, tail = name.partition(":")
    head = renamed.get(head, head)
    return ("^" if ctrl else "") + head + sep + tail


def tensor_info(name, dtype, dims):
    """A signature entry."""
    return {"name": name, "dtype": DT[dtype], "tensorShape": shape_proto(dims)}


# --- TF.js peer ---------------------------------------------------------------------------------------------
_RUNNER = r"""
const tf = require('@tensorflow/tfjs');
console.warn = () => {};
const plain = (t) => ({shape: t.shape, dtype: t.dtype,
  values: Array.from(t.dataSync(), v => (typeof v === 'number' && !Number.isFinite(v)) ? String(v) : v)});
const decodeInput = (v) => tf.tensor(v.dtype === 'float32' ? v.values.map(Number) : v.values, v.shape, v.dtype);
let input = '';
process.stdin.on('data', d => input += d);
process.stdin.on('end', async () => {
  await tf.setBackend('cpu');
  const cases = JSON.parse(input);
  const results = [];
  for (const c of cases) {
    const rec = {};
    let model = null;
    try {
      const a = c.artifacts;
      const buf = Buffer.from(a.weightData, 'base64');
      a.weightData = buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength);
      model = await tf.loadGraphModel(tf.io.fromMemory(a));
      rec.modelVersion = model.modelVersion;
      rec.inputNodes = model.inputNodes;
      rec.outputNodes = model.outputNodes;
      rec.inputs = model.inputs;
      rec.outputs = model.outputs;
      let inputs = c.inputs;
      if (Array.isArray(inputs)) inputs = inputs.map(decodeInput);
      else inputs = Object.fromEntries(Object.entries(inputs).map(([k, v]) => [k, decodeInput(v)]));
      const before = tf.memory().numTensors;
      let out = c.mode === 'executeAsync' ? await model.executeAsync(inputs, c.outputs || undefined)
              : c.mode === 'execute' ? model.execute(inputs, c.outputs || undefined) : model.predict(inputs);
      const list = out instanceof tf.Tensor ? [out] : (Array.isArray(out) ? out : Object.values(out));
      rec.outputsValues = list.map(plain);
      tf.dispose(list);
      rec.leaked = tf.memory().numTensors - before;
      tf.dispose(Object.values(inputs));
    } catch (e) {
      rec.error = String(e && e.message || e);
    }
    if (model) model.dispose();
    results.push(rec);
  }
  process.stdout.write('\n@@RESULT@@' + JSON.stringify(results) + '\n');
});
"""


def tfjs_available():
    return shutil.which("node") is not None and (REPO / "node_modules/@tensorflow/tfjs").is_dir()


def encode_input(a):
    a = np.asarray(a)
    dtype = {"f": "float32", "i": "int32", "u": "int32", "b": "bool"}.get(a.dtype.kind, "string")
    values = a.ravel().tolist()
    if dtype == "float32":  # JSON has no NaN or infinities: TF.js reads these back with Number()
        values = [v if np.isfinite(v) else str(v).replace("inf", "Infinity").replace("nan", "NaN") for v in values]
    if dtype == "bool":
        values = [bool(v) for v in values]
    return {"values": values, "shape": list(a.shape), "dtype": dtype}


def run_tfjs(cases):
    """cases: [{"artifacts": GraphBuilder.artifacts(...), "inputs": [arrays] or {name: array},
    "outputs": None or names, "mode": "predict" | "execute" | "executeAsync"}] -> per case a dict with
    outputsValues [{shape, dtype, values}] (or error), modelVersion, inputs, outputs, inputNodes, outputNodes."""
    payload = []
    for c in cases:
        a = dict(c["artifacts"])
        a["weightData"] = base64.b64encode(a["weightData"]).decode("ascii")
        inputs = c["inputs"]
        inputs = [encode_input(v) for v in inputs] if isinstance(inputs, (list, tuple)) else \
            {k: encode_input(v) for k, v in inputs.items()}
        payload.append({"artifacts": a, "inputs": inputs, "outputs": c.get("outputs"), "mode": c.get("mode", "predict")})
    proc = subprocess.run(["node", "-e", _RUNNER], input=json.dumps(payload), capture_output=True, text=True,
                          cwd=REPO, timeout=600, env={**os.environ, "NODE_NO_WARNINGS": "1"})
    assert proc.returncode == 0, proc.stderr[-3000:]
    marker = next(line for line in proc.stdout.splitlines() if line.startswith("@@RESULT@@"))
    return json.loads(marker[len("@@RESULT@@"):])


def tfjs_array(rec):
    """One TF.js output record -> numpy array."""
    dtype = {"float32": np.float32, "int32": np.int32, "bool": np.bool_}.get(rec["dtype"], object)
    values = [float(v) if isinstance(v, str) and rec["dtype"] == "float32" else v for v in rec["values"]]
    return np.array(values, dtype=dtype).reshape(rec["shape"])


_TEST_DATA = r"""
const dir = process.cwd() + '/node_modules/@tensorflow/tfjs-converter/dist/executor/test_data/';
(async () => {
  const m = await import(dir + process.argv[1]);
  const a = {...m[process.argv[2]]};
  a.weightData = Buffer.from(new Uint8Array(a.weightData)).toString('base64');
  process.stdout.write(JSON.stringify(a));
})();
"""


def tfjs_test_model(module, export):
    """One of the models TF.js's converter ships as test data (converted by the real converter),
    as artifacts with weightData bytes."""
    path = REPO / "node_modules/@tensorflow/tfjs-converter/dist/executor/test_data" / module
    if shutil.which("node") is None or not path.is_file():
        return None
    proc = subprocess.run(["node", "-e", _TEST_DATA, module, export], capture_output=True, text=True, cwd=REPO,
                          timeout=60)
    assert proc.returncode == 0, proc.stderr[-2000:]
    artifacts = json.loads(proc.stdout)
    artifacts["weightData"] = base64.b64decode(artifacts["weightData"])
    return artifacts
