"""fit's and evaluate's display: Keras's progress bar (verbose=1), redrawn in place in a terminal and one
plain line per epoch otherwise; Keras's line per epoch (verbose=2); nothing at verbose=0."""
import io
import re
import sys

import numpy as np
import pytest

import pytfweb as tf
from pytfweb.layers import callbacks

BAR = "━" * 20
STEP = r"\d+(?:us|ms|s)/step"


class Terminal(io.StringIO):
    def isatty(self):
        return True


def regression(units=1):
    model = tf.sequential(layers=[tf.layers.dense(units=units, input_shape=[2],
                                                  kernel_initializer=tf.initializers.glorot_uniform(seed=1))])
    model.compile(optimizer=tf.train.sgd(0.05), loss="mse", metrics=["mae"])
    rng = np.random.default_rng(0)
    x = tf.tensor(rng.normal(size=(50, 2)).astype(np.float32))
    y = tf.tensor(rng.normal(size=(50, units)).astype(np.float32))
    return model, x, y


def values(text):
    return {k: float(v) for k, v in re.findall(r" - (\w+): (\S+)", text)}


def test_not_a_terminal_prints_one_line_per_epoch(capsys):
    model, x, y = regression()
    history = model.fit_sync(x, y, epochs=2, batch_size=10, validation_split=0.2, shuffle=False)
    out = capsys.readouterr().out
    assert "\r" not in out and "\x1b" not in out
    lines = out.splitlines()
    assert lines[0] == "Epoch 1/2" and lines[2] == "Epoch 2/2" and len(lines) == 4
    for epoch, line in enumerate(lines[1::2]):
        assert re.fullmatch(rf"4/4 {BAR} \d+s {STEP} - loss: \S+ - mae: \S+ - val_loss: \S+ - val_mae: \S+", line)
        assert values(line) == pytest.approx({k: v[epoch] for k, v in history.history.items()}, abs=1e-4)
    model.fit_sync(x, y, epochs=1, batch_size=10)   # one epoch: no "Epoch 1/1" line, as Keras
    assert re.fullmatch(rf"5/5 {BAR} \d+s {STEP} - loss: \S+ - mae: \S+\n", capsys.readouterr().out)
    model.fit_sync(x, y, epochs=2, verbose=0)
    assert capsys.readouterr().out == ""
    tf.dispose([x, y])
    model.dispose()


def test_verbose_2_is_one_line_per_epoch(capsys):
    model, x, y = regression()
    history = model.fit_sync(x, y, epochs=2, batch_size=25, verbose=2)
    lines = capsys.readouterr().out.splitlines()
    assert lines[0::2] == ["Epoch 1/2", "Epoch 2/2"]
    for epoch, line in enumerate(lines[1::2]):
        assert re.fullmatch(rf"2/2 - \d+s - {STEP} - loss: \S+ - mae: \S+", line), line
        assert values(line) == pytest.approx({k: v[epoch] for k, v in history.history.items()}, abs=1e-4)
    tf.dispose([x, y])
    model.dispose()


def test_terminal_redraws_the_bar_with_running_means(monkeypatch):
    monkeypatch.setattr(callbacks.Progbar, "INTERVAL", 0)   # redraw after every batch
    term = Terminal()
    monkeypatch.setattr(sys, "stdout", term)
    model, x, y = regression()
    model.fit_sync(x, y, epochs=1, batch_size=10, verbose=0)   # the optimizer's slots exist from here on
    before = tf.memory().num_tensors
    batch_losses = []
    model.fit_sync(x, y, epochs=2, batch_size=10, shuffle=False,
                   callbacks=[{"on_batch_end": lambda b, logs: batch_losses.append(logs["loss"])}])
    assert tf.memory().num_tensors == before
    out = term.getvalue()
    first, second = out.split("Epoch 2/2\n")
    assert first.startswith("Epoch 1/2\n\r1/5 ")
    draws = first[len("Epoch 1/2\n"):].split("\r")[1:]
    assert len(draws) == 5 and draws[-1].endswith("\n") and not any(d.endswith("\n") for d in draws[:-1])
    for step, draw in enumerate(draws, 1):
        plain = re.sub(r"\x1b\[\d+m", "", draw).rstrip()
        # an ETA while running, the time taken once done
        assert re.fullmatch(rf"{step}/5 {BAR} \d+s {STEP} - loss: \S+ - mae: \S+", plain), plain
        green = re.search(r"\x1b\[32m(━*)\x1b\[0m", draw)
        assert len(green.group(1) if green else "") == 4 * step   # the done part, 20 * step / 5
        # the running mean over the batches so far (equal batches: the mean of their losses)
        assert values(plain)["loss"] == pytest.approx(np.mean(batch_losses[:step]), abs=1e-4)
    # each redraw covers the text of the previous one: shorter text is padded with spaces
    shown = [re.sub(r"\x1b\[\d+m", "", d).rstrip("\n") for d in draws]
    assert all(len(d) >= len(p.rstrip(" ")) for p, d in zip(shown, shown[1:]))
    assert second.count("\r") == 5 and second.endswith("\n")
    tf.dispose([x, y])
    model.dispose()


def test_evaluate_shows_the_bar_when_asked(capsys):
    model, x, y = regression()
    loss, mae = model.evaluate(x, y, batch_size=20)
    assert capsys.readouterr().out == ""   # TF.js's default: silent
    model.evaluate(x, y, batch_size=20, verbose=1)
    line = capsys.readouterr().out
    assert re.fullmatch(rf"3/3 {BAR} \d+s {STEP} - loss: \S+ - mae: \S+\n", line)
    assert values(line) == pytest.approx({"loss": loss.data_sync()[0], "mae": mae.data_sync()[0]}, abs=1e-4)
    model.evaluate(x, y, batch_size=20, verbose=2)
    assert re.fullmatch(rf"3/3 - \d+s - {STEP} - loss: \S+ - mae: \S+\n", capsys.readouterr().out)
    tf.dispose([x, y, loss, mae])
    model.dispose()


def test_verbose_values(capsys):
    model, x, y = regression()
    model.fit_sync(x, y, epochs=1, batch_size=50, verbose="auto")   # Keras's default: the bar
    assert capsys.readouterr().out.startswith("1/1 ")
    model.fit_sync(x, y, epochs=1, batch_size=50, verbose=False)
    assert capsys.readouterr().out == ""
    before = tf.memory().num_tensors
    for bad in (3, "loud", -1):
        with pytest.raises(ValueError, match=r"fit: verbose must be 0 \(silent\), 1 .* got"):
            model.fit_sync(x, y, verbose=bad)
        with pytest.raises(ValueError, match="evaluate: verbose must be"):
            model.evaluate(x, y, verbose=bad)
    assert tf.memory().num_tensors == before
    tf.dispose([x, y])
    model.dispose()


def test_number_format_and_times_are_keras():
    assert callbacks._format(0.12345) == "0.1235" and callbacks._format(0.0001234) == "1.2340e-04"
    assert callbacks._format(float("nan")) == "nan"
    assert [callbacks._step_text(s) for s in (0, 2.4, 0.012, 0.0000125)] == ["0s/step", "2s/step", "12ms/step",
                                                                              "12us/step"]
    assert [callbacks._eta(s) for s in (5.7, 75, 3725)] == ["5s", "1:15", "1:02:05"]
