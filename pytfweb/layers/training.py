"""compile / fit / evaluate / predict for models (tfjs-layers engine/training.ts).

fit is a coroutine: between batches it yields to the event loop (`await asyncio.sleep(0)`),
so that a page stays responsive, and it reads values back with `await t.data()`, which on
webgl polls a fence instead of stalling. The loop is written once; fit_sync drives the same
coroutine without an event loop (every await then completes at once: sleeps are skipped and
reads are data_sync()).

Memory: every batch runs in a tidy scope; per-epoch sums of the loss and metrics stay on
the device and are read once per epoch (per batch only when a callback wants on_batch_*
logs). Tensors fit/evaluate/predict make from Python values are disposed before they return.
"""
import asyncio
import math
import random

from .. import ops
from .. import train as _train
from ..engine import ENGINE
from ..ops.creation import convert_to_tensor
from ..tensor import Tensor
from . import losses as _losses
from . import metrics as _metrics
from .callbacks import CallbackList, History, ProgressLogger
from ._utils import shape_str, snake

# TF.js's getOptimizer: the defaults a name gives (epsilon None = the backend's).
_OPTIMIZERS = {
    "sgd": lambda: _train.sgd(0.01),
    "adam": lambda: _train.adam(0.001, 0.9, 0.999),
    "adagrad": lambda: _train.adagrad(0.01),
    "adadelta": lambda: _train.adadelta(1, 0.95),
    "adamax": lambda: _train.adamax(0.002, 0.9, 0.999, None, 0),
    "rmsprop": lambda: _train.rmsprop(0.001, 0.9, 0),
}
_ACCURACY, _CROSSENTROPY = ("accuracy", "acc"), ("crossentropy", "ce")


class Trainer:
    """The training half of a Model (mixed in; the model gives inputs, outputs, _run)."""

    def __init__(self):
        self.optimizer = None
        self._optimizer_owned = False
        self.loss_functions = None
        self.metrics_names = []
        self._metric_fns = []        # (output index, name, fn)
        self.stop_training = False
        self._is_training = False

    # --- compile -------------------------------------------------------------------------------
    def compile(self, optimizer, loss, metrics=None):
        """optimizer: a tf.train optimizer or a name ('sgd', 'adam', 'rmsprop', ...); loss: a
        name ('meanSquaredError', 'mean_squared_error', 'mse'), a function (y_true, y_pred) ->
        per-sample losses, or a list / dict of those, one per output; metrics: a list (or a
        dict by output name) of names ('accuracy', 'mse', ...) or functions."""
        self._check_built("compile")
        loss_fns = [_losses.get(fn) for fn in self._per_output(loss, "loss")]
        metric_fns = self._resolve_metrics(metrics, loss_fns)
        # The optimizer last: a name makes one (with tensors), which a later error would leak.
        if isinstance(optimizer, str):
            key = snake(optimizer).replace("_", "")
            if key not in _OPTIMIZERS:
                raise ValueError(f"Unknown Optimizer {optimizer}. Known: {', '.join(sorted(_OPTIMIZERS))}")
            new, owned = _OPTIMIZERS[key](), True
        elif isinstance(optimizer, _train.Optimizer):
            new, owned = optimizer, False
        else:
            raise TypeError(f"compile: 'optimizer' must be a tf.train optimizer or its name, got "
                            f"{type(optimizer).__name__}")
        self._dispose_optimizer()
        self.optimizer, self._optimizer_owned = new, owned
        self.loss_functions = loss_fns
        self._metric_fns = metric_fns
        many = len(self.outputs) > 1
        self.metrics_names = ["loss"] + ([f"{n}_loss" for n in self.output_names] if many else []) + \
            [name for _, name, _ in metric_fns]

    def _per_output(self, spec, what):
        n = len(self.outputs)
        if isinstance(spec, dict):
            unknown = [k for k in spec if k not in self.output_names]
            if unknown:
                raise ValueError(f"Unknown entry in {what} dictionary: \"{unknown[0]}\". Only expected the following "
                                 f"keys: {', '.join(self.output_names)}")
            missing = [k for k in self.output_names if k not in spec]
            if missing and what == "loss":
                raise ValueError(f"Output \"{missing[0]}\" is missing from the loss dictionary.")
            return [spec.get(k) for k in self.output_names]
        if isinstance(spec, (list, tuple)):
            if len(spec) != n:
                raise ValueError(f"When passing an Array as {what}, it should have one entry per model output. The "
                                 f"model has {n} output(s), but you passed {what}={list(spec)}")
            return list(spec)
        if spec is None and what == "loss":
            raise ValueError("compile: 'loss' is required")
        return [spec] * n

    def _resolve_metrics(self, metrics, loss_fns):
        if metrics is None:
            return []
        if isinstance(metrics, dict):
            per_output = self._per_output(metrics, "metrics")
        else:
            per_output = [metrics] * len(self.outputs)
        out = []
        prefix_needed = len(self.outputs) > 1
        for i, ms in enumerate(per_output):
            for m in ([] if ms is None else ms if isinstance(ms, (list, tuple)) else [ms]):
                if isinstance(m, str) and m in _ACCURACY + _CROSSENTROPY:
                    fn = self._accuracy_like(m, i, loss_fns[i])
                    name = "acc" if m in _ACCURACY else "ce"
                else:
                    fn = _metrics.get(m)
                    name = m if isinstance(m, str) else _metrics.name_of(fn)
                out.append((i, f"{self.output_names[i]}_{name}" if prefix_needed else name, fn))
        return out

    def _accuracy_like(self, m, i, loss_fn):
        # As TF.js: binary when the output has one unit or the loss is binary crossentropy,
        # sparse with the sparse loss, categorical otherwise.
        acc = m in _ACCURACY
        if self.outputs[i].shape[-1] == 1 or loss_fn is _losses.binary_crossentropy:
            return _metrics.binary_accuracy if acc else _metrics.binary_crossentropy
        if loss_fn is _losses.sparse_categorical_crossentropy:
            return _metrics.sparse_categorical_accuracy if acc else _metrics.sparse_categorical_crossentropy
        return _metrics.categorical_accuracy if acc else _metrics.categorical_crossentropy

    def _dispose_optimizer(self):
        if self.optimizer is not None and self._optimizer_owned:
            self.optimizer.dispose()
        self.optimizer, self._optimizer_owned = None, False

    def _check_built(self, api):
        pass

    def _check_compiled(self):
        if self.loss_functions is None:
            raise RuntimeError("You must compile a model before training/testing. Use model.compile(optimizer=..., "
                               "loss=...).")

    # --- data ----------------------------------------------------------------------------------
    def _standardize(self, data, names, shapes, what, owned):
        """data (a Tensor, a list of Tensors, a dict by name, or Python values for one array)
        -> a list of Tensors checked against shapes. Tensors made here are added to owned."""
        if isinstance(data, dict):
            missing = [n for n in names if n not in data]
            if missing:
                raise ValueError(f"No data provided for \"{missing[0]}\". Need data for each key in: {', '.join(names)}")
            arrays = [data[n] for n in names]
        elif isinstance(data, (list, tuple)) and data and all(isinstance(d, Tensor) for d in data):
            arrays = list(data)
            if len(arrays) != len(names):
                raise ValueError(f"Error when checking model {what}: the list of Tensors that you are passing to "
                                 f"your model is not the size the model expected. Expected to see {len(names)} "
                                 f"Tensor(s), but instead got {len(arrays)}.")
        else:
            if len(names) > 1:
                raise ValueError(f"The model {what} expects {len(names)} Tensor(s), but only received one.")
            arrays = [data]
        out = []
        for name, shape, a in zip(names, shapes, arrays):
            if not isinstance(a, Tensor):
                a = convert_to_tensor(a, what, "fit")
                owned.append(a)
            if a.rank == 1:    # as TF.js: a batch of scalars is a batch of 1-vectors
                a = ops.reshape(a, [a.shape[0], 1])
                owned.append(a)
            if shape is not None:
                if a.rank != len(shape):
                    raise ValueError(f"Error when checking {what}: expected {name} to have {len(shape)} dimension(s). "
                                     f"but got array with shape {shape_str(a.shape)}")
                for ref, dim in zip(shape[1:], a.shape[1:]):
                    if ref is not None and ref != dim:
                        raise ValueError(f"Error when checking {what}: expected {name} to have shape "
                                         f"{shape_str(shape)}, but got array with shape {shape_str(a.shape)}")
            out.append(a)
        return out

    def _xy(self, x, y, owned):
        xs = self._standardize(x, self.input_names, [t.shape for t in self.inputs], "input", owned)
        target_shapes = []
        for out, fn in zip(self.outputs, self.loss_functions):
            # Sparse labels are one index per sample, not one value per class.
            sparse = fn is _losses.sparse_categorical_crossentropy
            target_shapes.append(tuple(out.shape[:-1]) + (1,) if sparse else tuple(out.shape))
        ys = self._standardize(y, self.output_names, target_shapes, "target", owned)
        _check_lengths(xs, ys)
        return xs, ys

    # --- one step ------------------------------------------------------------------------------
    def _losses_and_metrics(self, xs, ys, sample_weight, training, activity_losses=None):
        """[total loss, per-output losses (when several), metrics...] as scalar tensors."""
        outs = self._run(xs, training, activity_losses)
        per_output = []
        for fn, out, y in zip(self.loss_functions, outs, ys):
            values = fn(y, out)
            if sample_weight is not None:
                values = ops.mul(values, sample_weight)
            per_output.append(ops.mean(values))
        total = per_output[0]
        for v in per_output[1:]:
            total = ops.add(total, v)
        metrics = [ops.mean(fn(ys[i], outs[i])) for i, _, fn in self._metric_fns]
        return total, (per_output if len(per_output) > 1 else []) + metrics

    def _train_step(self, xs, ys, sample_weight):
        """One optimizer step; returns [loss, ...metrics] as kept scalar tensors (caller disposes)."""
        extras = []

        def loss_fn():
            activity = []
            total, rest = self._losses_and_metrics(xs, ys, sample_weight, True, activity)
            for reg in self.regularization_losses() + activity:
                total = ops.add(total, reg)
            extras.extend(ENGINE.keep(t) for t in rest)
            return total

        variables = self.trainable_weights
        if variables:
            loss = self.optimizer.minimize(loss_fn, return_cost=True, var_list=variables)
            self.apply_constraints()
        else:   # everything frozen: the loss still gets reported
            loss = ENGINE.tidy(loss_fn)
        return [loss] + extras

    # --- fit -----------------------------------------------------------------------------------
    async def fit(self, x, y, batch_size=None, epochs=1, verbose=1, callbacks=None, validation_split=0.0,
                  validation_data=None, shuffle=True, class_weight=None, initial_epoch=0):
        """Train for `epochs` epochs; returns a History. A coroutine: `await model.fit(...)`
        (or asyncio.run(model.fit(...)) in a script, or model.fit_sync(...))."""
        return await self._fit(x, y, batch_size, epochs, verbose, callbacks, validation_split, validation_data,
                               shuffle, class_weight, initial_epoch, sync=False)

    def fit_sync(self, x, y, batch_size=None, epochs=1, verbose=1, callbacks=None, validation_split=0.0,
                 validation_data=None, shuffle=True, class_weight=None, initial_epoch=0):
        """fit without an event loop: blocks until training ends (the page too, on webgl)."""
        return _drive(self._fit(x, y, batch_size, epochs, verbose, callbacks, validation_split, validation_data,
                                shuffle, class_weight, initial_epoch, sync=True), "fit_sync")

    async def _fit(self, x, y, batch_size, epochs, verbose, callbacks, validation_split, validation_data, shuffle,
                   class_weight, initial_epoch, sync):
        self._check_compiled()
        if self._is_training:
            raise RuntimeError("Cannot start training because another fit() call is ongoing.")
        batch_size = _batch_size(batch_size)
        if not 0 <= validation_split < 1:
            raise ValueError(f"fit: validation_split must be in [0, 1), got {validation_split}")
        owned = []
        self._is_training = True
        try:
            xs, ys = self._xy(x, y, owned)
            val = None
            if validation_data is not None:
                if not isinstance(validation_data, (list, tuple)) or len(validation_data) != 2:
                    raise ValueError("fit: validation_data must be a pair (x_val, y_val)")
                val = self._xy(validation_data[0], validation_data[1], owned)
            elif validation_split > 0:
                n = xs[0].shape[0]
                split = int(math.floor(n * (1 - validation_split)))
                if split in (0, n):
                    raise ValueError(f"fit: validation_split={validation_split} leaves no samples for "
                                     f"{'training' if split == 0 else 'validation'} out of {n}")
                halves = [ops.split(t, [split, n - split]) for t in xs + ys]
                owned.extend(t for h in halves for t in h)
                train, held = [h[0] for h in halves], [h[1] for h in halves]
                xs, ys = train[:len(xs)], train[len(xs):]
                val = (held[:len(xs)], held[len(xs):])
            weights = None
            if class_weight is not None:
                weights = await _class_weights(ys[0], class_weight, sync)
                owned.append(weights)
            return await self._fit_loop(xs, ys, weights, val, batch_size, epochs, verbose, callbacks, shuffle,
                                        initial_epoch, sync)
        finally:
            self._is_training = False
            ENGINE.dispose(owned)

    async def _fit_loop(self, xs, ys, weights, val, batch_size, epochs, verbose, callbacks, shuffle, initial_epoch,
                        sync):
        n = xs[0].shape[0]
        steps = math.ceil(n / batch_size)
        history = History()
        cbs = [history] + ([ProgressLogger()] if verbose >= 1 else []) + list(callbacks or [])
        cb = CallbackList(cbs)
        names = list(self.metrics_names)
        cb.set_model(self, {"epochs": epochs, "initial_epoch": initial_epoch, "samples": n, "steps": steps,
                            "batch_size": batch_size, "verbose": verbose, "do_validation": val is not None,
                            "metrics": names + [f"val_{k}" for k in names] if val is not None else names})
        batch_logs_wanted = cb.wants("on_batch_end")
        self.stop_training = False
        await cb.call("on_train_begin", {})
        for epoch in range(initial_epoch, epochs):
            await cb.call("on_epoch_begin", epoch, {})
            order = list(range(n))
            if shuffle:
                random.shuffle(order)
            sums = None
            seen = 0
            for b in range(steps):
                idx = order[b * batch_size:(b + 1) * batch_size]
                await cb.call("on_batch_begin", b, {"batch": b, "size": len(idx)})
                values = self._batch_step(xs, ys, weights, idx, shuffle)
                sums = _accumulate(sums, values, len(idx))
                seen += len(idx)
                if batch_logs_wanted:
                    logs = dict(zip(names, await _read(values, sync)))
                    logs.update(batch=b, size=len(idx))
                    ENGINE.dispose(values)
                    await cb.call("on_batch_end", b, logs)
                else:
                    ENGINE.dispose(values)
                if not sync:
                    await asyncio.sleep(0)   # let the page breathe between batches
                if self.stop_training:
                    break
            totals = await _read(sums, sync)
            ENGINE.dispose(sums)
            logs = {k: v / seen for k, v in zip(names, totals)}
            if val is not None:
                results = self._test_loop(val[0], val[1], batch_size)
                logs.update({f"val_{k}": v for k, v in zip(names, await _read(results, sync))})
                ENGINE.dispose(results)
            await cb.call("on_epoch_end", epoch, logs)
            if self.stop_training:
                break
        await cb.call("on_train_end", {})
        return history

    def _batch_step(self, xs, ys, weights, idx, shuffled):
        def step():
            take = _taker(idx, shuffled)
            return self._train_step([take(t) for t in xs], [take(t) for t in ys],
                                    take(weights) if weights is not None else None)
        values = ENGINE.tidy(step)
        for v in values:   # kept inside the step for the tape; ordinary tensors from here on
            v.kept = False
        return values

    async def train_on_batch(self, x, y):
        """One optimizer step on (x, y) as one batch; returns the loss (a float), or
        [loss, *metrics] when the model has metrics or several outputs."""
        self._check_compiled()
        owned = []
        try:
            xs, ys = self._xy(x, y, owned)
            values = ENGINE.tidy(lambda: self._train_step(xs, ys, None))
            for v in values:
                v.kept = False
            try:
                out = await _read(values, False)
            finally:
                ENGINE.dispose(values)
        finally:
            ENGINE.dispose(owned)
        return out[0] if len(out) == 1 else out

    # --- evaluate / predict ----------------------------------------------------------------------
    def _test_loop(self, xs, ys, batch_size):
        """[loss, *metrics] as scalar tensors: means over all samples, batch by batch."""
        n = xs[0].shape[0]
        sums = None
        for start in range(0, n, batch_size):
            size = min(batch_size, n - start)

            def step(start=start, size=size):
                take = lambda t: ops.slice(t, [start] + [0] * (t.rank - 1), [size] + [-1] * (t.rank - 1))  # noqa: E731
                total, rest = self._losses_and_metrics([take(t) for t in xs], [take(t) for t in ys], None, False)
                return [total] + rest
            values = ENGINE.tidy(step)
            sums = _accumulate(sums, values, size)
            ENGINE.dispose(values)
        results = ENGINE.tidy(lambda: [ops.div(s, n) for s in sums])
        ENGINE.dispose(sums)
        return results

    def evaluate(self, x, y, batch_size=None, verbose=None):
        """The loss (a scalar tensor), or [loss, *metrics] when there are metrics or several outputs."""
        self._check_compiled()
        owned = []
        try:
            xs, ys = self._xy(x, y, owned)
            results = self._test_loop(xs, ys, _batch_size(batch_size))
        finally:
            ENGINE.dispose(owned)
        return results[0] if len(results) == 1 else results

    def predict(self, x, batch_size=None, verbose=False):
        """The model's outputs for x, computed in batches of batch_size (default 32)."""
        self._check_built("predict")
        batch_size = _batch_size(batch_size)
        owned = []
        try:
            xs = self._standardize(x, self.input_names, [t.shape for t in self.inputs], "input", owned)
            _check_lengths(xs, [])
            n = xs[0].shape[0]

            def run():
                parts = []
                for start in range(0, n, batch_size):
                    size = min(batch_size, n - start)
                    batch = [ops.slice(t, [start] + [0] * (t.rank - 1), [size] + [-1] * (t.rank - 1)) for t in xs]
                    parts.append(ENGINE.tidy(lambda batch=batch: self._run(batch, False)))
                outs = [ops.concat([p[i] for p in parts], 0) if len(parts) > 1 else parts[0][i]
                        for i in range(len(self.outputs))]
                return outs
            outs = ENGINE.tidy(run)
        finally:
            ENGINE.dispose(owned)
        return outs[0] if len(outs) == 1 else outs

    def predict_on_batch(self, x):
        """The model's outputs for x as a single batch."""
        self._check_built("predict_on_batch")
        owned = []
        try:
            xs = self._standardize(x, self.input_names, [t.shape for t in self.inputs], "input", owned)
            outs = ENGINE.tidy(lambda: self._run(xs, False))
        finally:
            ENGINE.dispose(owned)
        return outs[0] if len(outs) == 1 else outs


def _batch_size(batch_size):
    if batch_size is None:
        return 32
    if not isinstance(batch_size, int) or isinstance(batch_size, bool) or batch_size < 1:
        raise ValueError(f"batch_size must be a positive integer, got {batch_size!r}")
    return batch_size


def _check_lengths(xs, ys):
    nx = {t.shape[0] for t in xs}
    ny = {t.shape[0] for t in ys}
    if len(nx) > 1:
        raise ValueError(f"All input Tensors (x) should have the same number of samples. Got array shapes: "
                         f"{shape_str([list(t.shape) for t in xs])}")
    if len(ny) > 1:
        raise ValueError(f"All target Tensors (y) should have the same number of samples. Got array shapes: "
                         f"{shape_str([list(t.shape) for t in ys])}")
    if nx and ny and nx != ny:
        raise ValueError(f"Input Tensors should have the same number of samples as target Tensors. Found "
                         f"{nx.pop()} input sample(s) and {ny.pop()} target sample(s).")


def _taker(idx, shuffled):
    """A function taking the batch idx from a tensor: a slice when the order is the natural
    one (cheaper), a gather otherwise."""
    if not shuffled:
        start, size = idx[0], len(idx)
        return lambda t: ops.slice(t, [start] + [0] * (t.rank - 1), [size] + [-1] * (t.rank - 1))
    indices = ops.tensor(idx, [len(idx)], "int32")
    return lambda t: ops.gather(t, indices)


def _accumulate(sums, values, size):
    """sums + values * size, elementwise over two lists of scalars, on the device."""
    new = ENGINE.tidy(lambda: [ops.mul(v, size) if sums is None else ops.add(s, ops.mul(v, size))
                               for s, v in zip(sums or values, values)])
    ENGINE.dispose(sums)
    return new


async def _read(scalars, sync):
    """Python floats from a list of scalar tensors, in one readback."""
    if not scalars:
        return []
    stacked = ENGINE.tidy(lambda: ops.stack(scalars) if len(scalars) > 1 else ops.reshape(scalars[0], [1]))
    try:
        data = stacked.data_sync() if sync else await stacked.data()
    finally:
        stacked.dispose()
    return [float(v) for v in data]


async def _class_weights(y, class_weight, sync):
    """A float32 tensor of per-sample weights: class_weight[class of the sample], the class
    being the argmax of a one-hot row or the value of a single-column label."""
    if y.shape[-1] > 1:
        labels = ENGINE.tidy(lambda: ops.arg_max(y, -1))
    else:
        labels = ENGINE.tidy(lambda: ops.cast(ops.round(ops.reshape(y, [-1])), "int32"))
    try:
        values = labels.data_sync() if sync else await labels.data()
    finally:
        labels.dispose()
    weights = [float(class_weight.get(int(c), 1.0)) for c in values]
    return ops.tensor(weights, [len(weights)], "float32")


def _drive(coro, api):
    """Run a coroutine that never needs an event loop (fit's loop with sync=True) to the end."""
    try:
        coro.send(None)
    except StopIteration as done:
        return done.value
    coro.close()
    raise RuntimeError(f"{api}: a callback awaited something that needs an event loop; use `await model.fit(...)`")
