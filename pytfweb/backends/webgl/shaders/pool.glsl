// Pooling over [batch, depth, height, width, channels] (programs/pool.py; a 2D pooling runs
// with a depth of 1). Python prepends, per spatial axis (D, H, W), the window geometry
//   FILTER_D STRIDE_D DILATION_D PAD_D IN_D OUT_D   (and _H, _W), CHANNELS
// so every loop below has compile-time bounds. Position o of an axis reads the input at
// o * STRIDE - PAD + k * DILATION for k in [0, FILTER); positions outside the input are skipped.

// How many of a window's positions along one axis lie inside the input.
int insideCount(int start, int taps, int dilation, int size) {
  int first = start >= 0 ? 0 : (dilation - 1 - start) / dilation;
  int end = start >= size ? 0 : min(taps, (size - 1 - start) / dilation + 1);
  return max(0, end - first);
}

// @program max_accumulator
// As TF.js's pool loop (v > best, best starting at -Infinity): the first maximum wins on ties,
// NaN never wins; nothing above -Infinity leaves bestAt at -1. With LAST_ON_TIES (TF.js's
// maxPool3d positions, v >= best) the last maximum wins and -Infinity counts.
float best = 0.0;
int bestAt = -1;
void take(float v, int at) {
#ifdef LAST_ON_TIES
  if (bestAt < 0 ? v >= -INFINITY : v >= best) {
#else
  if (bestAt < 0 ? v > -INFINITY : v > best) {
#endif
    best = v;
    bestAt = at;
  }
}

// @program avg_accumulator
// A window with no position inside the input gives 0 / 0 = NaN, as TF.js's cpu backend.
float total = 0.0;
float count = 0.0;
void take(float v, int at) {
  total += v;
  count += 1.0;
}

// @program pool
// Python also defines POSITION (what `at` is: the window offset k, or the flat index in x)
// and RESULT (best, float(bestAt) or the mean).
void main() {
  ivec5 c = getOutputCoords();
  int d0 = c.y * STRIDE_D - PAD_D;
  int h0 = c.z * STRIDE_H - PAD_H;
  int w0 = c.w * STRIDE_W - PAD_W;
  for (int kd = 0; kd < FILTER_D; kd++) {
    int xd = d0 + kd * DILATION_D;
    if (xd < 0 || xd >= IN_D) continue;
    for (int kh = 0; kh < FILTER_H; kh++) {
      int xh = h0 + kh * DILATION_H;
      if (xh < 0 || xh >= IN_H) continue;
      for (int kw = 0; kw < FILTER_W; kw++) {
        int xw = w0 + kw * DILATION_W;
        if (xw < 0 || xw >= IN_W) continue;
        int k = (kd * FILTER_H + kh) * FILTER_W + kw;
        take(getX(c.x, xd, xh, xw, c.u), POSITION);
      }
    }
  }
  setOutput(RESULT);
}

// @program max_pool_grad_term
// dy of output o goes to x where o's maximum was: positions holds each window's offset k.
float term(ivec5 c, int od, int oh, int ow, int k) {
  return toInt(getPositions(c.x, od, oh, ow, c.u)) == k ? getDy(c.x, od, oh, ow, c.u) : 0.0;
}

// @program avg_pool_grad_term
// dy of output o spread evenly over the positions of o's window inside x.
float term(ivec5 c, int od, int oh, int ow, int k) {
  int inside = insideCount(od * STRIDE_D - PAD_D, FILTER_D, DILATION_D, IN_D) *
               insideCount(oh * STRIDE_H - PAD_H, FILTER_H, DILATION_H, IN_H) *
               insideCount(ow * STRIDE_W - PAD_W, FILTER_W, DILATION_W, IN_W);
  return getDy(c.x, od, oh, ow, c.u) / float(inside);
}

// @program pool_grad
// One fragment per position of x: the sum of term() over every output whose window holds it,
// at window offset k. Output o holds x at o * STRIDE - PAD + k * DILATION.
void main() {
  ivec5 c = getOutputCoords();
  float sum = 0.0;
  for (int kd = 0; kd < FILTER_D; kd++) {
    int sd = c.y + PAD_D - kd * DILATION_D;
    if (sd < 0 || sd % STRIDE_D != 0 || sd / STRIDE_D >= OUT_D) continue;
    for (int kh = 0; kh < FILTER_H; kh++) {
      int sh = c.z + PAD_H - kh * DILATION_H;
      if (sh < 0 || sh % STRIDE_H != 0 || sh / STRIDE_H >= OUT_H) continue;
      for (int kw = 0; kw < FILTER_W; kw++) {
        int sw = c.w + PAD_W - kw * DILATION_W;
        if (sw < 0 || sw % STRIDE_W != 0 || sw / STRIDE_W >= OUT_W) continue;
        sum += term(c, sd / STRIDE_D, sh / STRIDE_H, sw / STRIDE_W, (kd * FILTER_H + kh) * FILTER_W + kw);
      }
    }
  }
  setOutput(sum);
}
