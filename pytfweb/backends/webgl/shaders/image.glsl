// Image programs (programs/image.py): resizing and its gradients, crop_and_resize, rotation and
// projective transforms, on images [batch, height, width, channels]. Python defines the sizes
// the sections name (IN_H, IN_W, OUT_H, OUT_W, BATCH, CROP_H, CROP_W); attributes are uniforms.

// --- source positions of resizing -------------------------------------------------------------
// The source position of output index y along an axis is the rational (y * m.x + m.y) / m.z,
// with integers m (ivec3 from the uniforms) that Python derives from the sizes and flags. Integer
// arithmetic chooses exactly the pixels the cpu backend chooses, where float32 products would
// land on either side of a whole number.

// floor(n / d) for d > 0 (GLSL leaves integer division of negative numbers to the driver).
int floorDiv(int n, int d) {
  return n >= 0 ? n / d : -((d - 1 - n) / d);
}

// Bilinear: the lower and upper neighbours of the source position, clamped into [0, size), and
// the fraction of the way from the lower one (negative before the first pixel, as in TF.js).
void sourceLerp(int y, ivec3 m, int size, out int lo, out int hi, out float frac) {
  int num = y * m.x + m.y;
  int fl = floorDiv(num, m.z);
  lo = max(fl, 0);
  hi = min(num == fl * m.z ? fl : fl + 1, size - 1);
  frac = float(num - lo * m.z) / float(m.z);
}

// Nearest: Python has folded the rounding into m, so this is a floor.
int sourceNearest(int y, ivec3 m, int size) {
  return clamp(floorDiv(y * m.x + m.y, m.z), 0, size - 1);
}

// Gradients: whether output index y read source index x, and with what weight.
bool lerpWeight(int x, int y, ivec3 m, int size, out float w) {
  int lo, hi;
  float f;
  sourceLerp(y, m, size, lo, hi, f);
  w = (lo == x ? 1.0 - f : 0.0) + (hi == x ? f : 0.0);
  return lo == x || hi == x;
}

bool nearestWeight(int x, int y, ivec3 m, int size, out float w) {
  w = 1.0;
  return sourceNearest(y, m, size) == x;
}

// The output indices that may have read source index x: those whose position lies in
// (x - 1, x + 1), widened by one each side against float rounding (the weights decide exactly).
void touchRange(int x, ivec3 m, int outSize, out int first, out int last) {
  if (m.x == 0) {   // every output reads index 0
    first = 0;
    last = outSize - 1;
    return;
  }
  first = max(0, int(floor(float((x - 1) * m.z - m.y) / float(m.x))) - 1);
  last = min(outSize - 1, int(ceil(float((x + 1) * m.z - m.y) / float(m.x))) + 1);
}

// --- crop_and_resize: positions ------------------------------------------------------------

// Source position of crop index i between box edges lo and hi along an axis of `last` + 1 pixels.
float cropPosition(float lo, float hi, int i, int crop, float last) {
  return crop > 1 ? lo * last + float(i) * ((hi - lo) * last / float(crop - 1)) : 0.5 * (lo + hi) * last;
}

// --- transform: positions and reads ------------------------------------------------------------

// TF.js's mapCoord: fillMode 0 constant (as is), 1 reflect, 2 wrap, 3 nearest (clamped). A
// non-finite position becomes -1, before the first pixel: it reads the fill value.
float mapCoord(float v, float len) {
  if (isNaN(v) || abs(v) == INFINITY) return -1.0;
  if (fillMode == 0) return v;
  if (fillMode != 3 && (v < 0.0 || v > len - 1.0)) {
    if (len <= 1.0) {
      v = 0.0;
    } else if (fillMode == 1) {
      float sz2 = 2.0 * len;
      if (v < 0.0) {
        v = sz2 * trunc(-v / sz2) + v;
        v = v < -len ? v + sz2 : -v - 1.0;
      } else {
        v -= sz2 * trunc(v / sz2);
        if (v >= len) v = sz2 - v - 1.0;
      }
    } else {
      float sz = len - 1.0;
      v = v < 0.0 ? v + len * (trunc(-v / sz) + 1.0) : v - len * trunc(v / sz);
    }
  }
  return clamp(v, 0.0, len - 1.0);
}

// The pixel at whole-number coordinates (y, x), or fillValue outside the image.
float readWithFill(ivec4 c, float y, float x) {
  if (y >= 0.0 && y < float(IN_H) && x >= 0.0 && x < float(IN_W)) {
    return getImage(c.x, int(y), int(x), c.w);
  }
  return fillValue;
}

// --- programs ---------------------------------------------------------------------------------

// @program resize_bilinear
void main() {
  ivec4 c = getOutputCoords();
  int r0, r1, c0, c1;
  float fr, fc;
  sourceLerp(c.y, ivec3(rowA, rowB, rowD), IN_H, r0, r1, fr);
  sourceLerp(c.z, ivec3(colA, colB, colD), IN_W, c0, c1, fc);
  float topLeft = getImages(c.x, r0, c0, c.w);
  float topRight = getImages(c.x, r0, c1, c.w);
  float bottomLeft = getImages(c.x, r1, c0, c.w);
  float bottomRight = getImages(c.x, r1, c1, c.w);
  float top = topLeft + (topRight - topLeft) * fc;
  float bottom = bottomLeft + (bottomRight - bottomLeft) * fc;
  setOutput(top + (bottom - top) * fr);
}

// @program resize_nearest
void main() {
  ivec4 c = getOutputCoords();
  setOutput(getImages(c.x, sourceNearest(c.y, ivec3(rowA, rowB, rowD), IN_H),
                      sourceNearest(c.z, ivec3(colA, colB, colD), IN_W), c.w));
}

// @program resize_grad
// dx[b, r, c, d]: the sum of dy over the outputs that read pixel (r, c), each times its weight.
// Python defines WEIGHT (lerpWeight or nearestWeight); dy is [batch, OUT_H, OUT_W, channels].
void main() {
  ivec4 c = getOutputCoords();
  ivec3 rowMap = ivec3(rowA, rowB, rowD);
  ivec3 colMap = ivec3(colA, colB, colD);
  int y0, y1, x0, x1;
  touchRange(c.y, rowMap, OUT_H, y0, y1);
  touchRange(c.z, colMap, OUT_W, x0, x1);
  float acc = 0.0;
  for (int y = y0; y <= y1; y++) {
    float wr;
    if (!WEIGHT(c.y, y, rowMap, IN_H, wr)) continue;
    for (int x = x0; x <= x1; x++) {
      float wc;
      if (WEIGHT(c.z, x, colMap, IN_W, wc)) acc += getDy(c.x, y, x, c.w) * (wr * wc);
    }
  }
  setOutput(acc);
}

// @program crop_and_resize
// Boxes [n, 4] are (y1, x1, y2, x2); a box index outside [0, BATCH) gives 0 (TF.js leaves those
// crops unwritten), a position outside the image (or NaN) extrapolationValue.
void main() {
  ivec4 c = getOutputCoords();
  int k = toInt(getBoxInd(c.x));
  if (k < 0 || k >= BATCH) {
    setOutput(0.0);
    return;
  }
  float lastY = float(IN_H - 1);
  float lastX = float(IN_W - 1);
  float y = cropPosition(getBoxes(c.x, 0), getBoxes(c.x, 2), c.y, CROP_H, lastY);
  float x = cropPosition(getBoxes(c.x, 1), getBoxes(c.x, 3), c.z, CROP_W, lastX);
  if (!(y >= 0.0 && y <= lastY && x >= 0.0 && x <= lastX)) {
    setOutput(extrapolationValue);
    return;
  }
  if (bilinear == 0) {
    setOutput(getImage(k, int(floor(y + 0.5)), int(floor(x + 0.5)), c.w));
    return;
  }
  int top = int(floor(y));
  int bottom = int(ceil(y));
  int left = int(floor(x));
  int right = int(ceil(x));
  float fy = y - float(top);
  float fx = x - float(left);
  float topLeft = getImage(k, top, left, c.w);
  float topRight = getImage(k, top, right, c.w);
  float bottomLeft = getImage(k, bottom, left, c.w);
  float bottomRight = getImage(k, bottom, right, c.w);
  float upper = topLeft + (topRight - topLeft) * fx;
  float lower = bottomLeft + (bottomRight - bottomLeft) * fx;
  setOutput(upper + (lower - upper) * fy);
}

// @program rotate
// Each pixel takes the nearest source pixel of the rotation about (centerX, centerY); fill0..3
// are the fill values of channels 0-3 (later channels use fill0).
void main() {
  ivec4 c = getOutputCoords();
  float dx = float(c.z) - centerX;
  float dy = float(c.y) - centerY;
  int x = int(floor(dx * cosR - dy * sinR + centerX + 0.5));
  int y = int(floor(dx * sinR + dy * cosR + centerY + 0.5));
  if (x >= 0 && x < IN_W && y >= 0 && y < IN_H) {
    setOutput(getImage(c.x, y, x, c.w));
  } else {
    setOutput(c.w == 1 ? fill1 : c.w == 2 ? fill2 : c.w == 3 ? fill3 : fill0);
  }
}

// @program transform
// transforms rows [a0, a1, a2, b0, b1, b2, c0, c1] map output (x, y) to the source
// ((a0 x + a1 y + a2) / k, (b0 x + b1 y + b2) / k), k = c0 x + c1 y + 1; one row for every image
// or one per image (the getter broadcasts a single row).
void main() {
  ivec4 c = getOutputCoords();
  float xf = float(c.z);
  float yf = float(c.y);
  float projection = getTransforms(c.x, 6) * xf + getTransforms(c.x, 7) * yf + 1.0;
  if (projection == 0.0) {
    setOutput(fillValue);
    return;
  }
  float x = (getTransforms(c.x, 0) * xf + getTransforms(c.x, 1) * yf + getTransforms(c.x, 2)) / projection;
  float y = (getTransforms(c.x, 3) * xf + getTransforms(c.x, 4) * yf + getTransforms(c.x, 5)) / projection;
  x = mapCoord(x, float(IN_W));
  y = mapCoord(y, float(IN_H));
  if (nearest == 1) {
    setOutput(readWithFill(c, floor(y + 0.5), floor(x + 0.5)));
    return;
  }
  float y0 = floor(y);
  float x0 = floor(x);
  float y1 = y0 + 1.0;
  float x1 = x0 + 1.0;
  float upper = (x1 - x) * readWithFill(c, y0, x0) + (x - x0) * readWithFill(c, y0, x1);
  float lower = (x1 - x) * readWithFill(c, y1, x0) + (x - x0) * readWithFill(c, y1, x1);
  setOutput((y1 - y) * upper + (y - y0) * lower);
}
