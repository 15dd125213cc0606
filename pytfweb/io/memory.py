"""In-memory handlers: tf.io.from_memory and tf.io.with_save_handler (TF.js's passthrough.py)."""
from typing import Any, Callable, List, Optional

from .artifacts import ModelArtifacts, SaveResult, artifacts_info


class _MemoryLoader:
    def __init__(self, artifacts):
        self.artifacts = artifacts

    def load_sync(self):
        return self.artifacts

    async def load(self):
        return self.artifacts


class _SaveCallback:
    def __init__(self, fn):
        self.fn = fn

    def save_sync(self, artifacts):
        result = self.fn(artifacts)
        if hasattr(result, "__await__"):
            getattr(result, "close", lambda: None)()
            raise RuntimeError("with_save_handler_sync: the save function returned an awaitable; use "
                               "tf.io.with_save_handler and await model.save(...)")
        return result if result is not None else _default_result(artifacts)

    async def save(self, artifacts):
        result = self.fn(artifacts)
        if hasattr(result, "__await__"):
            result = await result
        return result if result is not None else _default_result(artifacts)


def _default_result(artifacts):
    return SaveResult(artifacts_info(artifacts))


def _artifacts(model_artifacts, weight_specs, weight_data, training_config, api):
    if isinstance(model_artifacts, ModelArtifacts):
        if weight_specs is not None or weight_data is not None or training_config is not None:
            raise ValueError(f"{api}: pass either ModelArtifacts alone or (model_topology, weight_specs, "
                             f"weight_data, training_config)")
        return model_artifacts
    if isinstance(model_artifacts, dict) and ("modelTopology" in model_artifacts or "model_topology" in model_artifacts
                                              or "weightSpecs" in model_artifacts):
        # TF.js's one-argument form: an artifacts object written with TF.js's (or our) key names.
        return ModelArtifacts.from_dict(model_artifacts, api)
    return ModelArtifacts(model_topology=model_artifacts, weight_specs=weight_specs, weight_data=weight_data,
                          training_config=training_config)


def from_memory(model_artifacts: Any, weight_specs: Optional[List[dict]] = None, weight_data: Optional[bytes] = None,
                training_config: Optional[dict] = None) -> Any:
    """An IO handler loading given artifacts (tf.load_layers_model(tf.io.from_memory(...))).

    Args:
        model_artifacts: ModelArtifacts, an artifacts dict (TF.js's modelTopology/weightSpecs/weightData
            keys), or the topology (then the next arguments give the rest).
        weight_specs: the weight specs, with a topology.
        weight_data: the weights' bytes, with a topology.
        training_config: the training config, with a topology.

    Returns:
        A load handler (its load() is awaited; load_sync() too).

    Example:
        >>> saved = []
        >>> model = tf.sequential([tf.layers.dense(units=2, input_shape=[3])])
        >>> _ = model.save_sync(tf.io.with_save_handler_sync(saved.append))
        >>> tf.load_layers_model_sync(tf.io.from_memory(saved[0])).count_params()
        8
    """
    return _MemoryLoader(_artifacts(model_artifacts, weight_specs, weight_data, training_config, "from_memory"))


def from_memory_sync(model_artifacts: Any, weight_specs: Optional[List[dict]] = None,
                     weight_data: Optional[bytes] = None, training_config: Optional[dict] = None) -> Any:
    """from_memory, for the _sync loaders (the same handler: it needs no awaiting).

    Args:
        model_artifacts: ModelArtifacts, an artifacts dict, or the topology.
        weight_specs: the weight specs, with a topology.
        weight_data: the weights' bytes, with a topology.
        training_config: the training config, with a topology.

    Returns:
        A load handler.

    Example:
        >>> saved = []
        >>> model = tf.sequential([tf.layers.dense(units=1, input_shape=[1])])
        >>> _ = model.save_sync(tf.io.with_save_handler_sync(saved.append))
        >>> tf.load_layers_model_sync(tf.io.from_memory_sync(saved[0])).count_params()
        2
    """
    return _MemoryLoader(_artifacts(model_artifacts, weight_specs, weight_data, training_config, "from_memory_sync"))


def with_save_handler(save_handler: Callable[[ModelArtifacts], Any]) -> Any:
    """An IO handler whose save calls a function with the artifacts (model.save(tf.io.with_save_handler(f))).

    Args:
        save_handler: f(artifacts), a function or coroutine function; its result, or a SaveResult
            with the artifacts' sizes, is what model.save returns.

    Returns:
        A save handler.

    Example:
        >>> import asyncio
        >>> saved = []
        >>> model = tf.sequential([tf.layers.dense(units=1, input_shape=[1])])
        >>> _ = asyncio.run(model.save(tf.io.with_save_handler(saved.append)))
        >>> saved[0].format
        'layers-model'
    """
    if not callable(save_handler):
        raise TypeError(f"with_save_handler: argument 'save_handler' must be callable, got {type(save_handler).__name__}")
    return _SaveCallback(save_handler)


def with_save_handler_sync(save_handler: Callable[[ModelArtifacts], Any]) -> Any:
    """with_save_handler for model.save_sync: save_handler must not be a coroutine function.

    Args:
        save_handler: f(artifacts); its result, or a SaveResult with the artifacts' sizes, is what
            model.save_sync returns.

    Returns:
        A save handler.

    Example:
        >>> saved = []
        >>> model = tf.sequential([tf.layers.dense(units=1, input_shape=[1])])
        >>> _ = model.save_sync(tf.io.with_save_handler_sync(saved.append))
        >>> len(saved)
        1
    """
    if not callable(save_handler):
        raise TypeError(f"with_save_handler_sync: argument 'save_handler' must be callable, got "
                        f"{type(save_handler).__name__}")
    return _SaveCallback(save_handler)
