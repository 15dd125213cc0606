// Runs the parity cases (JSON on stdin) in TensorFlow.js (cpu backend, under node) and prints what each
// gives: outputs (shape, dtype, values) and, for grad cases, the gradients; or the error it throws.
// Usage: node tfjs_run.js <path of @tensorflow/tfjs>
const tf = require(process.argv[2]);

function num(v) {
  if (v && typeof v === 'object' && 'float' in v) return Number(v.float);
  return v;
}
function decode(v) {
  if (Array.isArray(v)) return v.map(decode);
  if (v && typeof v === 'object' && 'tensor' in v) {
    const vals = v.tensor.map(num);
    return tf.tensor(v.dtype === 'string' ? vals : vals, v.shape, v.dtype);
  }
  if (v && typeof v === 'object' && 'float' in v) return num(v);
  if (v && typeof v === 'object') {
    const o = {};
    for (const [k, x] of Object.entries(v)) o[k] = decode(x);
    return o;
  }
  return v;
}
function encNum(x) {
  if (typeof x === 'number' && !Number.isFinite(x)) return {float: Number.isNaN(x) ? 'NaN' : (x > 0 ? 'Infinity' : '-Infinity')};
  return x;
}
function encode(v) {
  if (v instanceof tf.Tensor) {
    let values;
    if (v.dtype === 'string') values = v.dataSync().map(b => Buffer.from(b).toString('utf8'));
    else values = Array.from(v.dataSync()).map(encNum);
    return {tensor: values, shape: v.shape, dtype: v.dtype};
  }
  if (Array.isArray(v)) return v.map(encode);
  if (v && typeof v === 'object') {
    const o = {};
    for (const [k, x] of Object.entries(v)) o[k] = encode(x);
    return o;
  }
  return encNum(v);
}
function resolve(path) {
  let f = tf;
  for (const part of path.split('.').slice(1)) f = f[part];
  if (typeof f !== 'function') throw new Error(`no function ${path}`);
  return f;
}
function first(out) {
  if (out instanceof tf.Tensor) return out;
  if (Array.isArray(out)) return out[0];
  return Object.values(out)[0];
}

(async () => {
  await tf.setBackend('cpu');
  const cases = JSON.parse(require('fs').readFileSync(0, 'utf8'));
  const results = {};
  for (const c of cases) {
    const r = {};
    try {
      const fn = resolve(c.fn);
      const args = c.args.map(decode);
      if (c.opts) args.push(decode(c.opts));
      let out = fn(...args);
      if (out && typeof out.then === 'function') out = await out;
      r.outputs = encode(out);
      if (c.grad) try {
        const idx = [];
        args.forEach((a, i) => { if (a instanceof tf.Tensor && a.dtype === 'float32') idx.push(i); });
        const y = first(out);
        const n = y.size;
        const dy = tf.tensor(Array.from({length: n}, (_, i) => Math.sin(i + 1)), y.shape, y.dtype);
        const f = (...xs) => {
          const a = args.slice();
          idx.forEach((j, k) => { a[j] = xs[k]; });
          return first(fn(...a));
        };
        r.grads = encode(tf.grads(f)(idx.map(j => args[j]), dy));
      } catch (e) {
        r.grad_error = String(e.message || e).slice(0, 300);   // TF.js cannot differentiate this case
      }
    } catch (e) {
      r.error = String(e.message || e).slice(0, 300);
    }
    results[c.id] = r;
  }
  process.stdout.write(JSON.stringify(results));
})().catch(e => { console.error(e.stack || e); process.exit(1); });
