"""Models: the functional Model (a graph of layers from tf.input to outputs) and Sequential
(a stack built with add), as tfjs-layers engine/container.ts and models.ts. Training
(compile/fit/evaluate/predict) comes from training.Trainer.

Running the graph carries masks from node to node (see engine.py): a model passes the mask of
its input on to its layers and gives its outputs' masks to whatever it is nested in. Stateful
layers (RNNs with stateful=True) keep their states between runs; model.reset_states() resets
them all."""
import json
from typing import Optional, Sequence, Union

from .. import ops
from ..core.api import is_recording_gradients, memory, tidy
from ..core.tensor import Tensor
from . import inference_fusion as _inference_fusion
from . import regularizers as _regularizers
from . import saving as _saving
from . import serialization as _ser
from .engine import DisposeResult, InputLayer, Layer, SymbolicTensor
from .summary import summary_lines
from .training import Trainer
from ._utils import to_list, unique_name


def _inbound(node):
    """The input tensors of a node that come from a layer."""
    return [x for layer, x in zip(node.inbound_layers, node.input_tensors) if layer is not None]


class Model(Trainer, Layer):
    """A functional model: runs the graph of layers between tf.input() SymbolicTensors and
    outputs (make it with tf.model). Also the base of Sequential; compile, fit, evaluate and predict
    train and run it.

    Args:
        inputs: a SymbolicTensor from tf.input, or a list of them.
        outputs: SymbolicTensors the layers computed from inputs.
        name: the model's name.

    Example:
        >>> x = tf.input(shape=[2])
        >>> model = tf.model(inputs=x, outputs=tf.layers.dense(units=1, kernel_initializer="ones").apply(x))
        >>> model.predict(tf.tensor([[1, 2]])).print()
        Tensor
            [[3]]
    """
    class_name = "Model"

    def __init__(self, inputs, outputs, name=None):
        # TF.js names a model after its class, lower-cased: model1, or a subclass's own
        Layer.__init__(self, name=name or unique_name(self.get_class_name().lower()))
        Trainer.__init__(self)
        self._ref_count = 1   # a model's own use (TF.js's Container starts at 1)
        self.supports_masking = True
        self._set_graph(to_list(inputs), to_list(outputs))

    # --- topology --------------------------------------------------------------------------------
    def _set_graph(self, inputs, outputs):
        for i, x in enumerate(inputs):
            if not isinstance(x, SymbolicTensor) or not isinstance(x.source_layer, InputLayer):
                raise ValueError(f"Input tensors to a Model must come from tf.input(). Received: {x!r} "
                                 f"(input {i}) is not a tf.input() output.")
        if len({id(x) for x in inputs}) < len(inputs):
            raise ValueError(f"The list of inputs passed to the model is redundant. All inputs should only appear "
                             f"once. Found: {inputs}")
        for i, x in enumerate(outputs):
            if not isinstance(x, SymbolicTensor):
                raise TypeError(f"The outputs of a Model must be SymbolicTensors (layer outputs); output {i} is "
                                f"{type(x).__name__}")
        self.inputs, self.outputs = inputs, outputs
        # What Sequential.add needs to put this model first in a stack.
        self.batch_input_shape = tuple(inputs[0].shape) if len(inputs) == 1 else None
        self._nodes = self._nodes_in_order(inputs, outputs)
        self._dispose_inference_plan()
        self._dispose_steps()   # traced steps run the old graph
        layers = self._layers_by_depth(outputs)
        layers = [x.source_layer for x in inputs if x.source_layer not in layers] + layers
        self._graph_layers = layers
        self.input_names = [x.source_layer.name for x in inputs]
        self.output_names = [x.source_layer.name for x in outputs]
        names = [layer.name for layer in layers]
        for n in names:
            if names.count(n) > 1:
                raise ValueError(f"The name \"{n}\" is used {names.count(n)} times in the model. All layer names "
                                 f"should be unique.")
        self.built = True

    @staticmethod
    def _layers_by_depth(outputs):
        """The layers between the inputs and outputs in TF.js's (and Keras's) order: deepest (farthest
        from the outputs) first, layers of one depth in the order a depth-first walk from the
        outputs first meets them. It orders model.layers, hence the weights and the config."""
        first_met, finished, post_order = {}, set(), []
        for out in outputs:
            stack = [(out, False)]
            while stack:
                t, done = stack.pop()
                node = t.source_layer.inbound_nodes[t.node_index]
                if done:
                    if id(node) not in finished:
                        finished.add(id(node))
                        post_order.append(node)
                    continue
                if id(node) in finished:
                    continue
                first_met.setdefault(id(t.source_layer), len(first_met))
                stack.append((t, True))
                # the inbound layers only (an InputLayer's node lists its own output as its input)
                stack.extend((x, False) for x in reversed(_inbound(node)))
        node_depth, layer_depth, by_id = {}, {}, {}
        for node in reversed(post_order):
            layer = node.outbound_layer
            depth = max(node_depth.get(id(node), 0), layer_depth.get(id(layer), 0))
            layer_depth[id(layer)], by_id[id(layer)] = depth, layer
            node_depth[id(node)] = depth
            for x in _inbound(node):
                inbound = x.source_layer.inbound_nodes[x.node_index]
                node_depth[id(inbound)] = max(depth + 1, node_depth.get(id(inbound), 0))
        return sorted(by_id.values(), key=lambda layer: (-layer_depth[id(layer)], first_met[id(layer)]))

    @staticmethod
    def _nodes_in_order(inputs, outputs):
        """The nodes from the inputs to the outputs, each after the nodes it reads from."""
        input_ids = {x.id for x in inputs}
        order, done, visiting = [], set(), set()
        # Depth first with a stack, not recursion: a chain of thousands of layers (a model file
        # from anyone) neither hits the recursion limit nor changes the order.
        for out in outputs:
            stack = [(out, out.source_layer.name, False)]
            while stack:
                t, consumer, finished = stack.pop()
                layer = t.source_layer
                node = layer.inbound_nodes[t.node_index]
                if finished:
                    visiting.discard(id(node))
                    done.add(id(node))
                    order.append(node)
                    continue
                if isinstance(layer, InputLayer):
                    if t.id not in input_ids:
                        raise ValueError(f"Graph disconnected: cannot obtain value for tensor {t.name} at layer "
                                         f"\"{consumer}\". It comes from the input layer \"{layer.name}\", which is "
                                         f"not one of the model's inputs.")
                    continue
                if id(node) in done:
                    continue
                if id(node) in visiting:
                    raise ValueError(f"The graph has a cycle through layer {layer.name}")
                visiting.add(id(node))
                stack.append((t, consumer, True))
                stack.extend((x, layer.name, False) for x in reversed(node.input_tensors))
        return order

    def _is_sequential_like(self):
        seen = set()
        for node in self._nodes:
            if len(node.inbound_layers) > 1 or node.outbound_layer in seen:
                return False
            seen.add(node.outbound_layer)
        sources = [(id(n.inbound_layers[0]), n.node_indices[0], n.tensor_indices[0]) for n in self._nodes
                   if n.inbound_layers]
        return len(sources) == len(set(sources)) and len(self.inputs) <= 1 and len(self.outputs) <= 1

    @property
    def layers(self):
        """The model's layers, in order (input layers first for a functional model)."""
        return list(self._graph_layers)

    def set_user_defined_metadata(self, user_defined_metadata=None):
        """Attach metadata of the user's to the model: saved in its model.json (userDefinedMetadata)
        and read back by load_layers_model (TF.js's setUserDefinedMetadata).

        Args:
            user_defined_metadata: a JSON object: a dict with str keys whose values are str, numbers, bools,
                None, lists or dicts of the same.

        Example:
            >>> model = tf.sequential([tf.layers.dense(units=1, input_shape=[2])])
            >>> model.set_user_defined_metadata({"labels": ["cat", "dog"]})
            >>> model.get_user_defined_metadata()
            {'labels': ['cat', 'dog']}
        """
        metadata = user_defined_metadata
        if not isinstance(metadata, dict) or not _plain_json(metadata):
            raise ValueError(f"User-defined metadata is expected to be a JSON object, but is not: got "
                             f"{type(metadata).__name__} (a dict of JSON values)")
        self.user_defined_metadata = metadata

    def get_user_defined_metadata(self):
        """The metadata set_user_defined_metadata attached (or a loaded model.json held), or None.

        Returns:
            A dict, or None.
        """
        return getattr(self, "user_defined_metadata", None)

    @property
    def input(self):
        """The model's input SymbolicTensor (a list of them for several inputs), as TF.js's
        LayersModel.input, also once the model is applied inside another."""
        if not self.inputs:
            raise AttributeError(f"Layer {self.name} is not connected, no input to return.")
        return self.inputs[0] if len(self.inputs) == 1 else list(self.inputs)

    @property
    def output(self):
        """The model's output SymbolicTensor (a list of them for several outputs)."""
        if not self.outputs:
            raise AttributeError(f"Layer {self.name} has no inbound nodes.")
        return self.outputs[0] if len(self.outputs) == 1 else list(self.outputs)

    @property
    def input_layers(self):
        """The layers of the model's inputs (its InputLayers), one per input."""
        return [x.source_layer for x in self.inputs]

    @property
    def output_layers(self):
        """The layers that compute the model's outputs, one per output."""
        return [x.source_layer for x in self.outputs]

    def get_layer(self, name=None, index=None):
        """A layer by name or by index in model.layers.

        Args:
            name: the layer's name (or, as TF.js 4.22 takes it, its index: get_layer(0)).
            index: its index in model.layers (when no name is given).

        Returns:
            The layer.

        Raises:
            ValueError: no such layer.
        """
        if isinstance(name, int) and not isinstance(name, bool) and index is None:
            name, index = None, name
        if index is not None:
            if not 0 <= index < len(self.layers):
                raise ValueError(f"Was asked to retrieve layer at index {index}, but model only has "
                                 f"{len(self.layers)} layer(s).")
            return self.layers[index]
        if name is None:
            raise ValueError("Provide either a layer name or layer index")
        for layer in self.layers:
            if layer.name == name:
                return layer
        raise ValueError(f"No such layer: {name}")

    # --- weights: the union of the layers' --------------------------------------------------------
    def _unique_weights(self, attr):
        out, seen = [], set()
        for layer in self.layers:
            for w in getattr(layer, attr):
                if id(w) not in seen:
                    seen.add(id(w))
                    out.append(w)
        return out

    @property
    def trainable(self):
        """Whether fit updates the model's weights (settable; the layers keep their own flags, as in
        TF.js: a frozen model trains nothing, and unfreezing it trains the layers that are trainable)."""
        return self._trainable

    @trainable.setter
    def trainable(self, value):
        # TF.js's Container: the flag and its layers' weights' trainable bits, not the layers' flags
        self._trainable = bool(value)
        for layer in getattr(self, "_graph_layers", []):
            for w in getattr(layer, "_trainable_weights", []):
                w.trainable = self._trainable and layer.trainable

    @property
    def trainable_weights(self):
        """The trainable weights of every layer (Variables)."""
        return self._unique_weights("trainable_weights") if self.trainable else []

    @property
    def non_trainable_weights(self):
        """The non-trainable weights of every layer (Variables)."""
        if not self.trainable:
            return self._unique_weights("weights")
        return self._unique_weights("non_trainable_weights")

    @property
    def weights(self):
        """Every layer's weights (Variables), in layer order."""
        # TF.js's order (Container.weights): every trainable weight, then every non-trainable one
        return self.trainable_weights + self.non_trainable_weights

    def get_weights(self, trainable_only=False):
        return self.trainable_weights if trainable_only else self.weights

    def count_params(self):
        return sum(layer.count_params() for layer in self.layers)

    def regularization_losses(self):
        return [loss for layer in self.layers for loss in layer.regularization_losses()]

    def apply_constraints(self):
        for layer in self.layers:
            layer.apply_constraints()

    # --- stateful layers -------------------------------------------------------------------------
    @property
    def stateful(self):
        """Whether a layer of the model keeps states between calls (a stateful RNN)."""
        return any(getattr(layer, "stateful", False) for layer in self.layers)

    def reset_states(self):
        """Reset the states of every stateful layer (to zeros)."""
        for layer in self.layers:
            if getattr(layer, "stateful", False) and hasattr(layer, "reset_states"):
                layer.reset_states()

    def dispose(self):
        """Release one use of the model (TF.js's LayersModel.dispose): a model counts one use from
        its making and one per call on SymbolicTensors (as a layer of another model). When none is
        left, each of its layers releases the uses the model made of it (one per node of the layer in
        the model; the weights of a layer no other model uses are disposed), and the optimizer if
        compile() made it, the folded weights of predict-time fusion and the plans of the traced
        steps go too. A disposed model cannot be disposed, run or trained again.

        Returns:
            A DisposeResult: ref_count_after_dispose (the model's uses left) and
            num_disposed_variables (the weights disposed, plus the tensors of the optimizer, as TF.js
            counts them).

        Raises:
            RuntimeError: the model is already disposed.

        Example:
            >>> model = tf.sequential([tf.layers.dense(units=2, input_shape=[3])])
            >>> model.dispose()
            DisposeResult(ref_count_after_dispose=0, num_disposed_variables=2)
        """
        self._assert_not_disposed()
        self._ref_count = (self._ref_count or 1) - 1
        n = 0
        if self._ref_count == 0:
            uses = {}
            for node in getattr(self, "_nodes", []):
                uses[id(node.outbound_layer)] = uses.get(id(node.outbound_layer), 0) + 1
            for layer in self.layers:
                for _ in range(max(1, uses.get(id(layer), 0))):
                    n += layer._release()
            # a model among a functional model's layers holds a use of its own too: as TF.js's
            # internalContainerRefs, released now (it goes with the model it is part of). A
            # Sequential keeps no such references: a model nested in it stays usable, as in TF.js
            if not isinstance(self, Sequential):
                for layer in self.layers:
                    if isinstance(layer, Model):
                        n += layer._release()
            before = memory().num_tensors
            self._dispose_optimizer()
            n += before - memory().num_tensors
            self._dispose_inference_plan()
            self._dispose_steps()
        return DisposeResult(self._ref_count, n)

    def _assert_not_disposed(self):
        if self._ref_count == 0:
            raise RuntimeError(f"Container '{self.name}' is already disposed.")

    def _dispose_weights(self):
        n = sum(layer._dispose_weights() for layer in self.layers)
        self._dispose_optimizer()
        self._dispose_inference_plan()
        self._dispose_steps()
        return n

    def _inference_plan(self):
        """The conv -> batch normalization -> activation chains run fused at predict time
        (layers/inference_fusion.py), made on first use."""
        plan = getattr(self, "_fusion_plan", None)
        if plan is None:
            plan = self._fusion_plan = _inference_fusion.Plan(self._nodes, self.outputs)
        return plan

    def _dispose_inference_plan(self):
        plan = getattr(self, "_fusion_plan", None)
        if plan is not None:
            plan.dispose()
        self._fusion_plan = None

    # --- as a layer ------------------------------------------------------------------------------
    def compute_output_shape(self, input_shape):
        shapes = [x.shape for x in self.outputs]
        one = input_shape[0] if input_shape and isinstance(input_shape[0], (list, tuple)) else input_shape
        batch = one[0] if one else None
        shapes = [(batch,) + tuple(s[1:]) for s in shapes]
        return shapes[0] if len(shapes) == 1 else shapes

    def call(self, inputs, training=False, mask=None):
        outs = self._run(to_list(inputs), training, masks=_masks_list(mask, len(self.inputs)))
        return outs[0] if len(outs) == 1 else outs

    def compute_mask(self, inputs, mask=None):
        """The masks of the outputs (runs the graph, as TF.js's Container.computeMask).

        Args:
            inputs: the model's inputs.
            mask: their masks.

        Returns:
            The output masks (None where there is none).
        """
        _, masks = self._run(to_list(inputs), False, masks=_masks_list(mask, len(self.inputs)), with_masks=True)
        return masks[0] if len(masks) == 1 else masks

    def _call_masked(self, inputs, training, mask):
        outs, masks = self._run(to_list(inputs), training, masks=_masks_list(mask, len(self.inputs)),
                                with_masks=True)
        return (outs[0], masks[0]) if len(outs) == 1 else (outs, masks)

    def execute(self, inputs, outputs):
        """The values of SymbolicTensors of the model's graph, by name, for concrete inputs
        (TF.js's LayersModel.execute): any layer's output, not only the model's outputs.

        Args:
            inputs: a Tensor, a list with one per model input, or a dict {input SymbolicTensor's
                name: Tensor}.
            outputs: the name of a SymbolicTensor of the graph (`symbolic.name`), or a list of them.

        Returns:
            A Tensor, or a list of them for a list of names.

        Example:
            >>> x = tf.input(shape=[2])
            >>> hidden = tf.layers.dense(units=3, kernel_initializer="ones").apply(x)
            >>> model = tf.model(inputs=x, outputs=tf.layers.dense(units=1).apply(hidden))
            >>> model.execute(tf.tensor([[1, 2]]), hidden.name).print()
            Tensor
                [[3, 3, 3]]
        """
        many = isinstance(outputs, (list, tuple))
        names = list(outputs) if many else [outputs]
        if not names:
            raise ValueError("execute: `outputs` is an empty list, which is not allowed: name the SymbolicTensors "
                             "to compute")
        known = {x.name: x for x in self.inputs}
        for node in self._nodes:
            for t in node.output_tensors:
                known.setdefault(t.name, t)
        missing = [n for n in names if n not in known]
        if missing:
            raise ValueError(f"Cannot find SymbolicTensors for output name(s): {missing}")
        if isinstance(inputs, dict):
            absent = [x.name for x in self.inputs if inputs.get(x.name) is None]
            if absent:
                raise ValueError(f"No value is provided for the model's input {absent[0]}")
            xs = [inputs[x.name] for x in self.inputs]
        else:
            xs = list(inputs) if isinstance(inputs, (list, tuple)) else [inputs]
            if len(xs) != len(self.inputs):
                raise ValueError(f"The number of inputs provided ({len(xs)}) does not match the number of inputs of "
                                 f"this model ({len(self.inputs)}).")
        xs = [x if isinstance(x, Tensor) else ops.convert_to_tensor(x, "inputs", "execute") for x in xs]
        values = tidy(lambda: self._run(xs, keep=[known[n] for n in names]))
        return values if many else values[0]

    def _run(self, xs, training=False, activity_losses=None, masks=None, with_masks=False, keep=None):
        """Execute the graph on concrete tensors (list, one per model input; masks: their masks
        or None); returns the list of outputs (or of the SymbolicTensors in keep), and of their
        masks with with_masks. Run it inside a tidy scope: intermediates are left to that scope."""
        values = {x.id: t for x, t in zip(self.inputs, xs)}
        mask_of = {x.id: m for x, m in zip(self.inputs, masks or [])}
        # Fused chains only where nothing can tell: no training, no masks, no activity losses, and
        # no gradient tape (a gradient must reach the conv's and the normalization's weights); nor
        # where an intermediate value is asked for (a fused chain skips its nodes).
        fused = (None if training or with_masks or activity_losses is not None or is_recording_gradients()
                 or keep is not None or any(m is not None for m in mask_of.values()) else self._inference_plan())
        for node in self._nodes:
            if fused is not None:
                if id(node) in fused.skipped:
                    continue
                chain = fused.heads.get(id(node))
                if chain is not None:
                    values[chain.output_id] = chain.run(values[chain.input_id])
                    continue
            layer = node.outbound_layer
            ins = [values[t.id] for t in node.input_tensors]
            in_masks = [mask_of.get(t.id) for t in node.input_tensors]
            in_mask = None if all(m is None for m in in_masks) else in_masks if len(ins) > 1 else in_masks[0]
            out, out_mask = layer._call_masked(ins if len(ins) > 1 else ins[0], training, in_mask)
            outs = out if isinstance(out, list) else [out]
            out_masks = out_mask if isinstance(out_mask, (list, tuple)) else [out_mask] * len(outs)
            for t, m in zip(node.output_tensors, out_masks):
                if m is not None:
                    mask_of[t.id] = m
            if activity_losses is not None and layer.activity_regularizer is not None:
                reg = _regularizers.get(layer.activity_regularizer)
                activity_losses.extend(tidy(lambda o=o: reg(o)) for o in outs)
            for t, o in zip(node.output_tensors, outs):
                values[t.id] = o
        outputs = [values[t.id] for t in (self.outputs if keep is None else keep)]
        if keep is not None:
            # an input asked for is the caller's own tensor: a clone, so that tidy keeps both
            outputs = [o.clone() if any(o is x for x in xs) else o for o in outputs]
        if with_masks:
            return outputs, [mask_of.get(t.id) for t in self.outputs]
        return outputs

    # --- model files ---------------------------------------------------------------------------
    def get_config(self):
        return _ser.functional_config(self)

    @classmethod
    def from_config(cls, config, custom_objects=None):
        """The model a get_config() dict describes.

        Args:
            config: the dict.
            custom_objects: {class name: class} for classes not registered with tf.serialization.

        Returns:
            A new Model.
        """
        return _ser.functional_from_config(cls, config, custom_objects)

    def to_json(self, return_string=True):
        """The model topology, as TF.js's model.toJSON().

        Args:
            return_string: a JSON string (False: the dict).

        Returns:
            The topology: class_name, config, keras_version, backend.
        """
        topology = _ser.model_to_topology(self)
        return json.dumps(topology) if return_string else topology

    async def save(self, handler_or_url, include_optimizer=False, trainable_only=False, quantization_bytes=None):
        """Save the model in TF.js's layers format (model.json and weight shards) through any tf.io
        handler (a coroutine: awaited).

        Args:
            handler_or_url: a path or file://, http(s)://, indexeddb://, localstorage://, downloads://
                URL, or a tf.io handler.
            include_optimizer: also save the optimizer's weights.
            trainable_only: save only the trainable weights.
            quantization_bytes: 1 (uint8) or 2 (float16) to shrink float32 weights (None: none).

        Returns:
            The handler's SaveResult.
        """
        return await _saving.save_model(self, handler_or_url, include_optimizer, trainable_only, quantization_bytes)

    def save_sync(self, handler_or_url, include_optimizer=False, trainable_only=False, quantization_bytes=None):
        """model.save without awaiting, for handlers that need none (paths, file://, memory, http in
        CPython).

        Args:
            handler_or_url: a path, URL or tf.io handler.
            include_optimizer: also save the optimizer's weights.
            trainable_only: save only the trainable weights.
            quantization_bytes: 1 (uint8) or 2 (float16) to shrink float32 weights (None: none).

        Returns:
            The handler's SaveResult.
        """
        return _saving.save_model_sync(self, handler_or_url, include_optimizer, trainable_only, quantization_bytes)

    def save_keras(self, path):
        """Write the model as a Keras file: Keras 3's .keras archive or a legacy .h5, by path's
        extension (CPython, h5py).

        Args:
            path: the file to write.

        Returns:
            The path.
        """
        return _KERAS_SAVER[0](self, path)

    def get_named_weights(self, trainable_only=False):
        """The weights with the names model files give them (TF.js's getNamedWeights).

        Args:
            trainable_only: only the trainable weights.

        Returns:
            A list of {'name': str, 'tensor': Variable}.
        """
        return _ser.named_weights(self, trainable_only)

    def load_weights(self, weights, strict=True):
        """Assign weights by name (TF.js's loadWeights; names as get_named_weights gives them).

        Args:
            weights: {name: tensor}.
            strict: every weight of the model must be given, and no other.
        """
        _ser.load_named_weights(self, weights, strict, api="load_weights")

    # --- summary ---------------------------------------------------------------------------------
    def summary(self, line_length=None, positions=None, print_fn=print):
        """Print the summary table as Keras 3 does: each layer's name (type), output shape `(None, 3)` and
        parameter count (and, for a graph, what it is connected to), then the totals with their size in
        bytes.

        Args:
            line_length: the table's width (None: 88, 108 for a graph, or the terminal's width less 4).
            positions: the columns' right edges (fractions of line_length, or character positions).
            print_fn: the function called with each line (None: print).

        Example:
            >>> model = tf.sequential([tf.layers.dense(units=2, input_shape=[3])])
            >>> lines = []
            >>> model.summary(print_fn=lines.append)
            >>> any("Total params: 8" in line for line in lines)
            True
        """
        if not self.built or not self.layers:
            raise ValueError("This model has never been called, thus its weights have not yet been created, so no "
                             "summary can be displayed. Build the model first (e.g., by calling it on some test "
                             "data).")
        for line in summary_lines(self, line_length, positions):
            print_fn(line)


def _plain_json(x):
    """Whether x is a JSON value: None, str, a number, a bool, or lists and str-keyed dicts of them
    (TF.js's plainObjectCheck)."""
    if x is None or isinstance(x, (str, bool, int, float)):
        return True
    if isinstance(x, list):
        return all(_plain_json(v) for v in x)
    if isinstance(x, dict):
        return all(isinstance(k, str) and _plain_json(v) for k, v in x.items())
    return False


class Sequential(Model):
    """A linear stack of layers (make it with tf.sequential); the first needs input_shape (or
    batch_input_shape), the others infer theirs.

    Args:
        layers: the layers, in order (None: none yet; see add).
        name: the model's name.

    Example:
        >>> model = tf.sequential()
        >>> model.add(tf.layers.dense(units=4, input_shape=[2], activation="relu"))
        >>> model.add(tf.layers.dense(units=1))
        >>> model.predict(tf.ones([3, 2])).shape
        (3, 1)
    """
    class_name = "Sequential"

    def __init__(self, layers=None, name=None):
        Layer.__init__(self, name=name or unique_name("sequential_"))
        Trainer.__init__(self)
        self._ref_count = 1
        self.supports_masking = True
        self.inputs, self.outputs, self._nodes = [], [], []
        self._stack = []
        self._graph_layers = []
        self.built = False
        for layer in layers or []:
            self.add(layer)

    @property
    def layers(self):
        """The layers added, in order."""
        return list(self._stack)

    def add(self, layer):
        """Add a layer on top of the stack.

        Args:
            layer: a Layer (the first needs input_shape or batch_input_shape).

        Raises:
            ValueError: the layer's input does not fit the stack's output.
        """
        if not isinstance(layer, Layer):
            raise TypeError(f"Sequential.add: expected a Layer, got {type(layer).__name__}")
        if isinstance(layer, Model) and (len(layer.inputs) != 1 or len(layer.outputs) != 1):
            raise ValueError("All layers in a Sequential model should have a single input and output tensor. For "
                             "multi-input or multi-output layers, use the functional API.")
        if not self.outputs:
            if not layer.inbound_nodes:   # (a Model added first is applied to a new input too)
                if layer.batch_input_shape is None:
                    raise ValueError("The first layer in a Sequential model must get an `input_shape` or "
                                     "`batch_input_shape` argument.")
                x = InputLayer(batch_input_shape=layer.batch_input_shape, dtype=layer.dtype,
                               name=layer.name + "_input").inbound_nodes[0].output_tensors[0]
                out = layer.apply(x)
            else:
                if len(layer.inbound_nodes) != 1:
                    raise ValueError(f"A layer added to a Sequential model must not already be connected somewhere "
                                     f"else. Sequential received layer {layer.name} which has "
                                     f"{len(layer.inbound_nodes)} pre-existing inbound connections.")
                out = layer.output
                x = out
                while not isinstance(x.source_layer, InputLayer):
                    x = x.source_layer.inbound_nodes[x.node_index].input_tensors[0]
        else:
            out = layer.apply(self.outputs[0])
            x = self.inputs[0]
        if isinstance(out, list):
            raise TypeError("All layers in a Sequential model should have a single output tensor. For multi-output "
                            "layers, use the functional API.")
        self._stack.append(layer)
        self._set_graph([x], [out])

    def pop(self):
        """Remove the top layer of the stack.

        Raises:
            TypeError: the model has no layers.
        """
        if not self._stack:
            raise TypeError("There are no layers in the model.")
        self._stack.pop()
        if not self._stack:
            self.inputs, self.outputs, self._nodes, self._graph_layers = [], [], [], []
            self.built = False
        else:
            last = self._stack[-1]
            self._set_graph(self.inputs, [last.inbound_nodes[-1].output_tensors[0]])

    def _check_built(self, api):
        if not self.outputs:
            raise TypeError("Sequential model cannot be built: model is empty. Add some layers first.")

    def _is_sequential_like(self):
        return True

    def get_config(self):
        return _ser.sequential_config(self)

    @classmethod
    def from_config(cls, config, custom_objects=None):
        """The Sequential model a get_config() dict describes.

        Args:
            config: the dict.
            custom_objects: {class name: class} for classes not registered with tf.serialization.

        Returns:
            A new Sequential.
        """
        return _ser.sequential_from_config(cls, config, custom_objects)


_KERAS_SAVER = [None]


def register_keras_saver(save_keras):
    """keras_files/model_files.py gives Model.save_keras its implementation when imported (import pytfweb does):
    keras_files imports layers, never the other way round."""
    _KERAS_SAVER[0] = save_keras


def _masks_list(mask, n):
    """A model's input mask(s) as a list, one per input (None for no masks)."""
    if mask is None:
        return None
    return list(mask) if isinstance(mask, (list, tuple)) else [mask] + [None] * (n - 1)


def sequential(layers: Optional[Sequence[Layer]] = None, name: Optional[str] = None) -> Sequential:
    """A Sequential model: a linear stack of layers.

    Args:
        layers: the layers, in order (None: add them with model.add).
        name: the model's name.

    Returns:
        A Sequential.

    Example:
        >>> model = tf.sequential([tf.layers.dense(units=1, input_shape=[3])])
        >>> model.predict(tf.ones([2, 3])).shape
        (2, 1)
    """
    return Sequential(layers, name)


def model(inputs: Union[SymbolicTensor, Sequence[SymbolicTensor]],
          outputs: Union[SymbolicTensor, Sequence[SymbolicTensor]], name: Optional[str] = None) -> Model:
    """A functional model from tf.input() SymbolicTensors to layer outputs.

    Args:
        inputs: a SymbolicTensor from tf.input, or a list of them.
        outputs: the outputs, SymbolicTensors the layers computed from inputs.
        name: the model's name.

    Returns:
        A Model.

    Example:
        >>> a, b = tf.input(shape=[2]), tf.input(shape=[2])
        >>> model = tf.model(inputs=[a, b], outputs=tf.layers.add().apply([a, b]))
        >>> model.predict([tf.ones([1, 2]), tf.ones([1, 2])]).print()
        Tensor
            [[2, 2]]
    """
    return Model(inputs, outputs, name)
