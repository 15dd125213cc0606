"""Body keypoints and a face mesh on a photo or the webcam: two real pre-trained TF.js graph models
from the model zoo (npm @vladmandic/human, pytfweb/host/zoo.py), MoveNet Lightning (17 body
keypoints) and the face mesh (468 points), drawn over the picture on a canvas.

    web/examples/landmarks.html   the page: `pytfweb serve`, then open /examples/landmarks.html (or
                                  examples/landmarks.html of any `pytfweb build-web` site)
    examples/landmarks.py         the same pipeline from `pytfweb run` (it imports this file)

One frame:
1. the picture (a photo, or the webcam's current frame) drawn into a canvas -> tf.browser.from_pixels
2. MoveNet on the whole frame, centred in a square (black bars), resized to 192 x 192, int32
   pixels: 17 keypoints (y, x, score), y and x in [0, 1] of the square
3. a square around the face, found from the head keypoints (face_box), cut out and resized to
   192 x 192, float32 in [0, 1]: the face mesh gives 468 points (x, y, z) in that crop's pixels
   and the probability that the crop holds a face
4. the frame, the mesh, the skeleton and the keypoints drawn on the canvas (draw)

This file only defines things: the page's second <script type="text/python"> block calls
run_page(); examples/landmarks.py calls Landmarks, photo_frame and draw.
"""
import asyncio
import json
import math
import time
import traceback

import js
from pyodide.ffi import create_proxy, to_js

import pytfweb as tf

SIZE = 192              # both models' input height and width

KEYPOINTS = ("nose", "left_eye", "right_eye", "left_ear", "right_ear", "left_shoulder", "right_shoulder",
             "left_elbow", "right_elbow", "left_wrist", "right_wrist", "left_hip", "right_hip",
             "left_knee", "right_knee", "left_ankle", "right_ankle")
SKELETON = ((0, 1), (0, 2), (1, 3), (2, 4), (5, 6), (5, 7), (7, 9), (6, 8), (8, 10), (5, 11), (6, 12),
            (11, 12), (11, 13), (13, 15), (12, 14), (14, 16))
MIN_SCORE = 0.3         # a keypoint below this score is neither drawn nor used for the face
MIN_FACE = 0.5          # the mesh is drawn when the face mesh is at least this sure it saw a face

# Pure, saturated colours that photos hardly hold: the browser test finds the marks by them.
KEYPOINT_RGB = (0, 255, 0)
MESH_RGB = (0, 200, 255)
SKELETON_RGBA = (255, 255, 255, 0.8)

# The face mesh's outputs by node name: output_mesh (468 x 3) and output_faceflag (its signature's names).
MESH_OUTPUTS = ["Identity_2", "Identity_1"]

# Photos: (file under the zoo's assets/, the region of it shown: x, y, width, height). The files
# are collages and screenshots; these regions are real photos of one person each.
PHOTOS = {
    "At a table": ("samples.jpg", 325, 1, 213, 156),
    "Standing": ("samples.jpg", 641, 1, 148, 156),
}
DISPLAY = 480           # the frame's longer side in pixels (photos are scaled up to it, the webcam down)


def _css(rgb):
    return f"rgb{tuple(rgb)}" if len(rgb) == 3 else f"rgba{tuple(rgb)}"


def crop(image, left, top, size):
    """The square [left, left + size) x [top, top + size) of image (int32 [height, width, 3]),
    resized (bilinear) to SIZE x SIZE: float32 [1, SIZE, SIZE, 3], black outside the image."""
    h, w = image.shape[0], image.shape[1]
    # crop_and_resize's box corners are the first and last samples, in units of (height - 1), (width - 1)
    sy, sx = max(h - 1, 1), max(w - 1, 1)
    box = [[top / sy, left / sx, (top + size - 1) / sy, (left + size - 1) / sx]]
    return tf.image.crop_and_resize(tf.expand_dims(image, 0), box, [0], [SIZE, SIZE])


def face_box(keypoints):
    """The square the face mesh is shown, (left, top, size) in frame pixels, from MoveNet's head
    keypoints ([x, y, score] each); None without the nose and an eye.

    MoveNet gives no face box, and the face mesh expects what a face detector would hand it: a
    square holding the whole face with a margin (MediaPipe enlarges the detector's box by half),
    the face in its middle. The face's width is about the distance between the ears seen from the
    front, and about 2.5 times the distance between the eyes; the larger of the two survives a
    turned head (an ear hidden, the eyes drawn together). With one eye alone seen, 4 times its
    distance from the nose. The square is 1.5 times that width, centred a tenth of its size above
    the nose tip (the forehead makes the face's middle higher than the nose). On the demo's
    photos, 1.5 and that tenth gave the face mesh's highest face scores (0.99 and 1.0; 0.43 on
    "Standing" with a square 1.7 times the width around the nose)."""
    nose, eyes, ears = keypoints[0], keypoints[1:3], keypoints[3:5]
    seen_eyes = [p for p in eyes if p[2] >= MIN_SCORE]
    if nose[2] < MIN_SCORE or not seen_eyes:
        return None
    width = 4 * math.dist(nose[:2], seen_eyes[0][:2])
    if len(seen_eyes) == 2:
        width = 2.5 * math.dist(eyes[0][:2], eyes[1][:2])
    if all(p[2] >= MIN_SCORE for p in ears):
        width = max(width, math.dist(ears[0][:2], ears[1][:2]))
    size = 1.5 * width
    if size < 8:
        return None
    return nose[0] - size / 2, nose[1] - 0.6 * size, size


class Landmarks:
    """Both models; predict(source) runs one frame through them."""

    def __init__(self, movenet, mesh):
        self.movenet, self.mesh = movenet, mesh

    @classmethod
    async def load(cls, zoo):
        """The two graph models from the zoo at URL `zoo` (ending in "/"; models/ under it)."""
        movenet = await tf.load_graph_model(zoo + "models/movenet-lightning.json")
        mesh = await tf.load_graph_model(zoo + "models/facemesh.json")
        return cls(movenet, mesh)

    async def predict(self, source):
        """One frame of source (a canvas, image or video element) through both models. Returns
        plain values: {"width", "height", "keypoints": 17 [x, y, score] in the frame's pixels,
        "face": (left, top, size) or None, "face_score", "mesh": 468 [x, y, z] in the frame's
        pixels (empty without a face box), "ms": milliseconds per model}."""
        held = []
        try:
            t0 = time.perf_counter()
            frame = tf.browser.from_pixels(source)
            held.append(frame)
            h, w = frame.shape[0], frame.shape[1]
            side = max(w, h)
            left, top = (w - side) / 2, (h - side) / 2
            body = tf.tidy(lambda: tf.cast(crop(frame, left, top, side), "int32"))
            held.append(body)
            out = await self.movenet.execute_async(body)
            held.append(out)
            rows = (await out.array())[0][0]
            keypoints = [[left + x * side, top + y * side, s] for y, x, s in rows]
            t1 = time.perf_counter()
            result = {"width": w, "height": h, "keypoints": keypoints, "face": face_box(keypoints),
                      "face_score": 0.0, "mesh": [], "ms": {"movenet": (t1 - t0) * 1000, "mesh": 0.0}}
            if result["face"] is not None:
                fl, ft, fs = result["face"]
                face = tf.tidy(lambda: crop(frame, fl, ft, fs) / 255)
                held.append(face)
                outs = await self.mesh.execute_async(face, MESH_OUTPUTS)
                held.extend(outs)
                points, flag = await outs[0].data(), await outs[1].data()
                k = fs / SIZE
                result["mesh"] = [[fl + points[i] * k, ft + points[i + 1] * k, points[i + 2] * k]
                                  for i in range(0, len(points), 3)]
                result["face_score"] = flag[0]
                result["ms"]["mesh"] = (time.perf_counter() - t1) * 1000
            return result
        finally:
            tf.dispose(held)

    def dispose(self):
        self.movenet.dispose()
        self.mesh.dispose()


async def photo_frame(name, zoo, canvas=None):
    """A canvas (new, or the one given) holding the photo PHOTOS[name], its longer side DISPLAY px."""
    file, x, y, w, h = PHOTOS[name]
    url = zoo + "assets/" + file
    img = js.Image.new()
    img.src = url
    try:
        await img.decode()
    except Exception as exc:  # noqa: BLE001 - a JS error: say which file
        raise RuntimeError(f"photo {name!r}: could not load {url}: {exc}") from None
    scale = DISPLAY / max(w, h)
    canvas = canvas or js.document.createElement("canvas")
    canvas.width, canvas.height = round(w * scale), round(h * scale)
    canvas.getContext("2d").drawImage(img, x, y, w, h, 0, 0, canvas.width, canvas.height)
    return canvas


def marks_size(result):
    """The radius of a keypoint in frame pixels: marks grow with the picture."""
    return max(result["width"], result["height"]) / 110


def draw(ctx, source, result):
    """Into a 2D context as large as the frame: the frame, then the mesh (when the face mesh saw a
    face), the skeleton and the keypoints (those scored MIN_SCORE or more)."""
    ctx.drawImage(source, 0, 0, result["width"], result["height"])
    r = marks_size(result)
    if result["mesh"] and result["face_score"] >= MIN_FACE:
        ctx.fillStyle = _css(MESH_RGB)
        ctx.beginPath()
        d = max(r / 2.5, 1)
        for x, y, _ in result["mesh"]:
            ctx.rect(x - d / 2, y - d / 2, d, d)
        ctx.fill()
    kp = result["keypoints"]
    ctx.strokeStyle = _css(SKELETON_RGBA)
    ctx.lineWidth = r / 2
    ctx.beginPath()
    for a, b in SKELETON:
        if kp[a][2] >= MIN_SCORE and kp[b][2] >= MIN_SCORE:
            ctx.moveTo(kp[a][0], kp[a][1])
            ctx.lineTo(kp[b][0], kp[b][1])
    ctx.stroke()
    ctx.fillStyle = _css(KEYPOINT_RGB)
    ctx.beginPath()
    for x, y, score in kp:
        if score >= MIN_SCORE:
            ctx.moveTo(x + r, y)
            ctx.arc(x, y, r, 0, 2 * math.pi)
    ctx.fill()


# --- the page ------------------------------------------------------------------------------------

class _Page:
    """web/examples/landmarks.html: the photo picker, the webcam button, the canvas, the loop."""

    def __init__(self, model, zoo):
        self.model, self.zoo = model, zoo
        doc = js.document
        self.canvas = doc.getElementById("view")
        self.ctx = self.canvas.getContext("2d")
        self.frame = doc.createElement("canvas")      # the picture the models see, at DISPLAY size
        self.video = None                              # the webcam's <video> while it is used
        self.times = []                                # when the last frames were done
        self.frames = 0
        self.photo = None
        self.proxies = []

    def status(self, text):
        js.document.getElementById("status").textContent = text

    def on(self, element_id, event, handler):
        proxy = create_proxy(lambda e: asyncio.ensure_future(self._guarded(handler)))
        self.proxies.append(proxy)
        js.document.getElementById(element_id).addEventListener(event, proxy)

    async def _guarded(self, handler):
        try:
            await handler()
        except Exception:  # noqa: BLE001 - shown in the page: a button's handler has no caller to tell
            self.fail()

    def fail(self):
        text = traceback.format_exc()
        js.console.error(text)
        self.status("Failed: see the traceback below.")
        js.document.getElementById("log").textContent += text

    async def show_photo(self):
        self.stop_webcam()
        self.photo = js.document.getElementById("photo").value
        await photo_frame(self.photo, self.zoo, self.frame)
        self.times = []

    async def toggle_webcam(self):
        button = js.document.getElementById("webcam")
        if self.video is not None:
            await self.show_photo()
            return
        devices = getattr(js.navigator, "mediaDevices", None)
        if not devices:
            self.status("No webcam here (the browser offers one only to https:// and localhost pages): "
                        "showing the photo.")
            return
        button.disabled = True
        try:
            constraints = to_js({"video": {"facingMode": "user"}, "audio": False},
                                dict_converter=js.Object.fromEntries)
            stream = await devices.getUserMedia(constraints)
        except Exception as exc:  # noqa: BLE001 - a refusal (NotAllowedError) or no camera (NotFoundError)
            self.status(f"No webcam ({exc}): showing the photo.")
            return
        finally:
            button.disabled = False
        video = js.document.createElement("video")
        video.muted = video.playsInline = True
        video.srcObject = stream
        await video.play()
        self.video = video
        self.times = []
        button.textContent = "Back to the photo"
        self.status("Webcam.")

    def stop_webcam(self):
        if self.video is not None:
            for track in self.video.srcObject.getTracks():
                track.stop()
            self.video = None
            js.document.getElementById("webcam").textContent = "Use the webcam"

    def grab(self):
        """The frame canvas with the current picture (a webcam frame drawn into it, scaled down)."""
        v = self.video
        if v is not None and v.videoWidth:
            scale = min(1.0, DISPLAY / max(v.videoWidth, v.videoHeight))
            w, h = round(v.videoWidth * scale), round(v.videoHeight * scale)
            if (self.frame.width, self.frame.height) != (w, h):
                self.frame.width, self.frame.height = w, h
            self.frame.getContext("2d").drawImage(v, 0, 0, w, h)
        return self.frame

    async def step(self):
        frame = self.grab()
        result = await self.model.predict(frame)
        if (self.canvas.width, self.canvas.height) != (result["width"], result["height"]):
            self.canvas.width, self.canvas.height = result["width"], result["height"]
        draw(self.ctx, frame, result)
        self.frames += 1
        self.times = (self.times + [time.perf_counter()])[-10:]
        fps = (len(self.times) - 1) / (self.times[-1] - self.times[0]) if len(self.times) > 1 else 0.0
        ms = result["ms"]
        rate = f"{fps:.1f} frames/s" if fps else "first frame (shaders compile)"
        js.document.getElementById("fps").textContent = (
            f"{rate} · MoveNet {ms['movenet']:.0f} ms · face mesh {ms['mesh']:.0f} ms · {tf.get_backend()}")
        # for the browser test and the curious (the console): what the canvas shows, as data
        state = {"frames": self.frames, "fps": fps, "source": "webcam" if self.video else "photo",
                 "photo": self.photo, "tensors": tf.memory().num_tensors, "result": result}
        js.window.landmarksDemo = js.JSON.parse(json.dumps(state))

    async def loop(self):
        while True:
            try:
                await self.step()
            except Exception:  # noqa: BLE001 - the loop has no caller: shown in the page, then it stops
                self.fail()
                return
            await asyncio.sleep(0)     # let clicks and the page's drawing in


async def run_page(zoo="../zoo/"):
    """The page: fill the photo list, load the models, show the first frame, then predict in a
    loop (an asyncio task) while the buttons switch between the photos and the webcam."""
    doc = js.document
    select = doc.getElementById("photo")
    for name in PHOTOS:
        option = doc.createElement("option")
        option.textContent = name
        select.appendChild(option)
    page = _Page(None, zoo)
    page.status("Loading the two models…")
    page.model = await Landmarks.load(zoo)
    await page.show_photo()
    page.status("Predicting…")
    await page.step()
    page.status("Running: MoveNet on the whole picture, the face mesh on the face it finds.")
    page.on("photo", "change", page.show_photo)
    page.on("webcam", "click", page.toggle_webcam)
    doc.getElementById("webcam").disabled = False
    page.task = asyncio.ensure_future(page.loop())
    return page
