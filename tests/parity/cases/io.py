"""tf.io's pure helpers: weights encoded to bytes and specs and decoded back (quantized ones too),
byte buffers concatenated, the specs of a weights manifest, URL schemes, the artifacts info of a
model.json and the artifacts a memory handler loads. (Loading and saving through files, http and
browser storage is checked against TF.js in test_io_weights.py and test_layers_model_files.py.)

No cases, and why: the handlers and their registries act on servers, files and browser storage, which
both runners cannot share, so they are tested where those exist: http, browserHTTPRequest,
getLoadHandlers, getSaveHandlers, browserFiles, listModels, copyModel, moveModel, removeModel in
tests/unit/test_io_http.py (a local HTTP server; models TF.js saved load here and the reverse) and in the
page in tests/browser/test_io_browser.py (IndexedDB, localStorage, downloads, files); registerLoadRouter
and withSaveHandler(Sync) in tests/unit/test_io_weights.py and test_layers_model_files.py;
registerSaveRouter beside registerLoadRouter (io/router.py, one implementation). weightsLoaderFactory and
decodeWeightsStream take a function or a ReadableStream: tests/unit/test_io_weights_loader.py.

getModelArtifactsForJSON's cases pass an async callback ('weightsOf') reading the manifest. loadWeights
reads data: URLs: TF.js joins prefix + '/' + path, so a prefix "data:application/octet-stream," makes each
shard's bytes '/' followed by its percent-decoded path (shards here start with 47, the byte of '/')."""
import struct
import urllib.parse

from ..spec import T, case, chain, fn_arg, props, sines

IO = "tf.io."


def B(*values, fmt="<f"):   # noqa: N802 - reads as a type in case lists
    """bytes of values packed little-endian, as {'bytes': [...]}, the form both runners read."""
    return {"bytes": list(struct.pack(f"{fmt[0]}{len(values)}{fmt[1:]}", *values))}


F = sines([2, 3], 1.5)
I32 = T([1, -2, 300000], dtype="int32")
BOOL = T([True, False, True, True], dtype="bool")
STR = T(["a", "hello", ""], dtype="string")
SPECS = [{"name": "w", "shape": [2, 2], "dtype": "float32"}, {"name": "i", "shape": [2], "dtype": "int32"},
         {"name": "b", "shape": [3], "dtype": "bool"}]
DATA = {"bytes": B(1.5, -2.0, 0.25, 8.0)["bytes"] + B(7, -9, fmt="<i")["bytes"] + [1, 0, 1]}
ARTIFACTS = {"modelTopology": {"class_name": "Sequential", "config": {"layers": []}}, "weightSpecs": SPECS,
             "weightData": DATA, "format": "layers-model"}
MANIFEST = [{"paths": ["group1-shard1of1.bin"], "weights": SPECS[:2]},
            {"paths": ["group2-shard1of1.bin"], "weights": SPECS[2:]}]

CASES = [
    case(IO + "encodeWeights", {"w": F, "i": I32, "b": BOOL}, awaits=True),
    case(IO + "encodeWeights", {"s": STR, "w": F}, awaits=True),
    case(IO + "encodeWeights", {"w": F}, "layer1", awaits=True),
    case(IO + "encodeWeights", {"c": T([1.0], dtype="complex64")}, awaits=True, error=True),
    case(IO + "decodeWeights", DATA, SPECS),
    case(IO + "decodeWeights", B(1.0, 2.0), [{"name": "a", "shape": [], "dtype": "float32"},
                                             {"name": "b", "shape": [1], "dtype": "float32"}]),
    case(IO + "decodeWeights", {"bytes": [0, 128, 255, 64]},
         [{"name": "q", "shape": [4], "dtype": "float32",
           "quantization": {"dtype": "uint8", "scale": 0.5, "min": -1.0}}]),
    case(IO + "decodeWeights", {"bytes": list(struct.pack("<3H", 0, 1000, 65535))},
         [{"name": "q", "shape": [3], "dtype": "float32",
           "quantization": {"dtype": "uint16", "scale": 0.01, "min": 2.0}}]),
    case(IO + "decodeWeights", {"bytes": list(struct.pack("<3e", 1.5, -0.25, 65504.0))},
         [{"name": "h", "shape": [3], "dtype": "float32", "quantization": {"dtype": "float16"}}]),
    case(IO + "decodeWeights", {"bytes": list(struct.pack("<I", 1) + b"a" + struct.pack("<I", 3) + b"xyz")},
         [{"name": "s", "shape": [2], "dtype": "string"}]),
    case(IO + "concatenateArrayBuffers", [B(1.0), {"bytes": [1, 2, 3]}, {"bytes": []}]),
    case(IO + "concatenateArrayBuffers", []),
    case(IO + "getWeightSpecs", MANIFEST),
    case(IO + "isHTTPScheme", "http://example.org/model.json"),
    case(IO + "isHTTPScheme", "https://example.org/model.json"),
    case(IO + "isHTTPScheme", "file:///tmp/model.json"),
    case(IO + "isHTTPScheme", "indexeddb://m"),
    props(IO + "getModelArtifactsInfoForJSON",
          {"modelTopology": {"class_name": "Sequential", "config": {"layers": []}}, "weightSpecs": SPECS,
           "weightData": DATA, "format": "layers-model"},
          props=["modelTopologyType", "modelTopologyBytes", "weightSpecsBytes", "weightDataBytes"]),
    props(IO + "getModelArtifactsForJSONSync",
          {"modelTopology": {"class_name": "Sequential"}, "format": "layers-model", "generatedBy": "x",
           "weightsManifest": MANIFEST}, SPECS, DATA,
          props=["modelTopology", "format", "generatedBy", "weightSpecs", "weightData"]),
]
# getModelArtifactsForJSON: the same, its weights from an async callback given the manifest
JSON_WITH_WEIGHTS = {"modelTopology": {"class_name": "Sequential"}, "format": "layers-model", "generatedBy": "x",
                     "weightsManifest": MANIFEST}
CASES += [chain(IO + "getModelArtifactsForJSON", JSON_WITH_WEIGHTS, fn_arg("weightsOf", {**DATA, "buffer": True}),
                calls=[(field,)])
          for field in ("modelTopology", "format", "generatedBy", "weightSpecs", "weightData")]
CASES += [chain(IO + "getModelArtifactsForJSON", {"modelTopology": {"class_name": "Sequential"}},
                fn_arg("weightsOf", DATA), calls=[("weightSpecs",)])]   # no manifest: no weights asked for
# an artifacts handler in memory: load() gives the artifacts back (awaited)
CASES += [chain(IO + fn, ARTIFACTS, calls=[("load", []), (field,)])
          for fn in ("fromMemory", "fromMemorySync")
          for field in ("modelTopology", "weightSpecs", "weightData", "format")]


# loadWeights from data: URLs (see the docstring): group 1 one shard, group 2 two shards
PREFIX = "data:application/octet-stream,"


def _path(shard):
    assert shard[0] == 47, "a shard must start with the byte of '/'"
    return urllib.parse.quote(bytes(shard[1:]), safe="")


SHARD1 = list(struct.pack("<2i3f", 47, -5, 1.5, -0.25, 3e5))
SHARD2A, SHARD2B = [47, 10, 200], [47, 0, 1, 1]
LOAD_MANIFEST = [
    {"paths": [_path(SHARD1)], "weights": [{"name": "i", "shape": [2], "dtype": "int32"},
                                          {"name": "w", "shape": [3], "dtype": "float32"}]},
    {"paths": [_path(SHARD2A), _path(SHARD2B)],
     "weights": [{"name": "q", "shape": [2, 2], "dtype": "float32",
                  "quantization": {"dtype": "uint8", "scale": 0.5, "min": -1.0}},
                 {"name": "b", "shape": [3], "dtype": "bool"}]},
]
CASES += [
    case(IO + "loadWeights", LOAD_MANIFEST, PREFIX, awaits=True),
    case(IO + "loadWeights", LOAD_MANIFEST, PREFIX, ["w", "b"], awaits=True),
    case(IO + "loadWeights", LOAD_MANIFEST, PREFIX, ["q"], awaits=True),
    case(IO + "loadWeights", LOAD_MANIFEST, PREFIX, ["w", "nope"], awaits=True, error=True),
]
