"""tf.io: model artifacts, weight encoding and the IO handlers behind tf.load_layers_model,
tf.load_graph_model and model.save, with TF.js's URL schemes.

    artifacts.py   ModelArtifacts, SaveResult, model.json <-> artifacts
    weights.py     encode/decode weights (quantization), shards, manifests
    router.py      scheme routers: a URL string -> a handler
    memory.py      from_memory, with_save_handler
    files.py       file:// and plain paths (CPython, or Pyodide's in-memory file system)
    http.py        http(s)://, tf.io.http
    browser_storage.py  indexeddb://, localstorage://, downloads://, browser_files
    management.py  list_models, copy_model, move_model, remove_model
    weights_loader.py  load_weights, weights_loader_factory, decode_weights_stream
"""
from typing import Any, Callable, List

from .artifacts import (ModelArtifacts, ModelArtifactsInfo, SaveResult, artifacts_info,
                        get_model_artifacts_for_json_sync)
from .artifacts import artifacts_from_model_json_async as _from_json_async
from .files import FileSystem, file_system
from .memory import from_memory, from_memory_sync, with_save_handler, with_save_handler_sync
from .router import get_load_handlers, get_save_handlers, register_load_router, register_save_router
from .weights import CompositeArrayBuffer, concatenate_array_buffers, decode_weights, encode_weights, get_weight_specs
# The handler modules register their routers on import; the order is the routers' order.
from .http import browser_http_request, http, is_http_scheme
from .browser_storage import browser_downloads, browser_files
from .management import copy_model, list_models, move_model, remove_model
from .weights_loader import decode_weights_stream, load_weights, weights_loader_factory


async def get_model_artifacts_for_json(model_json: dict, load_weights: Callable[[List[dict]], Any]) -> ModelArtifacts:
    """ModelArtifacts from a model.json dict, its weights loaded by a function (TF.js's
    getModelArtifactsForJSON; awaited).

    Args:
        model_json: the model.json dict (modelTopology, weightsManifest, ...).
        load_weights: load_weights(weights_manifest) -> (specs, bytes), awaited when it is a coroutine
            function.

    Returns:
        A ModelArtifacts.

    Example:
        >>> import asyncio
        >>> manifest = [{"paths": ["w.bin"], "weights": [{"name": "w", "shape": [2], "dtype": "float32"}]}]
        >>> load = lambda m: (tf.io.get_weight_specs(m), bytes(8))
        >>> asyncio.run(tf.io.get_model_artifacts_for_json({"modelTopology": {}, "weightsManifest": manifest}, load))
        ModelArtifacts(format=None, weights=1, weight_bytes=8)
    """
    import inspect

    async def loader(manifest):
        result = load_weights(manifest)
        return await result if inspect.isawaitable(result) else result
    return await _from_json_async(model_json, loader)


def get_model_artifacts_info_for_json(model_artifacts: ModelArtifacts) -> ModelArtifactsInfo:
    """What saving artifacts writes, in bytes (TF.js's getModelArtifactsInfoForJSON).

    Args:
        model_artifacts: a ModelArtifacts.

    Returns:
        A ModelArtifactsInfo dated now.

    Example:
        >>> artifacts = tf.io.get_model_artifacts_for_json_sync({"modelTopology": {}}, [], b"")
        >>> tf.io.get_model_artifacts_info_for_json(artifacts).weight_data_bytes
        0
    """
    return artifacts_info(model_artifacts)
