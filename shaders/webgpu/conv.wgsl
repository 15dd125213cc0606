// 3-D and 2-D convolutions and pooling, direct (programs/conv.py): one invocation per output
// value. 2-D is depth 1 (D = OD = FD = SD = DD = 1, PD = 0). Python supplies xAt(b, d, h, w, c),
// yAt(...) (flat indices in the data format of x and of the output / dy), SPLIT (the invocation's
// index split into b, od, oh, ow, oc or b, d, h, w, c by the output's format) and DEPTHWISE (true:
// output channel oc = c * u.FC + q reads input channel c through filt[.., c, q]). The filter is
// [FD, FH, FW, C, FC]. Input positions outside x read 0 and are still multiplied, as cpu's zero
// padding does (0 * inf is NaN there too).

fn fAt(kd: i32, kh: i32, kw: i32, c: i32, q: i32) -> i32 { return (((kd * u.FH + kh) * u.FW + kw) * u.C + c) * u.FC + q; }

fn xValue(b: i32, d: i32, h: i32, w: i32, c: i32) -> f32 {
  if (d < 0 || d >= u.D || h < 0 || h >= u.H || w < 0 || w >= u.W) { return 0.0; }
  return x[xAt(b, d, h, w, c)];
}

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
// MaxPool's value (as max_pool) and where it is in x: ((h * W + w) * C + c), plus b * H * W * C
// with u.withBatch; -1 for a window with nothing above -infinity.
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let index = i32(gid.x + gid.y * nwg.x * 64u);
  if (index >= u.size) { return; }
SPLIT
  var best = -inf();
  var at = -1;
  for (var kh = 0; kh < u.FH; kh++) {
    let h = oh * u.SH - u.PH + kh * u.DH;
    if (h < 0 || h >= u.H) { continue; }
    for (var kw = 0; kw < u.FW; kw++) {
      let w = ow * u.SW - u.PW + kw * u.DW;
      if (w < 0 || w >= u.W) { continue; }
      let v = x[xAt(b, 0, h, w, oc)];
      if (v > best) { best = v; at = (h * u.W + w) * u.C + oc + select(0, b * u.H * u.W * u.C, u.withBatch != 0); }
    }
  }
  result[index] = best;
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
