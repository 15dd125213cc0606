"""Fit y = 2x - 1 by gradient descent, with hand-written gradients, on the active backend.

    pytfweb run examples/hand_gradient.py                  # webgl, in headless Chromium
    pytfweb run --backend cpu examples/hand_gradient.py    # numpy, here
"""
import pytfweb as tf

print("backend:", tf.get_backend())
print("renderer:", getattr(tf.backend(), "renderer", "n/a"))

xs = tf.tensor([-1.0, 0.0, 1.0, 2.0, 3.0, 4.0])
ys = tf.tensor([-3.0, -1.0, 1.0, 3.0, 5.0, 7.0])
w, b = tf.scalar(0.0), tf.scalar(0.0)
learning_rate = 0.05


def train_step(w, b):
    """One step on loss = mean((w*x + b - y)^2): d/dw = mean(2 err x), d/db = mean(2 err)."""
    err = tf.sub(tf.add(tf.mul(w, xs), b), ys)
    grad_w = tf.mean(tf.mul(tf.mul(err, xs), 2.0))
    grad_b = tf.mean(tf.mul(err, 2.0))
    loss = tf.mean(tf.square(err))
    return tf.sub(w, tf.mul(grad_w, learning_rate)), tf.sub(b, tf.mul(grad_b, learning_rate)), loss


for step in range(1, 201):
    new_w, new_b, loss = tf.tidy(lambda: train_step(w, b))  # intermediates disposed
    tf.dispose([w, b])
    w, b = new_w, new_b
    if step % 50 == 0:
        print(f"step {step:3d}  loss {(await loss.data())[0]:.6f}")
    loss.dispose()

print(f"w = {(await w.data())[0]:.4f}, b = {(await b.data())[0]:.4f}   (want 2, -1)")
prediction = tf.tidy(lambda: tf.add(tf.mul(w, tf.tensor([10.0, 20.0])), b))
print("predictions for x = 10, 20:", [round(v, 3) for v in await prediction.array()])
tf.dispose([xs, ys, w, b, prediction])
print("tensors left:", tf.memory().num_tensors)
