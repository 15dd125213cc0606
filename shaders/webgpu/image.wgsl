// Image kernels (programs/image.py). The per-axis source positions come from Python (computed in
// float64 as cpu computes them, so the same pixels are chosen): idx holds the rows' lower then
// upper index, then the columns' (for nearest neighbour: the rows', then the columns'); wts the
// rows' then the columns' weights of the upper index. Images are [B, H, W, C]; the output
// [B, OH, OW, C].

// @program bilinear
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let index = i32(gid.x + gid.y * nwg.x * 64u);
  if (index >= u.size) { return; }
  let c = index % u.C;
  let x = (index / u.C) % u.OW;
  let y = (index / (u.C * u.OW)) % u.OH;
  let b = index / (u.C * u.OW * u.OH);
  let r0 = idx[y];
  let r1 = idx[u.OH + y];
  let c0 = idx[2 * u.OH + x];
  let c1 = idx[2 * u.OH + u.OW + x];
  let fr = wts[y];
  let fc = wts[u.OH + x];
  let tl = images[((b * u.H + r0) * u.W + c0) * u.C + c];
  let tr = images[((b * u.H + r0) * u.W + c1) * u.C + c];
  let bl = images[((b * u.H + r1) * u.W + c0) * u.C + c];
  let br = images[((b * u.H + r1) * u.W + c1) * u.C + c];
  let top = tl + (tr - tl) * fc;
  let bottom = bl + (br - bl) * fc;
  result[index] = top + (bottom - top) * fr;
}

// @program nearest
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let index = i32(gid.x + gid.y * nwg.x * 64u);
  if (index >= u.size) { return; }
  let c = index % u.C;
  let x = (index / u.C) % u.OW;
  let y = (index / (u.C * u.OW)) % u.OH;
  let b = index / (u.C * u.OW * u.OH);
  result[index] = images[((b * u.H + idx[y]) * u.W + idx[u.OH + x]) * u.C + c];
}

// @program bilinear_grad
// dx[b, h, w, c] = sum over output pixels (y, x) of dy[b, y, x, c] times the weight with which
// (y, x) read (h, w): rowWeight(y, h) * colWeight(x, w) (the tables of the forward resize).
fn rowWeight(y: i32, h: i32) -> f32 {
  var v = 0.0;
  if (idx[y] == h) { v = v + 1.0 - wts[y]; }
  if (idx[u.OH + y] == h) { v = v + wts[y]; }
  return v;
}
fn colWeight(x: i32, w: i32) -> f32 {
  var v = 0.0;
  if (idx[2 * u.OH + x] == w) { v = v + 1.0 - wts[u.OH + x]; }
  if (idx[2 * u.OH + u.OW + x] == w) { v = v + wts[u.OH + x]; }
  return v;
}
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let index = i32(gid.x + gid.y * nwg.x * 64u);
  if (index >= u.size) { return; }
  let c = index % u.C;
  let w = (index / u.C) % u.W;
  let h = (index / (u.C * u.W)) % u.H;
  let b = index / (u.C * u.W * u.H);
  var acc = 0.0;
  for (var y = 0; y < u.OH; y++) {
    let wy = rowWeight(y, h);
    if (wy == 0.0) { continue; }
    var row = 0.0;
    for (var x = 0; x < u.OW; x++) {
      let wx = colWeight(x, w);
      if (wx != 0.0) { row = row + dy[((b * u.OH + y) * u.OW + x) * u.C + c] * wx; }
    }
    acc = acc + row * wy;
  }
  result[index] = acc;
}

// @program nearest_grad
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let index = i32(gid.x + gid.y * nwg.x * 64u);
  if (index >= u.size) { return; }
  let c = index % u.C;
  let w = (index / u.C) % u.W;
  let h = (index / (u.C * u.W)) % u.H;
  let b = index / (u.C * u.W * u.H);
  var acc = 0.0;
  for (var y = 0; y < u.OH; y++) {
    if (idx[y] != h) { continue; }
    for (var x = 0; x < u.OW; x++) {
      if (idx[u.OH + x] == w) { acc = acc + dy[((b * u.OH + y) * u.OW + x) * u.C + c]; }
    }
  }
  result[index] = acc;
}

// @program rotate
// out[b, y, x, c] = image[b, src] for the source pixel src = table[y * W + x] (-1: the fill value
// of channel c, u.fill<c> for c < 4, else u.fill0).
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let index = i32(gid.x + gid.y * nwg.x * 64u);
  if (index >= u.size) { return; }
  let c = index % u.C;
  let p = (index / u.C) % (u.H * u.W);
  let b = index / (u.C * u.H * u.W);
  let src = table[p];
  var fills = array<TYPE, 4>(u.fill0, u.fill1, u.fill2, u.fill3);
  if (src < 0) { result[index] = fills[select(0, c, c < 4)]; return; }
  result[index] = images[(b * u.H * u.W + src) * u.C + c];
}
