"""Training callbacks: the base Callback, History (what fit returns), the verbose=1/2 progress
display (Keras's progress bar: ProgressLogger, Progbar), and tf.callbacks.early_stopping (tfjs-layers base_callbacks.ts and callbacks.ts).

fit() accepts Callback subclasses, any object with some of the on_* methods, or a dict
{'on_epoch_end': function, ...}. A method may be a plain function or a coroutine function
(awaited). Logs are dicts of Python floats: 'loss', the metrics, and 'val_'-prefixed ones.
"""
import asyncio
import inspect
import math
import sys
import time
import warnings

from ..core.environment import IS_BROWSER
from ._utils import snake as _snake

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


class CustomCallback(Callback):
    """A callback made of functions (TF.js's CustomCallback, what fit makes of a dict of them):
    on_train_begin(logs), on_train_end(logs), on_epoch_begin(epoch, logs), on_epoch_end(epoch, logs),
    on_batch_begin(batch, logs), on_batch_end(batch, logs), and on_yield(epoch, batch, logs), called
    when the training loop gives the event loop a turn (see yield_every). The names may be TF.js's
    (onEpochEnd); a function may be a coroutine function.

    Args:
        args: a dict of those functions (and TF.js's test hooks now_func, next_frame_func).
        yield_every: 'auto' (None: at most every 125 ms), a number of ms, 'batch', 'epoch' or 'never'
            (fit's and fit_dataset's yield_every, for this callback).
        **functions: the functions as keyword arguments.

    Example:
        >>> ends = []
        >>> cb = tf.callbacks.CustomCallback({"onEpochEnd": lambda epoch, logs: ends.append(epoch)})
        >>> model = tf.sequential([tf.layers.dense(units=1, input_shape=[1])])
        >>> model.compile(optimizer="sgd", loss="mse")
        >>> _ = model.fit_sync(tf.tensor([[1]]), tf.tensor([[1]]), epochs=2, verbose=0, callbacks=[cb])
        >>> ends
        [0, 1]
    """

    _KEYS = _EVENTS + ("on_yield", "now_func", "next_frame_func")

    def __init__(self, args=None, yield_every=None, **functions):
        given = {_snake(k): v for k, v in {**(args or {}), **functions}.items()}
        unknown = sorted(k for k in given if k not in self._KEYS)
        if unknown:
            raise ValueError(f"CustomCallback: unknown function {unknown[0]!r}; expected some of "
                             f"{', '.join(self._KEYS)}")
        for key, fn in given.items():
            if fn is not None and not callable(fn):
                raise TypeError(f"CustomCallback: {key} must be callable, got {type(fn).__name__}")
        self.functions = {k: v for k, v in given.items() if v is not None}
        for event in _EVENTS:
            if event in self.functions:
                setattr(self, event, self.functions[event])
        self.yield_every = yield_every
        self.yielder = _Yielder(yield_every, self.functions, "CustomCallback")


class ProgressLogger(Callback):
    """fit's display (Keras's ProgbarLogger): "Epoch 1/20" (when there are several), then with verbose=1 a
    progress bar per epoch, redrawn as the batches go (Progbar), ending on the epoch's logs; verbose=2 one line
    per epoch. The fit loop asks `due()` after each batch and, when it is, reads the epoch's running means once
    for `update`: between redraws the batches need no readback.

    Args:
        verbose: 1 a progress bar per epoch, 2 one line per epoch.
        stream: where the lines go (None: sys.stdout).

    Example:
        >>> import io
        >>> out = io.StringIO()
        >>> model = tf.sequential([tf.layers.dense(units=1, input_shape=[1])])
        >>> model.compile(optimizer="sgd", loss="mse")
        >>> _ = model.fit_sync(tf.tensor([[1]]), tf.tensor([[1]]), epochs=2, verbose=0,
        ...                    callbacks=[tf.callbacks.ProgressLogger(2, stream=out)])
        >>> out.getvalue().splitlines()[0]
        'Epoch 1/2'
    """

    def __init__(self, verbose=1, stream=None):
        self.verbose = verbose
        self.stream = stream
        self.bar = None

    def on_epoch_begin(self, epoch, logs=None):
        stream = self.stream or sys.stdout
        if self.params["epochs"] > 1:
            print(f"Epoch {epoch + 1}/{self.params['epochs']}", file=stream, flush=True)
        self.bar = Progbar(_steps_per_epoch(self.params), self.verbose, stream)

    def due(self, step):
        """Whether the bar would redraw after `step` (Progbar.due).

        Args:
            step: the steps of the epoch done.

        Returns:
            True when update() would draw now.
        """
        return self.bar is not None and self.bar.due(step)

    def update(self, step, logs):
        """Redraw the epoch's bar.

        Args:
            step: the steps of the epoch done.
            logs: {name: value} of the running means to show.
        """
        self.bar.update(step, logs)

    def on_epoch_end(self, epoch, logs=None):
        self.bar.update(self.bar.target, logs, finalize=True)
        self.bar = None


def _steps_per_epoch(params):
    """Batches per epoch: params' steps (fit_dataset's batches_per_epoch), or, for fit on tensors
    (whose steps is None, as TF.js's), the samples over the batch size."""
    if params.get("steps"):
        return params["steps"]
    samples, batch = params.get("samples"), params.get("batch_size")
    return math.ceil(samples / batch) if samples and batch else 1


class Progbar:
    """Keras's progress bar, `3/10 ━━━━━━━━━━━━━━━━━━━━ 1s 12ms/step - loss: 0.1234 - acc: 0.9000` (ETA while
    running, the time taken once finalized). verbose=1: redrawn in place in a terminal (at most every `interval`
    seconds), in one element of the page's output (a page block with output="ID"), else one plain line when
    finalized; verbose=2: `10/10 - 1s - 12ms/step - loss: ...` when finalized; 0: nothing.

    Args:
        target: the number of steps.
        verbose: 1, 2 or 0 (above).
        stream: where it writes (None: sys.stdout).
        width: the bar's width in characters.
        interval: seconds between redraws (None: Keras's 0.05).

    Example:
        >>> import io
        >>> out = io.StringIO()
        >>> bar = tf.callbacks.Progbar(2, verbose=2, stream=out)
        >>> bar.update(1, {"loss": 0.5})
        >>> bar.update(2, {"loss": 0.25}, finalize=True)
        >>> line = out.getvalue().strip()
        >>> line.split(" - ")[0], line.split(" - ")[-1]
        ('2/2', 'loss: 0.2500')
    """

    INTERVAL = 0.05   # seconds between redraws, Keras's

    def __init__(self, target, verbose=1, stream=None, width=20, interval=None):
        self.target, self.verbose, self.width = target, verbose, width
        self.interval = self.INTERVAL if interval is None else interval
        self.stream = stream or sys.stdout
        self.display = _display(self.stream) if verbose == 1 else None
        self._start = time.perf_counter()
        self._after_first = None
        self._last = -math.inf

    def due(self, current):
        """Whether to redraw after step `current`: asked after every step, it costs no readback.

        Args:
            current: the steps done.

        Returns:
            True when update() would draw now.
        """
        now = time.perf_counter()
        if current == 1 and self._after_first is None:
            self._after_first = now
        return self.display is not None and self.display.live and now - self._last >= self.interval

    def update(self, current, logs=None, finalize=False):
        """Show the bar at step `current` with logs (redrawn in place, or one line when finalized).

        Args:
            current: the steps done.
            logs: {name: value} to show after the bar (numbers, or one-value tensors).
            finalize: the last update: the time taken instead of the ETA, and the line ends.
        """
        if not self.verbose:
            return
        now = time.perf_counter()
        per_step = self._step_time(current, now)
        values = "".join(f" - {k}: {_format(v)}" for k, v in (logs or {}).items()
                         if k not in ("batch", "size"))
        count = f"{current:>{len(str(self.target))}}/{self.target}"
        if self.verbose == 2:
            if finalize:
                print(f"{count} - {now - self._start:.0f}s - {_step_text(per_step)}{values}", file=self.stream,
                      flush=True)
            return
        if finalize:
            info = f" {now - self._start:.0f}s {_step_text(per_step)}{values}"
        else:
            info = f" {_eta(per_step * (self.target - current))} {_step_text(per_step)}{values}"
        done = int(self.width * min(current, self.target) / self.target) if self.target else self.width
        self.display.draw(count + " ", done, self.width - done, info, finalize)
        self._last = now

    def _step_time(self, current, now):
        # Keras's estimate: the first step (tracing, shader compiles) is left out once there are others;
        # due() notes when it ended even where nothing is drawn
        if not current:
            return 0.0
        if self._after_first is not None and current > 1:
            per_step = (now - self._after_first) / (current - 1)
        else:
            per_step = (now - self._start) / current
        if current == 1 and self._after_first is None:
            self._after_first = now
        return per_step


def verbosity(verbose, api):
    """0, 1 or 2 from fit's / evaluate's verbose (Keras's "auto" is 1; None and False are 0)."""
    if verbose is None or verbose is False:
        return 0
    if verbose is True or verbose == "auto":
        return 1
    if isinstance(verbose, int) and verbose in (0, 1, 2):
        return verbose
    raise ValueError(f"{api}: verbose must be 0 (silent), 1 (a progress bar), 2 (a line per epoch) or 'auto', "
                     f"got {verbose!r}")


def _eta(seconds):
    if seconds > 3600:
        return "%d:%02d:%02d" % (seconds // 3600, (seconds % 3600) // 60, seconds % 60)
    if seconds > 60:
        return "%d:%02d" % (seconds // 60, seconds % 60)
    return "%ds" % seconds


def _step_text(seconds):
    if seconds >= 1 or seconds == 0:
        return f"{seconds:.0f}s/step"
    if seconds >= 1e-3:
        return f"{seconds * 1e3:.0f}ms/step"
    return f"{seconds * 1e6:.0f}us/step"


def _format(v):
    if not isinstance(v, (int, float)):
        return str(v)
    if v != v or math.isinf(v):
        return str(v)
    return f"{v:.4f}" if abs(v) > 1e-3 else f"{v:.4e}"


def _display(stream):
    """Where a verbose=1 bar goes: the page's output element, the terminal, or plain lines."""
    if IS_BROWSER:
        import js   # the page's JS: only in Pyodide
        element = getattr(getattr(js, "pytfweb", None), "_output", None) if hasattr(js, "document") else None
        if hasattr(element, "appendChild"):   # not None, nor Pyodide's JsNull for JS's null
            return _ElementDisplay(element, stream)
    isatty = getattr(stream, "isatty", None)
    if isatty is not None and isatty():
        return _TerminalDisplay(stream)
    return _LineDisplay(stream)


class _LineDisplay:
    """Not a terminal: the finalized bar only, one line."""
    live = False

    def __init__(self, stream):
        self.stream = stream

    def draw(self, count, done, rest, info, finalize):
        if finalize:
            print(count + "━" * (done + rest) + info, file=self.stream, flush=True)


class _TerminalDisplay:
    """Redrawn in place with \r, padded over the previous text; done in green and the rest in white, as Keras."""
    live = True

    def __init__(self, stream):
        self.stream = stream
        self.previous = 0

    def draw(self, count, done, rest, info, finalize):
        bar = (f"\x1b[32m{'━' * done}\x1b[0m" if done else "") + f"\x1b[37m{'━' * rest}\x1b[0m"
        visible = len(count) + done + rest + len(info)
        text = "\r" + count + bar + info + " " * max(0, self.previous - visible)
        self.previous = 0 if finalize else visible
        self.stream.write(text + ("\n" if finalize else ""))
        self.stream.flush()


class _ElementDisplay:
    """The page: one element appended to the running block's output and updated in place."""
    live = True

    def __init__(self, output, stream):
        self.output, self.stream = output, stream
        self.parts = None

    def draw(self, count, done, rest, info, finalize):
        import js
        if self.parts is None:
            self.stream.flush()   # what was printed before the bar comes before it
            doc = js.document
            line = doc.createElement("span")
            line.className = "pytfweb-progress"
            self.parts = [doc.createElement("span") for _ in range(4)]
            self.parts[1].style.color, self.parts[2].style.color = "#2a7d2a", "#bbb"
            for part in self.parts:
                line.appendChild(part)
            self.output.appendChild(line)
            self.output.appendChild(doc.createTextNode("\n"))
        for part, text in zip(self.parts, (count, "━" * done, "━" * rest, info)):
            part.textContent = text
        if finalize:
            self.parts = None


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
            # TF.js's console.warn: a warning, not a print
            warnings.warn(f"Metric for EarlyStopping {self.monitor} is not available. Available metrics are: "
                          f"{', '.join(logs or {})}", stacklevel=2)
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
        callbacks: Callback objects, objects with on_* methods, or dicts of on_* functions (None: none).

    Example:
        >>> seen = []
        >>> callbacks = tf.callbacks.CallbackList([{"on_epoch_end": lambda epoch, logs: seen.append(epoch)}])
        >>> callbacks.wants("on_epoch_end"), callbacks.wants("on_batch_end")
        (True, False)
    """

    def __init__(self, callbacks=None):
        self.handlers = {event: [] for event in _EVENTS}
        # TF.js takes one callback or a list; a dict's keys may be TF.js's onEpochEnd or on_epoch_end
        if isinstance(callbacks, (dict, Callback)) or (callbacks is not None and not isinstance(callbacks, (list, tuple))
                                                       and any(hasattr(callbacks, e) for e in _EVENTS)):
            callbacks = [callbacks]
        self.callbacks = [{_snake(k): v for k, v in cb.items()} if isinstance(cb, dict) else cb
                          for cb in (callbacks or [])]
        for cb in self.callbacks:
            for event in _EVENTS:
                fn = cb.get(event) if isinstance(cb, dict) else getattr(cb, event, None)
                if fn is None:
                    continue
                if not callable(fn):
                    raise TypeError(f"callback {event} must be callable, got {type(fn).__name__}")
                # Skip Callback's empty defaults: then a batch's values need no readback.
                if getattr(fn, "__func__", None) is getattr(Callback, event):
                    continue
                self.handlers[event].append(fn)
        if not all(isinstance(cb, (Callback, dict)) or any(hasattr(cb, e) for e in _EVENTS) for cb in self.callbacks):
            bad = next(cb for cb in self.callbacks if not any(hasattr(cb, e) for e in _EVENTS))
            raise TypeError(f"fit: a callback must be a Callback, a dict of on_* functions or an object with on_* "
                            f"methods, got {type(bad).__name__}")

    def set_model(self, model, params=None):
        """Give every callback the model (and fit's settings).

        Args:
            model: the model.
            params: fit's settings (None: left as they are; see set_params).
        """
        for cb in self.callbacks:
            if hasattr(cb, "set_model"):
                cb.set_model(model)
        if params is not None:
            self.set_params(params)

    def set_params(self, params):
        """Give every callback fit's settings (TF.js's setParams).

        Args:
            params: a dict (epochs, steps, ...).
        """
        for cb in self.callbacks:
            if hasattr(cb, "set_params"):
                cb.set_params(params)

    def append(self, callback):
        """Add a callback at the end (TF.js's append).

        Args:
            callback: a Callback, an object with on_* methods, or a dict of on_* functions.
        """
        self.__init__(self.callbacks + [callback])

    # TF.js's CallbackList methods: each event to every callback (awaited)
    async def on_train_begin(self, logs=None):
        """Call every callback's on_train_begin (awaited).

        Args:
            logs: the logs (None: {}).
        """
        await self.call("on_train_begin", {} if logs is None else logs)

    async def on_train_end(self, logs=None):
        """Call every callback's on_train_end (awaited).

        Args:
            logs: the logs (None: {}).
        """
        await self.call("on_train_end", {} if logs is None else logs)

    async def on_epoch_begin(self, epoch, logs=None):
        """Call every callback's on_epoch_begin (awaited).

        Args:
            epoch: the epoch.
            logs: the logs (None: {}).
        """
        await self.call("on_epoch_begin", epoch, {} if logs is None else logs)

    async def on_epoch_end(self, epoch, logs=None):
        """Call every callback's on_epoch_end (awaited).

        Args:
            epoch: the epoch.
            logs: the epoch's logs (None: {}).
        """
        await self.call("on_epoch_end", epoch, {} if logs is None else logs)

    async def on_batch_begin(self, batch, logs=None):
        """Call every callback's on_batch_begin (awaited).

        Args:
            batch: the batch.
            logs: the logs (None: {}).
        """
        await self.call("on_batch_begin", batch, {} if logs is None else logs)

    async def on_batch_end(self, batch, logs=None):
        """Call every callback's on_batch_end (awaited).

        Args:
            batch: the batch.
            logs: the batch's logs (None: {}).
        """
        await self.call("on_batch_end", batch, {} if logs is None else logs)

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


# TF.js's DEFAULT_YIELD_EVERY_MS (yield_every 'auto')
DEFAULT_YIELD_EVERY_MS = 125
_YIELD_MODES = ("auto", "batch", "epoch", "never")


def _yielders_of(callbacks, yield_every, api):
    """The yield_every schedules of a CallbackList's dict callbacks (yield_every checked in any case).

    Args:
        callbacks: the CallbackList.
        yield_every: 'auto' (None), a number of ms, 'batch', 'epoch' or 'never'.
        api: the caller's name, for errors.

    Returns:
        One _Yielder per dict callback (fit's yield_every) and per CustomCallback (its own).
    """
    _Yielder(yield_every, {}, api)
    return [_Yielder(yield_every, cb, api) if isinstance(cb, dict) else cb.yielder
            for cb in callbacks.callbacks if isinstance(cb, (dict, CustomCallback))]


class _Yielder:
    """TF.js's yieldEvery, carried by the callbacks given as dicts of functions (TF.js's
    CustomCallback; Callback objects never yield): 'auto' (every DEFAULT_YIELD_EVERY_MS at most),
    a number of ms, 'batch', 'epoch' or 'never'. With a time ('auto' or ms), checked after each
    batch, the callback's on_yield(epoch, batch, logs) is called and the loop gives the event loop
    a turn (its next_frame_func, default `asyncio.sleep(0)`); 'batch' and 'epoch' give the turn
    only (as TF.js's). now_func (ms) and next_frame_func are TF.js's hooks for tests."""

    def __init__(self, yield_every, callback, api):
        if yield_every is None:
            yield_every = "auto"
        if not (yield_every in _YIELD_MODES or (isinstance(yield_every, (int, float))
                                                and not isinstance(yield_every, bool) and yield_every >= 0)):
            raise ValueError(f"{api}: yield_every must be one of {', '.join(map(repr, _YIELD_MODES))} or a "
                             f"number of milliseconds, got {yield_every!r}")
        self.on_yield = callback.get("on_yield")
        if yield_every == "never" and self.on_yield is not None:
            raise ValueError(f"{api}: yield_every is 'never' but a callback has on_yield (it would never be "
                             f"called): change yield_every or remove the callback")
        self.now = callback.get("now_func") or (lambda: time.monotonic() * 1000)
        self.next_frame = callback.get("next_frame_func") or (lambda: asyncio.sleep(0))
        self.mode = DEFAULT_YIELD_EVERY_MS if yield_every == "auto" else yield_every
        self.last = self.now() if yield_every not in _YIELD_MODES[1:] else None

    async def _frame(self, sync):
        if not sync:   # fit_sync runs without an event loop: no turn to give
            await _awaited(self.next_frame())

    async def batch_end(self, epoch, batch, logs, sync):
        """After a batch (awaited)."""
        if self.mode == "batch":
            await self._frame(sync)
        elif self.mode not in _YIELD_MODES:
            now = self.now()
            if now - self.last < self.mode:
                return
            self.last = now
            if self.on_yield is not None:
                await _awaited(self.on_yield(epoch, batch, logs))
            await self._frame(sync)

    async def epoch_end(self, sync):
        """After an epoch (awaited)."""
        if self.mode == "epoch":
            await self._frame(sync)


async def _awaited(value):
    return await value if inspect.isawaitable(value) else value
