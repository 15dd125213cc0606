"""deeplearn.js's first tutorial, in eager style: learn a 1x3 multiplier with SGD.

The tutorial built a Graph: a placeholder for an input 3-vector, a variable 'multiplier' of
shape [1, 3] drawn from a normal distribution, output = matmul(multiplier, input), a mean
squared cost against a one-element label; a Session trained it with an SGDOptimizer, feeding
shuffled (input, label) pairs in batches of 3 with the batch's mean cost, then evaluated the
output for [0.1, 0.2, 0.3]. Its inputs were [1, 2, 3], [10, 20, 30] and [100, 200, 300] with
labels 4, 40 and 400: multiples of one vector, which only fix multiplier . [1, 2, 3] = 4.

Here there is no graph or session: the cost is a Python function of a batch and
tf.train.sgd(...).minimize() trains it. The inputs span all three directions and the labels
come from a known multiplier, [2, -0.5, 1] (which also gives the tutorial's labels 4, 40, 400
and 0.4 for [0.1, 0.2, 0.3]), so what is learned can be checked. Every epoch shuffles the
nine examples and trains on three batches of 3.

    pytfweb run examples/multiplier.py                  # webgl, in headless Chromium
    pytfweb run --backend cpu examples/multiplier.py    # numpy, here
"""
import random

import pytfweb as tf

TRUE_MULTIPLIER = [2.0, -0.5, 1.0]
INPUTS = [[1, 2, 3], [2, 1, 0], [0, 1, 2], [1, 0, 1], [3, 2, 1], [0, 0, 1], [1, 1, 1], [2, 0, 3], [1, 3, 0]]
LABELS = [sum(m * x for m, x in zip(TRUE_MULTIPLIER, v)) for v in INPUTS]
BATCH_SIZE = 3
EPOCHS = 30
LEARNING_RATE = 0.05

print("backend:", tf.get_backend())

multiplier = tf.tidy(lambda: tf.variable(tf.random_normal([1, 3], seed=1), name="multiplier"))


def output(inputs):
    """matmul(multiplier, input) for each row of inputs [batch, 3] -> [1, batch]."""
    return tf.mat_mul(multiplier, inputs, transpose_b=True)


def cost(inputs, labels):
    """The mean over the batch of the squared error (deeplearn's CostReduction.MEAN)."""
    return tf.mean(tf.square(tf.sub(output(inputs), labels)))


optimizer = tf.train.sgd(LEARNING_RATE)
shuffle = random.Random(0)
order = list(range(len(INPUTS)))
for epoch in range(1, EPOCHS + 1):
    shuffle.shuffle(order)
    costs = []
    for start in range(0, len(order), BATCH_SIZE):
        batch = order[start:start + BATCH_SIZE]
        inputs = tf.tensor([[float(v) for v in INPUTS[i]] for i in batch])
        labels = tf.tensor([[LABELS[i] for i in batch]])
        costs.append(optimizer.minimize(lambda: cost(inputs, labels), return_cost=True))
        tf.dispose([inputs, labels])
    mean_cost = tf.tidy(lambda: tf.mean(tf.stack(costs)))
    print(f"epoch {epoch:2d}  average cost {(await mean_cost.data())[0]:.3e}")
    tf.dispose(costs + [mean_cost])

learned = (await multiplier.array())[0]
print("multiplier: [" + ", ".join(f"{v:.4f}" for v in learned) + "]   (want [2, -0.5, 1])")
test_output = tf.tidy(lambda: output(tf.tensor([[0.1, 0.2, 0.3]])))
print(f"output for [0.1, 0.2, 0.3]: {(await test_output.data())[0]:.4f}   (want 0.4)")
tf.dispose(test_output)
optimizer.dispose()
tf.dispose_variables()
print("tensors left:", tf.memory().num_tensors)
