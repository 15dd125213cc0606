"""MobileNet v1 1.0 (224x224x3 in, 1000 classes out), the Keras / TF.js architecture, built
from tf.layers with random weights by pytfweb.host.bench_models.mobilenet_v1 (which `pytfweb
bench` times too): a 3x3 convolution, then 13 depthwise-separable blocks (depthwise 3x3 ->
batch_normalization -> relu6 -> pointwise 1x1 -> batch_normalization -> relu6), global average
pooling, dropout, a 1x1 convolution to the classes and a softmax.
model.summary() ends with 4,253,864 total parameters, as Keras's MobileNet(alpha=1.0).

    pytfweb run examples/mobilenet.py                  # webgl, in headless Chromium (slow on SwiftShader)
    pytfweb run --backend cpu examples/mobilenet.py    # numpy, here
"""
import time

import pytfweb as tf
from pytfweb.host.bench_models import mobilenet_v1

print("backend:", tf.get_backend())
model = mobilenet_v1()
model.summary()

image = tf.random_uniform([1, 224, 224, 3], -1, 1, seed=1)
start = time.perf_counter()
probs = model.predict(image)
values = await probs.data()  # noqa: F704 - pytfweb run allows top-level await
elapsed = time.perf_counter() - start
top = max(range(len(values)), key=lambda i: values[i])
print(f"prediction shape: {list(probs.shape)}, sum of probabilities: {sum(values):.4f}, "
      f"top class: {top} (p={values[top]:.5f})")
print(f"predict time: {elapsed:.2f} s")

tf.dispose([image, probs])
model.dispose()
print("tensors left:", tf.memory().num_tensors)
