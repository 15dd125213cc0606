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
    """Base class: override any of on_train_begin(logs), on_epoch_begin(epoch, logs),
    on_batch_begin(batch, logs), on_batch_end(batch, logs), on_epoch_end(epoch, logs),
    on_train_end(logs). self.model and self.params are set before training starts."""
    model = None
    params = None

    def set_model(self, model):
        self.model = model

    def set_params(self, params):
        self.params = params

    def on_train_begin(self, logs=None):
        pass

    def on_train_end(self, logs=None):
        pass

    def on_epoch_begin(self, epoch, logs=None):
        pass

    def on_epoch_end(self, epoch, logs=None):
        pass

    def on_batch_begin(self, batch, logs=None):
        pass

    def on_batch_end(self, batch, logs=None):
        pass


class History(Callback):
    """Returned by fit: history.epoch (epoch numbers) and history.history ({name: [value per epoch]})."""

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
    """verbose=1: one line per epoch with its time, loss and metrics (TF.js-node's layout)."""

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
    """Stop training when `monitor` has not improved by min_delta for `patience` epochs."""

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
    """tf.callbacks.early_stopping: see EarlyStopping."""
    return EarlyStopping(monitor, min_delta, patience, verbose, mode, baseline, restore_best_weights)


class CallbackList:
    """Dispatches each event to every callback, awaiting coroutine methods."""

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
        for cb in self.callbacks:
            if hasattr(cb, "set_model"):
                cb.set_model(model)
            if hasattr(cb, "set_params"):
                cb.set_params(params)

    def wants(self, event):
        return bool(self.handlers[event])

    async def call(self, event, *args):
        for fn in self.handlers[event]:
            result = fn(*args)
            if inspect.isawaitable(result):
                await result
