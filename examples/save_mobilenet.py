"""Save MobileNet v1 1.0 (224x224x3, 1000 classes) in TensorFlow.js's layers format: model.json and
4 MB weight shards (16 MB of float32 weights), the files examples/load_model.py and `pytfweb bench`
load. The weights are random (seeded, He-scaled so that the signal survives 28 layers and the classes
get distinct scores): no pre-trained weights can be downloaded here, so the classes load_model.py
prints show that loading works, not what the picture is.

    python examples/save_mobilenet.py build/models/mobilenet_v1 [--quantize uint8|float16]
"""
import argparse
import os
import random

import pytfweb as tf
from pytfweb.host.bench_models import mobilenet_v1

parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
parser.add_argument("directory")
parser.add_argument("--quantize", choices=["uint8", "float16"])
args = parser.parse_args()



def he_scaled(model, seed=0):
    """Kernels ~ N(0, 2 / fan_in), batch norms the identity, biases zero."""
    rng = random.Random(seed)
    for entry in model.get_named_weights():
        name, var = entry["name"], entry["tensor"]
        shape = list(var.shape)
        size = 1
        for d in shape:
            size *= d
        if name.endswith("kernel"):
            fan_in = shape[0] * shape[1] if name.endswith("depthwise_kernel") else size // shape[-1]
            std = (2.0 / fan_in) ** 0.5
            values = [rng.gauss(0.0, std) for _ in range(size)]
        else:
            values = [1.0 if name.endswith(("gamma", "moving_variance")) else 0.0] * size
        value = tf.tensor(values, shape)
        var.assign(value)
        value.dispose()


tf.set_backend("cpu")
model = mobilenet_v1()
he_scaled(model)
result = model.save_sync(args.directory, quantization_bytes={"uint8": 1, "float16": 2}.get(args.quantize))
info = result.model_artifacts_info
shards = sorted(f for f in os.listdir(args.directory) if f.endswith(".bin"))
print(f"saved {model.name}: {model.count_params():,} parameters, {info.weight_data_bytes:,} bytes of weights "
      f"in {len(shards)} shards, to {args.directory}")
model.dispose()
