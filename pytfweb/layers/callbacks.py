"""Training callbacks: the base Callback, History (what fit returns), the verbose=1 progress
display, and tf.callbacks.early_stopping (tfjs-layers base_callbacks.ts and callbacks.ts).

fit() accepts Callback subclasses, any object with some of the on_* methods, or a dict
{'on_epoch_end': function, ...}. A method may be a plain function or a coroutine function
(awaited). Logs are dicts of Python floats: 'loss', the metrics, and 'val_'-prefixed ones.
"""
import inspect
import math
import time

_EVENTS = ("on_train_begin", "on_train_end", "on_epoch_begin", "on_epoch_end", "on_batch_begin", "on_batch_end")


class Callback:
    """Base class of training callbacks: override any of on_train_begin(logs),
    on_epoch_begin(epoch, logs), on_batch_begin(batch, logs), on_batch_end(batch, logs),
    on_epoch_end(epoch, logs), on_train_end(logs). self.model and self.params are set before
    training starts. fit() also takes any object with some of these methods, or a dict of functions.

    Example:
        >>> class Losses(tf.callbacks.Callback):
        ...     def __init__(self):
        ...         self.losses = []
        ...     def on_epoch_end(self, epoch, logs=None):
        ...         self.losses.append(logs["loss"])
        >>> model = tf.sequential([tf.layers.dense(units=1, input_shape=[1])])
        >>> model.compile(optimizer="sgd", loss="mse")
        >>> cb = Losses()
        >>> _ = model.fit_sync(tf.tensor([[1], [2]]), tf.tensor([[2], [4]]), epochs=3, verbose=0, callbacks=[cb])
        >>> len(cb.losses)
        3
    """
    model = None
    params = None

    def set_model(self, model):
        """Called by fit with the model being trained (kept as self.model).

        Args:
            model: the model.
        """
        self.model = model

    def set_params(self, params):
        """Called by fit with its settings (kept as self.params: epochs, initial_epoch, samples, steps,
        batch_size, verbose, do_validation, metrics).

        Args:
            params: a dict.
        """
        self.params = params

    def on_train_begin(self, logs=None):
        """Called when training starts.

        Args:
            logs: a dict (empty).
        """
        pass

    def on_train_end(self, logs=None):
        """Called when training ends.

        Args:
            logs: a dict.
        """
        pass

    def on_epoch_begin(self, epoch, logs=None):
        """Called at the start of each epoch.

        Args:
            epoch: the epoch's number, from 0.
            logs: a dict.
        """
        pass

    def on_epoch_end(self, epoch, logs=None):
        """Called at the end of each epoch.

        Args:
            epoch: the epoch's number, from 0.
            logs: {'loss': ..., metrics, 'val_' ones}: Python floats.
        """
        pass

    def on_batch_begin(self, batch, logs=None):
        """Called before each batch.

        Args:
            batch: the batch's number within the epoch, from 0.
            logs: {'batch': number, 'size': samples}.
        """
        pass

    def on_batch_end(self, batch, logs=None):
        """Called after each batch (the batch's values are then read back: it costs a sync per batch).

        Args:
            batch: the batch's number within the epoch, from 0.
            logs: {'loss': ..., metrics}: Python floats.
        """
        pass


class History(Callback):
    """What fit returns: history.epoch (the epoch numbers) and history.history ({name: [value per
    epoch]}).

    Example:
        >>> model = tf.sequential([tf.layers.dense(units=1, input_shape=[1])])
        >>> model.compile(optimizer="sgd", loss="mse", metrics=["mae"])
        >>> history = model.fit_sync(tf.tensor([[1]]), tf.tensor([[1]]), epochs=2, verbose=0)
        >>> history.epoch, sorted(history.history)
        ([0, 1], ['loss', 'mae'])
    """

    def __init__(self):
        self.epoch = []
        self.history = {}

    def on_train_begin(self, logs=None):
        self.epoch = []
        self.history = {}

    def on_epoch_end(self, epoch, logs=None):
        self.epoch.append(epoch)
        for k, v in (logs or {}).items():
            self.history.setdefault(k, []).append(v)


class ProgressLogger(Callback):
    """The verbose=1 display of fit: one line per epoch with its time, loss and metrics (TF.js-node's
    layout).

    Args:
        print_fn: the function called with each line.

    Example:
        >>> lines = []
        >>> model = tf.sequential([tf.layers.dense(units=1, input_shape=[1])])
        >>> model.compile(optimizer="sgd", loss="mse")
        >>> _ = model.fit_sync(tf.tensor([[1]]), tf.tensor([[1]]), epochs=2, verbose=0,
        ...                    callbacks=[tf.callbacks.ProgressLogger(print_fn=lines.append)])
        >>> len(lines) > 0
        True
    """

    def __init__(self, print_fn=print):
        self.print_fn = print_fn
        self._start = 0.0

    def on_epoch_begin(self, epoch, logs=None):
        self._start = time.perf_counter()
        self.print_fn(f"Epoch {epoch + 1} / {self.params['epochs']}")

    def on_epoch_end(self, epoch, logs=None):
        ms = (time.perf_counter() - self._start) * 1000
        steps = max(1, self.params.get("steps") or 1)
        values = " ".join(f"{k}={_format(v)}" for k, v in (logs or {}).items())
        self.print_fn(f"{ms:.0f}ms {ms * 1000 / steps:.0f}us/step - {values}")


def _format(v):
    if v != v or math.isinf(v):
        return str(v)
    return f"{v:.3e}" if v != 0 and abs(v) < 1e-3 else f"{v:.4f}"


class EarlyStopping(Callback):
    """Stop training when a monitored value has not improved by min_delta for patience epochs (make
    it with tf.callbacks.early_stopping).

    Args:
        monitor: the logged value to watch ('val_loss', 'loss', a metric).
        min_delta: the least change that counts as an improvement.
        patience: epochs without improvement before stopping.
        verbose: print the epoch training stopped at.
        mode: 'min', 'max' or 'auto' (max for accuracies, else min).
        baseline: training stops unless the value gets better than this.
        restore_best_weights: not implemented (True raises NotImplementedError, as TF.js).

    Example:
        >>> stop = tf.callbacks.EarlyStopping(monitor="loss", patience=1)
        >>> stop.mode
        'min'
    """

    def __init__(self, monitor="val_loss", min_delta=0, patience=0, verbose=0, mode="auto", baseline=None,
                 restore_best_weights=False):
        if restore_best_weights:
            raise NotImplementedError("restore_best_weights = True is not implemented in EarlyStopping yet.")
        if mode not in ("auto", "min", "max"):
            raise ValueError(f"EarlyStopping: mode must be 'auto', 'min' or 'max', got {mode!r}")
        self.monitor, self.patience, self.verbose, self.baseline = monitor, patience, verbose, baseline
        if mode == "auto":
            mode = "max" if "acc" in monitor else "min"
        self.mode = mode
        self.min_delta = abs(min_delta) * (-1 if mode == "min" else 1)
        self.wait, self.stopped_epoch, self.best = 0, 0, None

    def _improved(self, current, best):
        return current < best if self.mode == "min" else current > best

    def on_train_begin(self, logs=None):
        self.wait, self.stopped_epoch = 0, 0
        if self.baseline is not None:
            self.best = self.baseline
        else:
            self.best = math.inf if self.mode == "min" else -math.inf

    def on_epoch_end(self, epoch, logs=None):
        current = (logs or {}).get(self.monitor)
        if current is None:
            print(f"Metric for EarlyStopping {self.monitor} is not available. Available metrics are: "
                  f"{', '.join(logs or {})}")
            return
        if self._improved(current - self.min_delta, self.best):
            self.best, self.wait = current, 0
        else:
            self.wait += 1
            if self.wait >= self.patience:
                self.stopped_epoch = epoch
                self.model.stop_training = True

    def on_train_end(self, logs=None):
        if self.stopped_epoch > 0 and self.verbose:
            print(f"Epoch {self.stopped_epoch}: early stopping.")


def early_stopping(monitor="val_loss", min_delta=0, patience=0, verbose=0, mode="auto", baseline=None,
                   restore_best_weights=False):
    """A callback stopping training when a monitored value stops improving (see EarlyStopping).

    Args:
        monitor: the logged value to watch ('val_loss', 'loss', a metric).
        min_delta: the least change that counts as an improvement.
        patience: epochs without improvement before stopping.
        verbose: print the epoch training stopped at.
        mode: 'min', 'max' or 'auto' (max for accuracies, else min).
        baseline: training stops unless the value gets better than this.
        restore_best_weights: not implemented (True raises NotImplementedError, as TF.js).

    Returns:
        An EarlyStopping callback.

    Example:
        >>> model = tf.sequential([tf.layers.dense(units=1, input_shape=[1], kernel_initializer="zeros",
        ...                                        use_bias=False)])
        >>> model.compile(optimizer=tf.train.sgd(0), loss="mse")   # a learning rate of 0: no progress
        >>> history = model.fit_sync(tf.tensor([[1]]), tf.tensor([[1]]), epochs=10, verbose=0,
        ...                          callbacks=[tf.callbacks.early_stopping(monitor="loss", patience=2)])
        >>> len(history.epoch)
        3
    """
    return EarlyStopping(monitor, min_delta, patience, verbose, mode, baseline, restore_best_weights)


class CallbackList:
    """Dispatches each training event to every callback, awaiting coroutine methods (what fit uses).

    Args:
        callbacks: Callback objects, objects with on_* methods, or dicts of on_* functions.

    Example:
        >>> seen = []
        >>> callbacks = tf.callbacks.CallbackList([{"on_epoch_end": lambda epoch, logs: seen.append(epoch)}])
        >>> callbacks.wants("on_epoch_end"), callbacks.wants("on_batch_end")
        (True, False)
    """

    def __init__(self, callbacks):
        self.handlers = {event: [] for event in _EVENTS}
        self.callbacks = list(callbacks)
        for cb in self.callbacks:
            for event in _EVENTS:
                fn = cb.get(event) if isinstance(cb, dict) else getattr(cb, event, None)
                if fn is None:
                    continue
                if not callable(fn):
                    raise TypeError(f"callback {event} must be callable, got {type(fn).__name__}")
                # Skip Callback's empty defaults: then a batch's values need no readback.
                if getattr(type(cb), event, None) is getattr(Callback, event):
                    continue
                self.handlers[event].append(fn)
        if not all(isinstance(cb, (Callback, dict)) or any(hasattr(cb, e) for e in _EVENTS) for cb in self.callbacks):
            bad = next(cb for cb in self.callbacks if not any(hasattr(cb, e) for e in _EVENTS))
            raise TypeError(f"fit: a callback must be a Callback, a dict of on_* functions or an object with on_* "
                            f"methods, got {type(bad).__name__}")

    def set_model(self, model, params):
        """Give every callback the model and fit's settings.

        Args:
            model: the model.
            params: fit's settings.
        """
        for cb in self.callbacks:
            if hasattr(cb, "set_model"):
                cb.set_model(model)
            if hasattr(cb, "set_params"):
                cb.set_params(params)

    def wants(self, event):
        """Whether a callback handles an event (fit reads values back per batch only then).

        Args:
            event: 'on_batch_end', ...

        Returns:
            A bool.
        """
        return bool(self.handlers[event])

    async def call(self, event, *args):
        """Call every handler of an event, awaiting coroutines (awaited).

        Args:
            event: the event's name.
            *args: its arguments (epoch or batch, logs).
        """
        for fn in self.handlers[event]:
            result = fn(*args)
            if inspect.isawaitable(result):
                await result
