"""fit's progress bar in the page: one element in the running block's output, updated in place."""
import re


def test_fit_bar_is_one_element_per_epoch_updated_in_place(run_py):
    out = run_py('''
import js
from pytfweb.layers import callbacks
out = js.document.createElement("pre")
js.document.body.appendChild(out)
js.pytfweb._output = out            # what pytfweb.js sets while a block with output="ID" runs
interval, callbacks.Progbar.INTERVAL = callbacks.Progbar.INTERVAL, 0   # redraw after every batch
model = tf.sequential(layers=[tf.layers.dense(units=1, input_shape=[2])])
model.compile(optimizer="sgd", loss="mse", metrics=["mae"])
x, y = tf.ones([20, 2]), tf.ones([20, 1])
draws = []
try:
    class Watch(tf.callbacks.Callback):   # the bar's elements and text at each batch's end
        def on_batch_end(self, batch, logs=None):
            spans = out.querySelectorAll("span.pytfweb-progress")
            draws.append((spans.length, spans.item(spans.length - 1).textContent if spans.length else ""))
    await model.fit(x, y, epochs=2, batch_size=5, callbacks=[Watch()])
    spans = out.querySelectorAll("span.pytfweb-progress")
    result = {"draws": draws, "final": [spans.item(i).textContent for i in range(spans.length)]}
finally:
    callbacks.Progbar.INTERVAL = interval
    js.pytfweb._output = None
    out.remove()
    tf.dispose([x, y])
    model.dispose()
result
''')
    final = out["final"]
    assert len(final) == 2, final    # one element per epoch, not one per redraw
    for text in final:
        assert re.fullmatch(r"4/4 ━{20} \d+s \d+(?:us|ms|s)/step - loss: \S+ - mae: \S+", text), text
    # during the first epoch (a callback sees the bar as drawn after the batch before): one element whose
    # text moves on 1/4, 2/4, 3/4
    assert [(n, t.split(" ")[0]) for n, t in out["draws"][:4]] == [(0, ""), (1, "1/4"), (1, "2/4"), (1, "3/4")], \
        out["draws"]
