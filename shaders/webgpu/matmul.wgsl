// BatchMatMul (programs/matmul.py): a tiled GEMM in workgroup memory. A workgroup of 8 x 8
// invocations computes a 32 x 32 tile of one batch entry's output, each invocation 4 x 4 values
// (rows ty + 8i, columns tx + 8j) in four vec4 accumulators, stepping through K 32 at a time: the
// A and B tiles are loaded once into workgroup memory by all 64 invocations (16 values each, as
// vec4s) and read 32 times.
// The operands come from loadA(base, row, k) and loadB(base, k, column), sections load_matrices
// (BatchMatMul) or load_conv (Conv2D as an implicit GEMM), which Python puts before main.
// Python fills in TYPE (f32 or i32), TRANSPOSE_A / TRANSPOSE_B (true or false) and the batch
// coordinates (BATCH_COORDS, BATCH_A, BATCH_B: offsets of a's and b's matrices; a broadcast batch
// dim has stride 0). Out-of-range tile entries load 0: along K both sides are 0 there, and rows
// or columns beyond M or N are never written.

// @program load_matrices
// BatchMatMul's operands: a [M, K] (or [K, M] transposed) and b [K, N] (or [N, K]) per batch entry.
fn loadA(base: i32, r: i32, k: i32) -> TYPE {
  if (r >= u.M || k >= u.K) { return TYPE(0); }
  if (TRANSPOSE_A) { return a[base + k * u.M + r]; }
  return a[base + r * u.K + k];
}

fn loadB(base: i32, k: i32, c: i32) -> TYPE {
  if (k >= u.K || c >= u.N) { return TYPE(0); }
  if (TRANSPOSE_B) { return b[base + c * u.K + k]; }
  return b[base + k * u.N + c];
}

// @program load_conv
// Conv2D (NHWC) as an implicit GEMM (programs/conv.py): row r of A is output position (b, oh, ow)
// and column k the filter tap (kh, kw, c), read from x on the fly (0 in the padding), as im2col
// would lay it out; B is the filter [FH * FW * C, OC] as it is stored.
fn loadA(base: i32, r: i32, k: i32) -> TYPE {
  if (r >= u.M || k >= u.K) { return TYPE(0); }
  let ow = r % u.OW;
  let oh = (r / u.OW) % u.OH;
  let bb = r / (u.OW * u.OH);
  let c = k % u.C;
  let kw = (k / u.C) % u.FW;
  let kh = k / (u.C * u.FW);
  let h = oh * u.SH - u.PH + kh * u.DH;
  let w = ow * u.SW - u.PW + kw * u.DW;
  if (h < 0 || h >= u.H || w < 0 || w >= u.W) { return TYPE(0); }
  return a[((bb * u.H + h) * u.W + w) * u.C + c];
}

fn loadB(base: i32, k: i32, c: i32) -> TYPE {
  if (k >= u.K || c >= u.N) { return TYPE(0); }
  return b[k * u.N + c];
}

// @program load_conv_dx
// Conv2DBackpropInput (NHWC) as an implicit GEMM: row r of A is input position (b, h, w), column k
// the tap and output channel (kh, kw, oc); A holds dy at the output position that reads (h, w)
// through (kh, kw) (0 where there is none); B[k, c] = filter[kh, kw, c, oc].
fn loadA(base: i32, r: i32, k: i32) -> TYPE {
  if (r >= u.M || k >= u.K) { return TYPE(0); }
  let w = r % u.W;
  let h = (r / u.W) % u.H;
  let bb = r / (u.W * u.H);
  let oc = k % u.OC;
  let kw = (k / u.OC) % u.FW;
  let kh = k / (u.OC * u.FW);
  let th = h + u.PH - kh * u.DH;
  let tw = w + u.PW - kw * u.DW;
  if (th < 0 || tw < 0 || th % u.SH != 0 || tw % u.SW != 0) { return TYPE(0); }
  let oh = th / u.SH;
  let ow = tw / u.SW;
  if (oh >= u.OH || ow >= u.OW) { return TYPE(0); }
  return a[((bb * u.OH + oh) * u.OW + ow) * u.OC + oc];
}

fn loadB(base: i32, k: i32, c: i32) -> TYPE {
  if (k >= u.K || c >= u.N) { return TYPE(0); }
  let oc = k % u.OC;
  let tap = k / u.OC;
  return b[(tap * u.C + c) * u.OC + oc];
}

// @program load_conv_df
// Conv2DBackpropFilter (NHWC) as an implicit GEMM: row r of A is the tap (kh, kw, c), column k
// the output position (b, oh, ow); A holds x where that tap of that position reads it (0 in the
// padding); B is dy as [B * OH * OW, OC].
fn loadA(base: i32, r: i32, k: i32) -> TYPE {
  if (r >= u.M || k >= u.K) { return TYPE(0); }
  let c = r % u.C;
  let kw = (r / u.C) % u.FW;
  let kh = r / (u.C * u.FW);
  let ow = k % u.OW;
  let oh = (k / u.OW) % u.OH;
  let bb = k / (u.OW * u.OH);
  let h = oh * u.SH - u.PH + kh * u.DH;
  let w = ow * u.SW - u.PW + kw * u.DW;
  if (h < 0 || h >= u.H || w < 0 || w >= u.W) { return TYPE(0); }
  return a[((bb * u.H + h) * u.W + w) * u.C + c];
}

fn loadB(base: i32, k: i32, c: i32) -> TYPE {
  if (k >= u.K || c >= u.N) { return TYPE(0); }
  return b[k * u.N + c];
}

// @program main
// The tiles hold vec4s: tileA[k][ty] = A's column k at rows ty, ty + 8, ty + 16, ty + 24 of the
// tile, tileB[k][tx] = B's row k at columns tx, tx + 8, tx + 16, tx + 24: two vec4 reads per k
// give an invocation its 4 x 4 outer product.
var<workgroup> tileA: array<array<vec4<TYPE>, 8>, 32>;
var<workgroup> tileB: array<array<vec4<TYPE>, 8>, 32>;

@compute @workgroup_size(8, 8, 1)
fn main(@builtin(workgroup_id) wid: vec3<u32>, @builtin(local_invocation_id) lid: vec3<u32>,
        @builtin(local_invocation_index) flat: u32) {
  let batch = i32(wid.z);
BATCH_COORDS
  let aBase = BATCH_A;
  let bBase = BATCH_B;
  let row0 = i32(wid.y) * 32;
  let col0 = i32(wid.x) * 32;
  let ty = i32(lid.y);
  let tx = i32(lid.x);
  // Each invocation fills entries (lk + 8j, lt) (j < 4) of both tiles.
  let lk = i32(flat) / 8;
  let lt = i32(flat) % 8;
  // One vec4 per output row ty + 8i, over the columns tx + 8j (j < 4): no arrays indexed in loops,
  // which a CPU implementation such as SwiftShader would keep in memory.
  var acc0 = vec4<TYPE>(TYPE(0));
  var acc1 = vec4<TYPE>(TYPE(0));
  var acc2 = vec4<TYPE>(TYPE(0));
  var acc3 = vec4<TYPE>(TYPE(0));
  for (var k0 = 0; k0 < u.K; k0 += 32) {
    for (var j = 0; j < 32; j += 8) {
      let k = k0 + lk + j;
      tileA[lk + j][lt] = vec4<TYPE>(loadA(aBase, row0 + lt, k), loadA(aBase, row0 + lt + 8, k),
                                     loadA(aBase, row0 + lt + 16, k), loadA(aBase, row0 + lt + 24, k));
      tileB[lk + j][lt] = vec4<TYPE>(loadB(bBase, k, col0 + lt), loadB(bBase, k, col0 + lt + 8),
                                     loadB(bBase, k, col0 + lt + 16), loadB(bBase, k, col0 + lt + 24));
    }
    workgroupBarrier();
    for (var k = 0; k < 32; k++) {
      let av = tileA[k][ty];
      let bv = tileB[k][tx];
      acc0 = acc0 + av.x * bv;
      acc1 = acc1 + av.y * bv;
      acc2 = acc2 + av.z * bv;
      acc3 = acc3 + av.w * bv;
    }
    workgroupBarrier();
  }
  let outBase = batch * u.M * u.N;
  store(outBase, row0 + ty, col0 + tx, acc0);
  store(outBase, row0 + ty + 8, col0 + tx, acc1);
  store(outBase, row0 + ty + 16, col0 + tx, acc2);
  store(outBase, row0 + ty + 24, col0 + tx, acc3);
}

// Row r of the output at columns c, c + 8, c + 16, c + 24 (those inside M x N).
fn store(outBase: i32, r: i32, c: i32, v: vec4<TYPE>) {
  if (r >= u.M) { return; }
  if (c < u.N) { result[outBase + r * u.N + c] = v.x; }
  if (c + 8 < u.N) { result[outBase + r * u.N + c + 8] = v.y; }
  if (c + 16 < u.N) { result[outBase + r * u.N + c + 16] = v.z; }
  if (c + 24 < u.N) { result[outBase + r * u.N + c + 24] = v.w; }
}
