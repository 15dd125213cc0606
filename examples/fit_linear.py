"""Fit y = 2x - 1 with tf.train.sgd and automatic differentiation: the model of the
TensorFlow.js paper's Listing 1 (one input, one output: y = a*x + b, mean squared error, SGD),
written with variables and an optimizer instead of a layers model.

    pytfweb run examples/fit_linear.py                  # webgl, in headless Chromium
    pytfweb run --backend cpu examples/fit_linear.py    # numpy, here
"""
import pytfweb as tf

print("backend:", tf.get_backend())

xs = tf.tensor([-1.0, 0.0, 1.0, 2.0, 3.0, 4.0])
ys = tf.tensor([-3.0, -1.0, 1.0, 3.0, 5.0, 7.0])   # y = 2x - 1
a = tf.variable(0.0, name="a")
b = tf.variable(0.0, name="b")


def predict(x):
    return tf.add(tf.mul(a, x), b)


def loss(predictions, labels):
    return tf.mean(tf.square(tf.sub(predictions, labels)))


optimizer = tf.train.sgd(0.05)
for step in range(1, 201):
    # minimize() runs the loss, takes its gradients with respect to a and b, applies them
    cost = optimizer.minimize(lambda: loss(predict(xs), ys), return_cost=True)
    if step % 50 == 0:
        print(f"step {step:3d}  loss {(await cost.data())[0]:.3e}")
    cost.dispose()

print(f"a = {(await a.data())[0]:.4f}, b = {(await b.data())[0]:.4f}   (want 2, -1)")
prediction = tf.tidy(lambda: predict(tf.tensor([10.0])))
print(f"prediction for x = 10: {(await prediction.data())[0]:.4f}   (want 19)")
tf.dispose([xs, ys, prediction])
optimizer.dispose()
tf.dispose_variables()
print("tensors left:", tf.memory().num_tensors)
