"""MobileNet v1 1.0 (224x224x3 in, 1000 classes out), the Keras / TF.js architecture, built
from tf.layers with random weights by pytfweb.host.bench_models.mobilenet_v1 (which `pytfweb
bench` times too): a 3x3 convolution, then 13 depthwise-separable blocks (depthwise 3x3 ->
batch_normalization -> relu6 -> pointwise 1x1 -> batch_normalization -> relu6), global average
pooling, dropout, a 1x1 convolution to the classes and a softmax.
model.summary() ends with 4,253,864 total parameters, as Keras's MobileNet(alpha=1.0).

    pytfweb run examples/mobilenet.py                  # webgl, in headless Chromium; then a per-kernel profile
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
print(f"predict time: {elapsed:.2f} s (first run: shaders compile, weights upload)")

# Where a steady predict spends its time: tf.profile times each kernel to completion.
info = await tf.profile(lambda: model.predict(image))  # noqa: F704
per_kernel = {}
for k in info.kernels:
    count, ms = per_kernel.get(k.name, (0, 0.0))
    per_kernel[k.name] = (count + 1, ms + k.kernel_ms)
print(f"{'kernel':24} {'calls':>5} {'ms':>8}")
for name, (count, ms) in sorted(per_kernel.items(), key=lambda kv: -kv[1][1])[:8]:
    print(f"{name:24} {count:5d} {ms:8.1f}")
print(f"peak bytes: {info.peak_bytes}, new tensors: {info.new_tensors}")

tf.dispose([image, probs, info.result])
model.dispose()
print("tensors left:", tf.memory().num_tensors)
