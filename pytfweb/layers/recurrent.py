"""Recurrent layers (tfjs-layers layers/recurrent.ts): SimpleRNNCell, LSTMCell, GRUCell, RNN
(generic over a cell), SimpleRNN, LSTM, GRU.

The time loop is written in Python over ops (unstack along time, one cell step per timestep,
stack), so it runs on every backend and the gradients come from the ops' own. As in TF.js:
kernels default to glorot normal, recurrent kernels to orthogonal, biases to zeros; LSTM and
GRU's recurrent activation defaults to hard sigmoid; GRU is the reset-before formulation
(resetAfter is not supported); go_backwards outputs stay in processing (reversed) order;
return_state gives [output, *states]. stateful=True is not supported; unroll is accepted and
ignored (the loop is always unrolled). Dropout masks are drawn once per sequence (one mask for
the inputs, one for the recurrent state, shared by every gate, as TF.js's implementation 2).
"""
from .. import ops
from . import activations as _activations
from . import constraints as _constraints
from . import initializers as _initializers
from . import regularizers as _regularizers
from .engine import Container, InputSpec, Layer
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


class RNNCell(Layer):
    """A cell: call([x_t, *states]) -> [output_t, *new_states]; state_size lists the states'
    sizes (the first is the output size)."""
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
        self.dropout_mask = None
        self.recurrent_dropout_mask = None

    def _mask(self, like, rate):
        if self.dropout_func is not None:
            return self.dropout_func(ops.ones_like(like), rate)
        return ops.dropout(ops.ones_like(like), rate)

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
        self.kernel = self.add_weight("kernel", [input_dim, n], None, self.kernel_initializer,
                                      self.kernel_regularizer, True, self.kernel_constraint)
        self.recurrent_kernel = self.add_weight("recurrent_kernel", [self.units, n], None,
                                                self.recurrent_initializer, self.recurrent_regularizer, True,
                                                self.recurrent_constraint)
        if self.use_bias:
            self.bias = self.add_weight("bias", [n], None, self._bias_initializer(), self.bias_regularizer, True,
                                        self.bias_constraint)
        self.built = True

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

    def get_config(self):
        return {**super().get_config(), "units": self.units, "use_bias": self.use_bias,
                "dropout": self.dropout, "recurrent_dropout": self.recurrent_dropout}


class SimpleRNNCell(RNNCell):
    """h_t = activation(x_t W + h_{t-1} U + b)."""
    class_name = "SimpleRNNCell"

    @property
    def state_size(self):
        return (self.units,)

    def call(self, inputs, training=False):
        x, (h,) = self._split_inputs(inputs)
        x, h = self._drop(x, h, training)
        out = self.activation(self._dense(x, h))
        return [out, out]


class LSTMCell(RNNCell):
    """Gates i, f, c, o (in that order in the kernels and the bias)."""
    class_name = "LSTMCell"
    gates = 4

    def __init__(self, units=None, recurrent_activation="hard_sigmoid", unit_forget_bias=False, implementation=None,
                 **kwargs):
        super().__init__(units, **kwargs)
        self.recurrent_activation = _activations.get(recurrent_activation or "hard_sigmoid")
        self.unit_forget_bias = bool(unit_forget_bias)
        self.implementation = implementation

    @property
    def state_size(self):
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

    def get_config(self):
        return {**super().get_config(), "unit_forget_bias": self.unit_forget_bias}


class GRUCell(RNNCell):
    """Gates z, r, h (in that order); the reset gate applies before the recurrent kernel
    (TF.js's only formulation, resetAfter=false)."""
    class_name = "GRUCell"
    gates = 3

    def __init__(self, units=None, recurrent_activation="hard_sigmoid", implementation=None, reset_after=False,
                 **kwargs):
        if reset_after:
            raise ValueError("GRUCell does not support reset_after parameter set to true.")
        super().__init__(units, **kwargs)
        self.recurrent_activation = _activations.get(recurrent_activation or "hard_sigmoid")
        self.implementation = implementation

    @property
    def state_size(self):
        return (self.units,)

    def call(self, inputs, training=False):
        x, (h,) = self._split_inputs(inputs)
        x, h = self._drop(x, h, training)
        mx = ops.mat_mul(x, self.kernel)
        if self.use_bias:
            mx = ops.add(mx, self.bias)
        rk1, rk2 = ops.split(self.recurrent_kernel, [2 * self.units, self.units], 1)
        xz, xr, xh = ops.split(mx, 3, 1)
        rz, rr = ops.split(ops.mat_mul(h, rk1), 2, 1)
        z = self.recurrent_activation(ops.add(xz, rz))
        r = self.recurrent_activation(ops.add(xr, rr))
        hh = self.activation(ops.add(xh, ops.mat_mul(ops.mul(r, h), rk2)))
        out = ops.add(ops.mul(z, h), ops.mul(ops.sub(1, z), hh))
        return [out, out]


class StackedRNNCells(Container):
    """Cells run one after another at each timestep, as one cell. Its states are the cells'
    states flattened in reverse cell order ([h2, c2, h1, c1] for two LSTM cells), so that
    state_size[0] is the output size."""
    class_name = "StackedRNNCells"

    def __init__(self, cells=None, **kwargs):
        super().__init__(**kwargs)
        if not isinstance(cells, (list, tuple)) or not cells:
            raise ValueError(f"StackedRNNCells: 'cells' must be a non-empty list of RNN cells, got {cells!r}")
        self.cells = list(cells)

    @property
    def state_size(self):
        return tuple(s for cell in reversed(self.cells) for s in cell.state_size)

    def _children(self):
        return getattr(self, "cells", [])

    def reset_dropout_masks(self):
        for c in self.cells:
            c.reset_dropout_masks()

    def build(self, input_shape):
        if input_shape and isinstance(input_shape[0], (list, tuple)):
            input_shape = input_shape[0]
        for cell in self.cells:
            if not cell.built:
                cell.build(input_shape)
                cell.built = True
            input_shape = (input_shape[0], cell.state_size[0])
        self.built = True

    def call(self, inputs, training=False):
        states = list(inputs[1:])
        nested = []
        for cell in reversed(self.cells):
            n = len(cell.state_size)
            nested.append(states[:n])
            states = states[n:]
        nested.reverse()
        x, new_nested = inputs[0], []
        for cell, cell_states in zip(self.cells, nested):
            out = cell.call([x] + cell_states, training)
            x = out[0]
            new_nested.append(list(out[1:]))
        return [x] + [s for cell_states in reversed(new_nested) for s in cell_states]

    def get_config(self):
        return {**super().get_config(),
                "cells": [{"class_name": c.get_class_name(), "config": c.get_config()} for c in self.cells]}


class RNN(Layer):
    """Runs a cell over the time axis of a [batch, time, features] input."""
    class_name = "RNN"

    def __init__(self, cell=None, return_sequences=False, return_state=False, go_backwards=False, stateful=False,
                 unroll=False, input_dim=None, input_length=None, **kwargs):
        if input_dim is not None and kwargs.get("input_shape") is None and kwargs.get("batch_input_shape") is None:
            kwargs["input_shape"] = [input_length, input_dim]
        super().__init__(**kwargs)
        if cell is None:
            raise ValueError("RNN: required argument 'cell' is missing")
        if isinstance(cell, (list, tuple)):
            cell = StackedRNNCells(cells=list(cell))
        if stateful:
            raise NotImplementedError("RNN: stateful=True is not supported")
        self.cell = cell
        self.return_sequences = bool(return_sequences)
        self.return_state = bool(return_state)
        self.go_backwards = bool(go_backwards)
        self.stateful = False
        self.unroll = bool(unroll)
        self.input_spec = InputSpec(ndim=3)

    # the weights are the cell's
    @property
    def trainable(self):
        return self._trainable

    @trainable.setter
    def trainable(self, value):
        self._trainable = bool(value)
        if getattr(self, "cell", None) is not None:
            self.cell.trainable = value

    @property
    def trainable_weights(self):
        return self.cell.trainable_weights if self.trainable else []

    @property
    def non_trainable_weights(self):
        if self.trainable:
            return self.cell.non_trainable_weights
        return self.cell.weights

    def regularization_losses(self):
        return self.cell.regularization_losses()

    def apply_constraints(self):
        self.cell.apply_constraints()

    def dispose(self):
        return self.cell.dispose()

    def build(self, input_shape):
        if len(input_shape) != 3:
            raise ValueError(f"Input 0 is incompatible with layer {self.name}: expected ndim=3, found "
                             f"ndim={len(input_shape)}")
        if not self.cell.built:
            self.cell.build((input_shape[0], input_shape[-1]))
            self.cell.built = True
        self.built = True

    def compute_output_shape(self, input_shape):
        batch, steps = input_shape[0], input_shape[1]
        state_size = list(self.cell.state_size)
        out = (batch, steps, state_size[0]) if self.return_sequences else (batch, state_size[0])
        if self.return_state:
            return [out] + [(batch, s) for s in state_size]
        return out

    def call(self, inputs, training=False):
        x = inputs[0] if isinstance(inputs, (list, tuple)) else inputs
        if x.rank != 3:
            raise ValueError(f"RNN layer {self.name} expects inputs of rank 3, got rank {x.rank} "
                             f"(shape {shape_str(list(x.shape))})")
        batch, steps = x.shape[0], x.shape[1]
        if steps == 0:
            raise ValueError(f"RNN layer {self.name}: the input has no timesteps (shape {shape_str(list(x.shape))})")
        states = [ops.zeros([batch, s], x.dtype) for s in self.cell.state_size]
        xs = ops.unstack(x, 1)
        if self.go_backwards:
            xs = xs[::-1]
        outputs = []
        self.cell.reset_dropout_masks()
        try:
            for xt in xs:
                out = self.cell.call([xt] + states, training)
                outputs.append(out[0])
                states = list(out[1:])
        finally:
            self.cell.reset_dropout_masks()
        result = ops.stack(outputs, 1) if self.return_sequences else outputs[-1]
        if self.return_state:
            return [result] + states
        return result

    def get_config(self):
        return {**super().get_config(), "return_sequences": self.return_sequences, "return_state": self.return_state,
                "go_backwards": self.go_backwards, "stateful": self.stateful, "unroll": self.unroll,
                "cell": {"class_name": self.cell.get_class_name(), "config": self.cell.get_config()}}


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
        return self.cell.units


class SimpleRNN(_CellRNN):
    class_name = "SimpleRNN"
    cell_class = SimpleRNNCell


class LSTM(_CellRNN):
    class_name = "LSTM"
    cell_class = LSTMCell


class GRU(_CellRNN):
    class_name = "GRU"
    cell_class = GRUCell
