"""LayersModel.fit_dataset / evaluate_dataset (TF.js's fitDataset / evaluateDataset): the values of
tfjs-layers' training_dataset specs (their tf.keras references), batches_per_epoch, validation,
callbacks, yield_every, and TF.js's errors."""
import asyncio
import warnings

import pytest

import pytfweb as tf
from tests.unit.helpers import assert_raises, assert_tensor


def dense_model(metrics=None):
    model = tf.sequential([tf.layers.dense(units=1, input_shape=[1], kernel_initializer="zeros")])
    model.compile(optimizer="sgd", loss="mse", metrics=metrics)
    return model


def ones_dataset(batches, batch_size=8, value=1.0):
    """{xs, ys} batches of [batch_size, 1] filled with value (TF.js's specs' FakeNumericDataset presets)."""
    rows = [[value]] * (batch_size * batches)
    return tf.data.zip({"xs": tf.data.array(rows), "ys": tf.data.array(rows)}).batch(batch_size)


def run(coro):
    return asyncio.run(coro)


@pytest.mark.parametrize("per_epoch", [None, 3])
def test_fit_dataset_matches_tfjs_reference(per_epoch):
    model = dense_model(["accuracy"])
    ds = ones_dataset(3) if per_epoch is None else ones_dataset(6)
    run(model.fit_dataset(ds, epochs=1, batches_per_epoch=per_epoch, verbose=0))   # warm-up (traces)
    model.set_weights([tf.zeros([1, 1]), tf.zeros([1])])
    val = [tf.zeros([16, 1]), tf.zeros([16, 1])]
    before = tf.memory().num_tensors
    history = run(model.fit_dataset(ds, epochs=2, batches_per_epoch=per_epoch, verbose=0, validation_data=val))
    assert tf.memory().num_tensors == before
    h = history.history
    assert h["loss"] == pytest.approx([0.923649, 0.722993], abs=1e-5)
    assert h["acc"] == [0.0, 0.0]
    assert h["val_loss"] == pytest.approx([0.003321, 0.011799], abs=1e-5)
    assert h["val_acc"] == [1.0, 1.0]
    assert history.epoch == [0, 1]
    assert_tensor(model.get_weights()[0], [[0.108621]], atol=1e-5)
    assert_tensor(model.get_weights()[1], [0.108621], atol=1e-5)
    tf.dispose(val)


def test_fit_dataset_with_a_validation_dataset_and_callbacks():
    model = dense_model(["accuracy"])
    val = ones_dataset(2, value=0.0)
    seen = {"batches": [], "epochs": []}
    callbacks = {"on_batch_end": lambda batch, logs: seen["batches"].append((batch, logs["size"])),
                 "onEpochEnd": lambda epoch, logs: seen["epochs"].append(dict(logs))}
    history = run(model.fit_dataset(ones_dataset(3), epochs=2, verbose=0, validation_data=val,
                                    validation_batches=1, callbacks=callbacks))
    assert history.history["val_loss"] == pytest.approx([0.003321, 0.011799], abs=1e-5)
    assert seen["batches"] == [(0, 8), (1, 8), (2, 8)] * 2
    # TF.js's epoch logs: the val_ values first
    assert list(seen["epochs"][0]) == ["val_loss", "val_acc", "loss", "acc"]


def test_fit_dataset_two_inputs_by_name_and_params_steps():
    a, b = tf.input(shape=[1], name="a"), tf.input(shape=[1], name="b")
    out = tf.layers.dense(units=1, kernel_initializer="zeros").apply(tf.layers.concatenate().apply([a, b]))
    model = tf.model(inputs=[a, b], outputs=out)
    model.compile(optimizer="sgd", loss="mse")
    rows = [[1.0]] * 24
    ds = tf.data.zip({"xs": {"a": tf.data.array(rows), "b": tf.data.array(rows)},
                      "ys": tf.data.array(rows)}).batch(8)
    steps = []

    class Steps(tf.callbacks.Callback):
        def on_train_begin(self, logs=None):
            steps.append(self.params["steps"])

    run(model.fit_dataset(ds, epochs=1, verbose=0, callbacks=Steps()))
    run(model.fit_dataset(ds, epochs=1, batches_per_epoch=2, verbose=0, callbacks=[Steps()]))
    assert steps == [3, 2]
    missing = tf.data.zip({"xs": {"a": tf.data.array(rows)}, "ys": tf.data.array(rows)}).batch(8)
    assert_raises(ValueError, lambda: run(model.fit_dataset(missing, epochs=1, verbose=0)),
                  "lacks the required input key 'b'")


def test_fit_dataset_runs_out_of_batches_with_a_warning():
    model = dense_model()
    ds = ones_dataset(3)
    with pytest.warns(UserWarning, match=r"batches_per_epoch.* 9 batches"):
        history = run(model.fit_dataset(ds, epochs=3, batches_per_epoch=3, verbose=0))
    assert len(history.history["loss"]) == 1   # the later epochs had no batch


def test_fit_dataset_stop_training_and_class_weight():
    model = dense_model()

    class Stop(tf.callbacks.Callback):
        def on_batch_end(self, batch, logs=None):
            self.model.stop_training = True

    history = run(model.fit_dataset(ones_dataset(2), epochs=3, verbose=0, callbacks=[Stop()]))
    assert len(history.history["loss"]) == 1
    history = run(model.fit_dataset(ones_dataset(2), epochs=2, verbose=0))   # stop_training is reset
    assert len(history.history["loss"]) == 2
    weighted = dense_model()
    history = run(weighted.fit_dataset(ones_dataset(1), epochs=1, verbose=0, class_weight={1: 3.0}))
    assert history.history["loss"] == pytest.approx([3.0])   # (1 - 0)^2 * 3


def test_fit_dataset_yield_every():
    model = dense_model()
    yields, frames = [], []
    cb = {"on_yield": lambda epoch, batch, logs: yields.append((epoch, batch)),
          "next_frame_func": lambda: frames.append(1)}
    run(model.fit_dataset(ones_dataset(2), epochs=2, verbose=0, yield_every=0, callbacks=cb))
    assert yields == [(0, 0), (0, 1), (1, 0), (1, 1)] and len(frames) == 4
    yields.clear(), frames.clear()
    # 'batch' and 'epoch' give the event loop a turn without on_yield, as TF.js's CustomCallback
    run(model.fit_dataset(ones_dataset(2), epochs=2, verbose=0, yield_every="batch", callbacks=cb))
    assert (yields, len(frames)) == ([], 4)
    frames.clear()
    run(model.fit_dataset(ones_dataset(2), epochs=2, verbose=0, yield_every="epoch", callbacks=cb))
    assert (yields, len(frames)) == ([], 2)
    # 'auto': at most every 125 ms, by the callback's clock (TF.js's spec 'onYield with yieldEvery: auto')
    gaps = iter([0, 1, 1, 126, 126, 1, 1])
    clock = [0]

    def now():
        clock[0] += next(gaps)
        return clock[0]
    frames.clear()
    run(model.fit_dataset(ones_dataset(3), epochs=2, verbose=0, callbacks={**cb, "nowFunc": now}))
    assert yields == [(0, 2), (1, 0)] and len(frames) == 2
    assert_raises(ValueError, lambda: run(model.fit_dataset(ones_dataset(2), epochs=1, yield_every="never",
                                                            callbacks=cb)), "yield_every", "on_yield")
    assert_raises(ValueError, lambda: run(model.fit_dataset(ones_dataset(2), epochs=1, yield_every="often")),
                  "yield_every")


def test_fit_dataset_errors():
    model = dense_model()
    ds = ones_dataset(2)
    uncompiled = tf.sequential([tf.layers.dense(units=1, input_shape=[1])])
    assert_raises(RuntimeError, lambda: run(uncompiled.fit_dataset(ds, epochs=1)), "compile")
    assert_raises(ValueError, lambda: run(model.fit_dataset(ds)), "epochs", "positive integer", "None")
    assert_raises(ValueError, lambda: run(model.fit_dataset(ds, epochs=1.5)), "epochs")
    assert_raises(ValueError, lambda: run(model.fit_dataset(ds, epochs=1, batches_per_epoch=0)),
                  "batches_per_epoch", "0")
    assert_raises(ValueError, lambda: run(model.fit_dataset(ds, epochs=1, validation_split=0.25)),
                  "validation_split", "validation_data")
    assert_raises(ValueError, lambda: run(model.fit_dataset(ds, epochs=1, validation_data=ones_dataset(1),
                                                            validation_batches=0)),
                  "validation_batches", "positive integer", "0")
    assert_raises(TypeError, lambda: run(model.fit_dataset([[1.0]], epochs=1)), "Dataset")
    pairs = tf.data.array([[1.0], [2.0]]).batch(2)   # elements that are not {xs, ys}
    assert_raises(ValueError, lambda: run(model.fit_dataset(pairs, epochs=1, verbose=0)), "'xs'", "'ys'")


def test_evaluate_dataset():
    model = dense_model(["acc"])
    ds = ones_dataset(3)
    tf.dispose(run(model.evaluate_dataset(ds)))   # warm-up (traces)
    before = tf.memory().num_tensors
    loss, acc = run(model.evaluate_dataset(ds, batches=3))
    assert_tensor(loss, 1.0)
    assert_tensor(acc, 0.0)
    tf.dispose([loss, acc])
    assert tf.memory().num_tensors == before
    single = dense_model()
    with pytest.warns(UserWarning, match=r"ran out of data during evaluate_dataset.* 5 batches"):
        out = run(single.evaluate_dataset(ds, batches=5))
    assert_tensor(out, 1.0)
    out.dispose()

    async def from_iterator():
        it = await ds.iterator()
        first = await it.next()   # evaluates what the iterator has left
        tf.dispose(list(first["value"].values()))
        return await single.evaluate_dataset(it)
    out = run(from_iterator())
    assert_tensor(out, 1.0)
    out.dispose()
    assert_raises(ValueError, lambda: run(single.evaluate_dataset(ds, batches=0)), "batches")
    assert_raises(NotImplementedError, lambda: run(single.evaluate_dataset(ds, verbose=1)), "verbose")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        assert_raises(ValueError, lambda: run(single.evaluate_dataset(ones_dataset(1).skip(1))), "no batch")


def test_fit_dataset_progress_of_a_dataset_of_unknown_size(capsys):
    model = dense_model()
    unknown = ones_dataset(2).filter(lambda element: True)
    assert unknown.size is None
    run(model.fit_dataset(unknown, epochs=1, verbose=2))
    assert capsys.readouterr().out.strip().startswith("2/2 - ")


def test_fit_yield_every():
    # fit takes TF.js's yieldEvery too (its on_yield through the dict callbacks; fit_sync gives no frames)
    model = dense_model()
    x, y = tf.ones([4, 1]), tf.ones([4, 1])
    yields, frames = [], []
    cb = {"onYield": lambda epoch, batch, logs: yields.append((epoch, batch, sorted(logs))),
          "next_frame_func": lambda: frames.append(1)}
    run(model.fit(x, y, batch_size=2, epochs=2, verbose=0, yield_every=0, callbacks=cb))
    assert [e[:2] for e in yields] == [(0, 0), (0, 1), (1, 0), (1, 1)] and len(frames) == 4
    assert yields[0][2] == ["batch", "loss", "size"]
    yields.clear(), frames.clear()
    model.fit_sync(x, y, batch_size=2, epochs=1, verbose=0, yield_every=0, callbacks=cb)
    assert (len(yields), frames) == (2, [])
    assert_raises(ValueError, lambda: model.fit_sync(x, y, yield_every="never", callbacks=cb), "fit", "yield_every")
    tf.dispose([x, y])


def test_early_stopping_warns_of_a_missing_monitor():
    # TF.js's console.warn is a Python warning (it was a print)
    model = dense_model()
    with pytest.warns(UserWarning, match="val_loss is not available"):
        history = model.fit_sync(tf.ones([2, 1]), tf.ones([2, 1]), epochs=2, verbose=0,
                                 callbacks=[tf.callbacks.early_stopping()])
    assert len(history.epoch) == 2


def test_incompatible_input_shape_warns():
    # TF.js's Layer.apply warns (console.warn) when a layer given an input_shape gets another input
    with pytest.warns(UserWarning, match=r"shape of the input tensor \(\[null,8\]\) does not match"):
        tf.sequential([tf.layers.reshape(target_shape=[8], input_shape=[2, 4]),
                       tf.layers.dense(units=1, input_shape=[7])])
    with pytest.warns(UserWarning, match=r"rank of the input tensor"):
        tf.sequential([tf.layers.reshape(target_shape=[8], input_shape=[2, 4]),
                       tf.layers.dense(units=1, input_shape=[3, 7])])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        tf.sequential([tf.layers.dense(units=3, input_shape=[4]), tf.layers.dense(units=1, input_shape=[3])])


def test_custom_callback_and_callback_list_methods():
    seen, yields = [], []
    cb = tf.callbacks.CustomCallback({"onEpochEnd": lambda epoch, logs: seen.append(("end", epoch))},
                                     on_batch_end=lambda batch, logs: seen.append(("batch", batch)),
                                     on_yield=lambda epoch, batch, logs: yields.append((epoch, batch)),
                                     yield_every=0)
    model = dense_model()
    run(model.fit_dataset(ones_dataset(2), epochs=1, verbose=0, callbacks=cb))
    assert seen == [("batch", 0), ("batch", 1), ("end", 0)]
    assert yields == [(0, 0), (0, 1)]   # its own yield_every
    assert_raises(ValueError, lambda: tf.callbacks.CustomCallback({"onEpochEnded": print}),
                  "on_epoch_ended")
    assert_raises(ValueError, lambda: tf.callbacks.CustomCallback(on_yield=print, yield_every="never"), "never")
    # TF.js's CallbackList methods
    h1, h2 = tf.callbacks.History(), tf.callbacks.History()
    callbacks = tf.callbacks.CallbackList([h1])
    callbacks.append(h2)
    callbacks.set_params({"verbose": 3})
    assert h1.params == h2.params == {"verbose": 3}
    run(callbacks.on_train_begin())
    run(callbacks.on_epoch_end(100, {"val_loss": 10}))
    assert h2.epoch == [100] and h2.history == {"val_loss": [10]}
    run(tf.callbacks.CallbackList().on_train_end())
