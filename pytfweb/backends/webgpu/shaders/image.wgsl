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
  let tl = f32(images[((b * u.H + r0) * u.W + c0) * u.C + c]);
  let tr = f32(images[((b * u.H + r0) * u.W + c1) * u.C + c]);
  let bl = f32(images[((b * u.H + r1) * u.W + c0) * u.C + c]);
  let br = f32(images[((b * u.H + r1) * u.W + c1) * u.C + c]);
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

// @program crop_and_resize
// out[n, y, x, c] from the image box_ind[n] at the positions of tables computed in float64 by
// Python (programs/image.py): per box n and output row y, rows[(n * OH + y) * 3 + 0..2] = top,
// bottom, inside (0/1) and fy[n * OH + y] the weight of the bottom; likewise per box and output
// column for cols and fx; box[n] the image index (-1: zeros). Nearest: top holds the row.
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let index = i32(gid.x + gid.y * nwg.x * 64u);
  if (index >= u.size) { return; }
  let c = index % u.C;
  let x = (index / u.C) % u.OW;
  let y = (index / (u.C * u.OW)) % u.OH;
  let n = index / (u.C * u.OW * u.OH);
  let k = box[n];
  if (k < 0) { result[index] = 0.0; return; }
  let r = (n * u.OH + y) * 3;
  let q = (n * u.OW + x) * 3;
  if (rows[r + 2] == 0 || cols[q + 2] == 0) { result[index] = u.extrapolation; return; }
  let base = k * u.H;
  if (u.nearest != 0) {
    result[index] = f32(images[((base + rows[r]) * u.W + cols[q]) * u.C + c]);
    return;
  }
  let tl = f32(images[((base + rows[r]) * u.W + cols[q]) * u.C + c]);
  let tr = f32(images[((base + rows[r]) * u.W + cols[q + 1]) * u.C + c]);
  let bl = f32(images[((base + rows[r + 1]) * u.W + cols[q]) * u.C + c]);
  let br = f32(images[((base + rows[r + 1]) * u.W + cols[q + 1]) * u.C + c]);
  let fx = weights[u.N * u.OH + n * u.OW + x];
  let upper = tl + (tr - tl) * fx;
  let lower = bl + (br - bl) * fx;
  result[index] = upper + (lower - upper) * weights[n * u.OH + y];
}

// @program transform
// Transform: per transform row t and output pixel p, Python's float64 tables (as cpu computes
// them) give pos[(t * P + p) * 3 + 0..2] = y0, x0 (nearest: the pixel; bilinear: the upper-left
// of the four) and 1 where the projection is 0 (the fill value), and frac[(t * P + p) * 2 + 0..1]
// = ys - y0, xs - x0. A sample outside the image reads the fill value.
fn sample(b: i32, yy: i32, xx: i32, c: i32) -> f32 {
  if (yy < 0 || yy >= u.H || xx < 0 || xx >= u.W) { return u.fill; }
  return f32(images[((b * u.H + yy) * u.W + xx) * u.C + c]);
}

@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let index = i32(gid.x + gid.y * nwg.x * 64u);
  if (index >= u.size) { return; }
  let c = index % u.C;
  let p = (index / u.C) % (u.OH * u.OW);
  let b = index / (u.C * u.OH * u.OW);
  let e = select(0, b, u.rows > 1) * u.OH * u.OW + p;
  let y0 = pos[e * 3];
  let x0 = pos[e * 3 + 1];
  var v: f32;
  if (pos[e * 3 + 2] != 0) {
    v = u.fill;
  } else if (u.nearest != 0) {
    v = sample(b, y0, x0, c);
  } else {
    let fy = frac[e * 2];
    let fx = frac[e * 2 + 1];
    let upper = (1.0 - fx) * sample(b, y0, x0, c) + fx * sample(b, y0, x0 + 1, c);
    let lower = (1.0 - fx) * sample(b, y0 + 1, x0, c) + fx * sample(b, y0 + 1, x0 + 1, c);
    v = (1.0 - fy) * upper + fy * lower;
  }
  result[index] = STORE;
}
