// 2-D convolutions and pooling, direct (programs/conv.py): one invocation per output value.
// Python supplies xAt(b, h, w, c), yAt(...) (flat indices in the data format of x and of the
// output / dy), SPLIT (the invocation's index split into b, oh, ow, oc or b, h, w, c by the
// output's format) and DEPTHWISE (true: output channel oc = c * u.FC + q reads input channel c
// through filt[.., c, q]). The filter is [FH, FW, C, FC]. Input positions outside x read 0 and
// are still multiplied, as cpu's zero padding does (0 * inf is NaN there too).

fn fAt(kh: i32, kw: i32, c: i32, q: i32) -> i32 { return ((kh * u.FW + kw) * u.C + c) * u.FC + q; }

fn xValue(b: i32, h: i32, w: i32, c: i32) -> f32 {
  if (h < 0 || h >= u.H || w < 0 || w >= u.W) { return 0.0; }
  return x[xAt(b, h, w, c)];
}

// @program forward
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let index = i32(gid.x + gid.y * nwg.x * 64u);
  if (index >= u.size) { return; }
SPLIT
  var acc = 0.0;
  for (var kh = 0; kh < u.FH; kh++) {
    let h = oh * u.SH - u.PH + kh * u.DH;
    for (var kw = 0; kw < u.FW; kw++) {
      let w = ow * u.SW - u.PW + kw * u.DW;
      if (DEPTHWISE) {
        let c = oc / u.FC;
        acc = acc + xValue(b, h, w, c) * filt[fAt(kh, kw, c, oc - c * u.FC)];
      } else {
        for (var c = 0; c < u.C; c++) {
          acc = acc + xValue(b, h, w, c) * filt[fAt(kh, kw, c, oc)];
        }
      }
    }
  }
  result[index] = acc;
}

// @program backprop_input
// dx[b, h, w, c] = sum over the taps that read (h, w) from output (oh, ow) of dy . filter.
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let index = i32(gid.x + gid.y * nwg.x * 64u);
  if (index >= u.size) { return; }
SPLIT
  var acc = 0.0;
  for (var kh = 0; kh < u.FH; kh++) {
    let th = h + u.PH - kh * u.DH;
    if (th < 0 || th % u.SH != 0 || th / u.SH >= u.OH) { continue; }
    let oh = th / u.SH;
    for (var kw = 0; kw < u.FW; kw++) {
      let tw = w + u.PW - kw * u.DW;
      if (tw < 0 || tw % u.SW != 0 || tw / u.SW >= u.OW) { continue; }
      let ow = tw / u.SW;
      if (DEPTHWISE) {
        for (var q = 0; q < u.FC; q++) {
          acc = acc + dy[yAt(b, oh, ow, c * u.FC + q)] * filt[fAt(kh, kw, c, q)];
        }
      } else {
        for (var oc = 0; oc < u.OC; oc++) {
          acc = acc + dy[yAt(b, oh, ow, oc)] * filt[fAt(kh, kw, c, oc)];
        }
      }
    }
  }
  result[index] = acc;
}

// @program backprop_filter
// dfilt[kh, kw, c, q] = sum over batch and output positions of x at the tap . dy.
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let index = i32(gid.x + gid.y * nwg.x * 64u);
  if (index >= u.size) { return; }
  let q = index % u.FC;
  let c = (index / u.FC) % u.C;
  let kw = (index / (u.FC * u.C)) % u.FW;
  let kh = index / (u.FC * u.C * u.FW);
  var oc = q;
  if (DEPTHWISE) { oc = c * u.FC + q; }
  var acc = 0.0;
  for (var b = 0; b < u.B; b++) {
    for (var oh = 0; oh < u.OH; oh++) {
      let h = oh * u.SH - u.PH + kh * u.DH;
      for (var ow = 0; ow < u.OW; ow++) {
        let w = ow * u.SW - u.PW + kw * u.DW;
        acc = acc + xValue(b, h, w, c) * dy[yAt(b, oh, ow, oc)];
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
  for (var kh = 0; kh < u.FH; kh++) {
    let h = oh * u.SH - u.PH + kh * u.DH;
    if (h < 0 || h >= u.H) { continue; }
    for (var kw = 0; kw < u.FW; kw++) {
      let w = ow * u.SW - u.PW + kw * u.DW;
      if (w < 0 || w >= u.W) { continue; }
      let v = x[xAt(b, h, w, oc)];
      if (BETTER) { best = v; found = true; }
    }
  }
  result[index] = RESULT;
}

// @program avg_pool
// The mean of the window's positions inside x (0 / 0, NaN, for a window with none, as TF.js 2-D).
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let index = i32(gid.x + gid.y * nwg.x * 64u);
  if (index >= u.size) { return; }
SPLIT
  var total = 0.0;
  var count = 0.0;
  for (var kh = 0; kh < u.FH; kh++) {
    let h = oh * u.SH - u.PH + kh * u.DH;
    if (h < 0 || h >= u.H) { continue; }
    for (var kw = 0; kw < u.FW; kw++) {
      let w = ow * u.SW - u.PW + kw * u.DW;
      if (w < 0 || w >= u.W) { continue; }
      total = total + x[xAt(b, h, w, oc)];
      count = count + 1.0;
    }
  }
  if (count == 0.0) { result[index] = nan(); } else { result[index] = total / count; }
}

// @program max_pool_grad
// dx[b, h, w, c]: the sum of dy over the output positions whose window's first maximum (as in
// max_pool: strictly greater than all before it, NaN never) is at (h, w).
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let index = i32(gid.x + gid.y * nwg.x * 64u);
  if (index >= u.size) { return; }
SPLIT
  var acc = 0.0;
  for (var kh = 0; kh < u.FH; kh++) {
    let th = h + u.PH - kh * u.DH;
    if (th < 0 || th % u.SH != 0 || th / u.SH >= u.OH) { continue; }
    let oh = th / u.SH;
    for (var kw = 0; kw < u.FW; kw++) {
      let tw = w + u.PW - kw * u.DW;
      if (tw < 0 || tw % u.SW != 0 || tw / u.SW >= u.OW) { continue; }
      let ow = tw / u.SW;
      var best = -inf();
      var bh = -1;
      var bw = -1;
      for (var ih = 0; ih < u.FH; ih++) {
        let hh = oh * u.SH - u.PH + ih * u.DH;
        if (hh < 0 || hh >= u.H) { continue; }
        for (var iw = 0; iw < u.FW; iw++) {
          let ww = ow * u.SW - u.PW + iw * u.DW;
          if (ww < 0 || ww >= u.W) { continue; }
          let v = x[xAt(b, hh, ww, c)];
          if (v > best) { best = v; bh = hh; bw = ww; }
        }
      }
      if (bh == h && bw == w) { acc = acc + dy[yAt(b, oh, ow, c)]; }
    }
  }
  result[index] = acc;
}

// @program avg_pool_grad
// dx[b, h, w, c]: the sum of dy / (positions of its window inside x) over the windows holding (h, w).
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let index = i32(gid.x + gid.y * nwg.x * 64u);
  if (index >= u.size) { return; }
SPLIT
  var acc = 0.0;
  for (var kh = 0; kh < u.FH; kh++) {
    let th = h + u.PH - kh * u.DH;
    if (th < 0 || th % u.SH != 0 || th / u.SH >= u.OH) { continue; }
    let oh = th / u.SH;
    for (var kw = 0; kw < u.FW; kw++) {
      let tw = w + u.PW - kw * u.DW;
      if (tw < 0 || tw % u.SW != 0 || tw / u.SW >= u.OW) { continue; }
      let ow = tw / u.SW;
      var count = 0.0;
      for (var ih = 0; ih < u.FH; ih++) {
        let hh = oh * u.SH - u.PH + ih * u.DH;
        if (hh < 0 || hh >= u.H) { continue; }
        for (var iw = 0; iw < u.FW; iw++) {
          let ww = ow * u.SW - u.PW + iw * u.DW;
          if (ww >= 0 && ww < u.W) { count = count + 1.0; }
        }
      }
      acc = acc + dy[yAt(b, oh, ow, c)] / max(count, 1.0);
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
      let v = x[xAt(b, h, w, oc)];
      if (v > best) { best = v; at = (h * u.W + w) * u.C + oc + select(0, b * u.H * u.W * u.C, u.withBatch != 0); }
    }
  }
  result[index] = best;
  positions[index] = at;
}

