// BatchMatMul (programs/matmul.py): a tiled GEMM in workgroup memory. A workgroup of 8 x 8
// invocations computes a 32 x 32 tile of one batch entry's output, each invocation 4 x 4 values
// (rows ty + 8i, columns tx + 8j), stepping through K 32 at a time: the A and B tiles are loaded
// once into workgroup memory by all 64 invocations (16 values each) and read 32 times.
// Python fills in TYPE (f32 or i32), TRANSPOSE_A / TRANSPOSE_B (true or false) and the batch
// coordinates (BATCH_COORDS, BATCH_A, BATCH_B: offsets of a's and b's matrices; a broadcast batch
// dim has stride 0). Out-of-range tile entries load 0: along K both sides are 0 there, and rows
// or columns beyond M or N are never written.

// @program main
var<workgroup> tileA: array<array<TYPE, 32>, 32>;   // [row][k]
var<workgroup> tileB: array<array<TYPE, 32>, 32>;   // [k][column]

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
  var acc: array<array<TYPE, 4>, 4>;
  for (var i = 0; i < 4; i++) {
    for (var j = 0; j < 4; j++) { acc[i][j] = TYPE(0); }
  }
  for (var k0 = 0; k0 < u.K; k0 += 32) {
    for (var i = 0; i < 16; i++) {
      let e = i * 64 + i32(flat);
      let r = e / 32;
      let c = e % 32;
      tileA[r][c] = loadA(aBase, row0 + r, k0 + c);
      tileB[r][c] = loadB(bBase, k0 + r, col0 + c);
    }
    workgroupBarrier();
    for (var k = 0; k < 32; k++) {
      var bv: array<TYPE, 4>;
      for (var j = 0; j < 4; j++) { bv[j] = tileB[k][tx + 8 * j]; }
      for (var i = 0; i < 4; i++) {
        let av = tileA[ty + 8 * i][k];
        for (var j = 0; j < 4; j++) { acc[i][j] = acc[i][j] + av * bv[j]; }
      }
    }
    workgroupBarrier();
  }
  let outBase = batch * u.M * u.N;
  for (var i = 0; i < 4; i++) {
    let r = row0 + ty + 8 * i;
    for (var j = 0; j < 4; j++) {
      let c = col0 + tx + 8 * j;
      if (r < u.M && c < u.N) { result[outBase + r * u.N + c] = acc[i][j]; }
    }
  }
}
