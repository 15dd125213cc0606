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


DEFAULT_YIELD_EVERY_MS = 125   # TF.js's: how often fit yields to the page by default ('auto')


async def _next_frame():
    await asyncio.sleep(0)


def _debounce(fn, wait_ms, now):
    """fn, called at most once every wait_ms (TF.js's generic_utils.debounce: the clock starts now);
    a call in between does nothing (TF.js's returns the last promise, long resolved)."""
    state = {"last": now()}

    def call(*args):
        t = now()
        if t - state["last"] < wait_ms:
            return None
        state["last"] = t
        return fn(*args)
    return call


async def _settle(*results):
    for r in results:
        if inspect.isawaitable(r):
            await r


class CustomCallback(Callback):
    """A callback from functions, one per event (TF.js's tf.CustomCallback): what fit makes of a
    dict of on_* functions, as a Callback object (subclass it to keep state). It also yields to the
    page while fit runs: after every batch ('batch'), epoch ('epoch'), or batch end at least
    yield_every milliseconds after the last yield (a number; 'auto': 125), calling on_yield then.

    Args:
        on_train_begin: function(logs), or None.
        on_train_end: function(logs), or None.
        on_epoch_begin: function(epoch, logs), or None.
        on_epoch_end: function(epoch, logs), or None.
        on_batch_begin: function(batch, logs), or None.
        on_batch_end: function(batch, logs), or None.
        on_yield: function(epoch, batch, logs) called when it yields, or None.
        now_func: the clock in milliseconds (None: time.monotonic's).
        next_frame_func: what it awaits to yield (None: one turn of the event loop).
        yield_every: 'auto', 'batch', 'epoch', 'never' or milliseconds (fit passes its own to the
            callbacks it makes from dicts).

    Returns:
        The callback (the functions may be coroutine functions: fit awaits them).

    Example:
        >>> seen = []
        >>> cb = tf.callbacks.CustomCallback(on_epoch_end=lambda epoch, logs: seen.append(epoch))
        >>> model = tf.sequential([tf.layers.dense(units=1, input_shape=[1])])
        >>> model.compile(optimizer="sgd", loss="mse")
        >>> _ = model.fit_sync(tf.tensor([[1]]), tf.tensor([[2]]), epochs=2, verbose=0, callbacks=cb)
        >>> seen
        [0, 1]
    """

    def __init__(self, on_train_begin=None, on_train_end=None, on_epoch_begin=None, on_epoch_end=None,
                 on_batch_begin=None, on_batch_end=None, on_yield=None, now_func=None, next_frame_func=None,
                 yield_every="auto"):
        given = {"on_train_begin": on_train_begin, "on_train_end": on_train_end, "on_epoch_begin": on_epoch_begin,
                 "on_epoch_end": on_epoch_end, "on_batch_begin": on_batch_begin, "on_batch_end": on_batch_end,
                 "on_yield": on_yield, "now_func": now_func, "next_frame_func": next_frame_func}
        for event, fn in given.items():
            if fn is not None and not callable(fn):
                raise TypeError(f"CustomCallback: {event} must be callable, got {type(fn).__name__}")
        if yield_every == "auto" or yield_every is None:
            yield_every = DEFAULT_YIELD_EVERY_MS
        if yield_every not in ("batch", "epoch", "never") and (
                isinstance(yield_every, bool) or not isinstance(yield_every, (int, float)) or yield_every < 0):
            raise ValueError(f"CustomCallback: yield_every must be 'auto', 'batch', 'epoch', 'never' or a number of "
                             f"milliseconds, got {yield_every!r}")
        if yield_every == "never" and on_yield is not None:
            raise ValueError("yieldEvery is `never` but you provided an `onYield` callback. Either change "
                             "`yieldEvery` or remove the callback")
        self.yield_every = yield_every
        self._custom_frame = next_frame_func
        self.in_sync_fit = False   # fit_sync sets it: there is no event loop to yield to
        self._on_yield = on_yield
        self._epoch = 0
        for event in _EVENTS:
            if given[event] is not None:
                setattr(self, event, given[event])   # the instance's own: CallbackList calls only what is given
        if yield_every == "never":
            return
        epoch_begin, epoch_end, batch_end = on_epoch_begin, on_epoch_end, on_batch_end

        def track_epoch(epoch, logs=None):
            self._epoch = epoch
            return None if epoch_begin is None else epoch_begin(epoch, logs)
        self.on_epoch_begin = track_epoch
        if yield_every == "epoch":
            async def yield_after_epoch(epoch, logs=None):
                await _settle(None if epoch_end is None else epoch_end(epoch, logs), self._frame())
            self.on_epoch_end = yield_after_epoch
            return
        if yield_every == "batch":
            maybe_wait = self._yield
        else:
            maybe_wait = _debounce(self._yield, yield_every, now_func or (lambda: time.monotonic() * 1000))

        async def yield_after_batch(batch, logs=None):
            await _settle(None if batch_end is None else batch_end(batch, logs))
            await _settle(maybe_wait(self._epoch, batch, logs) if yield_every != "batch" else self._frame())
        # fit reads a batch's values back only for a callback that reads them
        yield_after_batch.reads_logs = batch_end is not None or on_yield is not None
        self.on_batch_end = yield_after_batch

    def _frame(self):
        if self._custom_frame is not None:
            return self._custom_frame()
        return None if self.in_sync_fit else _next_frame()

    async def _yield(self, epoch, batch, logs):
        await _settle(None if self._on_yield is None else self._on_yield(epoch, batch, logs), self._frame())


def _standardize_callbacks(callbacks, yield_every="auto"):
    """fit's callbacks as a list of callback objects: a dict of on_* functions (TF.js's camelCase
    keys or snake_case) becomes a CustomCallback yielding as yield_every says."""
    if isinstance(callbacks, (dict, Callback)) or (callbacks is not None and not isinstance(callbacks, (list, tuple))):
        callbacks = [callbacks]
    return [CustomCallback(**{_snake(k): v for k, v in cb.items()}, yield_every=yield_every)
            if isinstance(cb, dict) else cb for cb in (callbacks or [])]


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

    def wants_logs(self, event):
        """Whether a handler of an event reads its logs (fit reads a batch's values back only then).

        Args:
            event: 'on_batch_end', ...

        Returns:
            A bool.
        """
        return any(getattr(fn, "reads_logs", True) for fn in self.handlers[event])

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
