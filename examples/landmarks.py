"""Body keypoints (MoveNet Lightning, 17) and a face mesh (468 points) on a real photo: two
pre-trained TF.js graph models from the model zoo (npm @vladmandic/human). The pipeline is the
demo page's, web/examples/landmarks.html, run from `pytfweb run`: it prints the keypoints, the
face box the mesh was given, and the frames per second of a few predictions.

In the page only (webgl or webgpu): the browser decodes the photo and draws the result.

    pytfweb run examples/landmarks.py                            # the photo "At a table", webgl
    pytfweb run examples/landmarks.py --photo Standing --frames 5
    pytfweb run examples/landmarks.py --png | sed -n 's/^png: //p' | base64 -d > landmarks.png
"""
import argparse
import importlib
import sys
import time
from pathlib import Path

import pytfweb as tf

if not tf.env().get("IS_BROWSER"):
    sys.exit("examples/landmarks.py runs in the page: `pytfweb run examples/landmarks.py` (webgl) or with "
             "--backend webgpu; the browser decodes the photo and draws the result")

import js  # noqa: E402 - only in the page
from pyodide.http import pyfetch  # noqa: E402

ZOO = "zoo/"    # where `pytfweb run`'s server serves the zoo's npm package, beside run.html

# One pipeline for the page and this script: the page's Python file, served by the same server
# at examples/landmarks.py, put into Pyodide's file system and imported.
response = await pyfetch("examples/landmarks.py")  # noqa: F704 - pytfweb run allows top-level await
if not response.ok:
    sys.exit(f"examples/landmarks.py: HTTP {response.status}: the server serves no web/examples/landmarks.py")
folder = Path("/tmp/pytfweb_examples")
folder.mkdir(exist_ok=True)
(folder / "landmarks_pipeline.py").write_text(await response.string())  # noqa: F704
sys.path.insert(0, str(folder))
lm = importlib.import_module("landmarks_pipeline")

parser = argparse.ArgumentParser(prog="landmarks.py")
parser.add_argument("--photo", default=next(iter(lm.PHOTOS)), choices=list(lm.PHOTOS))
parser.add_argument("--frames", type=int, default=3, help="predictions to time (the first one compiles)")
parser.add_argument("--png", action="store_true", help="print the drawn canvas as a base64 PNG line 'png: ...'")
args = parser.parse_args()

print("backend:", tf.get_backend())
start = time.perf_counter()
model = await lm.Landmarks.load(ZOO)  # noqa: F704
print(f"models loaded in {time.perf_counter() - start:.2f} s")
frame = await lm.photo_frame(args.photo, ZOO)  # noqa: F704
file, *region = lm.PHOTOS[args.photo]
print(f"photo {args.photo!r}: {file} at x, y, width, height = {tuple(region)}, drawn {frame.width} x {frame.height}")

times = []
for _ in range(max(args.frames, 1)):
    start = time.perf_counter()
    result = await model.predict(frame)  # noqa: F704
    times.append(time.perf_counter() - start)

print(f"{'keypoint':16} {'x':>7} {'y':>7} {'score':>6}   (pixels of the drawn photo)")
for name, (x, y, score) in zip(lm.KEYPOINTS, result["keypoints"]):
    print(f"{name:16} {x:7.1f} {y:7.1f} {score:6.2f}")
if result["face"] is None:
    print("face: none (MoveNet did not see the nose and an eye)")
else:
    left, top, size = result["face"]
    xs, ys = [p[0] for p in result["mesh"]], [p[1] for p in result["mesh"]]
    print(f"face box: left {left:.1f}, top {top:.1f}, size {size:.1f}; face score {result['face_score']:.2f}; "
          f"mesh: {len(result['mesh'])} points, x {min(xs):.0f}..{max(xs):.0f}, y {min(ys):.0f}..{max(ys):.0f}")
steady = times[1:] or times
print(f"first frame {times[0] * 1000:.0f} ms (shaders compile); then {len(steady) / sum(steady):.2f} frames/s "
      f"(MoveNet {result['ms']['movenet']:.0f} ms, face mesh {result['ms']['mesh']:.0f} ms in the last)")

if args.png:
    canvas = js.document.createElement("canvas")
    canvas.width, canvas.height = result["width"], result["height"]
    lm.draw(canvas.getContext("2d"), frame, result)
    print("png:", canvas.toDataURL("image/png").split(",", 1)[1])

model.dispose()
print("tensors left:", tf.memory().num_tensors)
