"""Model artifacts (what a handler loads or saves) and the model.json that describes them.

ModelArtifacts holds TF.js's fields in snake_case; model.json keeps TF.js's camelCase keys, so
files move between pytfweb and TF.js unchanged.
"""
import datetime
import json
from typing import List, Optional

from ..core.limits import load_json

# model.json key <-> ModelArtifacts attribute, in the order TF.js writes them.
_JSON_FIELDS = (("modelTopology", "model_topology"), ("format", "format"), ("generatedBy", "generated_by"),
                ("convertedBy", "converted_by"), ("signature", "signature"),
                ("userDefinedMetadata", "user_defined_metadata"), ("modelInitializer", "model_initializer"),
                ("initializerSignature", "initializer_signature"), ("trainingConfig", "training_config"))


class ModelArtifacts:
    """A model's topology, weights and metadata, as TF.js's ModelArtifacts: what IO handlers load
    and save.

    Args:
        model_topology: the topology (a layers model's JSON dict, or a graph).
        training_config: the compile settings (layers models).
        weight_specs: [{'name', 'shape', 'dtype', ...}] describing weight_data.
        weight_data: the weights' bytes (bytes, or a list of buffers, joined).
        format: 'layers-model' or 'graph-model'.
        generated_by: the library that made the artifacts.
        converted_by: the converter that made them.
        signature: a graph model's signature.
        user_defined_metadata: the user's metadata.
        model_initializer: a graph model's initializer graph.
        initializer_signature: its signature.

    Example:
        >>> saved = []
        >>> model = tf.sequential([tf.layers.dense(units=1, input_shape=[2])])
        >>> _ = model.save_sync(tf.io.with_save_handler_sync(saved.append))
        >>> saved[0].format, len(saved[0].weight_specs), len(saved[0].weight_data)
        ('layers-model', 2, 12)
    """

    FIELDS = ("model_topology", "training_config", "weight_specs", "weight_data", "format", "generated_by",
              "converted_by", "signature", "user_defined_metadata", "model_initializer", "initializer_signature")

    def __init__(self, model_topology=None, training_config=None, weight_specs=None, weight_data=None, format=None,  # noqa: A002
                 generated_by=None, converted_by=None, signature=None, user_defined_metadata=None,
                 model_initializer=None, initializer_signature=None):
        self.model_topology = model_topology
        self.training_config = training_config
        self.weight_specs = weight_specs
        self.weight_data = _joined(weight_data)
        self.format = format
        self.generated_by = generated_by
        self.converted_by = converted_by
        self.signature = signature
        self.user_defined_metadata = user_defined_metadata
        self.model_initializer = model_initializer
        self.initializer_signature = initializer_signature
        # True where the topology came from limits.load_json, which checked its nesting: the model
        # loaders skip walking it again (a topology given as a dict is walked)
        self.nesting_checked = False

    @classmethod
    def from_dict(cls, fields, api):
        """ModelArtifacts from TF.js's artifacts object: a dict with modelTopology, weightSpecs,
        weightData, ... keys (camelCase, or snake_case).

        Args:
            fields: the dict.
            api: the calling function's name, for error messages.

        Returns:
            A ModelArtifacts.

        Raises:
            ValueError: an unknown key.
        """
        fields = {"".join("_" + ch.lower() if ch.isupper() else ch for ch in k): v for k, v in fields.items()}
        unknown = set(fields) - set(cls.FIELDS)
        if unknown:
            raise ValueError(f"{api}: unknown model artifacts fields {sorted(unknown)}")
        return cls(**fields)

    def __repr__(self):
        n = len(self.weight_specs or ())
        size = len(self.weight_data) if self.weight_data is not None else 0
        return f"ModelArtifacts(format={self.format!r}, weights={n}, weight_bytes={size})"


def _joined(data):
    if data is None or isinstance(data, bytes):
        return data
    if isinstance(data, (bytearray, memoryview)):
        return bytes(data)
    if isinstance(data, (list, tuple)):
        return b"".join(bytes(b) for b in data)
    raise TypeError(f"ModelArtifacts: weight_data must be bytes or a list of bytes, got {type(data).__name__}")


class ModelArtifactsInfo:
    """What a save wrote: date_saved (a datetime), model_topology_type ('JSON'), and the bytes of the
    topology, the weight specs and the weight data.

    Example:
        >>> model = tf.sequential([tf.layers.dense(units=1, input_shape=[2])])
        >>> info = model.save_sync(tf.io.with_save_handler_sync(lambda artifacts: None)).model_artifacts_info
        >>> info.model_topology_type, info.weight_data_bytes
        ('JSON', 12)
    """
    def __init__(self, date_saved, model_topology_type, model_topology_bytes=0, weight_specs_bytes=0,
                 weight_data_bytes=0):
        self.date_saved = date_saved
        self.model_topology_type = model_topology_type
        self.model_topology_bytes = model_topology_bytes
        self.weight_specs_bytes = weight_specs_bytes
        self.weight_data_bytes = weight_data_bytes

    def to_json(self):
        """TF.js's JSON form (camelCase keys, the date in ISO format).

        Returns:
            A dict.
        """
        return {"dateSaved": self.date_saved.isoformat(), "modelTopologyType": self.model_topology_type,
                "modelTopologyBytes": self.model_topology_bytes, "weightSpecsBytes": self.weight_specs_bytes,
                "weightDataBytes": self.weight_data_bytes}

    @classmethod
    def from_json(cls, d):
        """The info TF.js's JSON form describes.

        Args:
            d: the dict (dateSaved, modelTopologyType, ...).

        Returns:
            A ModelArtifactsInfo.
        """
        return cls(datetime.datetime.fromisoformat(d["dateSaved"].replace("Z", "+00:00")), d["modelTopologyType"],
                   d.get("modelTopologyBytes", 0), d.get("weightSpecsBytes", 0), d.get("weightDataBytes", 0))

    def __repr__(self):
        return (f"ModelArtifactsInfo(type={self.model_topology_type}, topology_bytes={self.model_topology_bytes}, "
                f"weight_specs_bytes={self.weight_specs_bytes}, weight_data_bytes={self.weight_data_bytes})")


class SaveResult:
    """What model.save returns: model_artifacts_info (a ModelArtifactsInfo), and the handler's
    responses and errors (HTTP responses for tf.io.http).

    Example:
        >>> model = tf.sequential([tf.layers.dense(units=1, input_shape=[2])])
        >>> result = model.save_sync(tf.io.with_save_handler_sync(lambda artifacts: None))
        >>> result.model_artifacts_info.weight_specs_bytes > 0
        True
    """
    def __init__(self, model_artifacts_info, responses=None, errors=None):
        self.model_artifacts_info = model_artifacts_info
        self.responses = responses
        self.errors = errors

    def __repr__(self):
        return f"SaveResult({self.model_artifacts_info!r})"


def _json_bytes(value):
    return len(json.dumps(value, separators=(",", ":")).encode("utf-8"))


def artifacts_info(artifacts):
    """TF.js's getModelArtifactsInfoForJSON: sizes of the topology, the specs and the weights."""
    if isinstance(artifacts, dict):
        artifacts = ModelArtifacts.from_dict(artifacts, "get_model_artifacts_info_for_json")
    if isinstance(artifacts.model_topology, (bytes, bytearray)):
        raise ValueError("artifacts_info: expected a JSON model topology, got bytes")
    return ModelArtifactsInfo(
        datetime.datetime.now(datetime.timezone.utc), "JSON",
        0 if artifacts.model_topology is None else _json_bytes(artifacts.model_topology),
        0 if artifacts.weight_specs is None else _json_bytes(artifacts.weight_specs),
        0 if artifacts.weight_data is None else len(artifacts.weight_data))


def model_json_for(artifacts, weights_manifest):
    """The model.json object for artifacts whose weights are stored as weights_manifest says."""
    out = {}
    for key, attr in _JSON_FIELDS:
        value = getattr(artifacts, attr)
        if key in ("modelTopology", "format", "generatedBy", "convertedBy") or value is not None:
            out[key] = value
        if key == "convertedBy":
            out["weightsManifest"] = weights_manifest
    return out


def check_model_json(model_json, source):
    """A clear ValueError naming source when model_json is not a model.json object."""
    if not isinstance(model_json, dict):
        raise ValueError(f"{source}: model.json must hold a JSON object, got {type(model_json).__name__}")
    if model_json.get("modelTopology") is None and model_json.get("weightsManifest") is None:
        raise ValueError(f"{source}: model.json has neither 'modelTopology' nor 'weightsManifest'")


def parse_model_json(text, source):
    """model.json's text (str or bytes) -> the checked dict."""
    model_json = load_json(text, f"{source}: model.json")
    check_model_json(model_json, source)
    return model_json


def _artifacts(model_json, specs, data, nesting_checked):
    kwargs = {attr: model_json.get(key) for key, attr in _JSON_FIELDS}
    artifacts = ModelArtifacts(weight_specs=specs, weight_data=data, **kwargs)
    artifacts.nesting_checked = nesting_checked
    return artifacts


def artifacts_from_model_json(model_json, load_weights, nesting_checked=False):
    """TF.js's getModelArtifactsForJSON, without awaiting: load_weights(weights_manifest) ->
    (specs, bytes) is called when the model.json has a weightsManifest. nesting_checked: model_json
    came from limits.load_json."""
    specs = data = None
    if model_json.get("weightsManifest") is not None:
        specs, data = load_weights(model_json["weightsManifest"])
    return _artifacts(model_json, specs, data, nesting_checked)


async def artifacts_from_model_json_async(model_json, load_weights, nesting_checked=False):
    """artifacts_from_model_json with an awaitable load_weights."""
    specs = data = None
    if model_json.get("weightsManifest") is not None:
        specs, data = await load_weights(model_json["weightsManifest"])
    return _artifacts(model_json, specs, data, nesting_checked)


def get_model_artifacts_for_json_sync(model_json: dict, weight_specs: Optional[List[dict]] = None,
                                      weight_data: Optional[bytes] = None) -> ModelArtifacts:
    """ModelArtifacts from a model.json dict and its weights (TF.js's getModelArtifactsForJSONSync).

    Args:
        model_json: the model.json dict (modelTopology, weightsManifest, format, ...).
        weight_specs: the specs of weight_data.
        weight_data: the weights' bytes.

    Returns:
        A ModelArtifacts.

    Example:
        >>> manifest = [{"paths": ["w.bin"], "weights": [{"name": "w", "shape": [2], "dtype": "float32"}]}]
        >>> model_json = {"modelTopology": {}, "weightsManifest": manifest}
        >>> tf.io.get_model_artifacts_for_json_sync(model_json, tf.io.get_weight_specs(manifest), bytes(8))
        ModelArtifacts(format=None, weights=1, weight_bytes=8)
    """
    if model_json.get("weightsManifest") is not None and (weight_specs is None or weight_data is None):
        raise ValueError("get_model_artifacts_for_json_sync: model_json has a weightsManifest but weight_specs or "
                         "weight_data is None")
    return _artifacts(model_json, weight_specs, weight_data, False)
