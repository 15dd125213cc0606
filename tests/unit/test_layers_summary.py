"""model.summary() prints Keras 3's table: the same text Keras prints for the same model (keras runs here on
its numpy backend), shapes as (None, 3), totals with byte sizes."""
import os

import pytest

import pytfweb as tf

os.environ.setdefault("KERAS_BACKEND", "numpy")
import keras  # noqa: E402 - in the test extra: missing, these tests fail rather than skip


@pytest.fixture(autouse=True)
def wide_terminal(monkeypatch):
    # both sides narrow the table to the terminal (COLUMNS, which shutil and rich read): fix it
    monkeypatch.setenv("COLUMNS", "200")


def keras_lines(model, **kwargs):
    out = []
    model.summary(print_fn=out.append, **kwargs)   # Keras 3 hands print_fn the whole text at once
    return "".join(out).rstrip("\n").split("\n")


def our_lines(model, **kwargs):
    lines = []
    model.summary(print_fn=lines.append, **kwargs)
    return lines


def dense_pair():
    ours = tf.sequential(layers=[tf.layers.dense(units=3, input_shape=[4], name="hidden"),
                                 tf.layers.dense(units=1, name="out")], name="seq")
    theirs = keras.Sequential([keras.Input((4,)), keras.layers.Dense(3, name="hidden"),
                               keras.layers.Dense(1, name="out")], name="seq")
    return ours, theirs


def test_sequential_as_keras_prints_it():
    ours, theirs = dense_pair()
    assert our_lines(ours) == keras_lines(theirs)
    assert our_lines(ours) == [
        'Model: "seq"',
        "┏━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━━━┓",
        "┃ Layer (type)                         ┃ Output Shape                ┃         Param # ┃",
        "┡━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━━━┩",
        "│ hidden (Dense)                       │ (None, 3)                   │              15 │",
        "├──────────────────────────────────────┼─────────────────────────────┼─────────────────┤",
        "│ out (Dense)                          │ (None, 1)                   │               4 │",
        "└──────────────────────────────────────┴─────────────────────────────┴─────────────────┘",
        " Total params: 19 (76.00 B)",
        " Trainable params: 19 (76.00 B)",
        " Non-trainable params: 0 (0.00 B)"]
    ours.get_layer("hidden").trainable = False
    theirs.get_layer("hidden").trainable = False
    assert our_lines(ours)[-3:] == keras_lines(theirs)[-3:] == [
        " Total params: 19 (76.00 B)", " Trainable params: 4 (16.00 B)", " Non-trainable params: 15 (60.00 B)"]
    ours.dispose()


def test_conv_model_with_non_trainable_weights_and_a_given_width():
    ours = tf.sequential(layers=[
        tf.layers.conv2d(filters=8, kernel_size=3, padding="same", input_shape=[16, 16, 3], name="conv"),
        tf.layers.batch_normalization(name="bn"), tf.layers.max_pooling2d(pool_size=2, name="pool"),
        tf.layers.flatten(name="flat"), tf.layers.dense(units=300, name="a_dense_layer_whose_name_is_long")],
        name="convnet")
    theirs = keras.Sequential([
        keras.Input((16, 16, 3)), keras.layers.Conv2D(8, 3, padding="same", name="conv"),
        keras.layers.BatchNormalization(name="bn"), keras.layers.MaxPooling2D(2, name="pool"),
        keras.layers.Flatten(name="flat"), keras.layers.Dense(300, name="a_dense_layer_whose_name_is_long")],
        name="convnet")
    for width in (None, 70, 50):
        assert our_lines(ours, line_length=width) == keras_lines(theirs, line_length=width), width
    lines = our_lines(ours)
    assert "(None, 8, 8, 8)" in next(line for line in lines if "pool (MaxPooling2D)" in line)
    assert "153,900" in next(line for line in lines if "a_dense_layer_whose_name_is_long" in line)   # 512*300+300
    assert lines[-3:] == [" Total params: 154,156 (602.17 KB)", " Trainable params: 154,140 (602.11 KB)",
                          " Non-trainable params: 16 (64.00 B)"]
    ours.dispose()


def test_narrow_terminal_narrows_the_table(monkeypatch):
    monkeypatch.setenv("COLUMNS", "60")
    ours, theirs = dense_pair()
    lines = our_lines(ours)
    assert lines == keras_lines(theirs)
    assert len(lines[1]) == 56
    with pytest.raises(ValueError, match="Insufficient console width"):
        ours.summary(line_length=8)
    with pytest.raises(ValueError, match="positions must give 3 column ends"):
        ours.summary(positions=[0.5, 1.0])
    ours.dispose()


def test_graph_model_has_keras_connected_to_column():
    a, b = tf.input(shape=[4], name="a"), tf.input(shape=[4], name="b")
    added = tf.layers.add(name="add").apply([tf.layers.dense(units=4, name="d1").apply(a), b])
    ours = tf.model(inputs=[a, b], outputs=tf.layers.dense(units=2, name="out").apply(added), name="graph")
    ka, kb = keras.Input((4,), name="a"), keras.Input((4,), name="b")
    kadded = keras.layers.Add(name="add")([keras.layers.Dense(4, name="d1")(ka), kb])
    theirs = keras.Model([ka, kb], keras.layers.Dense(2, name="out")(kadded), name="graph")
    mine, keras_text = our_lines(ours, line_length=70), keras_lines(theirs, line_length=70)
    assert mine[:4] == keras_text[:4] and mine[-4:] == keras_text[-4:]
    assert "Connected to" in mine[2]

    def rows(lines):   # the rows as blocks of lines: the order is model.layers' (TF.js's), not always Keras's
        body, blocks = lines[4:-4], [[]]
        for line in body:
            if line.startswith("├"):
                blocks.append([])
            else:
                blocks[-1].append(line)
        return sorted(map(tuple, blocks))
    assert rows(mine) == rows(keras_text)
    assert ("│ add (Add)          │ (None, 4)       │        0 │ d1[0][0],        │",
            "│                    │                 │          │ b[0][0]          │") in rows(mine)
    ours.dispose()
