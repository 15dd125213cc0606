"""Load a MobileNet v1 saved in TensorFlow.js's layers format and print the top-5 classes of an image.

    python examples/save_mobilenet.py build/models/mobilenet_v1                  # writes the files
    pytfweb run --files build/models examples/load_model.py                      # webgl: over http:// from /files/
    pytfweb run --backend cpu examples/load_model.py build/models/mobilenet_v1   # cpu: from the file system

The same call loads from any handler: an http(s):// URL, a path or file:// URL, indexeddb://NAME,
localstorage://NAME, tf.io.browser_files([...]) or tf.io.from_memory(artifacts). A model saved by
TensorFlow.js (model.save) or converted from Keras (pytfweb convert) loads the same way.
"""
import sys
import time

import pytfweb as tf

url = sys.argv[1] if len(sys.argv) > 1 else "files/mobilenet_v1/model.json"
print("backend:", tf.get_backend())
progress = []
start = time.perf_counter()
model = await tf.load_layers_model(url, on_progress=progress.append)  # noqa: F704 - top-level await
print(f"loaded {url}: {len(model.layers)} layers, {model.count_params():,} parameters, "
      f"in {time.perf_counter() - start:.2f} s ({len(progress)} progress reports)")

# A picture in MobileNet's input range [-1, 1]: soft diagonal stripes, one hue per channel.
image = tf.tidy(lambda: tf.sin(tf.add(tf.reshape(tf.linspace(0, 12, 224), [1, 224, 1, 1]),
                                      tf.reshape(tf.linspace(0, 9, 224), [1, 1, 224, 1]))
                               * tf.tensor([1.0, 0.7, 0.4])))
start = time.perf_counter()
probs = model.predict(image)
values = await probs.data()  # noqa: F704
print(f"predict: {time.perf_counter() - start:.2f} s (a first run: on webgl it compiles the shaders and uploads the weights)")
top5 = sorted(range(len(values)), key=lambda i: -values[i])[:5]
for rank, i in enumerate(top5, 1):
    print(f"  {rank}. class {i:4d}  p={values[i]:.5f}")

tf.dispose([image, probs])
model.dispose()
print("tensors left:", tf.memory().num_tensors)
