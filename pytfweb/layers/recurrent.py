"""Recurrent layers (tfjs-layers layers/recurrent.ts): SimpleRNNCell, LSTMCell, GRUCell, RNN
(generic over a cell), SimpleRNN, LSTM, GRU.

The time loop is written in Python over ops (unstack along time, one cell step per timestep,
stack), so it runs on every backend and the gradients come from the ops' own. As in TF.js:
kernels default to glorot normal, recurrent kernels to orthogonal, biases to zeros; LSTM and
GRU's recurrent activation defaults to hard sigmoid; GRU is the reset-before formulation
(resetAfter is not supported); go_backwards outputs stay in processing (reversed) order;
return_state gives [output, *states]; unroll is accepted and ignored (the loop is always
unrolled). Dropout masks are drawn once per sequence (one mask for the inputs, one for the
recurrent state, shared by every gate, as TF.js's implementation 2).

Initial states: `layer.apply(x, initial_state=[...])` (tensors, or SymbolicTensors that become
extra inputs of the layer's node), or a list [x, *states] as the inputs.

Stateful (stateful=True): the batch size must be known when the layer is built (batch_input_shape,
or batch_size with input_shape, on the first layer; batch_shape on tf.input), else a ValueError.
The states are non-trainable Variables of that batch size (not among the layer's weights, as in
Keras), zeros at first; every call starts from them and leaves its last states in them (also in
fit, evaluate and predict: pass batch_size and shuffle=False). layer.reset_states(states=None) and
model.reset_states() reset them; dispose() disposes them.

Masks ([batch, time], from Masking or Embedding(mask_zero=True) through a model, or call(...,
mask=...)): at a masked timestep the states are carried over unchanged and the output repeats
the first state (the previous output; the initial state's at the start), as TF.js's rnn(); a
sequence output keeps the input mask (compute_mask), a last output or a state has none.
"""
from .. import ops
from ..core.api import dispose
from ..core.tensor import Tensor
from . import activations as _activations
from . import constraints as _constraints
from . import initializers as _initializers
from . import regularizers as _regularizers
from .engine import Container, InputSpec, Layer, _shapes_and_dtypes, _variable_name, assign_checked
from ._utils import shape_str


def _positive_units(units, layer):
    if isinstance(units, bool) or not isinstance(units, int) or units < 1:
        raise ValueError(f"{layer}: units must be a positive integer, got {units!r}")
    return units


def _rate(value, name, layer):
    value = 0.0 if value is None else float(value)
    if not 0 <= value <= 1:
        raise ValueError(f"{layer}: {name} must be in [0, 1], got {value}")
    return value


def state_sizes(cell):
    """A cell's state sizes as a tuple: TF.js's stateSize may be one number (a single state) or a
    list (the first is the output size), as may a user's cell here."""
    size = getattr(cell, "state_size", None)
    if size is None:
        raise ValueError(f"The RNN cell {getattr(cell, 'name', cell)} should have an attribute `state_size` (the "
                         f"size of each recurrent state: a number, or a list of them)")
    return tuple(size) if isinstance(size, (list, tuple)) else (size,)


def _reset_dropout_masks(cell):
    # a cell of the user's own (any Layer with state_size and call) need not keep dropout masks
    reset = getattr(cell, "reset_dropout_masks", None)
    if reset is not None:
        reset()


class RNNCell(Layer):
    """A cell: call([x_t, *states]) -> [output_t, *new_states]; state_size lists the states'
    sizes (the first is the output size)."""
    config_keys = ("units", "activation", "use_bias", "kernel_initializer", "recurrent_initializer",
                   "bias_initializer", "kernel_regularizer", "recurrent_regularizer", "bias_regularizer",
                   "activity_regularizer", "kernel_constraint", "recurrent_constraint", "bias_constraint", "dropout",
                   "recurrent_dropout")
    state_size = ()

    def __init__(self, units=None, activation="tanh", use_bias=True, kernel_initializer="glorot_normal",
                 recurrent_initializer="orthogonal", bias_initializer="zeros", kernel_regularizer=None,
                 recurrent_regularizer=None, bias_regularizer=None, kernel_constraint=None,
                 recurrent_constraint=None, bias_constraint=None, dropout=0.0, recurrent_dropout=0.0,
                 dropout_func=None, **kwargs):
        super().__init__(**kwargs)
        cls = self.get_class_name()
        self.units = _positive_units(units, cls)
        self.activation = _activations.get("tanh" if activation is None else activation)
        self.use_bias = True if use_bias is None else bool(use_bias)
        self.kernel_initializer = _initializers.get(kernel_initializer or "glorot_normal")
        self.recurrent_initializer = _initializers.get(recurrent_initializer or "orthogonal")
        self.bias_initializer = _initializers.get(bias_initializer or "zeros")
        self.kernel_regularizer = _regularizers.get(kernel_regularizer)
        self.recurrent_regularizer = _regularizers.get(recurrent_regularizer)
        self.bias_regularizer = _regularizers.get(bias_regularizer)
        self.kernel_constraint = _constraints.get(kernel_constraint)
        self.recurrent_constraint = _constraints.get(recurrent_constraint)
        self.bias_constraint = _constraints.get(bias_constraint)
        self.dropout = _rate(dropout, "dropout", cls)
        self.recurrent_dropout = _rate(recurrent_dropout, "recurrent_dropout", cls)
        self.dropout_func = dropout_func
        self.kernel = self.recurrent_kernel = self.bias = None
        self.reset_dropout_masks()

    gates = 1

    def reset_dropout_masks(self):
        """Forget the cached dropout masks, so that the next step draws new ones (an RNN does so
        before each sequence)."""
        self.dropout_mask = None
        self.recurrent_dropout_mask = None

    def _mask(self, like, rate, draws=None):
        # TF.js draws one mask per gate (generateDropoutMask with count 3 for GRU, 4 for LSTM) and
        # applies the first to every gate: a user's dropout_func sees as many calls here (the others'
        # masks disposed); pytfweb's own dropout draws only the mask it applies (a traced step
        # would prune the unused draws, and eager and traced runs must draw alike). draws=1: one
        # mask, for a cell that applies a mask of its own to each gate.
        if self.dropout_func is None:
            return ops.dropout(ops.ones_like(like), rate)
        masks = []
        for _ in range(self.gates if draws is None else draws):
            ones = ops.ones_like(like)
            try:
                masks.append(self.dropout_func(ones, rate))
            finally:
                if all(m is not ones for m in masks):
                    ones.dispose()
        for m in masks[1:]:
            if m is not masks[0]:
                m.dispose()
        return masks[0]

    def _drop(self, x, h, training):
        """x and h with this sequence's dropout masks applied (training only)."""
        if training and 0 < self.dropout < 1:
            if self.dropout_mask is None:
                self.dropout_mask = self._mask(x, self.dropout)
            x = ops.mul(x, self.dropout_mask)
        if training and 0 < self.recurrent_dropout < 1:
            if self.recurrent_dropout_mask is None:
                self.recurrent_dropout_mask = self._mask(h, self.recurrent_dropout)
            h = ops.mul(h, self.recurrent_dropout_mask)
        return x, h

    def _bias_initializer(self):
        return self.bias_initializer

    def build(self, input_shape):
        if input_shape and isinstance(input_shape[0], (list, tuple)):
            input_shape = input_shape[0]
        input_dim = input_shape[-1]
        if input_dim is None:
            raise ValueError(f"Layer {self.name}: the last dimension of the input should be defined, got "
                             f"{shape_str(input_shape)}")
        n = self.units * self.gates
        self._add_weights([input_dim, n], [self.units, n])

    def _add_weights(self, kernel_shape, recurrent_shape, recurrent_name="recurrent_kernel"):
        """The kernel, the recurrent kernel and (use_bias) the bias of all gates; built."""
        n = kernel_shape[-1]
        self.kernel = self.add_weight("kernel", kernel_shape, None, self.kernel_initializer,
                                      self.kernel_regularizer, True, self.kernel_constraint)
        self.recurrent_kernel = self.add_weight(recurrent_name, recurrent_shape, None, self.recurrent_initializer,
                                                self.recurrent_regularizer, True, self.recurrent_constraint)
        if self.use_bias:
            self.bias = self.add_weight("bias", self._bias_shape(n), None, self._bias_initializer(),
                                        self.bias_regularizer, True, self.bias_constraint)
        self.built = True

    def _bias_shape(self, n):
        return [n]

    def compute_output_shape(self, input_shape):
        batch = input_shape[0][0] if isinstance(input_shape[0], (list, tuple)) else input_shape[0]
        return [(batch, s) for s in (self.units,) + tuple(self.state_size)]

    def _split_inputs(self, inputs):
        if not isinstance(inputs, (list, tuple)) or len(inputs) != 1 + len(self.state_size):
            raise ValueError(f"{self.get_class_name()} expects {1 + len(self.state_size)} input Tensors (inputs and "
                             f"{len(self.state_size)} state(s)), got "
                             f"{len(inputs) if isinstance(inputs, (list, tuple)) else 1}.")
        return inputs[0], list(inputs[1:])

    def _dense(self, x, h):
        z = ops.add(ops.mat_mul(x, self.kernel), ops.mat_mul(h, self.recurrent_kernel))
        return ops.add(z, self.bias) if self.use_bias else z


class SimpleRNNCell(RNNCell):
    """h_t = activation(x_t W + h_{t-1} U + b)."""
    class_name = "SimpleRNNCell"

    @property
    def state_size(self):
        """The size of each state, a tuple: (units,)."""
        return (self.units,)

    def call(self, inputs, training=False):
        x, (h,) = self._split_inputs(inputs)
        x, h = self._drop(x, h, training)
        out = self.activation(self._dense(x, h))
        return [out, out]


class LSTMCell(RNNCell):
    """Gates i, f, c, o (in that order in the kernels and the bias)."""
    class_name = "LSTMCell"
    config_keys = ("recurrent_activation", "unit_forget_bias", "implementation")
    gates = 4

    def __init__(self, units=None, recurrent_activation="hard_sigmoid", unit_forget_bias=False, implementation=None,
                 **kwargs):
        super().__init__(units, **kwargs)
        self.recurrent_activation = _activations.get(recurrent_activation or "hard_sigmoid")
        self.unit_forget_bias = bool(unit_forget_bias)
        self.implementation = implementation

    @property
    def state_size(self):
        """The size of each state, a tuple: (units, units) for h and c."""
        return (self.units, self.units)

    def _bias_initializer(self):
        if not self.unit_forget_bias:
            return self.bias_initializer
        base, units = self.bias_initializer, self.units

        def init(shape, dtype="float32"):
            parts = [base([units], dtype), ops.ones([units], dtype), base([2 * units], dtype)]
            try:
                return ops.concat(parts, 0)
            finally:
                for p in parts:
                    p.dispose()
        return init

    def call(self, inputs, training=False):
        x, (h, c) = self._split_inputs(inputs)
        x, h = self._drop(x, h, training)
        z0, z1, z2, z3 = ops.split(self._dense(x, h), 4, 1)
        i = self.recurrent_activation(z0)
        f = self.recurrent_activation(z1)
        c = ops.add(ops.mul(f, c), ops.mul(i, self.activation(z2)))
        o = self.recurrent_activation(z3)
        h = ops.mul(o, self.activation(c))
        return [h, h, c]


class GRUCell(RNNCell):
    """Gates z, r, h (in that order). TF.js's formulation (reset_after=False) applies the reset gate
    before the recurrent kernel; reset_after=True (Keras's default, which TF.js refuses) applies it
    after, with separate input and recurrent biases (bias shape [2, 3 * units]), so GRUs from Keras
    files load."""
    class_name = "GRUCell"
    config_keys = ("recurrent_activation", "implementation", "reset_after")
    gates = 3

    def __init__(self, units=None, recurrent_activation="hard_sigmoid", implementation=None, reset_after=False,
                 **kwargs):
        self.reset_after = bool(reset_after)
        super().__init__(units, **kwargs)
        self.recurrent_activation = _activations.get(recurrent_activation or "hard_sigmoid")
        self.implementation = implementation

    @property
    def state_size(self):
        """The size of each state, a tuple: (units,)."""
        return (self.units,)

    def _bias_shape(self, n):
        return [2, n] if self.reset_after else [n]   # reset_after: a row for the input, one for the recurrence

    def call(self, inputs, training=False):
        x, (h,) = self._split_inputs(inputs)
        x, h = self._drop(x, h, training)
        if self.reset_after:
            mx, mh = ops.mat_mul(x, self.kernel), ops.mat_mul(h, self.recurrent_kernel)
            if self.use_bias:
                bx, bh = ops.unstack(self.bias)
                mx, mh = ops.add(mx, bx), ops.add(mh, bh)
            xz, xr, xh = ops.split(mx, 3, 1)
            hz, hr, hh = ops.split(mh, 3, 1)
            z = self.recurrent_activation(ops.add(xz, hz))
            r = self.recurrent_activation(ops.add(xr, hr))
            candidate = self.activation(ops.add(xh, ops.mul(r, hh)))
        else:
            mx = ops.mat_mul(x, self.kernel)
            if self.use_bias:
                mx = ops.add(mx, self.bias)
            rk1, rk2 = ops.split(self.recurrent_kernel, [2 * self.units, self.units], 1)
            xz, xr, xh = ops.split(mx, 3, 1)
            rz, rr = ops.split(ops.mat_mul(h, rk1), 2, 1)
            z = self.recurrent_activation(ops.add(xz, rz))
            r = self.recurrent_activation(ops.add(xr, rr))
            candidate = self.activation(ops.add(xh, ops.mat_mul(ops.mul(r, h), rk2)))
        out = ops.add(ops.mul(z, h), ops.mul(ops.sub(1, z), candidate))
        return [out, out]


class StackedRNNCells(Container):
    """Cells run one after another at each timestep, as one cell. Its states are the cells'
    states flattened in reverse cell order ([h2, c2, h1, c1] for two LSTM cells), so that
    state_size[0] is the output size."""
    class_name = "StackedRNNCells"
    config_keys = ("cells",)

    def __init__(self, cells=None, **kwargs):
        super().__init__(**kwargs)
        if not isinstance(cells, (list, tuple)) or not cells:
            raise ValueError(f"StackedRNNCells: 'cells' must be a non-empty list of RNN cells, got {cells!r}")
        self.cells = list(cells)

    @property
    def state_size(self):
        """The sizes of the states of every cell, in order."""
        return tuple(s for cell in reversed(self.cells) for s in state_sizes(cell))

    def _children(self):
        return getattr(self, "cells", [])

    def reset_dropout_masks(self):
        """Forget the cached dropout masks of every cell."""
        for c in self.cells:
            _reset_dropout_masks(c)

    def build(self, input_shape):
        if input_shape and isinstance(input_shape[0], (list, tuple)):
            input_shape = input_shape[0]
        for cell in self.cells:
            if not cell.built:
                cell.build(input_shape)
                cell.built = True
            input_shape = (input_shape[0], state_sizes(cell)[0])
        self.built = True

    def call(self, inputs, training=False):
        states = list(inputs[1:])
        nested = []
        for cell in reversed(self.cells):
            n = len(state_sizes(cell))
            nested.append(states[:n])
            states = states[n:]
        nested.reverse()
        x, new_nested = inputs[0], []
        for cell, cell_states in zip(self.cells, nested):
            out = cell.call([x] + cell_states, training)
            x = out[0]
            new_nested.append(list(out[1:]))
        return [x] + [s for cell_states in reversed(new_nested) for s in cell_states]


class RNN(Layer):
    """Runs a cell over the time axis of a [batch, time, features] input.

    call(inputs, training, mask, initial_state): inputs may be a list [x, *initial_states] (how
    a functional model passes the initial states it was applied with); mask, a [batch, time]
    tensor, marks the timesteps to skip. stateful=True keeps the last states (non-trainable
    variables, batch size fixed at build) as the next call's initial states."""
    class_name = "RNN"
    config_keys = ("return_sequences", "return_state", "go_backwards", "stateful", "unroll", "cell")
    cell_in_config = True

    def get_config(self):
        """TF.js's config of an RNN: its own arguments with the cell's spread in, and the cell itself
        unless the layer makes its cell from those arguments (SimpleRNN, LSTM, GRU, ConvLSTM2D).

        Returns:
            A dict.
        """
        config = super().get_config()
        cell = {k: v for k, v in self.cell.get_config().items()
                if k not in ("name", "trainable", "dtype", "batch_input_shape")}
        if not self.cell_in_config:
            del config["cell"]
        return {**cell, **config} if self.cell_in_config else {**config, **cell}

    def __init__(self, cell=None, return_sequences=False, return_state=False, go_backwards=False, stateful=False,
                 unroll=False, input_dim=None, input_length=None, **kwargs):
        if input_dim is not None and kwargs.get("input_shape") is None and kwargs.get("batch_input_shape") is None:
            kwargs["input_shape"] = [input_length, input_dim]
        super().__init__(**kwargs)
        if cell is None:
            raise ValueError("RNN: required argument 'cell' is missing")
        if isinstance(cell, (list, tuple)):
            cell = StackedRNNCells(cells=list(cell))
        self.cell = cell
        self.return_sequences = bool(return_sequences)
        self.return_state = bool(return_state)
        self.go_backwards = bool(go_backwards)
        self.stateful = bool(stateful)
        self.unroll = bool(unroll)
        self.supports_masking = True
        self.input_spec = InputSpec(ndim=3)
        self._state_vars = None   # stateful: one Variable per state, made by build

    # the weights are the cell's
    @property
    def trainable(self):
        """Whether fit updates the cell's weights (settable: sets the cell's)."""
        return self._trainable

    @trainable.setter
    def trainable(self, value):
        self._trainable = bool(value)
        if getattr(self, "cell", None) is not None:
            self.cell.trainable = value

    @property
    def trainable_weights(self):
        """The cell's trainable weights (Variables)."""
        return self.cell.trainable_weights if self.trainable else []

    @property
    def non_trainable_weights(self):
        """The cell's non-trainable weights (Variables)."""
        if self.trainable:
            return self.cell.non_trainable_weights
        return self.cell.weights

    def regularization_losses(self):
        return self.cell.regularization_losses()

    def apply_constraints(self):
        self.cell.apply_constraints()

    def _dispose_weights(self):
        # the states of a stateful layer go with its weights (they are not counted as weights)
        if self._state_vars is not None:
            for v in self._state_vars:
                v.dispose()
            self._state_vars = None
        return self.cell._dispose_weights()

    # --- shapes ---------------------------------------------------------------------------------
    def _state_shapes(self, input_shape):
        """The states' shapes for an input of input_shape: (batch, size), or (batch, *size) for a
        state_size entry that is a shape."""
        batch = input_shape[0]
        return [(batch,) + tuple(s) if isinstance(s, (list, tuple)) else (batch, s) for s in state_sizes(self.cell)]

    def get_initial_state(self, inputs):
        """Zero states for a batch of inputs.

        Args:
            inputs: [batch, time, features].

        Returns:
            One zero Tensor [batch, size] per state.
        """
        return [ops.zeros(list(s), inputs.dtype) for s in self._state_shapes(inputs.shape)]

    def assert_input_compatibility(self, shapes):
        # The first input is the sequence; any others are initial states.
        shapes = _shapes_and_dtypes(shapes)[0]
        super().assert_input_compatibility(shapes[:1])
        if len(shapes) > 1:
            self._check_state_shapes(shapes[0], shapes[1:])

    def _state_names(self):
        """How error messages name the states (ConvLSTM2D: h and c)."""
        return [str(i) for i in range(len(state_sizes(self.cell)))]

    def _check_state_shapes(self, input_shape, state_shapes):
        names = self._state_names()
        if len(state_shapes) != len(names):
            raise ValueError(f"{self.get_class_name()} layer {self.name} has {len(names)} state(s) but was passed "
                             f"{len(state_shapes)} initial state(s); initial_state takes one tensor per state.")
        for name, got, want in zip(names, state_shapes, self._state_shapes(input_shape)):
            if len(got) != len(want) or any(g is not None and w is not None and g != w for g, w in zip(got, want)):
                raise ValueError(f"{self.get_class_name()} layer {self.name}: initial state {name} should have shape "
                                 f"{shape_str(want)}, got {shape_str(list(got))}")

    def build(self, input_shape):
        if input_shape and isinstance(input_shape[0], (list, tuple)):
            input_shape = input_shape[0]   # [x, *initial states]
        ndim = self.input_spec.ndim if self.input_spec is not None and self.input_spec.ndim else 3
        if len(input_shape) != ndim:
            raise ValueError(f"Input 0 is incompatible with layer {self.name}: expected ndim={ndim}, found "
                             f"ndim={len(input_shape)}")
        if self.stateful and input_shape[0] is None:
            raise ValueError(
                f"If an RNN is stateful, it needs to know its batch size (layer {self.name}). Specify the batch size "
                f"of your input tensors:\n- If using a Sequential model, specify the batch size by passing a "
                f"`batch_input_shape` (or `batch_size` with `input_shape`) option to your first layer.\n- If using "
                f"the functional API, specify the batch size by passing a `batch_shape` option to your Input layer.")
        if self.stateful:
            self._full_state_shapes(input_shape)   # before the cell makes any weight
        if not self.cell.built:
            self.cell.build((input_shape[0],) + tuple(input_shape[2:]))
            self.cell.built = True
        if self.stateful:
            self._make_states(input_shape)
        self.built = True

    def compute_output_shape(self, input_shape):
        if input_shape and isinstance(input_shape[0], (list, tuple)):
            input_shape = input_shape[0]
        states = self._state_shapes(tuple(input_shape))
        out = (states[0][0], input_shape[1]) + tuple(states[0][1:]) if self.return_sequences else states[0]
        if self.return_state:
            return [out] + states
        return out

    def compute_mask(self, inputs, mask=None):
        """The input mask for a sequence output (return_sequences), none otherwise and for the states.

        Args:
            inputs: the layer's inputs.
            mask: their mask, [batch, time].

        Returns:
            The output mask (a list with one None per state with return_state), or None.
        """
        if isinstance(mask, (list, tuple)):
            mask = mask[0]
        out = mask if self.return_sequences else None
        if self.return_state:
            return [out] + [None] * len(state_sizes(self.cell))
        return out

    # --- states of a stateful layer ---------------------------------------------------------------
    @property
    def states(self):
        """The current states of a stateful layer (its Variables; read, do not dispose them);
        [None, ...] otherwise."""
        if self._state_vars is None:
            return [None] * len(state_sizes(self.cell))
        return list(self._state_vars)

    def _full_state_shapes(self, input_shape):
        """The states' shapes for a stateful layer, which must be fully known."""
        shapes = self._state_shapes(input_shape)
        if any(d is None for shape in shapes for d in shape):
            raise ValueError(f"Stateful RNN layer {self.name} needs to know the full shape of its states when it is "
                             f"built, got {', '.join(shape_str(list(s)) for s in shapes)} for input shape "
                             f"{shape_str(list(input_shape))}: give every input dimension except the time axis.")
        return shapes

    def _make_states(self, input_shape):
        if self._state_vars is not None:
            return
        shapes = self._full_state_shapes(input_shape)
        made = []
        try:
            for i, shape in enumerate(shapes):
                zeros = ops.zeros(list(shape), self.dtype)
                try:
                    made.append(ops.variable(zeros, False, _variable_name(f"{self.name}/state_{i}")))
                finally:
                    zeros.dispose()
        except Exception:
            dispose(made)
            raise
        self._state_vars = made

    def reset_states(self, states=None):
        """Set the states of a stateful layer: to zeros, or to given values.

        Args:
            states: None (zeros), or a list with one value per state (a tensor or a numpy array of the
                state's shape).
        """
        if not self.stateful:
            raise AttributeError(f"Cannot call reset_states() on RNN layer {self.name}: it is not stateful.")
        if self._state_vars is None:
            raise ValueError(f"RNN layer {self.name} has no states yet: build it (or call it) first, with a known "
                             f"batch size.")
        if states is None:
            for v in self._state_vars:
                zeros = ops.zeros_like(v)
                v.assign(zeros)
                zeros.dispose()
            return
        # As Keras: a list (or tuple) holds one value per state; anything else is the only state.
        states = list(states) if isinstance(states, (list, tuple)) else [states]
        if len(states) != len(self._state_vars):
            raise ValueError(f"Layer {self.name} expects {len(self._state_vars)} state(s), but it received "
                             f"{len(states)} state value(s). Input received: {states}")
        assign_checked(self._state_vars, states, "states", "reset_states",
                       lambda i, v, t: f"State {i} is incompatible with layer {self.name}: expected shape="
                                       f"{shape_str(v.shape)}, received shape={shape_str(t.shape)}")

    # --- the time loop --------------------------------------------------------------------------
    def call(self, inputs, training=False, mask=None, initial_state=None):
        if isinstance(inputs, (list, tuple)):
            x, rest = inputs[0], list(inputs[1:])
            if rest:
                if initial_state is not None:
                    raise ValueError(f"{self.get_class_name()} layer {self.name}: initial states given twice (in the "
                                     f"inputs and as initial_state)")
                initial_state = rest
        else:
            x = inputs
        if isinstance(mask, (list, tuple)):
            mask = mask[0]
        ndim = self.input_spec.ndim if self.input_spec is not None and self.input_spec.ndim else 3
        if x.rank != ndim:
            raise ValueError(f"{self.get_class_name()} layer {self.name} expects inputs of rank {ndim}, got rank "
                             f"{x.rank} (shape {shape_str(list(x.shape))})")
        if x.shape[1] == 0:
            raise ValueError(f"{self.get_class_name()} layer {self.name}: the input has no timesteps (shape "
                             f"{shape_str(list(x.shape))})")
        if initial_state is not None:
            states = list(initial_state) if isinstance(initial_state, (list, tuple)) else [initial_state]
            self._check_state_shapes(tuple(x.shape), [tuple(s.shape) for s in states])
        elif self.stateful:
            states = self._current_states(x)
        else:
            states = self.get_initial_state(x)
        keeps = self._step_masks(mask, x) if mask is not None else None
        seq, states = self._to_step_layout(x, states)
        xs = ops.unstack(seq, 1)
        if self.go_backwards:
            xs = xs[::-1]
            keeps = keeps[::-1] if keeps is not None else None
        outputs = []
        _reset_dropout_masks(self.cell)
        try:
            for t, xt in enumerate(xs):
                output, new_states = self._step(xt, states, training)
                if keeps is not None:
                    # A masked step changes nothing: its output repeats the state's first entry
                    # (the previous output), its states are carried over (TF.js's rnn()).
                    output = _select(keeps[t], output, states[0])
                    new_states = [_select(keeps[t], n, s) for n, s in zip(new_states, states)]
                outputs.append(output)
                states = new_states
        finally:
            _reset_dropout_masks(self.cell)
        states = [self._from_step_layout(s, False) for s in states]
        if self.stateful:
            for v, s in zip(self._state_vars, states):
                v.assign(s)
        if self.return_sequences:
            result = self._from_step_layout(ops.stack(outputs, 1), True)
        else:
            result = self._from_step_layout(outputs[-1], False)
        if self.return_state:
            return [result] + states
        return result

    def _current_states(self, x):
        """A stateful layer's states, checked against the batch (and the rest of the shape) of x."""
        if self._state_vars is None:
            raise ValueError(f"RNN layer {self.name} is stateful but has no states (it was disposed?)")
        have = tuple(self._state_vars[0].shape)
        if have[0] != x.shape[0]:
            raise ValueError(f"Stateful RNN layer {self.name} was built for a batch size of {have[0]} but got a "
                             f"batch of {x.shape[0]} samples; give fit / evaluate / predict batch_size={have[0]} and "
                             f"a number of samples that is a multiple of it.")
        want = [tuple(s) for s in self._state_shapes(tuple(x.shape))]
        got = [tuple(v.shape) for v in self._state_vars]
        if want != got:
            raise ValueError(f"Stateful RNN layer {self.name} keeps states of shape(s) "
                             f"{', '.join(shape_str(list(g)) for g in got)}, but an input of shape "
                             f"{shape_str(list(x.shape))} needs {', '.join(shape_str(list(w)) for w in want)}")
        return list(self._state_vars)

    # What a subclass whose cell steps in another layout overrides (ConvLSTM2D: channels last).
    def _to_step_layout(self, x, states):
        """(sequence, states) in the layout the step works in."""
        return x, states

    def _from_step_layout(self, t, sequence):
        """A state or one output step (sequence False), or the stacked outputs (True), back in the
        layer's layout."""
        return t

    def _step(self, xt, states, training):
        """One timestep: (output, new states)."""
        out = self.cell.call([xt] + states, training)
        return out[0], list(out[1:])

    def _step_masks(self, mask, x):
        """mask [batch, time] -> one bool tensor per timestep, [batch, 1] ([batch, 1, 1, 1] for a
        5-D input): one entry per sample, broadcast over the state's other axes."""
        if not isinstance(mask, Tensor):
            mask = ops.convert_to_tensor(mask, "mask", self.name, "bool")
        if tuple(mask.shape) != tuple(x.shape[:2]):
            raise ValueError(f"{self.get_class_name()} layer {self.name}: the mask should have shape [batch, time] = "
                             f"{shape_str(list(x.shape[:2]))}, got {shape_str(list(mask.shape))}")
        if mask.dtype != "bool":
            mask = ops.cast(mask, "bool")
        return ops.unstack(ops.reshape(mask, list(mask.shape) + [1] * (x.rank - 2)), 1)

    def apply(self, inputs, training=False, initial_state=None, **kwargs):
        """Apply the layer (see Layer.apply), with initial states if given.

        Args:
            inputs: [batch, time, features], a Tensor or a SymbolicTensor.
            training: whether the call is part of training (dropout acts only then).
            initial_state: one tensor per state (SymbolicTensors when inputs is one), which become extra
                inputs of the layer's node.
            **kwargs: passed to call (mask=...).

        Returns:
            The output (with return_sequences, one per timestep), then the final states with
            return_state.
        """
        if initial_state is not None:
            x = inputs[0] if isinstance(inputs, (list, tuple)) else inputs
            if isinstance(inputs, (list, tuple)) and len(inputs) > 1:
                raise ValueError(f"RNN layer {self.name}: initial states given twice (in the inputs and as "
                                 f"initial_state)")
            inputs = [x] + (list(initial_state) if isinstance(initial_state, (list, tuple)) else [initial_state])
        return super().apply(inputs, training, **kwargs)


def _select(keep, new, old):
    """new where keep (bool [batch, 1]) is true, else old; keep reshaped for higher-rank states."""
    if new.rank != keep.rank:
        keep = ops.reshape(keep, [keep.shape[0]] + [1] * (new.rank - 1))
    return ops.where(keep, new, old)


class _CellRNN(RNN):
    """An RNN that makes its own cell (of cell_class) from the cell arguments, named as the layer."""
    cell_class = None

    def __init__(self, units=None, return_sequences=False, return_state=False, go_backwards=False, stateful=False,
                 unroll=False, input_dim=None, input_length=None, name=None, trainable=True, input_shape=None,
                 batch_input_shape=None, batch_size=None, dtype=None, weights=None, input_dtype=None, **cell_args):
        self._cell_args = dict(cell_args, units=units)
        cell = self.cell_class(units, **cell_args)
        super().__init__(cell, return_sequences, return_state, go_backwards, stateful, unroll, input_dim,
                         input_length, name=name, trainable=trainable, input_shape=input_shape,
                         batch_input_shape=batch_input_shape, batch_size=batch_size, dtype=dtype, weights=weights,
                         input_dtype=input_dtype)
        cell.name = self.name   # the weights are '<layer name>/kernel', ...

    @property
    def units(self):
        """The dimensionality of the output (the cell's units)."""
        return self.cell.units

    cell_in_config = False   # the layer makes its cell from the arguments spread into its config


class SimpleRNN(_CellRNN):
    class_name = "SimpleRNN"
    cell_class = SimpleRNNCell


class LSTM(_CellRNN):
    class_name = "LSTM"
    cell_class = LSTMCell


class GRU(_CellRNN):
    class_name = "GRU"
    cell_class = GRUCell
