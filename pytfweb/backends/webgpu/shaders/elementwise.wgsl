// The entry point of the elementwise programs (programs/elementwise.py fills in LOADS, the
// loads of each input at its broadcast index, and STORE, the result's expression). One
// invocation per output value; 64 per workgroup; a second grid dimension where there are more
// than 64 * 65535 values.

// @program main
@compute @workgroup_size(64)
fn main(@builtin(global_invocation_id) gid: vec3<u32>, @builtin(num_workgroups) nwg: vec3<u32>) {
  let index = i32(gid.x + gid.y * nwg.x * 64u);
  if (index >= u.size) { return; }
COORDS
LOADS
  result[index] = STORE;
}
