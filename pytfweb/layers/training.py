"""compile / fit / evaluate / predict for models (tfjs-layers engine/training.ts).

fit is a coroutine: between batches it yields to the event loop (`await asyncio.sleep(0)`),
so that a page stays responsive, and it reads values back with `await t.data()`, which on
webgl polls a fence instead of stalling. The loop is written once; fit_sync drives the same
coroutine without an event loop (every await then completes at once: sleeps are skipped and
reads are data_sync()).

Traced steps: the per-batch work (fit's and train_on_batch's optimizer step, evaluate's and
test_on_batch's losses and metrics, predict's forward pass) runs through a tf.function the model
owns, one per kind (train_function, test_function, predict_function): traced on the first batch
of a shape, replayed after. Batches are taken and values read outside it (a read inside would be
a graph break). What the step reads from Python is either in its signature (the model's
variables, the optimizer and its settings) or frozen at the trace; optimizer.iterations, which a
replay does not advance, is advanced by _train_step. compile(..., jit_compile=False) or the
TRACE_STEPS flag off runs the same steps eagerly.

Memory: every batch runs in a tidy scope; per-epoch sums of the loss and metrics stay on
the device and are read once per epoch (per batch only when a callback wants on_batch_*
logs). Tensors fit/evaluate/predict make from Python values are disposed before they return.

Weights and masks (tf.keras semantics):
- sample_weight (fit, evaluate, train_on_batch, test_on_batch, validation_data=(x, y, w)): one
  weight per sample ([samples]), or per sample and timestep ([samples, time, ...] up to the rank
  of the per-sample losses); for a model with several outputs one array for all of them, a list
  (one per output, None for none) or a dict by output name. class_weight (TF.js's forms: a
  {class: weight} dict, or one per output) multiplies into them; it applies to training only.
- The loss of an output is sum(loss * weight) / number of loss entries (Keras's
  sum_over_batch_size: the weights scale, they do not renormalize). When the model's output
  carries a mask (an RNN with return_sequences after Masking or Embedding(mask_zero=True)), the
  masked timesteps get weight 0 and the sum is divided by the number of unmasked entries instead.
- A metric is a weighted mean: sum(value * weight * mask) / sum(weight * mask), accumulated over
  the batches of an epoch as one weighted mean (Keras's Mean metrics); the losses are averaged
  over batches by batch size. Metrics that give one value per batch (precision, recall, r2) are
  not weighted.
"""
import asyncio
import math
import random
import weakref

from .. import ops
from .. import train as _train
from ..core.api import dispose, keep, tensors_in, tidy
from ..core.environment import ENV
from ..core.function import Function
from ..ops.creation import convert_to_tensor
from ..core.tensor import Tensor
from . import losses as _losses
from . import metrics as _metrics
from .callbacks import CallbackList, History, Progbar, ProgressLogger, _yielders_of, verbosity
from ._utils import shape_str, snake
from .loop_sums import accumulate, mean_logs, read_floats, safe_div

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


def get_optimizer(name):
    """A new optimizer by its Keras name with TF.js's defaults (TF.js's getOptimizer): 'sgd',
    'adam', 'adagrad', 'adadelta', 'adamax', 'rmsprop', in any case or spelling (RMSProp,
    rms_prop). ValueError for another name."""
    key = snake(name).replace("_", "")
    if key not in _OPTIMIZERS:
        raise ValueError(f"Unknown Optimizer {name}. Known: {', '.join(sorted(_OPTIMIZERS))}")
    return _OPTIMIZERS[key]()


class Trainer:
    """The training half of a Model (mixed in; the model gives inputs, outputs, _run)."""

    def __init__(self):
        self.optimizer = None
        self._optimizer_owned = False
        self._compile_spec = None
        self.loss_functions = None
        self.metrics_names = []
        self._metric_fns = []        # (output index, name, fn)
        self.stop_training = False
        self._is_training = False
        self._jit_compile = True
        self._steps = {}             # step kind -> its tf.function (see _step_function)

    # --- compile -------------------------------------------------------------------------------
    def compile(self, optimizer, loss, metrics=None, jit_compile=True):
        """Configure the model for training: optimizer, loss and metrics.

        Args:
            optimizer: a tf.train optimizer, or a name ('sgd', 'adam', 'rmsprop', 'adagrad', 'adadelta',
                'adamax', 'momentum') for one with default settings.
            loss: a name ('meanSquaredError', 'mean_squared_error', 'mse', 'categoricalCrossentropy',
                ...), a function (y_true, y_pred) -> per-sample losses, or a list / dict of those, one
                per output.
            metrics: a list (or a dict by output name) of names ('accuracy', 'mse', ...) or functions.
            jit_compile: run the per-batch steps of fit, evaluate and predict through tf.function
                (traced once per batch shape, replayed after); False runs them eagerly (tf.keras's name).

        Example:
            >>> model = tf.sequential([tf.layers.dense(units=1, input_shape=[2])])
            >>> model.compile(optimizer="adam", loss="mse", metrics=["mae"])
        """
        self._check_built("compile")
        if not isinstance(jit_compile, bool):
            raise TypeError(f"compile: 'jit_compile' must be a bool, got {type(jit_compile).__name__}")
        loss_fns = [_losses.get(fn) for fn in self._per_output(loss, "loss")]
        metric_fns = self._resolve_metrics(metrics, loss_fns)
        # The optimizer last: a name makes one (with tensors), which a later error would leak.
        if isinstance(optimizer, str):
            new, owned = get_optimizer(optimizer), True
        elif isinstance(optimizer, _train.Optimizer):
            new, owned = optimizer, False
        else:
            raise TypeError(f"compile: 'optimizer' must be a tf.train optimizer or its name, got "
                            f"{type(optimizer).__name__}")
        self._dispose_optimizer()
        self._dispose_steps()
        self._jit_compile = jit_compile
        self.optimizer, self._optimizer_owned = new, owned
        self.loss_functions = loss_fns
        self._metric_fns = metric_fns
        self._compile_spec = (loss, metrics)   # what model.save(include_optimizer=True) writes
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

    # --- traced steps ----------------------------------------------------------------------------
    def _step_function(self, kind):
        """The tf.function running the per-batch step `kind` ("train", "test", "predict") of this
        model, or None where steps run eagerly (compile(..., jit_compile=False), the TRACE_STEPS
        flag off). One per model and kind, made on first use, disposed by compile, a change of the
        graph and dispose."""
        if not (self._jit_compile and ENV.flags["TRACE_STEPS"]):
            return None
        fn = self._steps.get(kind)
        if fn is None:
            fn = self._steps[kind] = Function(_STEPS[kind], self)
        return fn

    @property
    def train_function(self):
        """The tf.function of the training step (tf.keras's name): its trace_count and breaks; None
        before the first traced step (or when steps run eagerly)."""
        return self._steps.get("train")

    @property
    def test_function(self):
        """The tf.function of evaluate's and test_on_batch's step, as train_function."""
        return self._steps.get("test")

    @property
    def predict_function(self):
        """The tf.function of predict's and predict_on_batch's step, as train_function."""
        return self._steps.get("predict")

    def _dispose_steps(self):
        for fn in getattr(self, "_steps", {}).values():
            fn.dispose()
        self._steps = {}

    def _weights_key(self):
        """What a traced step must be traced again for besides its tensors' shapes: the model's
        variables (a frozen layer changes the trainable ones; a rebuilt layer has new ones)."""
        return tuple(self.trainable_weights), tuple(self.non_trainable_weights)

    def _optimizer_key(self):
        """The optimizer's Python state a traced training step freezes: the optimizer, its slot
        variables (set_weights replaces them) and its public settings (a callback lowering the
        learning rate traces the step again rather than training on with the old rate)."""
        opt = self.optimizer
        settings = tuple(sorted((k, v) for k, v in vars(opt).items()
                                if not k.startswith("_") and (v is None or isinstance(v, (bool, int, float, str)))))
        return opt, opt._slots_version, settings

    def _check_compiled(self):
        self._assert_not_disposed()   # (a disposed model cannot train or be evaluated, as in TF.js)
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
        elif isinstance(data, (list, tuple)) and data and (all(isinstance(d, Tensor) for d in data) or (
                len(names) > 1 and all(isinstance(d, Tensor) or hasattr(d, "shape") for d in data))):
            # one Tensor (or, for several inputs/outputs, numpy array) per input or output
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
    def _losses_and_metrics(self, xs, ys, weights, training, activity_losses=None):
        """(total loss, [per-output losses (when several), metrics...], averaging weights) for a
        batch: scalar tensors, and for each of [total, *rest] its weight in an average over
        batches (the batch size for the losses; the summed sample weights times the mask for a
        metric, as Keras's Mean metrics). weights: per-output sample weights (or None)."""
        outs, masks = self._run(xs, training, activity_losses, with_masks=True)
        weights = weights or [None] * len(outs)
        masks = [None if m is None else ops.cast(m, "float32") for m in masks]
        per_output = [_loss_value(fn(y, out), w, m, name)
                      for fn, out, y, w, m, name in zip(self.loss_functions, outs, ys, weights, masks,
                                                          self.output_names)]
        total = per_output[0]
        for v in per_output[1:]:
            total = ops.add(total, v)
        batch = float(xs[0].shape[0])
        rest = list(per_output) if len(per_output) > 1 else []
        averaging = [batch] * (1 + len(rest))
        for i, _, fn in self._metric_fns:
            value, weight = _metric_value(fn(ys[i], outs[i]), weights[i], masks[i], batch, self.output_names[i])
            rest.append(value)
            averaging.append(weight)
        return total, rest, averaging

    def _train_step(self, xs, ys, weights):
        """One optimizer step, traced (see _step_function) or eager; returns ([loss, ...metrics],
        their averaging weights) as scalar tensors (and numbers) in the caller's scope."""
        variables = self.trainable_weights
        fn = self._step_function("train")
        if fn is None:
            return _unkept(tidy(lambda: self._train_step_eager(xs, ys, weights, variables)))
        opt = self.optimizer
        before = opt._iterations
        # (in a tidy: a signature that broke, or tracing off, runs the step eagerly, in the caller's scope)
        out = tidy(lambda: fn(xs, ys, weights, tuple(variables), self._weights_key(), self._optimizer_key()))
        if variables and opt._iterations == before:
            # A replay runs the recorded kernels only: apply_gradients' Python counter is advanced here.
            opt._iterations += 1
        return _unkept(out)

    def _train_step_eager(self, xs, ys, weights, variables):
        """The training step as written (what a trace records): ([loss, ...metrics], averaging
        weights) as kept scalar tensors (and numbers)."""
        extras, averaging = [], []

        def loss_fn():
            activity = []
            total, rest, avg = self._losses_and_metrics(xs, ys, weights, True, activity)
            for reg in self.regularization_losses() + activity:
                total = ops.add(total, reg)
            extras.extend(keep(t) for t in rest)
            averaging.extend(keep(w) if isinstance(w, Tensor) else w for w in avg)
            return total

        if variables:
            loss = self.optimizer.minimize(loss_fn, return_cost=True, var_list=list(variables))
            self.apply_constraints()
        else:   # everything frozen: the loss still gets reported
            loss = tidy(loss_fn)
        return [loss] + extras, averaging

    # --- fit -----------------------------------------------------------------------------------
    def fit(self, x, y, batch_size=None, epochs=1, verbose=1, callbacks=None, validation_split=0.0,
            validation_data=None, shuffle=True, class_weight=None, sample_weight=None, initial_epoch=0,
            yield_every=None):
        """Train the model for a number of epochs (a coroutine: `await model.fit(...)`, or
        `asyncio.run(model.fit(...))` in a script, or model.fit_sync(...)).

        sample_weight and class_weight follow tf.keras (see the pytfweb.layers.training module).

        Args:
            x: the inputs: a tensor (or values converted to one), or a list / dict of them for several
                inputs.
            y: the targets, likewise per output.
            batch_size: samples per step (None: 32).
            epochs: the number of passes over the data.
            verbose: 0 silent, 1 a progress bar per epoch (ProgressLogger), 2 one line per epoch.
            callbacks: tf.callbacks objects (or a list of them) called at each epoch and batch.
            validation_split: the fraction of the data, taken from the end, held out for validation.
            validation_data: (x_val, y_val) or (x_val, y_val, val_sample_weight) to validate on.
            shuffle: shuffle the samples before each epoch.
            class_weight: a {class: weight} dict (or one per output) scaling the loss by class.
            sample_weight: one weight per sample (or per sample and timestep).
            initial_epoch: the epoch to start counting from (to resume training).
            yield_every: when dict callbacks' on_yield(epoch, batch, logs) is called (TF.js's yieldEvery):
                'auto' (None: at most every 125 ms), a number of ms, 'batch' or 'epoch' (no on_yield,
                as TF.js), 'never'. fit itself yields to the event loop after every batch.

        Returns:
            A History: .history maps 'loss' (and 'val_loss', metrics) to per-epoch values, .epoch lists
            the epochs.

        Example:
            >>> import asyncio
            >>> model = tf.sequential([tf.layers.dense(units=1, input_shape=[1])])
            >>> model.compile(optimizer="sgd", loss="mse")
            >>> xs, ys = tf.tensor([[1], [2], [3]]), tf.tensor([[2], [4], [6]])
            >>> history = asyncio.run(model.fit(xs, ys, epochs=3, verbose=0))
            >>> history.epoch, len(history.history["loss"])
            ([0, 1, 2], 3)
        """
        # TF.js's fit marks training started when it is called (its first await comes later): a
        # second fit made before the first is awaited fails, on its await, even if awaited first
        if self._is_training:
            return _raising(RuntimeError("Cannot start training because another fit() call is ongoing."))
        self._is_training = True
        started = []
        coro = self._fit(x, y, batch_size, epochs, verbose, callbacks, validation_split, validation_data, shuffle,
                         class_weight, sample_weight, initial_epoch, yield_every, sync=False,
                         claimed=started)
        # a fit collected without ever running (never awaited) leaves the model free to train
        weakref.finalize(coro, _release_unstarted, self, started)
        return coro

    def fit_sync(self, x, y, batch_size=None, epochs=1, verbose=1, callbacks=None, validation_split=0.0,
                 validation_data=None, shuffle=True, class_weight=None, sample_weight=None, initial_epoch=0,
                 yield_every=None):
        """fit without an event loop: blocks until training ends (the page too, on webgl).

        Args:
            x: the inputs, as fit's.
            y: the targets, as fit's.
            batch_size: samples per step (None: 32).
            epochs: the number of passes over the data.
            verbose: 0 silent, 1 a progress bar per epoch, 2 one line per epoch.
            callbacks: tf.callbacks objects called at each epoch and batch.
            validation_split: the fraction of the data held out for validation.
            validation_data: (x_val, y_val) or (x_val, y_val, val_sample_weight).
            shuffle: shuffle the samples before each epoch.
            class_weight: a {class: weight} dict (or one per output).
            sample_weight: one weight per sample (or per sample and timestep).
            initial_epoch: the epoch to start counting from.
            yield_every: when dict callbacks' on_yield is called, as fit's.

        Returns:
            A History, as fit's.

        Example:
            >>> model = tf.sequential([tf.layers.dense(units=1, input_shape=[1])])
            >>> model.compile(optimizer="sgd", loss="mse")
            >>> history = model.fit_sync(tf.tensor([[1], [2]]), tf.tensor([[2], [4]]), epochs=2, verbose=0)
            >>> sorted(history.history)
            ['loss']
        """
        return _drive(self._fit(x, y, batch_size, epochs, verbose, callbacks, validation_split, validation_data,
                                shuffle, class_weight, sample_weight, initial_epoch, yield_every, sync=True),
                      "fit_sync")

    async def _fit(self, x, y, batch_size, epochs, verbose, callbacks, validation_split, validation_data, shuffle,
                   class_weight, sample_weight, initial_epoch, yield_every, sync, claimed=None):
        # claimed: fit() set _is_training already, for this call (a list: told here that it runs)
        if claimed is not None:
            claimed.append(True)
        elif self._is_training:
            raise RuntimeError("Cannot start training because another fit() call is ongoing.")
        owned = []
        self._is_training = True
        try:
            batch_size = _batch_size(batch_size)   # TF.js checks it first, before the compilation
            self._check_compiled()
            verbose = verbosity(verbose, "fit")
            if not 0 <= validation_split < 1:
                raise ValueError(f"fit: validation_split must be in [0, 1), got {validation_split}")
            xs, ys = self._xy(x, y, owned)
            weights = self._sample_weights(sample_weight, ys, owned, "fit")
            val = None
            if validation_data is not None:
                if not isinstance(validation_data, (list, tuple)) or len(validation_data) not in (2, 3):
                    raise ValueError("fit: validation_data must be a pair (x_val, y_val) or a triple (x_val, y_val, "
                                     "val_sample_weight)")
                vx, vy = self._xy(validation_data[0], validation_data[1], owned)
                vw = self._sample_weights(validation_data[2] if len(validation_data) == 3 else None, vy, owned,
                                          "fit (validation_data)")
                val = (vx, vy, vw)
            elif validation_split > 0:
                n = xs[0].shape[0]
                split = int(math.floor(n * (1 - validation_split)))
                if split in (0, n):
                    raise ValueError(f"fit: validation_split={validation_split} leaves no samples for "
                                     f"{'training' if split == 0 else 'validation'} out of {n}")
                present = [w for w in weights if w is not None]
                halves = [ops.split(t, [split, n - split]) for t in xs + ys + present]
                owned.extend(t for h in halves for t in h)
                train, held = [h[0] for h in halves], [h[1] for h in halves]
                k, m = len(xs), len(xs) + len(ys)
                train_w, held_w = iter(train[m:]), iter(held[m:])
                val = (held[:k], held[k:m], [None if w is None else next(held_w) for w in weights])
                weights = [None if w is None else next(train_w) for w in weights]
                xs, ys = train[:k], train[k:m]
            if class_weight is not None:
                weights = await self._with_class_weights(weights, ys, class_weight, owned, sync, "fit")
            return await self._fit_loop(xs, ys, weights, val, batch_size, epochs, verbose, callbacks, shuffle,
                                        initial_epoch, yield_every, sync)
        finally:
            self._is_training = False
            dispose(owned)

    async def _fit_loop(self, xs, ys, weights, val, batch_size, epochs, verbose, callbacks, shuffle, initial_epoch,
                        yield_every, sync):
        n = xs[0].shape[0]
        steps = math.ceil(n / batch_size)
        history = History()
        progress = ProgressLogger(verbose) if verbose else None
        user = CallbackList(callbacks)
        yielders = _yielders_of(user, yield_every, "fit")
        cb = CallbackList([history] + ([progress] if progress else []) + user.callbacks)
        names = list(self.metrics_names)
        # steps is None as in TF.js's params for fit on tensors (it counts the batches of fit_dataset)
        cb.set_model(self, {"epochs": epochs, "initial_epoch": initial_epoch, "samples": n, "steps": None,
                            "batch_size": batch_size, "verbose": verbose, "do_validation": val is not None,
                            "metrics": names + [f"val_{k}" for k in names] if val is not None else names})
        batch_logs_wanted = cb.wants("on_batch_end") or any(y.on_yield is not None for y in yielders)
        self.stop_training = False
        await cb.call("on_train_begin", {})
        for epoch in range(initial_epoch, epochs):
            await cb.call("on_epoch_begin", epoch, {})
            order = list(range(n))
            if shuffle:
                random.shuffle(order)
            sums = None
            for b in range(steps):
                idx = order[b * batch_size:(b + 1) * batch_size]
                await cb.call("on_batch_begin", b, {"batch": b, "size": len(idx)})
                values, averaging = self._batch_step(xs, ys, weights, idx, shuffle)
                sums = accumulate(sums, values, averaging)
                logs = {}
                if batch_logs_wanted:
                    logs = dict(zip(names, await read_floats(values, sync)))
                    logs.update(batch=b, size=len(idx))
                    dispose([values, averaging])
                    await cb.call("on_batch_end", b, logs)
                else:
                    dispose([values, averaging])
                for y in yielders:
                    await y.batch_end(epoch, b, logs, sync)
                if progress is not None and progress.due(b + 1) and b + 1 < steps:
                    progress.update(b + 1, mean_logs(names, await read_floats(sums[0] + sums[1], sync)))
                if not sync and yield_every != "never":
                    await asyncio.sleep(0)   # let the page breathe between batches
                if self.stop_training:
                    break
            totals = await read_floats(sums[0] + sums[1], sync)
            dispose(sums)
            logs = mean_logs(names, totals)
            if val is not None:
                results = self._test_loop(val[0], val[1], val[2], batch_size)
                logs.update({f"val_{k}": v for k, v in zip(names, await read_floats(results, sync))})
                dispose(results)
            await cb.call("on_epoch_end", epoch, logs)
            for y in yielders:
                await y.epoch_end(sync)
            if self.stop_training:
                break
        await cb.call("on_train_end", {})
        return history

    def _batch_step(self, xs, ys, weights, idx, shuffled):
        # The batch is taken outside the traced step (its position would be part of the signature):
        # every full batch has one shape, so the step replays; the last partial batch is another.
        def step():
            take = _taker(idx, shuffled)
            return self._train_step([take(t) for t in xs], [take(t) for t in ys],
                                    [None if w is None else take(w) for w in weights])
        return _unkept(tidy(step))

    async def train_on_batch(self, x, y, sample_weight=None, class_weight=None):
        """One optimizer step on (x, y) as one batch (a coroutine: awaited).

        Args:
            x: the inputs.
            y: the targets.
            sample_weight: one weight per sample.
            class_weight: a {class: weight} dict.

        Returns:
            The loss (a float), or [loss, *metrics] when the model has metrics or several outputs.
        """
        self._check_compiled()
        owned = []
        try:
            xs, ys = self._xy(x, y, owned)
            weights = self._sample_weights(sample_weight, ys, owned, "train_on_batch")
            if class_weight is not None:
                weights = await self._with_class_weights(weights, ys, class_weight, owned, False, "train_on_batch")
            values, averaging = self._train_step(xs, ys, weights)
            try:
                out = await read_floats(values, False)
            finally:
                dispose([values, averaging])
        finally:
            dispose(owned)
        return out[0] if len(out) == 1 else out

    def test_on_batch(self, x, y, sample_weight=None):
        """The loss on (x, y) as one batch, without training (Keras's test_on_batch; blocks for the
        values).

        Args:
            x: the inputs.
            y: the targets.
            sample_weight: one weight per sample.

        Returns:
            The loss (a float), or [loss, *metrics] when the model has metrics or several outputs.
        """
        self._check_compiled()
        owned = []
        try:
            xs, ys = self._xy(x, y, owned)
            weights = self._sample_weights(sample_weight, ys, owned, "test_on_batch")

            values = tidy(lambda: self._test_step(xs, ys, weights)[0])
            try:
                out = _drive(read_floats(values, True), "test_on_batch")
            finally:
                dispose(values)
        finally:
            dispose(owned)
        return out[0] if len(out) == 1 else out

    # --- sample and class weights ----------------------------------------------------------------
    def _per_output_spec(self, spec, what, api, per_output_entry):
        """spec given for one output, every output, a list with one entry per output, or a dict by
        output name -> a list with one entry (or None) per output. per_output_entry(v): whether v
        can be one output's entry (so that a list of them is one per output)."""
        n, names = len(self.outputs), self.output_names
        if spec is None:
            return [None] * n
        if isinstance(spec, dict) and spec and all(v is None or per_output_entry(v) for v in spec.values()):
            unknown = [k for k in spec if k not in names]
            if unknown:
                raise ValueError(f"{api}: unknown output \"{unknown[0]}\" in the {what} dict; the model's outputs are "
                                 f"{', '.join(names)}")
            return [spec.get(k) for k in names]
        if n == 1:
            if what == "class_weight" and isinstance(spec, (list, tuple)) and len(spec) == 1:
                return [spec[0]]
            return [spec]
        if isinstance(spec, (list, tuple)) and len(spec) == n and all(v is None or per_output_entry(v) for v in spec):
            return list(spec)
        if what == "sample_weight" and (isinstance(spec, Tensor) or hasattr(spec, "shape") or (
                isinstance(spec, (list, tuple)) and all(isinstance(v, (int, float)) for v in spec))):
            return [spec] * n   # one array for every output (as tf.keras)
        raise ValueError(f"{api}: the model has {n} outputs ({', '.join(names)}), so {what} must be a list with "
                         f"{n} entries or a dict with (some of) these names as keys"
                         f"{'' if what == 'class_weight' else ', or one array for all outputs'}; got {spec!r}"[:600])

    def _sample_weights(self, sample_weight, ys, owned, api):
        """Per-output sample weights: None or float32 tensors [samples] or [samples, time, ...],
        checked against the targets ys. Tensors made here are added to owned."""
        def entry(v):
            return isinstance(v, (Tensor, list, tuple)) or hasattr(v, "shape")
        specs = self._per_output_spec(sample_weight, "sample_weight", api, entry)
        out = []
        for spec, y, sym, name in zip(specs, ys, self.outputs, self.output_names):
            if spec is None:
                out.append(None)
                continue
            w = spec
            if not isinstance(w, Tensor):
                w = convert_to_tensor(w, "sample_weight", api, "float32")
                owned.append(w)
            else:
                w.throw_if_disposed(api)
                if w.dtype not in ("float32", "int32", "bool"):
                    raise TypeError(f"{api}: sample_weight must be numeric, got a {w.dtype} tensor")
                if w.dtype != "float32":
                    w = ops.cast(w, "float32")
                    owned.append(w)
            max_rank = max(len(sym.shape) - 1, 1)   # the rank of the output's per-sample losses
            form = "[samples]" + (f" up to rank {max_rank} ([samples, time, ...], as the per-sample losses)"
                                  if max_rank > 1 else "")
            if not 1 <= w.rank <= max_rank:
                raise ValueError(f"{api}: sample_weight for output {name} must be {form}, got shape "
                                 f"{shape_str(w.shape)}")
            if w.shape[0] != y.shape[0]:
                raise ValueError(f"{api}: sample_weight for output {name} has {w.shape[0]} entries, but there are "
                                 f"{y.shape[0]} samples (sample_weight shape {shape_str(w.shape)}, target shape "
                                 f"{shape_str(y.shape)})")
            if tuple(w.shape[1:]) != tuple(y.shape[1:w.rank]):
                raise ValueError(f"{api}: sample_weight for output {name} of shape {shape_str(w.shape)} does not "
                                 f"match the target shape {shape_str(y.shape)} (one weight per sample, or per sample "
                                 f"and timestep)")
            out.append(w)
        return out

    async def _with_class_weights(self, weights, ys, class_weight, owned, sync, api):
        """weights (per output) times the class weights of each sample's class (per output, TF.js's
        forms); the new tensors are added to owned."""
        specs = self._per_output_spec(class_weight, "class_weight", api, lambda v: isinstance(v, dict))
        out = []
        for w, y, spec, name in zip(weights, ys, specs, self.output_names):
            if spec is None:
                out.append(w)
                continue
            if not isinstance(spec, dict):
                raise TypeError(f"{api}: class_weight for output {name} must be a dict {{class index: weight}}, got "
                                f"{type(spec).__name__}")
            cw = await _class_weights(y, _class_weight_table(spec, api), sync)
            owned.append(cw)
            if w is not None:
                cw = _product(w, cw)
                owned.append(cw)
            out.append(cw)
        return out

    # --- from a dataset ------------------------------------------------------------------------
    async def fit_dataset(self, dataset, epochs=None, batches_per_epoch=None, verbose=1, callbacks=None,
                          validation_data=None, validation_batch_size=None, validation_batches=None, yield_every=None,
                          initial_epoch=None, class_weight=None, validation_split=None):
        """Train the model on the batches of a tf.data Dataset (TF.js's fitDataset; a coroutine:
        `await model.fit_dataset(...)`). Each element is one batch, {"xs": inputs, "ys": targets}
        (each a tensor, a list of them per input / output, or a dict by name), whose tensors are
        disposed once their step is done; see the pytfweb.layers.training_dataset module.

        Args:
            dataset: the Dataset (e.g. tf.data.zip({"xs": ..., "ys": ...}).batch(32)).
            epochs: the number of epochs (required: a positive integer).
            batches_per_epoch: batches per epoch, all epochs drawing from one iterator; None: each epoch
                is the dataset from its start to its end.
            verbose: 0 silent, 1 a progress bar per epoch, 2 one line per epoch.
            callbacks: tf.callbacks objects (or a list of them, or dicts of on_* functions); a dict's
                on_yield(epoch, batch, logs) is called when the loop yields (see yield_every).
            validation_data: a Dataset, or (x_val, y_val) / (x_val, y_val, val_sample_weight), to validate on
                after each epoch.
            validation_batch_size: the batch size for array validation_data (None: 32).
            validation_batches: batches of a validation Dataset to use (None: all of it).
            yield_every: when the dict callbacks give the event loop a turn (TF.js's CustomCallback): 'auto'
                (None: at most every 125 ms) or a number of ms, calling their on_yield; 'batch' or 'epoch'
                (a turn only); 'never'.
            initial_epoch: the epoch to start counting from (to resume training).
            class_weight: a {class: weight} dict (or one per output) scaling the loss by class.
            validation_split: not supported (as TF.js): ValueError; use validation_data.

        Returns:
            A History, as fit's.

        Raises:
            ValueError: epochs is not a positive integer, an element lacks an input or output, ...

        Example:
            >>> import asyncio
            >>> model = tf.sequential([tf.layers.dense(units=1, input_shape=[1])])
            >>> model.compile(optimizer="sgd", loss="mse")
            >>> xs = tf.data.array([[1], [2], [3], [4]])
            >>> ys = tf.data.array([[2], [4], [6], [8]])
            >>> ds = tf.data.zip({"xs": xs, "ys": ys}).batch(2)
            >>> history = asyncio.run(model.fit_dataset(ds, epochs=3, verbose=0))
            >>> history.epoch
            [0, 1, 2]
        """
        from .training_dataset import fit_dataset
        return await fit_dataset(self, dataset, epochs, batches_per_epoch, verbose, callbacks, validation_data,
                                 validation_batch_size, validation_batches, yield_every, initial_epoch, class_weight,
                                 validation_split)

    async def evaluate_dataset(self, dataset, batches=None, verbose=None):
        """The loss (and metrics) of the model on the batches of a tf.data Dataset (TF.js's
        evaluateDataset; a coroutine). Elements are {"xs": ..., "ys": ...} batches, as
        fit_dataset's, disposed once used.

        Args:
            dataset: the Dataset, or a LazyIterator to read on from.
            batches: the number of batches to evaluate on (None: to the dataset's end).
            verbose: only 0 / None (TF.js has no verbose mode here): NotImplementedError otherwise.

        Returns:
            The loss, a scalar Tensor, or [loss, *metrics] when there are metrics or several outputs: the
            means over the samples of the batches.

        Example:
            >>> import asyncio
            >>> model = tf.sequential([tf.layers.dense(units=1, input_shape=[1], kernel_initializer="ones")])
            >>> model.compile(optimizer="sgd", loss="mse")
            >>> ds = tf.data.zip({"xs": tf.data.array([[1], [2]]), "ys": tf.data.array([[1], [4]])}).batch(2)
            >>> asyncio.run(model.evaluate_dataset(ds)).print()
            Tensor
                2
        """
        from .training_dataset import evaluate_dataset
        return await evaluate_dataset(self, dataset, batches, verbose)

    # --- evaluate / predict ----------------------------------------------------------------------
    def _test_loop(self, xs, ys, weights, batch_size, progress=None):
        """[loss, *metrics] as scalar tensors: averages over all samples, batch by batch (weights:
        per-output sample weights or Nones). progress: a Progbar shown the running means as it asks."""
        n = xs[0].shape[0]
        sums = None
        for start in range(0, n, batch_size):
            size = min(batch_size, n - start)

            def step(start=start, size=size):
                take = lambda t: ops.slice(t, [start] + [0] * (t.rank - 1), [size] + [-1] * (t.rank - 1))  # noqa: E731
                return self._test_step([take(t) for t in xs], [take(t) for t in ys],
                                       [None if w is None else take(w) for w in weights])
            values, averaging = tidy(step)
            sums = accumulate(sums, values, averaging)
            dispose([values, averaging])
            step = start // batch_size + 1
            if progress is not None and progress.due(step) and start + size < n:
                progress.update(step,
                                mean_logs(self.metrics_names, _drive(read_floats(sums[0] + sums[1], True), "evaluate")))
        results = tidy(lambda: [safe_div(s, w) for s, w in zip(*sums)])
        dispose(sums)
        return results

    def _test_step(self, xs, ys, weights):
        """([loss, *metrics], averaging weights) of a batch without training, traced or eager."""
        fn = self._step_function("test")
        if fn is None:
            return _test_step_eager(self, xs, ys, weights)
        return fn(xs, ys, weights, self._weights_key())

    def _predict_step(self, xs):
        """The model's outputs (a list) for a batch, traced or eager."""
        fn = self._step_function("predict")
        if fn is None:
            return self._run(xs, False)
        return fn(xs, self._inference_plan().folded(), self._weights_key())

    def evaluate(self, x, y, batch_size=None, verbose=None, sample_weight=None):
        """The loss (and metrics) of the model on (x, y), computed in batches.

        Args:
            x: the inputs.
            y: the targets.
            batch_size: samples per batch (None: 32).
            verbose: 0 (the default, as TF.js) shows nothing; 1 Keras's progress bar, 2 its final line
                (both read the values back, blocking).
            sample_weight: one weight per sample, as in fit.

        Returns:
            The loss, a scalar Tensor, or [loss, *metrics] when there are metrics or several outputs.

        Example:
            >>> model = tf.sequential([tf.layers.dense(units=1, input_shape=[1], kernel_initializer="ones")])
            >>> model.compile(optimizer="sgd", loss="mse")
            >>> model.evaluate(tf.tensor([[1], [2]]), tf.tensor([[1], [4]])).print()
            Tensor
                2
        """
        self._check_compiled()
        owned = []
        try:
            xs, ys = self._xy(x, y, owned)
            weights = self._sample_weights(sample_weight, ys, owned, "evaluate")
            batch_size = _batch_size(batch_size)
            verbose = verbosity(verbose, "evaluate")
            progress = Progbar(math.ceil(xs[0].shape[0] / batch_size), verbose) if verbose else None
            results = self._test_loop(xs, ys, weights, batch_size, progress)
            if progress is not None:
                values = _drive(read_floats(results, True), "evaluate")
                progress.update(progress.target, dict(zip(self.metrics_names, values)), finalize=True)
        finally:
            dispose(owned)
        return results[0] if len(results) == 1 else results

    def predict(self, x, batch_size=None, verbose=False):
        """The model's outputs for x, computed in batches.

        Args:
            x: the inputs (a tensor, or a list for several inputs).
            batch_size: samples per batch (None: 32).
            verbose: accepted for TF.js's signature; nothing is printed.

        Returns:
            A Tensor (a list of them for several outputs).

        Example:
            >>> model = tf.sequential([tf.layers.dense(units=1, input_shape=[2], kernel_initializer="ones")])
            >>> model.predict(tf.tensor([[1, 2], [3, 4]])).print()
            Tensor
                [[3],
                 [7]]
        """
        self._assert_not_disposed()
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
                    parts.append(tidy(lambda batch=batch: self._predict_step(batch)))
                outs = [ops.concat([p[i] for p in parts], 0) if len(parts) > 1 else parts[0][i]
                        for i in range(len(self.outputs))]
                return outs
            outs = tidy(run)
        finally:
            dispose(owned)
        return outs[0] if len(outs) == 1 else outs

    def warmup(self, input_shape=None, batch_size=None):
        """Compile every program a predict at this input shape runs, so that the first predict
        compiles nothing: a predict on zeros whose outputs are disposed, read back never. On webgl
        the kernels only start their programs' compiles (in the browser's GPU process, each while
        Python goes on to the next) and draw nothing, and the programs are checked once at the end
        (as TF.js's ENGINE_COMPILE_ONLY); on webgpu the predict runs once (its pipelines compile);
        on cpu there is nothing to compile. Not in TF.js, whose users predict once on zeros.

        Args:
            input_shape: the shape of the input batch, e.g. [1, 224, 224, 3] (a list of shapes for a
                model with several inputs); None: the model's input shape with the batch as 1.
            batch_size: as predict's (the batches the predict will be split into).

        Returns:
            The number of programs compiled (0 where all were compiled already, and on cpu).

        Example:
            >>> model = tf.sequential([tf.layers.dense(units=2, input_shape=[3])])
            >>> n = model.warmup()          # then model.predict(x) of shape [1, 3] compiles nothing
        """
        from ..core import warmup as _warmup
        self._assert_not_disposed()
        self._check_built("warmup")
        shapes = _warmup.shapes_for(self.input_names, [t.shape for t in self.inputs], input_shape, "warmup")
        dtypes = [t.dtype or "float32" for t in self.inputs]

        def run():
            xs = [_warmup.zeros(s, d) for s, d in zip(shapes, dtypes)]
            return self.predict(xs if len(xs) > 1 else xs[0], batch_size=batch_size)
        try:
            return _warmup.compile_run(run)
        finally:
            # the predict-time fusion's folded weights were made in the pass: meaningless, made again
            self._dispose_inference_plan()

    def predict_on_batch(self, x):
        """The model's outputs for x as a single batch.

        Args:
            x: the inputs.

        Returns:
            A Tensor (a list of them for several outputs).
        """
        self._assert_not_disposed()
        self._check_built("predict_on_batch")
        owned = []
        try:
            xs = self._standardize(x, self.input_names, [t.shape for t in self.inputs], "input", owned)
            outs = tidy(lambda: self._predict_step(xs))
        finally:
            dispose(owned)
        return outs[0] if len(outs) == 1 else outs


# --- the steps tf.function traces (one Function per model and kind; the keys are part of the
# signature only: see Trainer._weights_key and _optimizer_key) --------------------------------------
def _train_step_traced(model, xs, ys, weights, variables, weights_key, optimizer_key):
    return model._train_step_eager(xs, ys, weights, variables)


def _test_step_eager(model, xs, ys, weights):
    total, rest, averaging = model._losses_and_metrics(xs, ys, weights, False)
    return [total] + rest, averaging


def _test_step_traced(model, xs, ys, weights, weights_key):
    return _test_step_eager(model, xs, ys, weights)


def _predict_step_traced(model, xs, folded, weights_key):
    # Predict-time fusion's folded kernels (cached by the weights' data, folded again after
    # training) come in as inputs: the trace records them as such, so a replay takes the fold of
    # the moment without computing it again.
    return model._run(xs, False)


_STEPS = {"train": _train_step_traced, "test": _test_step_traced, "predict": _predict_step_traced}


def _batch_size(batch_size):
    if batch_size is None:
        return 32
    if isinstance(batch_size, float) and batch_size.is_integer():
        batch_size = int(batch_size)   # a JavaScript number, as TF.js takes it (4.0 is 4)
    if not isinstance(batch_size, int) or isinstance(batch_size, bool) or batch_size < 1:
        # TF.js's checkBatchSize, word for word
        raise ValueError(f"batchSize is required to be a positive integer, but got {batch_size}")
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


def _unkept(result):
    """A step's tensors, kept inside it for the tape: ordinary tensors from here on."""
    for t in tensors_in(result):
        t.kept = False
    return result


def _align(w, values, what, output):
    """Weights w ([batch] or [batch, time, ...]) shaped to broadcast against the per-sample losses
    (or metric values): trailing unit axes added (or dropped)."""
    if w is None:
        return None
    if w.rank > values.rank and all(d == 1 for d in w.shape[values.rank:]):
        w = ops.reshape(w, list(w.shape[:values.rank]))
    if w.rank < values.rank:
        w = ops.reshape(w, list(w.shape) + [1] * (values.rank - w.rank))
    if w.rank != values.rank or any(a != b and a != 1 for a, b in zip(w.shape, values.shape)):
        raise ValueError(f"Output {output}: the {what} of shape {shape_str(w.shape)} does not fit the values of shape "
                         f"{shape_str(values.shape)} its loss or metric gives (one per sample, or per sample and "
                         f"timestep); a loss or metric function on a masked or weighted output must return one value "
                         f"per sample (per timestep for a sequence)")
    return w


def _loss_value(values, weight, mask, output):
    """An output's loss for a batch, as tf.keras: mean(values * weight); with a mask, the masked
    entries count 0 and the sum is divided by the number of unmasked entries."""
    if values.rank == 0:   # a loss already reduced to a scalar: a mask cannot apply (as Keras)
        return values if weight is None else ops.mean(ops.mul(values, weight))
    w = _align(weight, values, "sample_weight", output)
    m = _align(mask, values, "mask", output)
    if m is None:
        return ops.mean(values if w is None else ops.mul(values, w))
    weighted = ops.mul(values, m if w is None else ops.mul(w, m))
    count = ops.sum(m if tuple(m.shape) == tuple(values.shape) else ops.mul(ops.ones_like(values), m))
    return ops.div(ops.sum(weighted), ops.maximum(count, 1))


def _metric_value(values, weight, mask, batch, output):
    """(a metric's weighted mean for a batch, its weight in the mean over batches): Keras's Mean
    metric, sum(values * w) / sum(w) for w = weight * mask."""
    if values.rank == 0:   # one value per batch (precision, recall, r2): not weighted
        return values, batch
    w = _align(weight, values, "sample_weight", output)
    m = _align(mask, values, "mask", output)
    if w is None and m is None:
        return ops.mean(values), float(math.prod(values.shape))
    w = m if w is None else w if m is None else ops.mul(w, m)
    values = values if values.dtype == "float32" else ops.cast(values, "float32")
    full = ops.mul(ops.ones_like(values), w)   # w over every value
    norm = ops.sum(full)
    return safe_div(ops.sum(ops.mul(values, full)), norm), norm


def _product(a, b):
    """a * b for weights of ranks that may differ ([batch] and [batch, time]): the lower rank
    gets trailing unit axes."""
    if a.rank < b.rank:
        a = ops.reshape(a, list(a.shape) + [1] * (b.rank - a.rank))
    elif b.rank < a.rank:
        b = ops.reshape(b, list(b.shape) + [1] * (a.rank - b.rank))
    return ops.mul(a, b)


def _class_weight_table(spec, api):
    """{class index: weight} with int keys (keys may be given as strings, as TF.js's objects)."""
    table = {}
    for k, v in spec.items():
        try:
            key = int(k)
            if isinstance(k, float) and key != k:
                raise ValueError
        except (TypeError, ValueError):
            raise ValueError(f"{api}: class_weight keys must be class indices (integers), got {k!r}") from None
        if isinstance(v, bool) or not isinstance(v, (int, float)):
            raise TypeError(f"{api}: class_weight values must be numbers, got {v!r} for class {k!r}")
        table[key] = float(v)
    return table


async def _class_weights(y, class_weight, sync):
    """A float32 tensor of per-sample weights, of shape y.shape[:-1] ([samples], or [samples,
    time] for sequence targets): class_weight[class of the sample], the class being the argmax
    of a one-hot row or the value of a single-column label."""
    if y.shape[-1] > 1:
        labels = tidy(lambda: ops.arg_max(y, -1))
    else:
        labels = tidy(lambda: ops.cast(ops.round(ops.reshape(y, [-1])), "int32"))
    try:
        values = labels.data_sync() if sync else await labels.data()
    finally:
        labels.dispose()
    weights = [class_weight.get(int(c), 1.0) for c in values]
    return ops.tensor(weights, list(y.shape[:-1]), "float32")


async def _raising(error):
    raise error


def _release_unstarted(model, started):
    if not started:
        model._is_training = False


def _drive(coro, api):
    """Run a coroutine that never needs an event loop (fit's loop with sync=True) to the end."""
    try:
        coro.send(None)
    except StopIteration as done:
        return done.value
    coro.close()
    raise RuntimeError(f"{api}: a callback awaited something that needs an event loop; use `await model.fit(...)`")
