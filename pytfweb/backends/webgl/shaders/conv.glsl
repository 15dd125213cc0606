// Convolutions (programs/conv.py): one fragment per output value, looping over the filter
// window (and the input channels, four at a time with a vec4 dot product) with compile-time
// bounds. 2D convolutions run as 3D ones of depth 1: every tensor is viewed with three spatial
// dimensions, so one set of programs serves Conv2D, Conv3D and DepthwiseConv2dNative.
//
// Python prepends the geometry as #defines: BATCH, IN_CHANNELS, OUT_CHANNELS, MULTIPLIER
// (depthwise), IN_D/IN_H/IN_W, OUT_D/OUT_H/OUT_W, FILTER_D/H/W, STRIDE_D/H/W, DIL_D/H/W,
// PAD_D/H/W (padding before), IN_CHANNELS_4 and OUT_CHANNELS_4 (rounded down to a multiple
// of 4), the accessors X(b, p, ch), DY(b, p, ch) and W(k, d1, d2) (p, k: ivec3, in the data
// format's axis order), and
//   void outputPosition(out int b, out ivec3 p, out int ch)   the output's coordinates.

// --- forward: Conv2D, Conv3D, DepthwiseConv2dNative (and the fused forms) ----------------------

// @program dense_tap
// x(b, p, :) . w(k, :, d2), four input channels at a time.
float tap(int b, ivec3 p, ivec3 k, int d2) {
  float acc = 0.0;
  for (int d1 = 0; d1 < IN_CHANNELS_4; d1 += 4) {
    vec4 xs = vec4(X(b, p, d1), X(b, p, d1 + 1), X(b, p, d1 + 2), X(b, p, d1 + 3));
    vec4 ws = vec4(W(k, d1, d2), W(k, d1 + 1, d2), W(k, d1 + 2, d2), W(k, d1 + 3, d2));
    acc += dot(xs, ws);
  }
  for (int d1 = IN_CHANNELS_4; d1 < IN_CHANNELS; d1++) {
    acc += X(b, p, d1) * W(k, d1, d2);
  }
  return acc;
}

// @program depthwise_tap
// Output channel d2 is input channel d2 / MULTIPLIER through filter column d2 % MULTIPLIER.
float tap(int b, ivec3 p, ivec3 k, int d2) {
  int d1 = d2 / MULTIPLIER;
  return X(b, p, d1) * W(k, d1, d2 - d1 * MULTIPLIER);
}

// @program conv
void main() {
  int b, d2;
  ivec3 o;
  outputPosition(b, o, d2);
  ivec3 corner = o * ivec3(STRIDE_D, STRIDE_H, STRIDE_W) - ivec3(PAD_D, PAD_H, PAD_W);
  float acc = 0.0;
  for (int kd = 0; kd < FILTER_D; kd++) {
    int pd = corner.x + kd * DIL_D;
    if (pd < 0 || pd >= IN_D) continue;
    for (int kh = 0; kh < FILTER_H; kh++) {
      int ph = corner.y + kh * DIL_H;
      if (ph < 0 || ph >= IN_H) continue;
      for (int kw = 0; kw < FILTER_W; kw++) {
        int pw = corner.z + kw * DIL_W;
        if (pw < 0 || pw >= IN_W) continue;
        acc += tap(b, ivec3(pd, ph, pw), ivec3(kd, kh, kw), d2);
      }
    }
  }
  setOutput(acc);
}

// --- Conv2D, Conv3D as packed products (gemm.py): the image patches are A, the filter B ------------
// A(row, k): row = ((b * OUT_D + od) * OUT_H + oh) * OUT_W + ow, an output position, and
// k = ((kd * FILTER_H + kh) * FILTER_W + kw) * IN_CHANNELS + d1, a filter tap and input channel:
// the filter [FILTER_D, FILTER_H, FILTER_W, IN_CHANNELS, OUT_CHANNELS] is B as it lies.

// @program im2col_position
// The input position row reads through filter tap kk (kk: k without the channel), and its batch.
ivec3 patchPosition(int row, int kk, out int b) {
  int ow = row % OUT_W;
  int t = row / OUT_W;
  int oh = t % OUT_H;
  t /= OUT_H;
  int od = t % OUT_D;
  b = t / OUT_D;
  int kw = kk % FILTER_W;
  int kt = kk / FILTER_W;
  ivec3 k = ivec3(kt / FILTER_H, kt % FILTER_H, kw);
  return ivec3(od, oh, ow) * ivec3(STRIDE_D, STRIDE_H, STRIDE_W) - ivec3(PAD_D, PAD_H, PAD_W)
       + k * ivec3(DIL_D, DIL_H, DIL_W);
}

bool outside(ivec3 p) {
  return p.x < 0 || p.y < 0 || p.z < 0 || p.x >= IN_D || p.y >= IN_H || p.z >= IN_W;
}

// @program im2col_value
float aValue(int batch, int row, int k) {
  int b;
  ivec3 p = patchPosition(row, k / IN_CHANNELS, b);
  return outside(p) ? 0.0 : X(b, p, k % IN_CHANNELS);
}

// @program im2col_values
// IN_CHANNELS a multiple of 4: k .. k+3 are four channels of one tap. Python may define X4 (four
// channels from one texel address: conv.py's _x4) and HAS_X4.
#ifndef HAS_X4
vec4 X4(int b, ivec3 p, int c) { return vec4(X(b, p, c), X(b, p, c + 1), X(b, p, c + 2), X(b, p, c + 3)); }
#endif
#define A_VALUES
vec4 aValues(int batch, int row, int k) {
  int b;
  ivec3 p = patchPosition(row, k / IN_CHANNELS, b);
  int d1 = k % IN_CHANNELS;
  return outside(p) ? vec4(0.0) : X4(b, p, d1);
}

// @program im2col_coords
// The unpack program's output is the convolution's (5D view): its product row and column.
void productCoords(out int r, out int col) {
  int b;
  ivec3 p;
  outputPosition(b, p, col);
  r = ((b * OUT_D + p.x) * OUT_H + p.y) * OUT_W + p.z;
}

// --- Conv2DBackpropInput, Conv3DBackpropInputV2 as packed products: dx = A W^T ------------------
// A(row, k): row = ((b * IN_D + pd) * IN_H + ph) * IN_W + pw, a position of x, and
// k = ((kd * FILTER_H + kh) * FILTER_W + kw) * OUT_CHANNELS + d2: the dy value that reads
// that position through tap (kd, kh, kw), or 0 where none does.

// @program backprop_input_position
// The output position that reads position row of x through filter tap kk (kk: k without the
// channel), and its batch; false where none does.
bool readerPosition(int row, int kk, out int b, out ivec3 o) {
  int pw = row % IN_W;
  int t = row / IN_W;
  int ph = t % IN_H;
  t /= IN_H;
  int pd = t % IN_D;
  b = t / IN_D;
  int kw = kk % FILTER_W;
  kk /= FILTER_W;
  ivec3 tap = ivec3(kk / FILTER_H, kk % FILTER_H, kw);
  ivec3 n = ivec3(pd, ph, pw) + ivec3(PAD_D, PAD_H, PAD_W) - tap * ivec3(DIL_D, DIL_H, DIL_W);
  ivec3 stride = ivec3(STRIDE_D, STRIDE_H, STRIDE_W);
  o = n / stride;
  return !(any(lessThan(n, ivec3(0))) || o * stride != n || any(greaterThanEqual(o, ivec3(OUT_D, OUT_H, OUT_W))));
}

// @program backprop_input_value
float aValue(int batch, int row, int k) {
  int b;
  ivec3 o;
  return readerPosition(row, k / OUT_CHANNELS, b, o) ? DY(b, o, k % OUT_CHANNELS) : 0.0;
}

// @program backprop_input_values
// OUT_CHANNELS a multiple of 4: k .. k+3 are four channels of one tap.
#define A_VALUES
vec4 aValues(int batch, int row, int k) {
  int b;
  ivec3 o;
  int d2 = k % OUT_CHANNELS;
  return readerPosition(row, k / OUT_CHANNELS, b, o)
      ? vec4(DY(b, o, d2), DY(b, o, d2 + 1), DY(b, o, d2 + 2), DY(b, o, d2 + 3)) : vec4(0.0);
}

// @program backprop_input_coords
void productCoords(out int r, out int col) {
  int b;
  ivec3 p;
  outputPosition(b, p, col);
  r = ((b * IN_D + p.x) * IN_H + p.y) * IN_W + p.z;
}

// --- Conv2DBackpropFilter, Conv3DBackpropFilterV2 as split packed products: dw = dy^T im2col(x) ---
// The sum runs over every output position (batch included), POSITIONS of them: the product is
// split into batches of CHUNK positions whose partial sums the unpack program adds.
// A(split, d2, k): dy at position split * CHUNK + k, channel d2; B(split, k, n): x at the input
// position that position reads through tap n / IN_CHANNELS, channel n % IN_CHANNELS (im2col's
// value); C(d2, n) = dw(tap, d1, d2) with n = tap * IN_CHANNELS + d1.

// @program backprop_filter_dy
// DY_ROWS (channels last): dy viewed as [POSITIONS, OUT_CHANNELS], as it lies.
#define A_VALUES
float dyAt(int pos, int d2) {
  if (pos >= POSITIONS) return 0.0;
#ifdef DY_ROWS
  return getDy(pos, d2);
#else
  int ow = pos % OUT_W;
  int t = pos / OUT_W;
  int oh = t % OUT_H;
  t /= OUT_H;
  return DY(t / OUT_D, ivec3(t % OUT_D, oh, ow), d2);
#endif
}

vec4 aValues(int batch, int row, int k) {
  int pos = batch * CHUNK + k;
  return vec4(dyAt(pos, row), dyAt(pos + 1, row), dyAt(pos + 2, row), dyAt(pos + 3, row));
}

// @program backprop_filter_x
float bValue(int batch, int k, int n) {
  int pos = batch * CHUNK + k;
  int b;
  ivec3 p = patchPosition(pos, n / IN_CHANNELS, b);
  return pos >= POSITIONS || outside(p) ? 0.0 : X(b, p, n % IN_CHANNELS);
}

// @program backprop_filter_x4
// IN_CHANNELS a multiple of 4: n .. n+3 are four channels of one tap.
#define B_VALUES
vec4 bValues(int batch, int k, int n) {
  int pos = batch * CHUNK + k;
  int b;
  ivec3 p = patchPosition(pos, n / IN_CHANNELS, b);
  int d1 = n % IN_CHANNELS;
  return pos >= POSITIONS || outside(p) ? vec4(0.0)
       : vec4(X(b, p, d1), X(b, p, d1 + 1), X(b, p, d1 + 2), X(b, p, d1 + 3));
}

// @program backprop_filter_coords
// The unpack program's output is the filter's 5D view [FILTER_D, FILTER_H, FILTER_W, IN, OUT].
void productCoords(out int r, out int col) {
  ivec5 c = getOutputCoords();
  r = c.u;
  col = ((c.x * FILTER_H + c.y) * FILTER_W + c.z) * IN_CHANNELS + c.w;
}

// --- DepthwiseConv2dNative, channels last, multiplier 1, packed (programs/conv.py) ----------------
// Each fragment computes four channels at four neighbouring output columns into four render
// targets, in gemm.glsl's layout: grid row rb = (b * OUT_H + oh) * IMAGE_W4 + ow4 and column c4
// hold, in output t, channels 4 c4 .. 4 c4 + 3 of output column 4 ow4 + t (gemm.glsl's unpack
// then writes the tensor). Neighbouring outputs share input columns, so each input value is
// fetched once per fragment rather than once per output. Python adds the block grid's defines
// (depthwise_block) and DEPTHWISE_ROW: the unrolled taps of one filter row (input column j = 0 .. SPAN-1 at
// iw0 + j, added with weights w[kw] to the outputs t with t * STRIDE_W + kw * DIL_W = j).

// The packed depthwise programs read four channels c .. c+3 at once. Channels past IN_CHANNELS
// read the last one (no branch per channel: SwiftShader's compiler all but hangs on the many
// branches of long unrolled rows) and get zero weights.

// @program depthwise_x_at
vec4 xAt(int b, int h, int w, int c) {
  if (w < 0 || w >= IN_W) return vec4(0.0);
  ivec3 p = ivec3(0, h, w);
#ifdef HAS_X4
  return X4(b, p, c);
#else
  return vec4(X(b, p, c), X(b, p, min(c + 1, IN_CHANNELS - 1)),
              X(b, p, min(c + 2, IN_CHANNELS - 1)), X(b, p, min(c + 3, IN_CHANNELS - 1)));
#endif
}

// @program depthwise_dy_at
vec4 dyAt(int b, int h, int w, int c) {
  if (w < 0 || w >= OUT_W) return vec4(0.0);
  ivec3 p = ivec3(0, h, w);
  return vec4(DY(b, p, c), DY(b, p, min(c + 1, IN_CHANNELS - 1)),
              DY(b, p, min(c + 2, IN_CHANNELS - 1)), DY(b, p, min(c + 3, IN_CHANNELS - 1)));
}

// @program depthwise_w_at
// HAS_W4: the filter packed by depthwise_filter_pack (one texel: four channels of one tap).
vec4 wAt(int kh, int kw, int c) {
#ifdef HAS_W4
  return texelFetch(w4, ivec2(c >> 2, kh * FILTER_W + kw), 0);
#else
  ivec3 k = ivec3(0, kh, kw);
  vec4 inside = vec4(lessThan(ivec4(c) + ivec4(0, 1, 2, 3), ivec4(IN_CHANNELS)));
  return inside * vec4(W(k, c, 0), W(k, min(c + 1, IN_CHANNELS - 1), 0),
                       W(k, min(c + 2, IN_CHANNELS - 1), 0), W(k, min(c + 3, IN_CHANNELS - 1), 0));
#endif
}

// @program depthwise_filter_pack
// A depthwise filter [FILTER_H, FILTER_W, channels, 1] (its texture `width` texels wide) packed
// four channels to a texel: texel (c4, tap) holds channels 4 c4 .. 4 c4 + 3 of the tap, zero past
// the last (as depthwise_w_at's mask gives). Shapeless: one program for every filter.
float filterAt(int tap, int c) {
  int f = tap * channels + c;
  int y = f / width;
  return c < channels ? texelFetch(W, ivec2(f - y * width, y), 0).r : 0.0;
}

void main() {
  ivec2 t = ivec2(gl_FragCoord.xy);
  int c = 4 * t.x;
  outColor = vec4(filterAt(t.y, c), filterAt(t.y, c + 1), filterAt(t.y, c + 2), filterAt(t.y, c + 3));
}

// @program depthwise_block
// The fragment's first channel c, batch b, image row h and block of four columns w4 of the
// [BATCH, IMAGE_H, 4 IMAGE_W4] image it computes (the output, or x for the input gradient): grid
// row rb = (b * IMAGE_H + h) * IMAGE_W4 + w4; BLOCK_FOLD grid rows share a texture row
// (BLOCK_FOLD * BLOCK_COLUMNS texels wide) where the grid is taller than a texture may be.
// Fragments past the last grid row compute values that nothing reads.
void blockPosition(out int c, out int b, out int h, out int w4) {
  int x = int(gl_FragCoord.x);
  int fold = x / BLOCK_COLUMNS;
  c = 4 * (x - fold * BLOCK_COLUMNS);
  int rb = int(gl_FragCoord.y) * BLOCK_FOLD + fold;
  w4 = rb % IMAGE_W4;
  int t = rb / IMAGE_W4;
  h = t % IMAGE_H;
  b = t / IMAGE_H;
}

// @program depthwise_block_coords
// The unpack program's output is the image's 5D view: the gemm layout's row and column.
void productCoords(out int r, out int col) {
  int b;
  ivec3 p;
  outputPosition(b, p, col);
  r = (b * IMAGE_H + p.y) * IMAGE_W4 * 4 + p.z;
}

// @program depthwise_packed
void main() {
  int c, b, oh, ow4;
  blockPosition(c, b, oh, ow4);
  int iw0 = 4 * ow4 * STRIDE_W - PAD_W;
  vec4 acc0 = vec4(0.0), acc1 = vec4(0.0), acc2 = vec4(0.0), acc3 = vec4(0.0);
  for (int kh = 0; kh < FILTER_H; kh++) {
    int ih = oh * STRIDE_H - PAD_H + kh * DIL_H;
    if (ih >= 0 && ih < IN_H) {
      vec4 v;
      DEPTHWISE_ROW
    }
  }
  outColor = acc0;
  outColor1 = acc1;
  outColor2 = acc2;
  outColor3 = acc3;
}

// --- DepthwiseConv2dNativeBackpropInput, channels last, multiplier 1, packed ----------------------
// As depthwise_packed, for dx: each fragment computes four channels at four neighbouring input
// columns iw0 .. iw0+3 (iw0 = 4 iw4) into four render targets (the image of depthwise_block is
// x). Column iw0 + t receives dy at output column (iw0 + t + PAD_W - kw DIL_W) / STRIDE_W
// through tap kw where that divides; STRIDE_W divides 4, so which taps meet which dy column
// depends on t and kw alone: Python unrolls one filter row as DEPTHWISE_BACK_ROW (dy column
// ow0 + j, ow0 = iw0 / STRIDE_W, added with weights w[kw] to the columns t that read it there).

// @program depthwise_backprop_input_packed
void main() {
  int c, b, ih, iw4;
  blockPosition(c, b, ih, iw4);
  int ow0 = 4 * iw4 / STRIDE_W;
  vec4 acc0 = vec4(0.0), acc1 = vec4(0.0), acc2 = vec4(0.0), acc3 = vec4(0.0);
  for (int kh = 0; kh < FILTER_H; kh++) {
    int nh = ih + PAD_H - kh * DIL_H;
    int oh = nh / STRIDE_H;
    if (nh >= 0 && oh * STRIDE_H == nh && oh < OUT_H) {
      vec4 v;
      DEPTHWISE_BACK_ROW
    }
  }
  outColor = acc0;
  outColor1 = acc1;
  outColor2 = acc2;
  outColor3 = acc3;
}

// --- DepthwiseConv2dNativeBackpropFilter, channels last, multiplier 1, split and packed ----------
// Fragment (c4, split * FILTER_TAPS + tap): four channels of one tap's gradient summed over ROWS_PER_SPLIT
// rows (b, oh) of dy into one RGBA texel (more fragments at work than one per filter value over
// the whole batch); depthwise_backprop_filter_sum then adds the SPLITS partial sums.

// @program depthwise_backprop_filter_packed
void main() {
  int c = 4 * int(gl_FragCoord.x);
  int r = int(gl_FragCoord.y);
  int split = r / FILTER_TAPS;
  int tap = r - split * FILTER_TAPS;
  int kh = tap / FILTER_W;
  int kw = tap - kh * FILTER_W;
  int first = split * ROWS_PER_SPLIT;
  int last = min(first + ROWS_PER_SPLIT, BATCH * OUT_H);
  int iw0 = kw * DIL_W - PAD_W;
  vec4 acc = vec4(0.0);
  for (int row = first; row < last; row++) {
    int oh = row % OUT_H;
    int b = row / OUT_H;
    int ih = oh * STRIDE_H - PAD_H + kh * DIL_H;
    if (ih < 0 || ih >= IN_H) continue;
    for (int ow = 0; ow < OUT_W; ow++) {
      acc += xAt(b, ih, iw0 + ow * STRIDE_W, c) * dyAt(b, oh, ow, c);
    }
  }
  outColor = acc;
}

// @program depthwise_backprop_filter_sum
// The output is the filter's 5D view [1, FILTER_H, FILTER_W, IN_CHANNELS, 1].
void main() {
  ivec5 c = getOutputCoords();
  ivec2 p = ivec2(c.w >> 2, c.y * FILTER_W + c.z);
  float acc = 0.0;
  for (int s = 0; s < SPLITS; s++) {
    acc += texelFetch(partials, p + ivec2(0, s * FILTER_TAPS), 0)[c.w & 3];
  }
  setOutput(acc);
}

// --- gradient with respect to the input: Conv2DBackpropInput, Conv3DBackpropInputV2, -----------
// --- DepthwiseConv2dNativeBackpropInput ---------------------------------------------------------

// @program dense_back_tap
// dy(b, o, :) . w(k, d1, :), four output channels at a time.
float backTap(int b, ivec3 o, ivec3 k, int d1) {
  float acc = 0.0;
  for (int d2 = 0; d2 < OUT_CHANNELS_4; d2 += 4) {
    vec4 dys = vec4(DY(b, o, d2), DY(b, o, d2 + 1), DY(b, o, d2 + 2), DY(b, o, d2 + 3));
    vec4 ws = vec4(W(k, d1, d2), W(k, d1, d2 + 1), W(k, d1, d2 + 2), W(k, d1, d2 + 3));
    acc += dot(dys, ws);
  }
  for (int d2 = OUT_CHANNELS_4; d2 < OUT_CHANNELS; d2++) {
    acc += DY(b, o, d2) * W(k, d1, d2);
  }
  return acc;
}

// @program depthwise_back_tap
float backTap(int b, ivec3 o, ivec3 k, int d1) {
  float acc = 0.0;
  for (int q = 0; q < MULTIPLIER; q++) {
    acc += DY(b, o, d1 * MULTIPLIER + q) * W(k, d1, q);
  }
  return acc;
}

// @program conv_backprop_input
// dx(b, p, d1) sums, over the filter taps k, the outputs o that read p through k:
// o * stride - pad + k * dilation = p, o a whole number inside the output.
void main() {
  int b, d1;
  ivec3 p;
  outputPosition(b, p, d1);
  ivec3 base = p + ivec3(PAD_D, PAD_H, PAD_W);
  float acc = 0.0;
  for (int kd = 0; kd < FILTER_D; kd++) {
    int nd = base.x - kd * DIL_D;
    int od = nd / STRIDE_D;
    if (nd < 0 || od * STRIDE_D != nd || od >= OUT_D) continue;
    for (int kh = 0; kh < FILTER_H; kh++) {
      int nh = base.y - kh * DIL_H;
      int oh = nh / STRIDE_H;
      if (nh < 0 || oh * STRIDE_H != nh || oh >= OUT_H) continue;
      for (int kw = 0; kw < FILTER_W; kw++) {
        int nw = base.z - kw * DIL_W;
        int ow = nw / STRIDE_W;
        if (nw < 0 || ow * STRIDE_W != nw || ow >= OUT_W) continue;
        acc += backTap(b, ivec3(od, oh, ow), ivec3(kd, kh, kw), d1);
      }
    }
  }
  setOutput(acc);
}

// --- gradient with respect to the filter: Conv2DBackpropFilter, Conv3DBackpropFilterV2, ---------
// --- DepthwiseConv2dNativeBackpropFilter --------------------------------------------------------

// @program conv_backprop_filter
// dw(k, d1, d2) sums x(b, o * stride - pad + k * dilation, d1) * dy(b, o, DY_CHANNEL) over the
// batch and every output position (DY_CHANNEL: d2, or d1 * MULTIPLIER + d2 when depthwise).
void main() {
  ivec5 c = getOutputCoords();
  ivec3 k = ivec3(c.x, c.y, c.z);
  int d1 = c.w;
  int d2 = c.u;
  ivec3 offset = k * ivec3(DIL_D, DIL_H, DIL_W) - ivec3(PAD_D, PAD_H, PAD_W);
  float acc = 0.0;
  for (int b = 0; b < BATCH; b++) {
    for (int od = 0; od < OUT_D; od++) {
      int pd = od * STRIDE_D + offset.x;
      if (pd < 0 || pd >= IN_D) continue;
      for (int oh = 0; oh < OUT_H; oh++) {
        int ph = oh * STRIDE_H + offset.y;
        if (ph < 0 || ph >= IN_H) continue;
        for (int ow = 0; ow < OUT_W; ow++) {
          int pw = ow * STRIDE_W + offset.z;
          if (pw < 0 || pw >= IN_W) continue;
          acc += X(b, ivec3(pd, ph, pw), d1) * DY(b, ivec3(od, oh, ow), DY_CHANNEL);
        }
      }
    }
  }
  setOutput(acc);
}

// --- fused bias and activation (FusedConv2D, FusedDepthwiseConv2D, _FusedMatMul) --------------
// Python prepends `#define ACTIVATE fn` (fn from unary_ops.glsl or below) and HAS_BIAS when
// there is a bias; the program body after this section calls setOutput as usual.

// @program activation_linear
float activateLinear(float v) { return v; }

// @program activation_prelu
float activatePrelu(float v) { return v < 0.0 ? getPreluAtOutCoords() * v : v; }

// @program fused_epilogue
void setFusedOutput(float v) {
#ifdef HAS_BIAS
  v += getBiasAtOutCoords();
#endif
  setOutput(isNaN(v) ? v : ACTIVATE(v));
}
#define setOutput setFusedOutput

// --- Dilation2D and its gradients (depth 1: p.x and o.x are 0) -----------------------------------
// Python adds FLOOR (the maximum's starting value, TF.js's cpu Number.MIN_SAFE_INTEGER) and
// SPAN_H / SPAN_W (how many outputs' windows can cover one input position, plus one).

// @program dilation_argmax
// The first filter tap with the window's maximum (strictly above FLOOR), or -1; NaN is skipped.
int argmaxTap(int b, ivec3 o, int d) {
  int hBeg = o.y * STRIDE_H - PAD_H;
  int wBeg = o.z * STRIDE_W - PAD_W;
  float best = FLOOR;
  int found = -1;
  for (int kh = 0; kh < FILTER_H; kh++) {
    int ph = hBeg + kh * DIL_H;
    if (ph < 0 || ph >= IN_H) continue;
    for (int kw = 0; kw < FILTER_W; kw++) {
      int pw = wBeg + kw * DIL_W;
      if (pw < 0 || pw >= IN_W) continue;
      float v = X(b, ivec3(0, ph, pw), d) + W(ivec3(0, kh, kw), d, 0);
      if (v > best) {
        best = v;
        found = kh * FILTER_W + kw;
      }
    }
  }
  return found;
}

// @program dilation2d
void main() {
  int b, d;
  ivec3 o;
  outputPosition(b, o, d);
  int k = argmaxTap(b, o, d);
  if (k < 0) {
    setOutput(FLOOR);
    return;
  }
  int kh = k / FILTER_W;
  int kw = k - kh * FILTER_W;
  ivec3 p = ivec3(0, o.y * STRIDE_H - PAD_H + kh * DIL_H, o.z * STRIDE_W - PAD_W + kw * DIL_W);
  setOutput(X(b, p, d) + W(ivec3(0, kh, kw), d, 0));
}

// @program dilation2d_taps
// The argmax tap of every output, for the two gradients (int values in a float texture).
void main() {
  int b, d;
  ivec3 o;
  outputPosition(b, o, d);
  setOutput(float(argmaxTap(b, o, d)));
}

// @program dilation2d_backprop_input
// dx(b, p, d) sums dy over the outputs whose maximum came from p: outputs are visited only
// where their window's rows and columns can cover p. An output with no maximum sends dy to
// its window's corner clamped into the input (as TF.js's cpu kernel).
void main() {
  int b, d;
  ivec3 p;
  outputPosition(b, p, d);
  int loH = p.y + PAD_H - (FILTER_H - 1) * DIL_H;
  int loW = p.z + PAD_W - (FILTER_W - 1) * DIL_W;
  int firstH = loH <= 0 ? 0 : (loH + STRIDE_H - 1) / STRIDE_H;
  int firstW = loW <= 0 ? 0 : (loW + STRIDE_W - 1) / STRIDE_W;
  float acc = 0.0;
  for (int i = 0; i < SPAN_H; i++) {
    int oh = firstH + i;
    int hBeg = oh * STRIDE_H - PAD_H;
    if (oh >= OUT_H || hBeg > p.y) break;
    for (int j = 0; j < SPAN_W; j++) {
      int ow = firstW + j;
      int wBeg = ow * STRIDE_W - PAD_W;
      if (ow >= OUT_W || wBeg > p.z) break;
      ivec3 o = ivec3(0, oh, ow);
      int k = toInt(TAPS(b, o, d));
      int kh = k / FILTER_W;
      ivec2 target = k >= 0 ? ivec2(hBeg + kh * DIL_H, wBeg + (k - kh * FILTER_W) * DIL_W)
                            : max(ivec2(hBeg, wBeg), ivec2(0));
      if (target == p.yz) acc += DY(b, o, d);
    }
  }
  setOutput(acc);
}

// @program dilation2d_backprop_filter
// dw(kh, kw, d) sums dy over the outputs whose maximum came through that tap (tap 0 for an
// output with none, as TF.js's cpu kernel). The output is viewed as [1, fh, fw, c, 1].
void main() {
  ivec5 c = getOutputCoords();
  int k = c.y * FILTER_W + c.z;
  int d = c.w;
  float acc = 0.0;
  for (int b = 0; b < BATCH; b++) {
    for (int oh = 0; oh < OUT_H; oh++) {
      for (int ow = 0; ow < OUT_W; ow++) {
        ivec3 o = ivec3(0, oh, ow);
        if (max(toInt(TAPS(b, o, d)), 0) == k) acc += DY(b, o, d);
      }
    }
  }
  setOutput(acc);
}
