"""The layer graph: Layer, SymbolicTensor, Node, InputLayer and tf.input, as tfjs-layers'
engine/topology.ts and engine/input_layer.ts.

A Layer maps tensors to tensors. Applied to concrete tensors it computes (building its
weights on first use); applied to SymbolicTensors (shape and dtype only, batch dimension
None) it records a Node — the edge of the graph a functional Model later executes — and
returns SymbolicTensors of the output shape, so shape errors surface when the model is
put together, not when it first runs.

Masks (Keras semantics): a layer with supports_masking takes an input mask and gives an output
mask with compute_mask(inputs, mask) (by default the input mask, unchanged); Masking and
Embedding(mask_zero=True) make one. A layer whose call has a `mask` parameter receives the mask
(the RNN layers skip masked timesteps). Models carry the masks from node to node as they run
(models.Model._run); a layer that does not support masking drops the mask, as tf.keras does.
Applied directly to tensors, a layer takes an explicit `mask=` (as TF.js's apply kwargs): the
mask a layer computes is not attached to the tensor it returns (tensors here are disposed by
hand; an attached mask would be a second tensor to dispose).
"""
import dataclasses
import functools
import inspect
import itertools
import math
import warnings
from typing import Optional, Sequence

from .. import ops
from ..core.api import dispose, num_bytes, registered_variable, tidy
from ..core.environment import ENV
from ..core.limits import check_elements
from ..core.tensor import Tensor
from . import config as _config
from . import constraints as _constraints
from . import initializers as _initializers
from . import regularizers as _regularizers
from ._utils import shape_str, snake, to_list, unique_name

_symbolic_ids = itertools.count()
_layer_ids = itertools.count()
_tensor_names = {}   # a layer output's name -> how many outputs have had it


def _unique_tensor_name(name):
    """TF.js's name for the next output of a layer: '<layer>/<layer>', then '<layer>/<layer>_1', ..."""
    count = _tensor_names.get(name, 0)
    _tensor_names[name] = count + 1
    if count == 0:
        return name
    unique = f"{name}_{count}"
    _tensor_names[unique] = 1
    return unique


class SymbolicTensor:
    """A placeholder in a layer graph: shape (batch dimension None), dtype, and where it comes from
    (the node of source_layer at node_index, output tensor_index). tf.input makes them; applying a
    layer to them makes more.

    Example:
        >>> x = tf.input(shape=[4])
        >>> x.shape, x.dtype, x.rank
        ((None, 4), 'float32', 2)
    """

    def __init__(self, dtype, shape, source_layer, node_index=0, tensor_index=0, name=None):
        self.id = next(_symbolic_ids)
        self.dtype = dtype
        self.shape = tuple(shape)
        self.source_layer = source_layer
        self.node_index = node_index
        self.tensor_index = tensor_index
        # TF.js lets a SymbolicTensor stand alone (no layer made it yet): it gets a name of its own
        self.name = name or (f"{source_layer.name}/output{tensor_index}" if source_layer is not None
                             else f"symbolic_tensor{self.id}")

    @property
    def rank(self):
        """The number of axes, batch included."""
        return len(self.shape)

    @property
    def inputs(self):
        """The tensors the layer that made this one was applied to (TF.js's SymbolicTensor.inputs);
        [] for one made by tf.input or by hand.

        Returns:
            A list of SymbolicTensors.

        Example:
            >>> x = tf.input(shape=[2])
            >>> tf.layers.dense(units=1).apply(x).inputs == [x], x.inputs
            (True, [])
        """
        layer = self.source_layer
        if layer is None or self.node_index >= len(layer.inbound_nodes):
            return []
        node = layer.inbound_nodes[self.node_index]
        return list(node.input_tensors) if node.inbound_layers else []   # an InputLayer's node has none

    def __repr__(self):
        return f"SymbolicTensor(name={self.name}, shape={shape_str(self.shape)}, dtype={self.dtype})"


class Node:
    """One application of outbound_layer to tensors coming from inbound_layers: an edge of a layer
    graph (layer.inbound_nodes lists them).

    Example:
        >>> x = tf.input(shape=[2])
        >>> dense = tf.layers.dense(units=1)
        >>> y = dense.apply(x)
        >>> node = dense.inbound_nodes[0]
        >>> node.outbound_layer is dense, node.output_tensors[0] is y
        (True, True)
    """

    def __init__(self, outbound_layer, inbound_layers, node_indices, tensor_indices, input_tensors,
                 output_tensors):
        self.outbound_layer = outbound_layer
        self.inbound_layers = inbound_layers
        self.node_indices = node_indices
        self.tensor_indices = tensor_indices
        self.input_tensors = input_tensors
        self.output_tensors = output_tensors
        self.input_shapes = [t.shape for t in input_tensors]
        self.output_shapes = [t.shape for t in output_tensors]
        for layer in inbound_layers:
            if layer is not None:  # a SymbolicTensor made by hand has no source layer (as in TF.js)
                layer.outbound_nodes.append(self)
        outbound_layer.inbound_nodes.append(self)


@dataclasses.dataclass(frozen=True)
class DisposeResult:
    """What a dispose() of a layer or model did (TF.js's DisposeResult).

    Args:
        ref_count_after_dispose: the uses of the layer (or model) left after the call; 0: disposed.
        num_disposed_variables: the weights (variables) the call disposed.

    Example:
        >>> r = tf.sequential([tf.layers.dense(units=1, input_shape=[2])]).dispose()
        >>> r.ref_count_after_dispose, r.num_disposed_variables
        (0, 2)
    """
    ref_count_after_dispose: Optional[int]
    num_disposed_variables: int


class InputSpec:
    """What a layer accepts: ndim, min_ndim, max_ndim and fixed sizes of some axes (checked by
    Layer.assert_input_compatibility).

    Args:
        ndim: the exact rank.
        min_ndim: the least rank.
        max_ndim: the greatest rank.
        axes: {axis: size} of axes whose size is fixed.
        dtype: the dtype (recorded, as TF.js's).
        shape: the whole shape, None where any size fits (it sets ndim to its length).

    Example:
        >>> spec = tf.layers.InputSpec(min_ndim=2, axes={-1: 3})
        >>> spec.min_ndim, spec.axes
        (2, {-1: 3})
        >>> tf.layers.InputSpec(shape=[None, 2]).ndim
        2
    """

    def __init__(self, ndim=None, min_ndim=None, max_ndim=None, axes=None, dtype=None, shape=None):
        # as TF.js: a shape fixes ndim (whatever ndim says) and is checked axis by axis, None matching any size
        self.shape = None if shape is None else tuple(shape)
        self.ndim = len(self.shape) if self.shape is not None else ndim
        self.min_ndim, self.max_ndim, self.dtype = min_ndim, max_ndim, dtype
        # axes as int keys (a JSON or JavaScript object gives them as strings)
        self.axes = {} if axes is None else {int(k): v for k, v in axes.items()}



def assign_checked(variables, values, arg, op, mismatch):
    """Assign values (tensors, or nested lists / numpy arrays) to variables in order, only once
    every shape is known to fit; mismatch(i, variable, value) is the ValueError's message.
    Tensors made here from Python values are disposed on the way out."""
    converted = []
    try:
        tensors = []
        for i, (v, value) in enumerate(zip(variables, values)):
            t = value
            if not isinstance(value, Tensor):
                t = ops.convert_to_tensor(value, arg, op, v.dtype)
                converted.append(t)
            if tuple(t.shape) != tuple(v.shape):
                raise ValueError(mismatch(i, v, t))
            tensors.append(t)
        for v, t in zip(variables, tensors):
            v.assign(t)
    finally:
        dispose(converted)

class Layer:
    """Base class of every layer. Subclasses give build(input_shape) (make weights with add_weight),
    call(inputs, training) on concrete tensors and compute_output_shape.

    config_keys names the constructor arguments get_config reads back from attributes of the same
    names (with the inherited ones): TF.js's getConfig keys, which model files carry.

    Args:
        name: the layer's name (None: a unique one from the class name).
        trainable: whether fit updates its weights.
        input_shape: the shape of one sample (the first layer of a model needs it).
        batch_input_shape: the input shape with the batch size first (instead of input_shape).
        batch_size: the batch size, with input_shape.
        dtype: the dtype of the weights and outputs (None: float32).
        weights: initial values for the weights, assigned when the layer is built.
        input_dtype: the input's dtype (TF.js's name for dtype on input layers).

    Example:
        >>> class Double(tf.layers.Layer):
        ...     def call(self, inputs, training=False):
        ...         return tf.mul(inputs, 2)
        ...     def compute_output_shape(self, input_shape):
        ...         return input_shape
        >>> Double().apply(tf.tensor([1, 2])).print()
        Tensor
            [2, 4]
    """
    config_keys = ()
    stateful = False   # TF.js's Layer.stateful (an RNN sets its own)

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        _config.register_builtin(cls)   # the class registry model files are read with

    def __init__(self, name=None, trainable=True, input_shape=None, batch_input_shape=None, batch_size=None,
                 dtype=None, weights=None, input_dtype=None):
        cls = self.get_class_name()
        self.name = name if name is not None else f"{snake(cls)}_{unique_name(cls)}"
        self.id = next(_layer_ids)   # unique among layers, as TF.js's Layer.id
        self.dtype = dtype or input_dtype or "float32"
        # TF.js's config names a dtype only when the layer was given an input shape (it sets dtype
        # there only); pytfweb also keeps one given explicitly
        self._dtype_given = bool(dtype or input_dtype)
        self._trainable = trainable
        self.built = False
        self.input_spec = None
        self.supports_masking = False
        self.inbound_nodes = []
        self.outbound_nodes = []
        self._trainable_weights = []
        self._non_trainable_weights = []
        self._weight_names = {}      # id(variable) -> the name given to add_weight ('kernel')
        self._regularized = []       # (weight, regularizer) pairs, for the training loss
        self._constraints = []       # (weight, constraint) pairs, applied after each update
        self._initial_weights = weights
        self._ref_count = None       # uses, counted as TF.js's _refCount (see dispose); None: never applied
        self.activity_regularizer = None
        self.batch_input_shape = None
        if batch_input_shape is not None:
            self.batch_input_shape = tuple(batch_input_shape)
        elif input_shape is not None:
            self.batch_input_shape = (batch_size,) + tuple(input_shape)

    # --- description ---------------------------------------------------------------------------
    def get_class_name(self):
        """The layer's class name as model files record it ('Dense', ...).

        Returns:
            The name.
        """
        return getattr(type(self), "class_name", type(self).__name__)

    def get_config(self):
        """The layer's constructor arguments as JSON-ready values (TF.js's getConfig, snake_case):
        initializers, regularizers, constraints and sub-layers as {class_name, config}.

        Returns:
            A dict.
        """
        config = {"name": self.name, "trainable": self.trainable}
        if self.batch_input_shape is not None:
            config["batch_input_shape"] = list(self.batch_input_shape)
        if self.batch_input_shape is not None or self._dtype_given:
            config["dtype"] = self.dtype
        for key in _config_keys(type(self)):
            config[key] = _config.config_value(key, getattr(self, key), self)
        return config

    @classmethod
    def from_config(cls, config, custom_objects=None):
        """The layer a get_config() dict describes (nested objects given as {class_name, config}).

        Args:
            config: the dict.
            custom_objects: {class name: class} for classes not registered with tf.serialization.

        Returns:
            A new layer.
        """
        return cls(**_config.layer_kwargs(cls, config, custom_objects))

    def __repr__(self):
        return f"<{self.get_class_name()} name={self.name}>"

    @property
    def initial_weights(self):
        """The weights given to the constructor, not yet assigned (None once the layer is built)."""
        return self._initial_weights

    # --- weights ---------------------------------------------------------------------------------
    @property
    def trainable(self):
        """Whether fit updates this layer's weights (settable; a frozen layer's weights are
        non-trainable)."""
        return self._trainable

    @trainable.setter
    def trainable(self, value):
        # A frozen layer's weights stay out of the optimizer's var_list and out of the
        # gradient (variable_grads skips non-trainable variables).
        self._trainable = bool(value)
        for w in self._trainable_weights:
            w.trainable = self._trainable

    @property
    def trainable_weights(self):
        """The weights fit updates (Variables; empty when the layer is frozen). Settable, as TF.js's."""
        return list(self._trainable_weights) if self.trainable else []

    @trainable_weights.setter
    def trainable_weights(self, weights):
        self._trainable_weights = list(weights)

    @property
    def non_trainable_weights(self):
        """The weights fit does not update (Variables: a frozen layer's, batch norm's moving statistics).
        Settable, as TF.js's."""
        if self.trainable:
            return list(self._non_trainable_weights)
        return list(self._trainable_weights) + list(self._non_trainable_weights)

    @non_trainable_weights.setter
    def non_trainable_weights(self, weights):
        self._non_trainable_weights = list(weights)

    @property
    def weights(self):
        """All the layer's weights: trainable ones, then non-trainable ones (Variables)."""
        return self.trainable_weights + self.non_trainable_weights

    def add_weight(self, name, shape, dtype=None, initializer=None, regularizer=None, trainable=True,
                   constraint=None):
        """Make a weight: a tf.Variable named '<layer name>/<name>', initialised now.

        Args:
            name: the weight's name within the layer ('kernel', 'bias', ...).
            shape: its shape.
            dtype: its dtype (None: the layer's).
            initializer: a tf.initializers object or name (None: glorot_uniform).
            regularizer: a tf.regularizers object adding a penalty to the training loss.
            trainable: whether fit updates it.
            constraint: a tf.constraints object applied after each update.

        Returns:
            The Variable.
        """
        dtype = dtype or self.dtype
        if name in self._weight_names.values():
            raise ValueError(f"Duplicate weight name {name} for layer {self.name}")
        self._check_weight_size(name, shape)
        init = _initializers.get(initializer if initializer is not None else "glorot_uniform")
        if _initializers.fast_init_active():   # the values are about to be overwritten (model loading)
            init = _initializers.host_zeros
        value = init(list(shape), dtype)
        try:
            var = ops.variable(value, trainable and self.trainable, _variable_name(f"{self.name}/{name}"))
        finally:
            value.dispose()
        (self._trainable_weights if trainable else self._non_trainable_weights).append(var)
        self._weight_names[id(var)] = name
        regularizer = _regularizers.get(regularizer)
        if regularizer is not None:
            self._regularized.append((var, regularizer))
        constraint = _constraints.get(constraint)
        if constraint is not None:
            self._constraints.append((var, constraint))
        return var

    def _check_weight_size(self, name, shape):
        """Before a weight is allocated: a ValueError naming this layer and the weight when it would
        hold more than MAX_TENSOR_ELEMENTS values, or bring the model being built past
        MAX_MODEL_PARAMETERS (a model file's `units: 1e9` or a 10^12-wide input is refused before
        its initializer runs)."""
        dims = list(shape)
        if not all(isinstance(d, int) and not isinstance(d, bool) and d >= 0 for d in dims):
            return   # not a shape: the initializer's own error names it
        what = f"{self.get_class_name()} '{self.name}': weight '{name}'"
        size = check_elements(dims, what)
        limit = int(ENV.get("MAX_MODEL_PARAMETERS"))
        if size + num_bytes() <= limit:
            return   # (every value a tensor holds takes a byte or more: no walk through the model needed)
        total = size + sum(math.prod(w.shape) for w in _weights_of_model_being_built(self))
        if total > limit:
            raise ValueError(f"{what} of shape {dims} would bring the model to {total} parameters, more than "
                             f"{limit}, the limit of tf.env() flag MAX_MODEL_PARAMETERS (raise it with "
                             f"tf.env().set('MAX_MODEL_PARAMETERS', n) if this size is intended)")

    def _drop_weights_not_in(self, keep):
        """Dispose and forget this layer's weights whose ids are not in keep."""
        for ws in (self._trainable_weights, self._non_trainable_weights):
            dropped = [w for w in ws if id(w) not in keep]
            # (in place, by identity: list.remove would compare variables with ==, which is elementwise)
            ws[:] = [w for w in ws if id(w) in keep]
            for w in dropped:
                self._weight_names.pop(id(w), None)
                w.dispose()
        self._regularized = [(w, r) for w, r in self._regularized if id(w) in keep]
        self._constraints = [(w, c) for w, c in self._constraints if id(w) in keep]

    def count_params(self):
        """The number of scalars in the layer's weights.

        Returns:
            An int.
        """
        if not self.built:
            raise ValueError(f"You tried to call count_params on {self.name}, but the layer is not built yet. "
                             f"Build it first by calling build(batch_input_shape).")
        return sum(math.prod(w.shape) for w in self.weights)

    def get_weights(self, trainable_only=False):
        """The layer's weights as its tf.Variables (TF.js returns the variables' values, not copies):
        read them, do not dispose them.

        Args:
            trainable_only: only the trainable weights.

        Returns:
            A list of Variables, trainable ones first.
        """
        return self.trainable_weights if trainable_only else self.weights

    def set_weights(self, weights):
        """Assign new values to the weights, in get_weights() order.

        Args:
            weights: tensors, or nested lists / numpy arrays, one per weight, of matching shapes.
        """
        params = self.weights
        if len(weights) != len(params):
            raise ValueError(f"You called set_weights(weights) on layer \"{self.name}\" with a weight list of "
                             f"length {len(weights)}, but the layer was expecting {len(params)} weights. "
                             f"Provided weights: {weights}...")
        assign_checked(params, weights, "weights", "set_weights",
                       lambda i, p, t: f"Layer weight shape {list(p.shape)} not compatible with provided weight "
                                       f"shape {list(t.shape)}")

    def regularization_losses(self):
        """The weight penalties of this layer, as scalar tensors (computed now).

        Returns:
            A list of scalar Tensors (empty without regularizers).
        """
        return [reg(w) for w, reg in self._regularized]

    def apply_constraints(self):
        """Apply each weight's constraint to its current value (fit does so after each update)."""
        for w, constraint in self._constraints:
            w.assign(tidy(lambda w=w, c=constraint: c(w)))

    def dispose(self):
        """Release one use of the layer, disposing its weights when none is left (TF.js's Layer.dispose).

        A layer counts its uses as TF.js does: its first call on tensors (the one that builds it) is
        one, each call on SymbolicTensors (each node in a model) one more. After the last use is
        released the layer is disposed: applying or disposing it again raises.

        Returns:
            A DisposeResult: ref_count_after_dispose (the uses left) and num_disposed_variables.

        Raises:
            RuntimeError: the layer is not built, or is already disposed.

        Example:
            >>> dense = tf.layers.dense(units=1)
            >>> y = dense.apply(tf.ones([2, 3]))
            >>> dense.dispose()
            DisposeResult(ref_count_after_dispose=0, num_disposed_variables=2)
        """
        if not self.built:
            raise RuntimeError(f"Cannot dispose Layer {self.name} because it has not been built yet.")
        if self._ref_count is None:
            # built (build()) but never applied: one use (TF.js raises 'has not been used yet')
            self._ref_count = 1
        self._assert_not_disposed()
        self._ref_count -= 1
        return DisposeResult(self._ref_count, self._dispose_weights() if self._ref_count == 0 else 0)

    def _assert_not_disposed(self):
        if self._ref_count == 0:
            raise RuntimeError(f"Layer '{self.name}' is already disposed.")

    def _release(self):
        """Release the layer's use by a model being disposed: as dispose, but a layer already
        disposed (or never built) is not an error."""
        if self._ref_count == 0 or not self.built:
            return 0
        return self.dispose().num_disposed_variables

    def _dispose_weights(self):
        """Dispose the weights now, whatever the count of uses (a failed model load cleans up so);
        the number disposed."""
        ws = self._trainable_weights + self._non_trainable_weights
        for w in ws:
            w.dispose()
        self._trainable_weights, self._non_trainable_weights = [], []
        self._weight_names = {}
        return len(ws)

    # --- what a subclass provides ---------------------------------------------------------------
    def build(self, input_shape):
        """Make the layer's weights for an input shape (apply() calls it once, on first use).

        Args:
            input_shape: the input's shape, batch dimension first (None where unknown).
        """
        self.built = True

    def call(self, inputs, training=False):
        """The layer's computation on concrete tensors (apply() calls it after building the layer).

        Args:
            inputs: a tensor, or a list of them.
            training: whether the call is part of training (dropout and the like act only then).

        Returns:
            A Tensor, or a list of them.
        """
        return inputs

    def compute_output_shape(self, input_shape):
        """The output's shape for an input shape (None for unknown dimensions).

        Args:
            input_shape: the input's shape, batch dimension first.

        Returns:
            The output's shape (a list of shapes for several outputs).
        """
        return input_shape

    def compute_mask(self, inputs, mask=None):
        """The output mask for inputs and their mask: the input mask, unchanged, for a layer that
        supports masking; otherwise there is none (a TypeError if a mask was passed, as TF.js).

        Args:
            inputs: the layer's inputs.
            mask: their mask (None: none).

        Returns:
            The output mask, or None.
        """
        if not self.supports_masking:
            if any(m is not None for m in (mask if isinstance(mask, (list, tuple)) else [mask])):
                raise TypeError(f"Layer {self.name} does not support masking, but was passed an inputMask.")
            return None
        return mask

    # --- application -----------------------------------------------------------------------------
    def apply(self, inputs, training=False, **kwargs):
        """Apply the layer: to tensors it computes, to SymbolicTensors it adds a node to the graph.

        Further keyword arguments (mask=..., and an RNN's initial_state=...) go to call; a mask goes on
        to the next layer as in TF.js. `layer(inputs)` is the same.

        Args:
            inputs: a Tensor (or value), a SymbolicTensor, or a list of them.
            training: whether the call is part of training.
            **kwargs: passed to call.

        Returns:
            Tensors for tensor inputs, SymbolicTensors for symbolic ones.

        Example:
            >>> dense = tf.layers.dense(units=2, kernel_initializer="ones")
            >>> dense.apply(tf.tensor([[1, 2, 3]])).print()
            Tensor
                [[6, 6]]
            >>> dense.apply(tf.input(shape=[3])).shape
            (None, 2)
        """
        self._assert_not_disposed()
        many = isinstance(inputs, (list, tuple))
        xs = list(inputs) if many else [inputs]
        symbolic = [isinstance(x, SymbolicTensor) for x in xs]
        if any(symbolic) and not all(symbolic):
            raise ValueError(f"Layer {self.name}: arguments must be all SymbolicTensors or all Tensors")
        shapes = [tuple(x.shape) for x in xs]
        self.assert_input_compatibility(shapes)
        if not self.built:
            self._build_from(shapes[0] if len(shapes) == 1 and not many else shapes, xs if all(symbolic) else ())
            if self._ref_count is None and not all(symbolic):
                self._ref_count = 1
        if all(symbolic):
            if kwargs.get("mask") is not None:
                raise ValueError(f"Layer {self.name}: an explicit mask cannot be given to a layer applied to "
                                 f"SymbolicTensors; masks flow through a model from Masking or "
                                 f"Embedding(mask_zero=True) layers")
            out = self._apply_symbolic(xs, many)
            self._ref_count = (self._ref_count or 0) + 1
            return out
        xs = [x if isinstance(x, Tensor) else ops.convert_to_tensor(x, "inputs", self.name) for x in xs]
        kwargs = self._call_kwargs(kwargs)
        return tidy(lambda: _unaliased(self.call(xs if many else xs[0], training, **kwargs), xs))

    def __call__(self, inputs, *args, **kwargs):
        return self.apply(inputs, *args, **kwargs)

    def _call_kwargs(self, kwargs):
        """kwargs without those this layer's call does not take (TF.js's call reads the options it
        knows from its kwargs object and ignores the rest) and without a mask that is None."""
        call = type(self).call
        return {k: v for k, v in kwargs.items() if _takes(call, k) and not (k == "mask" and v is None)}

    def _call_masked(self, inputs, training, mask):
        """(outputs, output mask) for concrete inputs and their mask (None, a tensor, or a list
        with one entry per input): what a model runs at each node."""
        out = self.call(inputs, training, **self._call_kwargs({"mask": mask}))
        if not self.supports_masking:   # tf.keras drops the mask here (TF.js would raise)
            return out, None
        return out, self.compute_mask(inputs, mask)

    def _build_from(self, shape, inputs=()):
        # While it builds, the weights of the layers its (symbolic) inputs come from count toward
        # the model's parameters (_weights_of_model_being_built). A build that fails (a weight over
        # a limit, say) disposes the weights it had made: the layer stays unbuilt and holds none.
        before = {id(w) for w in self._trainable_weights + self._non_trainable_weights}
        _building.append((self, inputs))
        try:
            self.build(shape)
        except BaseException:
            self._drop_weights_not_in(before)
            raise
        finally:
            _building.pop()
        self.built = True
        if self._initial_weights is not None:
            self.set_weights(self._initial_weights)
            self._initial_weights = None

    def _apply_symbolic(self, xs, many):
        in_shapes = [x.shape for x in xs]
        self._warn_on_incompatible_input_shape(tuple(in_shapes[0]))
        out_shape = self.compute_output_shape(in_shapes if many else in_shapes[0])
        out_shapes = out_shape if _is_shape_list(out_shape) else [out_shape]
        node_index = len(self.inbound_nodes)
        outputs = [SymbolicTensor(self.dtype, s, self, node_index, i, _unique_tensor_name(f"{self.name}/{self.name}"))
                   for i, s in enumerate(out_shapes)]
        Node(self, [x.source_layer for x in xs], [x.node_index for x in xs], [x.tensor_index for x in xs],
             xs, outputs)
        return outputs if _is_shape_list(out_shape) else outputs[0]

    def _warn_on_incompatible_input_shape(self, shape):
        # TF.js warns (console.warn) and goes on when a layer given an input_shape gets another input
        expected = getattr(self, "batch_input_shape", None)
        if expected is None:
            return
        if len(shape) != len(expected):
            warnings.warn(f"The rank of the input tensor provided (shape: {shape_str(shape)}) does not match that of "
                          f"the batch_input_shape ({shape_str(expected)}) of the layer {self.name}", stacklevel=4)
        elif any(e is not None and d is not None and d != e for d, e in zip(shape, expected)):
            warnings.warn(f"The shape of the input tensor ({shape_str(shape)}) does not match the expectation of "
                          f"layer {self.name}: {shape_str(expected)}", stacklevel=4)

    def assert_input_compatibility(self, shapes):
        """Check ranks, shapes, dtypes and fixed axis sizes against the layer's input_spec (TF.js's
        messages).

        Args:
            shapes: the inputs (a Tensor or SymbolicTensor, or a list of them, as TF.js's
                assertInputCompatibility takes), or their shapes (a list of shapes).

        Raises:
            ValueError: an input does not fit.
        """
        shapes, dtypes = _shapes_and_dtypes(shapes)
        if self.input_spec is None:
            return
        specs = to_list(self.input_spec)
        if len(specs) != len(shapes):
            raise ValueError(f"Layer {self.name} expects {len(specs)} inputs, but it received {len(shapes)} input "
                             f"tensors.")
        for i, (spec, shape, dtype) in enumerate(zip(specs, shapes, dtypes)):
            ndim = len(shape)
            if spec.ndim is not None and ndim != spec.ndim:
                raise ValueError(f"Input {i} is incompatible with layer {self.name}: expected ndim={spec.ndim}, "
                                 f"found ndim={ndim}")
            if spec.max_ndim is not None and ndim > spec.max_ndim:
                raise ValueError(f"Input {i} is incompatible with layer {self.name}: expected max_ndim="
                                 f"{spec.max_ndim}, found ndim={ndim}")
            if spec.min_ndim is not None and ndim < spec.min_ndim:
                raise ValueError(f"Input {i} is incompatible with layer {self.name}: expected min_ndim="
                                 f"{spec.min_ndim}, found ndim={ndim}.")
            # TF.js's order: ranks, dtype, fixed axes, then the whole shape
            if spec.dtype is not None and dtype is not None and dtype != spec.dtype:
                raise ValueError(f"Input {i} is incompatible with layer {self.name}: expected dtype={spec.dtype}, "
                                 f"found dtype={dtype}.")
            for axis, size in (spec.axes or {}).items():
                dim = shape[axis if axis >= 0 else ndim + axis]
                if dim is not None and dim != size:
                    raise ValueError(f"Input {i} is incompatible with layer {self.name}: expected axis {axis} of "
                                     f"input shape to have value {size} but got shape {shape_str(shape)}.")
            if spec.shape is not None and any(s is not None and d is not None and s != d
                                              for s, d in zip(spec.shape, shape)):
                raise ValueError(f"Input {i} is incompatible with layer {self.name}: expected shape="
                                 f"{shape_str(list(spec.shape))}, found shape={shape_str(list(shape))}.")

    # --- graph views (TF.js's layer.input / output / outputShape) -------------------------------
    def _node_at(self, node_index, what):
        if not self.inbound_nodes:
            raise ValueError(f"The layer {self.name} has never been called and thus has no defined {what}.")
        if not isinstance(node_index, int) or not 0 <= node_index < len(self.inbound_nodes):
            raise ValueError(f"Asked to get {what} at node {node_index}, but the layer has only "
                             f"{len(self.inbound_nodes)} inbound nodes.")
        return self.inbound_nodes[node_index]

    def get_input_at(self, node_index):
        """The input SymbolicTensor(s) of the layer's node_index-th application (TF.js's getInputAt).

        Args:
            node_index: which application (0 for the first).

        Returns:
            A SymbolicTensor, or a list of them.
        """
        ins = self._node_at(node_index, "input").input_tensors
        return ins[0] if len(ins) == 1 else list(ins)

    def get_output_at(self, node_index):
        """The output SymbolicTensor(s) of the layer's node_index-th application (TF.js's getOutputAt).

        Args:
            node_index: which application (0 for the first).

        Returns:
            A SymbolicTensor, or a list of them.
        """
        outs = self._node_at(node_index, "output").output_tensors
        return outs[0] if len(outs) == 1 else list(outs)

    @property
    def output(self):
        """The layer's output SymbolicTensor (the layer must have been applied to symbolic inputs once)."""
        if not self.inbound_nodes:
            raise AttributeError(f"Layer {self.name} has no inbound nodes.")
        if len(self.inbound_nodes) > 1:
            raise AttributeError(f"Layer {self.name} has multiple inbound nodes, hence the notion of \"layer output\" "
                                 f"is ill-defined. Use get_output_at(node_index) instead.")
        outs = self.inbound_nodes[0].output_tensors
        return outs[0] if len(outs) == 1 else outs

    @property
    def input(self):
        """The layer's input SymbolicTensor (the layer must have been applied to symbolic inputs once)."""
        if not self.inbound_nodes:
            raise AttributeError(f"Layer {self.name} is not connected, no input to return.")
        if len(self.inbound_nodes) > 1:
            raise AttributeError(f"Layer {self.name} has multiple inbound nodes, hence the notion of \"layer input\" "
                                 f"is ill-defined. Use get_input_at(node_index) instead.")
        ins = self.inbound_nodes[0].input_tensors
        return ins[0] if len(ins) == 1 else ins

    @property
    def output_shape(self):
        """The layer's output shape, batch dimension None (the layer must have been applied once)."""
        if not self.inbound_nodes:
            raise AttributeError(f"The layer {self.name} has never been called and thus has no defined output "
                                 f"shape.")
        shapes = {tuple(map(tuple, n.output_shapes)) for n in self.inbound_nodes}
        if len(shapes) > 1:
            raise AttributeError(f"The layer {self.name} has multiple inbound nodes with different output shapes.")
        outs = self.inbound_nodes[0].output_shapes
        return list(outs[0]) if len(outs) == 1 else [list(s) for s in outs]


class Container(Layer):
    """A layer made of other layers (wrappers, stacked RNN cells): trainability, weights,
    regularization, constraints and disposal go to the children, `self._children()` (empty until
    they exist). Frozen, all the children's weights count as non-trainable, trainable ones first."""

    def _children(self):
        return []

    @Layer.trainable.setter
    def trainable(self, value):
        self._trainable = bool(value)
        for child in self._children():
            child.trainable = value

    @property
    def trainable_weights(self):
        """The trainable weights of the wrapped layers (Variables; empty when frozen)."""
        return [w for c in self._children() for w in c.trainable_weights] if self.trainable else []

    @property
    def non_trainable_weights(self):
        """The non-trainable weights of the wrapped layers (Variables)."""
        frozen = [] if self.trainable else [w for c in self._children() for w in c.trainable_weights]
        return frozen + [w for c in self._children() for w in c.non_trainable_weights]

    def regularization_losses(self):
        return [r for c in self._children() for r in c.regularization_losses()]

    def apply_constraints(self):
        for c in self._children():
            c.apply_constraints()

    def _dispose_weights(self):
        return sum(c._dispose_weights() for c in self._children())


_building = []   # (layer, its symbolic inputs) for each build in progress, innermost last


def _weights_of_model_being_built(layer):
    """The weights (each once) of what `layer` is becoming part of: itself, the layers whose builds
    are in progress around it (a wrapper building its inner layer), every layer upstream of their
    symbolic inputs, and the layers a model file has made so far (serialization's tracking)."""
    layers = [layer] + [outer for outer, _ in _building]
    for made in _config._building:
        layers.extend(made)
    seen_nodes = set()
    stack = [x for _, xs in _building for x in xs]
    while stack:
        t = stack.pop()
        source = getattr(t, "source_layer", None)
        if source is None:
            continue
        layers.append(source)
        node = source.inbound_nodes[t.node_index]
        if id(node) not in seen_nodes:
            seen_nodes.add(id(node))
            stack.extend(node.input_tensors)
    weights, seen = [], set()
    for lay in layers:
        for w in lay.weights:
            if id(w) not in seen:
                seen.add(id(w))
                weights.append(w)
    return weights


class InputLayer(Layer):
    """The source of a graph: produces one SymbolicTensor of batch_input_shape."""
    class_name = "InputLayer"

    def __init__(self, input_shape=None, batch_size=None, batch_input_shape=None, dtype="float32", sparse=False,
                 name=None):
        if input_shape is None and batch_input_shape is None:
            raise ValueError("An InputLayer should be passed either a `batchInputShape` or an `inputShape`.")
        if input_shape is not None and batch_input_shape is not None:
            raise ValueError("Only provide the input_shape OR batch_input_shape argument to InputLayer, not both "
                             "at the same time.")
        if batch_size is not None and batch_input_shape is not None:
            raise ValueError("Cannot specify batchSize if batchInputShape is specified when creating an "
                             "InputLayer.")
        super().__init__(name=name or unique_name("input"), input_shape=input_shape,
                         batch_input_shape=batch_input_shape, batch_size=batch_size, dtype=dtype)
        # One example of this input must fit in a tensor (a model file's 10^12-wide input is refused
        # here, before any layer sizes its weights by it).
        dims = [d for d in self.batch_input_shape[1:] if isinstance(d, int) and not isinstance(d, bool)]
        check_elements(dims, f"InputLayer '{self.name}': one example of batch_input_shape "
                             f"{shape_str(list(self.batch_input_shape))}")
        self.trainable = False
        self.built = True
        self.sparse = sparse
        self.input_spec = [InputSpec(shape=self.batch_input_shape)]
        out = SymbolicTensor(self.dtype, self.batch_input_shape, self, 0, 0, name=self.name)
        Node(self, [], [], [], [out], [out])

    def apply(self, inputs=None, *args, **kwargs):
        """An InputLayer is a graph's source: it takes no input (TF.js raises too).

        Args:
            inputs: anything: applying an InputLayer is refused.

        Returns:
            Nothing: it always raises.

        Raises:
            ValueError: always.

        Example:
            >>> tf.layers.input_layer(input_shape=[2]).apply(tf.ones([1, 2]))
            Traceback (most recent call last):
            ValueError: Cannot pass any input to an InputLayer's apply() method. InputLayer name: ...
        """
        raise ValueError(f"Cannot pass any input to an InputLayer's apply() method. InputLayer name: {self.name}")

    def get_config(self):
        return {"batch_input_shape": list(self.batch_input_shape), "dtype": self.dtype, "sparse": self.sparse,
                "name": self.name}

    def dispose(self):
        """Nothing to free: an InputLayer holds no weights (TF.js's dispose is a no-op here too).

        Returns:
            A DisposeResult with the layer's reference count and 0 variables disposed.
        """
        return DisposeResult(self._ref_count, 0)


def input(shape: Optional[Sequence[Optional[int]]] = None,  # noqa: A001 - TF.js name
          batch_shape: Optional[Sequence[Optional[int]]] = None, name: Optional[str] = None,
          dtype: str = "float32", sparse: bool = False) -> SymbolicTensor:
    """A SymbolicTensor to build a functional model from (tf.model).

    Args:
        shape: the shape of one sample (the batch dimension excluded).
        batch_shape: the shape with the batch dimension first (instead of shape).
        name: the input layer's name.
        dtype: the input's dtype.
        sparse: accepted for TF.js's signature.

    Returns:
        A SymbolicTensor.

    Example:
        >>> x = tf.input(shape=[3])
        >>> y = tf.layers.dense(units=2).apply(x)
        >>> tf.model(inputs=x, outputs=y).predict(tf.ones([5, 3])).shape
        (5, 2)
    """
    if shape is None and batch_shape is None:
        raise ValueError("Please provide to Input either a `shape` or a `batchShape` argument. Note that `shape` "
                         "does not include the batch dimension.")
    if shape is not None and batch_shape is not None:
        raise ValueError("Please provide either a `shape` or `batchShape` argument to Input, but not both.")
    layer = InputLayer(input_shape=shape, batch_input_shape=batch_shape, dtype=dtype, name=name)
    return layer.inbound_nodes[0].output_tensors[0]


@functools.lru_cache(maxsize=None)
def _takes(fn, name):
    """Whether function fn has a parameter `name` (or **kwargs)."""
    try:
        params = inspect.signature(fn).parameters
    except (TypeError, ValueError):
        return False
    return name in params or any(p.kind is inspect.Parameter.VAR_KEYWORD for p in params.values())


def _unaliased(out, inputs):
    """out, with a clone in place of any output that is one of the inputs (an identity such as
    a linear activation): the caller owns what apply returns and may dispose its inputs."""
    ids = {id(x) for x in inputs}
    if isinstance(out, list):
        return [o.clone() if id(o) in ids else o for o in out]
    return out.clone() if id(out) in ids else out


def _shapes_and_dtypes(inputs):
    """(shapes, dtypes) of inputs given as tensors / SymbolicTensors (one or a list), or of shapes
    given as such (dtypes None)."""
    items = inputs if isinstance(inputs, (list, tuple)) else [inputs]
    if all(hasattr(x, "shape") and hasattr(x, "dtype") for x in items):
        return [tuple(x.shape) for x in items], [x.dtype for x in items]
    return list(inputs), [None] * len(inputs)


def _is_shape_list(s):
    return isinstance(s, list) and len(s) > 0 and isinstance(s[0], (list, tuple))


@functools.lru_cache(maxsize=None)
def _config_keys(cls):
    keys = []
    for c in reversed(cls.__mro__):
        for k in vars(c).get("config_keys", ()):
            if k not in keys:
                keys.append(k)
    return tuple(keys)


def _variable_name(name):
    """name, or name_1, name_2 ... if a variable already has it (a user reused a layer name)."""
    if registered_variable(name) is None:
        return name
    for i in itertools.count(1):
        if registered_variable(f"{name}_{i}") is None:
            return f"{name}_{i}"
