// 3-D and 2-D convolutions and pooling, direct (programs/conv.py): one invocation per output
// value. 2-D is depth 1 (D = OD = FD = SD = DD = 1, PD = 0). Python supplies xAt(b, d, h, w, c),
// yAt(...) (flat indices in the data format of x and of the output / dy), SPLIT (the invocation's
// index split into b, od, oh, ow, oc or b, d, h, w, c by the output's format) and DEPTHWISE (true:
// output channel oc = c * u.FC + q reads input channel c through filt[.., c, q]). The filter is
// [FD, FH, FW, C, FC]. Input positions outside x read 0 and are still multiplied, as cpu's zero
// padding does (0 * inf is NaN there too).
// The *_vec4 programs (2-D NHWC forwards) instead bind their data as vec4s over channels and
// compute 4 channels at neighbouring output columns or positions per invocation, in registers;
// each vec4 of sums is stored through epilogue(v, o4) (o4: its vec4 of output channels), which
// Python supplies: the identity, or a fused kernel's bias and activation.

fn fAt(kd: i32, kh: i32, kw: i32, c: i32, q: i32) -> i32 { return (((kd * u.FH + kh) * u.FW + kw) * u.C + c) * u.FC + q; }

fn xValue(b: i32, d: i32, h: i32, w: i32, c: i32) -> f32 {
  if (d < 0 || d >= u.D || h < 0 || h >= u.H || w < 0 || w >= u.W) { return 0.0; }
  return x[xAt(b, d, h, w, c)];
}

// x's value (f32 or vec4, as x is bound) at flat index i, or 0 outside x (inside false: then i may
// be anything, x[0] is read instead). Padding reads 0 and is still multiplied, as in xValue.
fn xScalar(i: i32, inside: bool) -> f32 { return select(0.0, x[select(0, i, inside)], inside); }
fn xVec4(i: i32, inside: bool) -> vec4<f32> { return select(vec4<f32>(0.0), x[select(0, i, inside)], inside); }

// The output position o reading input position i through tap k along an axis of stride s,
// dilation l and padding p: i = o * s - p + k * l. outFrom gives o, or -1 where there is none.
fn outFrom(i: i32, k: i32, s: i32, l: i32, p: i32, n: i32) -> i32 {
  let t = i + p - k * l;
  if (t < 0 || t % s != 0 || t / s >= n) { return -1; }
  return t / s;
}

// The window of output (od, oh, ow): its first (2-D) or last (3-D: LAST_ON_TIES) maximum as a
// flat position d * H * W + h * W + w in x's spatial grid, or -1 (nothing above -infinity).
fn windowMax(b: i32, od: i32, oh: i32, ow: i32, c: i32) -> i32 {
  var best = -inf();
  var at = -1;
  for (var kd = 0; kd < u.FD; kd++) {
    let d = od * u.SD - u.PD + kd * u.DD;
    if (d < 0 || d >= u.D) { continue; }
    for (var kh = 0; kh < u.FH; kh++) {
      let h = oh * u.SH - u.PH + kh * u.DH;
      if (h < 0 || h >= u.H) { continue; }
      for (var kw = 0; kw < u.FW; kw++) {
        let w = ow * u.SW - u.PW + kw * u.DW;
        if (w < 0 || w >= u.W) { continue; }
        let v = x[xAt(b, d, h, w, c)];
        if (v > best || (LAST_ON_TIES && v == best)) { best = v; at = (d * u.H + h) * u.W + w; }
      }
    }
  }
  return at;
}

// How many positions of the window of output (od, oh, ow) lie inside x.
fn windowCount(od: i32, oh: i32, ow: i32) -> f32 {
  var count = 0.0;
  for (var kd = 0; kd < u.FD; kd++) {
    let d = od * u.SD - u.PD + kd * u.DD;
    if (d < 0 || d >= u.D) { continue; }
    for (var kh = 0; kh < u.FH; kh++) {
      let h = oh * u.SH - u.PH + kh * u.DH;
      if (h < 0 || h >= u.H) { continue; }
      for (var kw = 0; kw < u.FW; kw++) {
        let w = ow * u.SW - u.PW + kw * u.DW;
        if (w >= 0 && w < u.W) { count = count + 1.0; }
      }
    }
  }
  return count;
}

// Dilation2D and its gradients (programs dilation, dilation_dx, dilation_df). The taps of output
// (b, oh, ow, c) are x + filter[kh, kw, c] over the window; padding and NaN never win; a maximum
// must be strictly above FLOOR (TF.js's running maximum starts there). dilationTap gives the
// first maximal tap, or -1.
fn dilationValue(b: i32, oh: i32, ow: i32, c: i32, kh: i32, kw: i32) -> f32 {
  let h = oh * u.SH - u.PH + kh * u.DH;
  let w = ow * u.SW - u.PW + kw * u.DW;
  if (h < 0 || h >= u.H || w < 0 || w >= u.W) { return -inf(); }
  return x[xAt(b, 0, h, w, c)] + filt[(kh * u.FW + kw) * u.C + c];
}

fn dilationTap(b: i32, oh: i32, ow: i32, c: i32) -> i32 {
  var best = FLOOR;
  var tap = -1;
  for (var kh = 0; kh < u.FH; kh++) {
    for (var kw = 0; kw < u.FW; kw++) {
      let v = dilationValue(b, oh, ow, c, kh, kw);
      if (v > best) { best = v; tap = kh * u.FW + kw; }
    }
  }
  return tap;
}

// @program forward
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let index = i32(gid.x + gid.y * nwg.x * 64u);
  if (index >= u.size) { return; }
SPLIT
  var acc = 0.0;
  for (var kd = 0; kd < u.FD; kd++) {
    let d = od * u.SD - u.PD + kd * u.DD;
    for (var kh = 0; kh < u.FH; kh++) {
      let h = oh * u.SH - u.PH + kh * u.DH;
      for (var kw = 0; kw < u.FW; kw++) {
        let w = ow * u.SW - u.PW + kw * u.DW;
        if (DEPTHWISE) {
          let c = oc / u.FC;
          acc = acc + xValue(b, d, h, w, c) * filt[fAt(kd, kh, kw, c, oc - c * u.FC)];
        } else {
          for (var c = 0; c < u.C; c++) {
            acc = acc + xValue(b, d, h, w, c) * filt[fAt(kd, kh, kw, c, oc)];
          }
        }
      }
    }
  }
  result[index] = acc;
}

// @program depthwise_vec4
// DepthwiseConv2dNative (NHWC, one filter per channel, C a multiple of 4; programs/conv.py): x,
// filt and result are bound as vec4s over channels (C4 = C / 4 of them per position). An
// invocation computes 4 channels at several neighbouring output columns (acc0, acc1, ...), so
// each input value of a filter row is read once for all the taps and columns that use it, not
// once per tap. Python fills in the column count, the strides, the multiply-adds (unrolled for the
// variant's filter size, strides and dilations: a CPU implementation such as SwiftShader neither
// unrolls loops nor keeps indexed arrays in registers; per filter row kh: its values x<kh>_<offset>
// from w0, the taps f<kh>_<kw>, then acc<j> += x * f in the direct program's order) and the stores
// of the columns inside the output.
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let index = i32(gid.x + gid.y * nwg.x * 64u);
  if (index >= u.size) { return; }
  let c4 = index % u.C4;
  let block = (index / u.C4) % u.OWB;
  let oh = (index / (u.C4 * u.OWB)) % u.OH;
  let b = index / (u.C4 * u.OWB * u.OH);
  let ow0 = block * COLUMNS;
  let h0 = oh * SH - u.PH;
  let w0 = ow0 * SW - u.PW;
TAPS
  let y0 = ((b * u.OH + oh) * u.OW + ow0) * u.C4 + c4;
STORE
}

// @program pointwise_vec4
// Conv2D with a 1x1 filter, stride 1 and no padding (NHWC, C and OC multiples of 4;
// programs/conv.py): the product of x as [M = B * H * W, C] and the filter as [C, OC], bound as
// vec4s along C and OC (C4, OC4 of them a row). An invocation computes a block of neighbouring
// positions (rows) times a few vec4s of output channels (accumulators acc<row>_<vec4>), k running
// through C as in the GEMM; rows past M read row M - 1 and are not stored. Python fills in the
// block's size and its unrolled declarations, filter loads, multiply-adds and stores. Registers
// only: no workgroup tiles and barriers, which cost more than they save on a CPU implementation
// such as SwiftShader.
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let index = i32(gid.x + gid.y * nwg.x * 64u);
  if (index >= u.size) { return; }
  let o4 = (index % (u.OC4 / VEC4S)) * VEC4S;
  let r = (index / (u.OC4 / VEC4S)) * ROWS;
DECLARE
  for (var k4 = 0; k4 < u.C4; k4++) {
    let f = 4 * k4 * u.OC4 + o4;
MULTIPLY
  }
STORE
}

// @program conv2d_vec4
// Conv2D (NHWC, OC a multiple of 4; programs/conv.py): the filter and result bound as vec4s over
// output channels (OC4 of them). An invocation computes 4 output channels at 4 neighbouring
// output columns: per tap and input channel, one filter vec4 and one x value per column (0 in the
// padding, still multiplied), summed in the direct program's order. Python puts in the channel
// loop (section conv2d_vec4_c1 or conv2d_vec4_c4) and the x values per position (C or C / 4).
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let index = i32(gid.x + gid.y * nwg.x * 64u);
  if (index >= u.size) { return; }
  let o4 = index % u.OC4;
  let block = (index / u.OC4) % u.OWB;
  let oh = (index / (u.OC4 * u.OWB)) % u.OH;
  let b = index / (u.OC4 * u.OWB * u.OH);
  let ow0 = block * 4;
  var acc0 = vec4<f32>(0.0);
  var acc1 = vec4<f32>(0.0);
  var acc2 = vec4<f32>(0.0);
  var acc3 = vec4<f32>(0.0);
  for (var kh = 0; kh < u.FH; kh++) {
    let h = oh * u.SH - u.PH + kh * u.DH;
    let rowIn = h >= 0 && h < u.H;
    for (var kw = 0; kw < u.FW; kw++) {
      let w = ow0 * u.SW - u.PW + kw * u.DW;
      let in0 = rowIn && w >= 0 && w < u.W;
      let in1 = rowIn && w + u.SW >= 0 && w + u.SW < u.W;
      let in2 = rowIn && w + 2 * u.SW >= 0 && w + 2 * u.SW < u.W;
      let in3 = rowIn && w + 3 * u.SW >= 0 && w + 3 * u.SW < u.W;
      let i0 = ((b * u.H + h) * u.W + w) * XC;
      let step = u.SW * XC;
      let f0 = (kh * u.FW + kw) * u.C * u.OC4 + o4;
CHANNELS
    }
  }
  let y = ((b * u.OH + oh) * u.OW + ow0) * u.OC4 + o4;
  result[y] = epilogue(acc0, o4);
  if (ow0 + 1 < u.OW) { result[y + u.OC4] = epilogue(acc1, o4); }
  if (ow0 + 2 < u.OW) { result[y + 2 * u.OC4] = epilogue(acc2, o4); }
  if (ow0 + 3 < u.OW) { result[y + 3 * u.OC4] = epilogue(acc3, o4); }
}

// @program conv2d_vec4_c1
// conv2d_vec4's channel loop, x read one channel at a time.
      for (var c = 0; c < u.C; c++) {
        let f = filt[f0 + c * u.OC4];
        acc0 = acc0 + xScalar(i0 + c, in0) * f;
        acc1 = acc1 + xScalar(i0 + step + c, in1) * f;
        acc2 = acc2 + xScalar(i0 + 2 * step + c, in2) * f;
        acc3 = acc3 + xScalar(i0 + 3 * step + c, in3) * f;
      }

// @program conv2d_vec4_c4
// conv2d_vec4's channel loop where C is a multiple of 4: x bound as vec4s too, four channels (and
// four filter rows) a step.
      for (var c4 = 0; c4 < u.C / 4; c4++) {
        let f = f0 + 4 * c4 * u.OC4;
        let fx = filt[f];
        let fy = filt[f + u.OC4];
        let fz = filt[f + 2 * u.OC4];
        let fw = filt[f + 3 * u.OC4];
        let v0 = xVec4(i0 + c4, in0);
        let v1 = xVec4(i0 + step + c4, in1);
        let v2 = xVec4(i0 + 2 * step + c4, in2);
        let v3 = xVec4(i0 + 3 * step + c4, in3);
        acc0 = acc0 + v0.x * fx + v0.y * fy + v0.z * fz + v0.w * fw;
        acc1 = acc1 + v1.x * fx + v1.y * fy + v1.z * fz + v1.w * fw;
        acc2 = acc2 + v2.x * fx + v2.y * fy + v2.z * fz + v2.w * fw;
        acc3 = acc3 + v3.x * fx + v3.y * fy + v3.z * fz + v3.w * fw;
      }

// @program backprop_input
// dx[b, d, h, w, c] = sum over the taps that read (d, h, w) from output (od, oh, ow) of dy . filter.
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let index = i32(gid.x + gid.y * nwg.x * 64u);
  if (index >= u.size) { return; }
SPLIT
  var acc = 0.0;
  for (var kd = 0; kd < u.FD; kd++) {
    let od = outFrom(d, kd, u.SD, u.DD, u.PD, u.OD);
    if (od < 0) { continue; }
    for (var kh = 0; kh < u.FH; kh++) {
      let oh = outFrom(h, kh, u.SH, u.DH, u.PH, u.OH);
      if (oh < 0) { continue; }
      for (var kw = 0; kw < u.FW; kw++) {
        let ow = outFrom(w, kw, u.SW, u.DW, u.PW, u.OW);
        if (ow < 0) { continue; }
        if (DEPTHWISE) {
          for (var q = 0; q < u.FC; q++) {
            acc = acc + dy[yAt(b, od, oh, ow, c * u.FC + q)] * filt[fAt(kd, kh, kw, c, q)];
          }
        } else {
          for (var oc = 0; oc < u.OC; oc++) {
            acc = acc + dy[yAt(b, od, oh, ow, oc)] * filt[fAt(kd, kh, kw, c, oc)];
          }
        }
      }
    }
  }
  result[index] = acc;
}

// @program backprop_filter
// dfilter[kd, kh, kw, c, q] = sum over batch and output positions of x at the tap . dy.
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let index = i32(gid.x + gid.y * nwg.x * 64u);
  if (index >= u.size) { return; }
  let q = index % u.FC;
  let c = (index / u.FC) % u.C;
  let kw = (index / (u.FC * u.C)) % u.FW;
  let kh = (index / (u.FC * u.C * u.FW)) % u.FH;
  let kd = index / (u.FC * u.C * u.FW * u.FH);
  var oc = q;
  if (DEPTHWISE) { oc = c * u.FC + q; }
  var acc = 0.0;
  for (var b = 0; b < u.B; b++) {
    for (var od = 0; od < u.OD; od++) {
      let d = od * u.SD - u.PD + kd * u.DD;
      for (var oh = 0; oh < u.OH; oh++) {
        let h = oh * u.SH - u.PH + kh * u.DH;
        for (var ow = 0; ow < u.OW; ow++) {
          let w = ow * u.SW - u.PW + kw * u.DW;
          acc = acc + xValue(b, d, h, w, c) * dy[yAt(b, od, oh, ow, oc)];
        }
      }
    }
  }
  result[index] = acc;
}

// @program max_pool
// As TF.js's pool loop: best starts at -infinity and takes a value only when strictly greater,
// so the first maximum wins, NaN never does, and positions outside x are skipped. TYPE is f32 or
// i32; for i32 BETTER also takes the first value found, and a window with none inside x gives 0.
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let index = i32(gid.x + gid.y * nwg.x * 64u);
  if (index >= u.size) { return; }
SPLIT
  var best = LOWEST;
  var found = false;
  for (var kd = 0; kd < u.FD; kd++) {
    let d = od * u.SD - u.PD + kd * u.DD;
    if (d < 0 || d >= u.D) { continue; }
    for (var kh = 0; kh < u.FH; kh++) {
      let h = oh * u.SH - u.PH + kh * u.DH;
      if (h < 0 || h >= u.H) { continue; }
      for (var kw = 0; kw < u.FW; kw++) {
        let w = ow * u.SW - u.PW + kw * u.DW;
        if (w < 0 || w >= u.W) { continue; }
        let v = x[xAt(b, d, h, w, oc)];
        if (BETTER) { best = v; found = true; }
      }
    }
  }
  result[index] = RESULT;
}

// @program avg_pool
// The mean of the window's positions inside x; a window with none gives EMPTY (TF.js: NaN, 0 / 0,
// in 2-D and 0 in 3-D).
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let index = i32(gid.x + gid.y * nwg.x * 64u);
  if (index >= u.size) { return; }
SPLIT
  var total = 0.0;
  var count = 0.0;
  for (var kd = 0; kd < u.FD; kd++) {
    let d = od * u.SD - u.PD + kd * u.DD;
    if (d < 0 || d >= u.D) { continue; }
    for (var kh = 0; kh < u.FH; kh++) {
      let h = oh * u.SH - u.PH + kh * u.DH;
      if (h < 0 || h >= u.H) { continue; }
      for (var kw = 0; kw < u.FW; kw++) {
        let w = ow * u.SW - u.PW + kw * u.DW;
        if (w < 0 || w >= u.W) { continue; }
        total = total + x[xAt(b, d, h, w, oc)];
        count = count + 1.0;
      }
    }
  }
  if (count == 0.0) { result[index] = EMPTY; } else { result[index] = total / count; }
}

// @program max_pool_grad
// dx[b, d, h, w, c]: the sum of dy over the output positions whose window's maximum (windowMax)
// is at (d, h, w).
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let index = i32(gid.x + gid.y * nwg.x * 64u);
  if (index >= u.size) { return; }
SPLIT
  let here = (d * u.H + h) * u.W + w;
  var acc = 0.0;
  for (var kd = 0; kd < u.FD; kd++) {
    let od = outFrom(d, kd, u.SD, u.DD, u.PD, u.OD);
    if (od < 0) { continue; }
    for (var kh = 0; kh < u.FH; kh++) {
      let oh = outFrom(h, kh, u.SH, u.DH, u.PH, u.OH);
      if (oh < 0) { continue; }
      for (var kw = 0; kw < u.FW; kw++) {
        let ow = outFrom(w, kw, u.SW, u.DW, u.PW, u.OW);
        if (ow < 0) { continue; }
        if (windowMax(b, od, oh, ow, c) == here) { acc = acc + dy[yAt(b, od, oh, ow, c)]; }
      }
    }
  }
  result[index] = acc;
}

// @program avg_pool_grad
// dx[b, d, h, w, c]: the sum of dy / (positions of its window inside x, at least 1) over the
// windows holding (d, h, w).
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let index = i32(gid.x + gid.y * nwg.x * 64u);
  if (index >= u.size) { return; }
SPLIT
  var acc = 0.0;
  for (var kd = 0; kd < u.FD; kd++) {
    let od = outFrom(d, kd, u.SD, u.DD, u.PD, u.OD);
    if (od < 0) { continue; }
    for (var kh = 0; kh < u.FH; kh++) {
      let oh = outFrom(h, kh, u.SH, u.DH, u.PH, u.OH);
      if (oh < 0) { continue; }
      for (var kw = 0; kw < u.FW; kw++) {
        let ow = outFrom(w, kw, u.SW, u.DW, u.PW, u.OW);
        if (ow < 0) { continue; }
        acc = acc + dy[yAt(b, od, oh, ow, c)] / max(windowCount(od, oh, ow), 1.0);
      }
    }
  }
  result[index] = acc;
}

// @program max_pool_argmax
// MaxPool's value (as max_pool, with its LOWEST, BETTER and RESULT; `at >= 0` is its `found`) and
// where it is in x: ((h * W + w) * C + c), plus b * H * W * C with u.withBatch; -1 for a window
// with nothing above -infinity.
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let index = i32(gid.x + gid.y * nwg.x * 64u);
  if (index >= u.size) { return; }
SPLIT
  var best = LOWEST;
  var at = -1;
  for (var kh = 0; kh < u.FH; kh++) {
    let h = oh * u.SH - u.PH + kh * u.DH;
    if (h < 0 || h >= u.H) { continue; }
    for (var kw = 0; kw < u.FW; kw++) {
      let w = ow * u.SW - u.PW + kw * u.DW;
      if (w < 0 || w >= u.W) { continue; }
      let v = x[xAt(b, 0, h, w, oc)];
      if (BETTER) { best = v; at = (h * u.W + w) * u.C + oc + select(0, b * u.H * u.W * u.C, u.withBatch != 0); }
    }
  }
  result[index] = RESULT;
  positions[index] = at;
}


// @program dilation
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let index = i32(gid.x + gid.y * nwg.x * 64u);
  if (index >= u.size) { return; }
SPLIT
  let tap = dilationTap(b, oh, ow, oc);
  if (tap < 0) { result[index] = FLOOR; } else { result[index] = dilationValue(b, oh, ow, oc, tap / u.FW, tap % u.FW); }
}

// @program dilation_dx
// dx[b, h, w, c]: dy of every output whose maximum is at (h, w); an output with none sends its dy
// to its window's corner, clamped into x (TF.js).
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let index = i32(gid.x + gid.y * nwg.x * 64u);
  if (index >= u.size) { return; }
  let c = index % u.C;
  let w = (index / u.C) % u.W;
  let h = (index / (u.C * u.W)) % u.H;
  let b = index / (u.C * u.W * u.H);
  var acc = 0.0;
  for (var oh = 0; oh < u.OH; oh++) {
    for (var ow = 0; ow < u.OW; ow++) {
      let tap = dilationTap(b, oh, ow, c);
      var th = max(oh * u.SH - u.PH, 0);
      var tw = max(ow * u.SW - u.PW, 0);
      if (tap >= 0) {
        th = oh * u.SH - u.PH + (tap / u.FW) * u.DH;
        tw = ow * u.SW - u.PW + (tap % u.FW) * u.DW;
      }
      if (th == h && tw == w) { acc = acc + dy[yAt(b, 0, oh, ow, c)]; }
    }
  }
  result[index] = acc;
}

// @program dilation_df
// dfilter[kh, kw, c]: dy of every output whose maximum is tap (kh, kw) (none: tap 0, as TF.js).
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let index = i32(gid.x + gid.y * nwg.x * 64u);
  if (index >= u.size) { return; }
  let c = index % u.C;
  let tapHere = index / u.C;
  var acc = 0.0;
  for (var b = 0; b < u.B; b++) {
    for (var oh = 0; oh < u.OH; oh++) {
      for (var ow = 0; ow < u.OW; ow++) {
        if (max(dilationTap(b, oh, ow, c), 0) == tapHere) { acc = acc + dy[yAt(b, 0, oh, ow, c)]; }
      }
    }
  }
  result[index] = acc;
}
