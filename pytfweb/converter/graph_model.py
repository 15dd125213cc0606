"""GraphModel: a TensorFlow graph converted by TF.js's converter (model.json with format
"graph-model": a GraphDef, its function library, the signature and the weights manifest), run
on pytfweb's ops. The API is TF.js's GraphModel in snake_case.
"""
import gc
from types import SimpleNamespace
from typing import Any, Callable, Dict, List, Optional, Union

from .. import ops as tfo
from ..core.api import dispose, keep
from ..io import router as _router
from ..core.limits import check_depth, gc_paused
from ..io.artifacts import ModelArtifacts, get_model_artifacts_for_json_sync
from ..io.memory import from_memory
from ..io.weights import _decode_weights, get_weight_specs
from ..core.tensor import Tensor
from .executor import GraphExecutor
from .graph import parse_dtype, parse_graph, parse_shape, split_output_name

FORMAT = "graph-model"
TFHUB_SEARCH_PARAM = "?tfjs-format=file"
DEFAULT_MODEL_NAME = "model.json"


class TensorInfo(SimpleNamespace):
    """An input or output of the model: name, shape (-1 for any size; None when unknown) and dtype."""

    def __getitem__(self, key):
        return getattr(self, key)


class GraphModel:
    """A TensorFlow graph model (TF.js's tf.GraphModel): a converted TensorFlow SavedModel or
    frozen graph, run op by op. Load one with tf.load_graph_model.

    Args:
        model_url: where to load from: a path or URL, or a tf.io handler.
        load_options: TF.js's LoadOptions (on_progress, request_init, weight_path_prefix, fetch_func,
            from_tf_hub).

    Example:
        >>> model_json = {"format": "graph-model", "weightsManifest": [], "modelTopology": {"node": [
        ...     {"name": "x", "op": "Placeholder", "attr": {"dtype": {"type": "DT_FLOAT"},
        ...      "shape": {"shape": {"dim": [{"size": "-1"}, {"size": "2"}]}}}},
        ...     {"name": "y", "op": "Relu", "input": ["x"]}]}}
        >>> model = tf.load_graph_model_sync((model_json, b""))
        >>> model.input_nodes, model.output_nodes
        (['x'], ['y'])
        >>> model.predict(tf.tensor([[-1, 2]])).print()
        Tensor
            [[0, 2]]
    """

    def __init__(self, model_url=None, load_options=None):
        self.model_url = model_url
        self.load_options = dict(load_options or {})
        self.artifacts = None
        self.executor = None
        self.initializer = None
        self.signature = None
        self.structured_output_keys = None
        self._version = "n/a"
        self._consts = {}
        self._resources = {}
        self._captured = None
        self._disposed = False
        self._prepared = None   # (topology, signature, Graph) parsed while the weights downloaded
        self._dequantized = None   # the quantized weights dequantized while they downloaded (io.weights.StreamPlan)

    # --- loading ---------------------------------------------------------------------------------------
    def _handler(self, api):
        url = self.model_url
        if url is None:
            raise ValueError(f"{api}: no model URL or IO handler was given")
        if isinstance(url, str) and self.load_options.get("from_tf_hub"):
            url = url if url.endswith("/") else url + "/"
            url = f"{url}{DEFAULT_MODEL_NAME}{TFHUB_SEARCH_PARAM}"
        options = {k: v for k, v in self.load_options.items() if k != "from_tf_hub"}
        return _router.resolve_load_handler(url, api, **options)

    async def load(self) -> bool:
        """Load the model and its weights through the IO handler (awaited).

        Returns:
            True when done.
        """
        handler = self._handler("load_graph_model")
        ours = isinstance(self.model_url, str) and hasattr(handler, "while_weights_load")   # our own http handler
        if ours:
            handler.while_weights_load = self._prepare
            handler.stream_dequantize = True
        # The cyclic GC off for the whole load, awaits included: its json.loads, graph and weights
        # make thousands of containers and no cyclic garbage, and each paused step alone (load_json,
        # the parse, the decode) left a collection walking them all to the next step (three a load).
        try:
            with gc_paused():
                artifacts = await _router.load_artifacts(handler, "load_graph_model")
                self._dequantized = handler.dequantized if ours else None
                self.load_artifacts(artifacts, _source(self.model_url))
        finally:
            self._prepared = self._dequantized = None
        return True

    def _prepare(self, model_json):
        """The graph parsed from model.json while its weights download (the page's http loads);
        load_artifacts takes it when the artifacts hold that very topology and signature. Nothing
        raised here: a topology that does not parse is parsed again, and reported, there."""
        topology = model_json.get("modelTopology")
        signature = model_json.get("signature")
        metadata = model_json.get("userDefinedMetadata")
        if isinstance(metadata, dict):
            signature = metadata.get("signature", signature)
        if not isinstance(topology, dict) or "node" not in topology:
            return
        try:
            with gc_paused():
                self._prepared = (topology, signature, parse_graph(topology, signature))
        except Exception:   # (load_artifacts raises it with the model's name)
            self._prepared = None
        # The collection the paused GC owes for model.json's and the graph's objects, run now, while
        # the weights download, rather than at the load's first allocation after it (~2 ms a model
        # in the page, after the last byte).
        gc.collect(0)

    def load_sync(self, artifacts: Optional[ModelArtifacts] = None) -> bool:
        """Load from artifacts (TF.js's loadSync) or, without them, through a handler that needs no
        awaiting (files, memory).

        Args:
            artifacts: ModelArtifacts of format 'graph-model' (None: load through the handler).

        Returns:
            True when done.
        """
        if artifacts is None:
            handler = self._handler("load_graph_model_sync")
            artifacts = _router.load_artifacts_sync(handler, "load_graph_model_sync")
        self.load_artifacts(artifacts, _source(self.model_url))
        return True

    def load_artifacts(self, artifacts: ModelArtifacts, source: Optional[str] = None) -> "GraphModel":
        """Build the model from ModelArtifacts with format 'graph-model'.

        Args:
            artifacts: the ModelArtifacts (topology, weight specs and data).
            source: where they came from, for error messages.

        Returns:
            The model itself.
        """
        with gc_paused():   # the graph's nodes and the weights' tensors: many objects, no garbage
            return self._load_artifacts(artifacts, source)

    def _load_artifacts(self, artifacts, source):
        api = "load_graph_model"
        where = f" ({source})" if source else ""
        topology = artifacts.model_topology
        if artifacts.format not in (None, FORMAT):
            raise ValueError(f"{api}{where}: the file's format is '{artifacts.format}', not '{FORMAT}'"
                             + (" (load it with tf.load_layers_model)" if artifacts.format == "layers-model" else ""))
        if topology is None:
            raise ValueError(f"{api}{where}: the model artifacts have no model topology")
        if isinstance(topology, (bytes, bytearray, memoryview)):
            raise ValueError(f"{api}{where}: the model topology is a binary GraphDef; pytfweb reads the JSON GraphDef "
                             f"TF.js's converter writes into model.json")
        if not isinstance(topology, dict) or "node" not in topology:
            kind = "a layers model topology" if isinstance(topology, dict) and "class_name" in topology else \
                type(topology).__name__
            raise ValueError(f"{api}{where}: modelTopology must be a GraphDef (an object with a 'node' list), got {kind}")
        if artifacts.weight_data is not None and artifacts.weight_specs is None:
            raise ValueError(f"{api}{where}: the artifacts contain weight data but no weight specs")
        # Parsing and executing walk the graph recursively (functions, nested attributes): a hostile
        # nesting gives a ValueError here rather than a RecursionError there.
        if not getattr(artifacts, "nesting_checked", False):   # (a custom handler's artifacts may lack it)
            check_depth(topology, f"{api}{where}: modelTopology")
            check_depth(artifacts.model_initializer, f"{api}{where}: modelInitializer")
        signature = artifacts.signature
        metadata = artifacts.user_defined_metadata
        if isinstance(metadata, dict):
            signature = metadata.get("signature", signature)
            self.structured_output_keys = metadata.get("structuredOutputKeys")
        init_graph = None
        try:
            prepared = self._prepared
            if prepared is not None and prepared[0] is topology and prepared[1] is signature:
                graph = prepared[2]
            else:
                graph = parse_graph(topology, signature)
            self._prepared = None
            if isinstance(artifacts.model_initializer, dict) and artifacts.model_initializer.get("node"):
                init_graph = parse_graph(artifacts.model_initializer)
        except (ValueError, TypeError) as exc:
            raise type(exc)(f"{api}{where}: {str(exc).removeprefix('graph model: ')}") from None
        weights = {}
        try:
            if artifacts.weight_specs:
                weights = _decode_weights(artifacts.weight_data or b"", artifacts.weight_specs, source,
                                          self._dequantized)
            consts = dict(weights)
            for g in [graph, *graph.functions.values()] + ([init_graph] if init_graph else []):
                for node in g.consts:
                    if node.name not in consts:
                        t = _const_value(node)
                        if t is not None:
                            consts[node.name] = t
        except BaseException:
            dispose(list(weights.values()))
            raise
        versions = topology.get("versions")
        if not isinstance(versions, (dict, type(None))):
            dispose(list(consts.values()))
            raise ValueError(f"{api}{where}: modelTopology's 'versions' must be an object, got {_short(versions)}")
        try:
            executor = GraphExecutor(graph, consts, self._resources)
            initializer = GraphExecutor(init_graph, consts, self._resources) if init_graph is not None else None
        except BaseException:
            dispose(list(consts.values()))
            raise
        for t in consts.values():
            keep(t)
        self.artifacts = artifacts
        self.signature = signature
        self._version = "n/a" if versions is None else \
            f"{versions.get('producer', 'undefined')}.{versions.get('minConsumer', 'undefined')}"
        self._consts = consts
        self.executor = executor
        if initializer is not None:
            self.initializer = initializer
        self._captured = None
        return self

    # --- description -----------------------------------------------------------------------------------
    @property
    def model_version(self):
        """The model's version: '<producer>.<minConsumer>' of the graph's versions, or 'n/a'."""
        return self._version

    def _graph(self):
        if self.executor is None:
            raise RuntimeError("GraphModel: the model is not loaded (use await tf.load_graph_model(url))")
        return self.executor.graph

    @property
    def input_nodes(self):
        """The inputs' names: signature keys when the model has a signature, else node names."""
        return list(self._graph().input_names)

    @property
    def output_nodes(self):
        """The outputs' names: signature keys when the model has a signature, else node names."""
        return list(self._graph().output_names)

    @property
    def inputs(self):
        """[TensorInfo(name, shape, dtype)] of the input placeholders."""
        return [TensorInfo(name=n.name, shape=n.attrs.shape("shape", None), dtype=n.attrs.dtype("dtype", None))
                for n in self._graph().inputs]

    @property
    def outputs(self):
        """[TensorInfo(name, shape, dtype)]: from the signature when there is one, else from the
        output nodes' attributes."""
        graph = self._graph()
        sig = (self.signature or {}).get("outputs") or {}
        out = []
        for node, key in zip(graph.outputs, graph.output_names):
            info = sig.get(key)
            if isinstance(info, dict):
                shape, dtype = parse_shape(info.get("tensorShape")), parse_dtype(info.get("dtype"))
            else:
                shape = node.attrs.shape("shape", None) if node.op.startswith("Placeholder") else None
                dtype = next((node.attrs.dtype(k, None) for k in ("T", "dtype", "DstT", "out_type", "Tidx")
                              if "type" in node.attrs.raw.get(k, {})), None)
            out.append(TensorInfo(name=node.name, shape=shape, dtype=dtype))
        return out

    @property
    def weights(self):
        """{weight name: [Tensor]} as TF.js's weightMap (constants included)."""
        return {k: [v] for k, v in self._consts.items()}

    @property
    def metadata(self):
        """The user-defined metadata of the model's artifacts (None when there is none or before loading)."""
        return self.artifacts.user_defined_metadata if self.artifacts is not None else None

    @property
    def model_signature(self):
        """The model's signature (its inputs and outputs by key), or None."""
        return self.signature

    @property
    def model_structured_output_keys(self):
        """The keys of the model's structured outputs, or None."""
        return self.structured_output_keys

    @property
    def functions(self):
        """{function name: its signature} of the graph's library."""
        return {name: fn.graph.signature for name, fn in self.executor.functions.items()}

    def __repr__(self):
        if self.executor is None:
            return "GraphModel(not loaded)"
        return (f"GraphModel(inputs={self.input_nodes}, outputs={self.output_nodes}, "
                f"nodes={len(self.executor.graph.nodes)}, weights={len(self._consts)})")

    # --- running -----------------------------------------------------------------------------------------
    def _check_alive(self, api):
        if self._disposed:
            raise RuntimeError(f"{api}: the GraphModel has been disposed")
        self._graph()

    def _sig_inputs(self):
        return (self.signature or {}).get("inputs") or {}

    def _normalize_inputs(self, inputs, api):
        """Inputs (a Tensor, a list in input_nodes order or a dict by name) -> {name: Tensor}."""
        captured = self._captured or {}
        if isinstance(inputs, Tensor) or isinstance(inputs, (list, tuple)):
            given = [inputs] if isinstance(inputs, Tensor) else list(inputs)
            names = [n for n in self.input_nodes
                     if (self._sig_inputs().get(n) or {}).get("resourceId") is None]
            if len(given) != len(names):
                raise ValueError(f"{api}: the model has {len(names)} input(s) {names}, got {len(given)} tensor(s); pass "
                                 f"a dict by input name to feed other nodes")
            out = dict(zip(names, given))
        elif isinstance(inputs, dict):
            out = dict(inputs)
        else:
            raise TypeError(f"{api}: inputs must be a Tensor, a list of Tensors or a dict of them by input name, got "
                            f"{type(inputs).__name__}")
        for key, info in self._sig_inputs().items():
            rid = info.get("resourceId") if isinstance(info, dict) else None
            if rid is not None and rid in captured:
                out[key] = captured[rid]
        return out

    def _feeds(self, inputs, api):
        """{input name or signature key: Tensor} -> {node name: [tensors by output index]}, checked."""
        graph = self._graph()
        sig = self._sig_inputs()
        feeds = {}
        for key, t in inputs.items():
            if not isinstance(t, Tensor):
                raise TypeError(f"{api}: input '{key}' must be a Tensor, got {type(t).__name__}")
            t.throw_if_disposed(api)
            tensor_name = sig[key]["name"] if isinstance(sig.get(key), dict) and "name" in sig[key] else key
            name, index = split_output_name(tensor_name)
            node = graph.nodes.get(name)
            if node is None:
                raise ValueError(f"{api}: the input '{key}' is not a node of the graph (inputs: {self.input_nodes})")
            if node.op.startswith("Placeholder"):
                shape = node.attrs.shape("shape", None)
                if shape is not None and (len(shape) != t.rank or any(d >= 0 and d != s for d, s in zip(shape, t.shape))):
                    raise ValueError(f"{api}: input '{key}' must have shape {shape} (-1: any size), got {list(t.shape)}")
                dtype = node.attrs.dtype("dtype", None)
                if dtype is not None and t.dtype != dtype:
                    raise TypeError(f"{api}: input '{key}' must be {dtype}, got {t.dtype}")
            lst = feeds.setdefault(name, [])
            lst.extend([None] * (index + 1 - len(lst)))
            lst[index] = t
        return feeds

    def _outputs_for(self, outputs, api):
        graph = self._graph()
        if outputs is None:
            outputs = self.output_nodes
        elif isinstance(outputs, str):
            outputs = [outputs]
        sig = (self.signature or {}).get("outputs") or {}
        refs = []
        for name in outputs:
            if not isinstance(name, str):
                raise TypeError(f"{api}: output names must be strings, got {type(name).__name__}")
            tensor_name = sig[name]["name"] if isinstance(sig.get(name), dict) and "name" in sig[name] else name
            node_name, index = split_output_name(tensor_name)
            node = graph.nodes.get(node_name)
            if node is None:
                raise ValueError(f"{api}: the output '{name}' is not found in the graph")
            refs.append((node, index))
        return refs

    def _captured_from(self, results):
        """Keep the initializer's results that signature inputs take by resource id; drop the rest."""
        sig = (self.artifacts.initializer_signature or {}).get("outputs") or {}
        captured = {}
        infos = list(sig.values())
        for k, t in enumerate(results):
            info = infos[k] if k < len(infos) else None
            if isinstance(info, dict) and info.get("resourceId") is not None:
                captured[info["resourceId"]] = keep(t)
            else:
                t.dispose()
        self._captured = captured

    def _initializer_refs(self):
        graph = self.initializer.graph
        sig = (self.artifacts.initializer_signature or {}).get("outputs") or {}
        if not sig:
            return [(n, 0) for n in graph.outputs]
        refs = []
        for info in sig.values():
            node_name, index = split_output_name(info["name"])
            if node_name not in graph.nodes:
                raise ValueError(f"load_graph_model: the initializer's output '{info['name']}' is not in its graph")
            refs.append((graph.nodes[node_name], index))
        return refs

    def _init_sync(self, api):
        if self.initializer is not None and self._captured is None:
            self._captured_from(self.initializer.execute({}, self._initializer_refs(), api))
        elif self._captured is None:
            self._captured = {}

    async def _init_async(self, api):
        if self.initializer is not None and self._captured is None:
            self._captured_from(await self.initializer.execute_async({}, self._initializer_refs(), api=api))
        elif self._captured is None:
            self._captured = {}

    def execute(self, inputs: Any, outputs: Union[str, List[str], None] = None) -> Union[Tensor, List[Tensor]]:
        """Run the graph. Graphs with control flow or value-dependent shapes need execute_async.

        Args:
            inputs: a Tensor, a list (input_nodes order) or a dict by input or node name.
            outputs: a node name (optionally 'name:i') or a list of them (None: the model's outputs).

        Returns:
            One Tensor, or a list when there are several outputs.
        """
        api = "execute"
        self._check_alive(api)
        self._init_sync(api)
        feeds = self._feeds(self._normalize_inputs(inputs, api), api)
        result = self.executor.execute(feeds, self._outputs_for(outputs, api), api)
        return result if len(result) > 1 else result[0]

    async def execute_async(self, inputs: Any,
                            outputs: Union[str, List[str], None] = None) -> Union[Tensor, List[Tensor]]:
        """execute for every graph, awaited: control flow (loops, conditionals) and ops whose output
        shapes depend on the values (non-max suppression, where) read values back.

        Args:
            inputs: a Tensor, a list (input_nodes order) or a dict by input or node name.
            outputs: a node name or a list of them (None: the model's outputs).

        Returns:
            One Tensor, or a list when there are several outputs.
        """
        api = "execute_async"
        self._check_alive(api)
        await self._init_async(api)
        feeds = self._feeds(self._normalize_inputs(inputs, api), api)
        result = await self.executor.execute_async(feeds, self._outputs_for(outputs, api), api=api)
        return result if len(result) > 1 else result[0]

    def _structured(self, out):
        keys = self.structured_output_keys
        if not keys:
            return out
        return dict(zip(keys, [out] if isinstance(out, Tensor) else out))

    def predict(self, inputs: Any, config: Optional[dict] = None) -> Any:
        """The model's outputs for inputs.

        Args:
            inputs: a Tensor, a list (input_nodes order) or a dict by input name.
            config: accepted for TF.js's signature (batch_size, verbose).

        Returns:
            A Tensor, a list of them, or a dict by structured output key when the model has them.
        """
        return self._structured(self.execute(inputs, self.output_nodes))

    async def predict_async(self, inputs: Any, config: Optional[dict] = None) -> Any:
        """predict, awaited: for graphs with control flow.

        Args:
            inputs: a Tensor, a list (input_nodes order) or a dict by input name.
            config: accepted for TF.js's signature.

        Returns:
            As predict.
        """
        return self._structured(await self.execute_async(inputs, self.output_nodes))

    def _warmup_run(self, input_shape, api, run_async):
        from ..core import warmup as _warmup
        sig = self._sig_inputs()
        pairs = [(key, info) for key, info in zip(self.input_nodes, self.inputs)
                 if (sig.get(key) or {}).get("resourceId") is None]
        names = [key for key, _ in pairs]
        shapes = _warmup.shapes_for(names, [info.shape for _, info in pairs], input_shape, api)

        def feeds():
            return {key: _warmup.zeros(s, info.dtype or "float32") for (key, info), s in zip(pairs, shapes)}
        if run_async:
            async def run():
                fed = feeds()
                try:
                    return await self.execute_async(fed, self.output_nodes)
                finally:
                    dispose(list(fed.values()))
            return _warmup.compile_run_async(run)
        return _warmup.compile_run(lambda: self.execute(feeds(), self.output_nodes))

    def warmup(self, input_shape: Any = None) -> int:
        """Compile every program a predict (execute) at this input shape runs, so that the first
        predict compiles nothing: an execute on zeros whose outputs are disposed, read back never. On
        webgl the kernels only start their programs' compiles and draw nothing, and the programs are
        checked once at the end (as TF.js's ENGINE_COMPILE_ONLY); on webgpu the graph runs once; on
        cpu nothing is compiled. Graphs with control flow or value-dependent shapes: warmup_async.

        Args:
            input_shape: the input's shape, e.g. [1, 224, 224, 3] (a list of shapes for several inputs,
                in input_nodes order); None: the signature's shapes with an unknown batch as 1.

        Returns:
            The number of programs compiled (0 where all were compiled already, and on cpu).

        Example:
            >>> model = await tf.load_graph_model("/zoo/models/movenet-lightning.json")  # doctest: +SKIP
            >>> model.warmup()                                                           # doctest: +SKIP
        """
        api = "warmup"
        self._check_alive(api)
        self._init_sync(api)
        return self._warmup_run(input_shape, api, False)

    async def warmup_async(self, input_shape: Any = None) -> int:
        """warmup, awaited: for graphs with control flow or value-dependent shapes (execute_async).
        Their values are zeros in the pass, so a branch or a loop the zeros do not take compiles on
        its first real run.

        Args:
            input_shape: as warmup's.

        Returns:
            The number of programs compiled.

        Example:
            >>> await model.warmup_async()   # doctest: +SKIP
        """
        api = "warmup_async"
        self._check_alive(api)
        await self._init_async(api)
        return await self._warmup_run(input_shape, api, True)

    def get_intermediate_tensors(self) -> Dict[str, List[Tensor]]:
        """The tensors of the last run, with tf.env().set("KEEP_INTERMEDIATE_TENSORS", True): weights,
        inputs and every node's outputs (inside loops 'name-frame-iteration'), kept until the next run or
        dispose_intermediate_tensors().

        Returns:
            {node name: [tensors]}.
        """
        return self.executor.intermediates if self.executor is not None else None

    def dispose_intermediate_tensors(self) -> None:
        """Dispose the tensors get_intermediate_tensors() holds."""
        if self.executor is not None:
            self.executor.dispose_intermediates()

    # --- saving and disposal -----------------------------------------------------------------------------
    async def save(self, handler_or_url: Any, config: Optional[dict] = None) -> Any:
        """Save the model's artifacts (as loaded) through an IO handler or URL (awaited).

        Args:
            handler_or_url: a path or URL, or a tf.io handler.
            config: accepted for TF.js's signature.

        Returns:
            The handler's SaveResult.
        """
        if self.artifacts is None:
            raise RuntimeError("save: the GraphModel is not loaded")
        handler = _router.resolve_save_handler(handler_or_url, "save")
        return await _router.save_artifacts(handler, self.artifacts, "save")

    def save_sync(self, handler_or_url: Any, config: Optional[dict] = None) -> Any:
        """save without awaiting, for handlers that need none (paths, file://, memory).

        Args:
            handler_or_url: a path or URL, or a tf.io handler.
            config: accepted for TF.js's signature.

        Returns:
            The handler's SaveResult.
        """
        if self.artifacts is None:
            raise RuntimeError("save_sync: the GraphModel is not loaded")
        handler = _router.resolve_save_handler(handler_or_url, "save_sync")
        return _router.save_artifacts_sync(handler, self.artifacts, "save_sync")

    def dispose(self) -> None:
        """Release the weights, the lookup tables, the initializer's results and the recorded plans."""
        self.dispose_intermediate_tensors()
        if self.executor is not None:
            self.executor.dispose_plans()
        dispose(list(self._consts.values()))
        self._consts.clear()
        for res in self._resources.values():
            res.close()
        self._resources.clear()
        dispose(list((self._captured or {}).values()))
        self._captured = None
        self._disposed = True
        for executor in (self.executor, self.initializer):
            if executor is not None:
                executor.graph.unlink()


def _const_value(node):
    """A Const node's value from its 'value' attribute, when the converter left it there."""
    proto = node.attrs.raw.get("value", {}).get("tensor")
    if proto is None:
        return None
    values, shape, dtype = node.attrs.tensor("value")
    if values is None:
        return None
    if dtype == "complex64":
        re, im = tfo.tensor(values[0::2], shape, "float32"), tfo.tensor(values[1::2], shape, "float32")
        try:
            return tfo.complex(re, im)
        finally:
            dispose([re, im])
    return tfo.tensor(values, shape, dtype)


def _source(url_or_handler):
    """The file or URL errors name (a handler names its files itself)."""
    return url_or_handler if isinstance(url_or_handler, str) else getattr(url_or_handler, "path", None)


# --- loaders -----------------------------------------------------------------------------------------------
def _as_handler(model_source, api):
    """What TF.js's loaders accept besides URLs: an IO handler, ModelArtifacts, an artifacts dict,
    or (model_json, weight bytes)."""
    if isinstance(model_source, ModelArtifacts):
        return from_memory(model_source)
    if isinstance(model_source, (tuple, list)):
        if len(model_source) != 2 or not isinstance(model_source[0], dict):
            raise ValueError(f"{api}: a (model_json, weight_data) pair is expected, got a {type(model_source).__name__} "
                             f"of {len(model_source)}")
        model_json, data = model_source
        if "modelTopology" not in model_json:
            raise ValueError(f"{api}: the model JSON is missing 'modelTopology'")
        if "weightsManifest" not in model_json:
            raise ValueError(f"{api}: the model JSON is missing 'weightsManifest'")
        if not isinstance(data, (bytes, bytearray, memoryview)):
            raise TypeError(f"{api}: the weights (second element) must be bytes, got {type(data).__name__}")
        specs = get_weight_specs(model_json["weightsManifest"])
        return from_memory(get_model_artifacts_for_json_sync(model_json, specs, bytes(data)))
    if isinstance(model_source, dict):
        return from_memory(model_source)
    return model_source


def _model(model_url, api, on_progress, request_init, weight_path_prefix, fetch_func, from_tf_hub):
    if model_url is None:
        raise ValueError(f"{api}: model_url cannot be None; give a URL, a path or an IO handler")
    options = {"on_progress": on_progress, "request_init": request_init, "weight_path_prefix": weight_path_prefix,
               "fetch_func": fetch_func, "from_tf_hub": from_tf_hub or None}
    return GraphModel(_as_handler(model_url, api), {k: v for k, v in options.items() if v is not None})


async def load_graph_model(model_url: Any, on_progress: Optional[Callable] = None, request_init: Optional[dict] = None,
                           weight_path_prefix: Optional[str] = None, fetch_func: Optional[Callable] = None,
                           from_tf_hub: bool = False) -> GraphModel:
    """Load a GraphModel from TF.js's graph-model format (awaited).

    Args:
        model_url: a path or file://, http(s)://, indexeddb://... URL to model.json, an IO handler,
            ModelArtifacts, or a (model_json, weight bytes) pair.
        on_progress: called with the fraction loaded.
        request_init: options of the HTTP requests (headers, ...).
        weight_path_prefix: where the weight files are, if not beside model.json.
        fetch_func: the function making HTTP requests.
        from_tf_hub: model_url is a TF Hub module URL.

    Returns:
        The loaded GraphModel.

    Example:
        >>> import asyncio
        >>> model_json = {"format": "graph-model", "weightsManifest": [], "modelTopology": {"node": [
        ...     {"name": "x", "op": "Placeholder", "attr": {"dtype": {"type": "DT_FLOAT"}}},
        ...     {"name": "y", "op": "Neg", "input": ["x"]}]}}
        >>> model = asyncio.run(tf.load_graph_model((model_json, b"")))
        >>> model.predict(tf.tensor([1, -2])).print()
        Tensor
            [-1, 2]
    """
    model = _model(model_url, "load_graph_model", on_progress, request_init, weight_path_prefix, fetch_func,
                   from_tf_hub)
    await model.load()
    return model


def load_graph_model_sync(model_source: Any, on_progress: Optional[Callable] = None,
                          request_init: Optional[dict] = None, weight_path_prefix: Optional[str] = None,
                          fetch_func: Optional[Callable] = None) -> GraphModel:
    """tf.load_graph_model without awaiting: from an IO handler that needs none (files, memory),
    ModelArtifacts, or a (model_json, weight bytes) pair.

    Args:
        model_source: a path, an IO handler, ModelArtifacts or a (model_json, weight bytes) pair.
        on_progress: called with the fraction loaded.
        request_init: options of HTTP requests.
        weight_path_prefix: where the weight files are, if not beside model.json.
        fetch_func: the function making HTTP requests.

    Returns:
        The loaded GraphModel.

    Example:
        >>> model_json = {"format": "graph-model", "weightsManifest": [], "modelTopology": {"node": [
        ...     {"name": "x", "op": "Placeholder", "attr": {"dtype": {"type": "DT_FLOAT"}}},
        ...     {"name": "y", "op": "Square", "input": ["x"]}]}}
        >>> tf.load_graph_model_sync((model_json, b"")).execute(tf.tensor([3])).print()
        Tensor
            [9]
    """
    model = _model(model_source, "load_graph_model_sync", on_progress, request_init, weight_path_prefix, fetch_func,
                   False)
    model.load_sync()
    return model


def _short(value, n=80):
    text = repr(value)
    return text if len(text) <= n else text[:n] + "..."
