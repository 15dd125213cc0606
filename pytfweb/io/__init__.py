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
from .artifacts import (ModelArtifacts, ModelArtifactsInfo, SaveResult, artifacts_info,
                        get_model_artifacts_for_json_sync)
from .artifacts import artifacts_from_model_json_async as _from_json_async
from .files import FileSystem, file_system
from .memory import from_memory, from_memory_sync, with_save_handler, with_save_handler_sync
from .router import get_load_handlers, get_save_handlers, register_load_router, register_save_router
from .weights import concatenate_array_buffers, decode_weights, encode_weights, get_weight_specs
# The handler modules register their routers on import; the order is the routers' order.
from .http import browser_http_request, http, is_http_scheme
from .browser_storage import browser_downloads, browser_files
from .management import copy_model, list_models, move_model, remove_model
from .weights_loader import decode_weights_stream, load_weights, weights_loader_factory


async def get_model_artifacts_for_json(model_json, load_weights):
    """TF.js's getModelArtifactsForJSON: load_weights(weights_manifest) -> (specs, bytes), awaited
    when it is a coroutine function."""
    import inspect

    async def loader(manifest):
        result = load_weights(manifest)
        return await result if inspect.isawaitable(result) else result
    return await _from_json_async(model_json, loader)


def get_model_artifacts_info_for_json(model_artifacts):
    """TF.js's getModelArtifactsInfoForJSON."""
    return artifacts_info(model_artifacts)
