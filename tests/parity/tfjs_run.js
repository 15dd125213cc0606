// Runs the parity cases (JSON on stdin) in TensorFlow.js (cpu backend, under node) and prints what each
// gives: outputs (shape, dtype, values) and, for grad cases, the gradients; or the error it throws.
// A case with `use` makes something of the object its function returns (spec.py: apply, props, stats,
// layer, optimizer); runner.py does the same in pytfweb.
// Usage: node tfjs_run.js <path of @tensorflow/tfjs>
const tf = require(process.argv[2]);

function num(v) {
  if (v && typeof v === 'object' && 'float' in v) return Number(v.float);
  return v;
}
// a function argument (spec.fn_arg): the same deterministic function on both sides
function makeFunction(f) {
  if (f.fn === 'counter') {   // start, start + step, ... modulo mod
    const [start, step, mod] = f.params;
    let k = 0;
    return () => { const v = start + step * k++; return mod ? v % mod : v; };
  }
  if (f.fn === 'basicLSTMCell') {   // a basicLSTMCell with its weights bound, as multiRNNCell takes it
    const [forgetBias, kernel, bias] = f.params.map(decode);
    return (data, c, h) => tf.basicLSTMCell(forgetBias, kernel, bias, data, c, h);
  }
  if (f.fn === 'weightsOf') {   // a loadWeights callback: the manifest -> Promise of [its specs, data]
    const [data] = f.params.map(decode);
    return async manifest => [[].concat(...manifest.map(g => g.weights)), data];
  }
  if (f.fn === 'after') {   // false until its n-th call, then true (a tf.util.repeatedTry check)
    const [n] = f.params;
    let k = 0;
    return () => ++k >= n;
  }
  if (f.fn === 'scale') { const [k] = f.params; return x => (x instanceof tf.Tensor ? tf.mul(x, k) : x * k); }
  if (f.fn === 'above') { const [k] = f.params; return x => x > k; }
  if (f.fn === 'range') {   // a generator function of 0 .. n - 1, or of {xs: [i, i + 1], ys: i} with pairs
    const [n, pairs] = f.params;
    return function* () { for (let i = 0; i < n; i++) yield pairs ? {xs: [i, i + 1], ys: i} : i; };
  }
  if (f.fn === 'countdown') {   // a tf.data.func function: {value: 0, done: false}, ... n - 1, then done
    const [n] = f.params;
    let i = 0;
    return () => (i < n ? {value: i++, done: false} : {value: null, done: true});
  }
  throw new Error(`unknown function argument ${f.fn}`);
}
function decode(v) {
  if (Array.isArray(v)) return v.map(decode);
  if (v && typeof v === 'object' && 'tensor' in v) return tf.tensor(v.tensor.map(num), v.shape, v.dtype);
  if (v && typeof v === 'object' && 'float' in v) return num(v);
  if (v && typeof v === 'object' && 'bytes' in v) {   // a Uint8Array, or with "buffer" its ArrayBuffer
    const bytes = new Uint8Array(v.bytes);
    return v.buffer ? bytes.buffer : bytes;
  }
  if (v && typeof v === 'object' && 'fn' in v) return makeFunction(v);
  if (v && typeof v === 'object' && 'make' in v) return resolve(v.make)(...v.args.map(decode));   // spec.made
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
// a Long (tf.util.fingerPrint64, hexToLong): its decimal string; pytfweb returns an int
function isLong(v) {
  return v && typeof v === 'object' && 'low' in v && 'high' in v && 'unsigned' in v && typeof v.toString === 'function';
}
function encode(v) {
  if (isLong(v)) return {long: v.toString()};
  if (v instanceof tf.Tensor) {
    let values;
    if (v.dtype === 'string') values = v.dataSync().map(b => Buffer.from(b).toString('utf8'));
    else values = Array.from(v.dataSync()).map(encNum);
    return {tensor: values, shape: v.shape, dtype: v.dtype};
  }
  if (v instanceof ArrayBuffer || v instanceof Uint8Array) return {bytes: Array.from(new Uint8Array(v))};
  if (ArrayBuffer.isView(v)) return Array.from(v).map(encNum);   // other typed arrays
  if (Array.isArray(v)) return v.map(encode);
  if (v && typeof v === 'object') {
    const o = {};
    for (const [k, x] of Object.entries(v)) if (x !== undefined) o[k] = encode(x);
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
  if (Array.isArray(out)) return first(out[0]);
  return first(Object.values(out)[0]);
}
function floatIndices(args) {
  const idx = [];
  args.forEach((a, i) => { if (a instanceof tf.Tensor && a.dtype === 'float32') idx.push(i); });
  return idx;
}
// spec.layer_case's deterministic weights: weight j holds sin(i + 1 + 3j) * scale + offset
function layerWeight(shape, j, scale, offset) {
  const n = shape.reduce((a, b) => a * b, 1);
  return tf.tensor(Array.from({length: n}, (_, i) => Math.sin(i + 1 + 3 * j) * scale + offset), shape);
}
// spec.optimizer_case's loss: the sum over variables of sum(v^2 / 2 + sin(3 v))
function optimizerLoss(vars) {
  return tf.addN(vars.map(v => tf.sum(tf.add(tf.mul(tf.square(v), 0.5), tf.sin(tf.mul(v, 3))))));
}

// What the case computes: {value, grad: [inputs, function of them] or null, cleanup}
async function build(c, fn, args) {
  const use = c.use;
  if (!use) {
    const idx = floatIndices(args);
    const f = (...xs) => { const a = args.slice(); idx.forEach((j, k) => { a[j] = xs[k]; }); return first(fn(...a)); };
    return {value: await fn(...args), grad: [idx.map(j => args[j]), f], cleanup: () => {}};
  }
  const obj = fn(...args);
  if (use.kind === 'apply') return {value: obj.apply(...use.args.map(decode)), grad: null, cleanup: () => {}};
  if (use.kind === 'props') {
    const o = {};
    for (const p of use.props) o[p] = p.split('.').reduce((x, k) => x[k], obj);
    return {value: o, grad: null, cleanup: () => {}};
  }
  if (use.kind === 'stats') {   // a random initializer's draw: shape, dtype, mean and standard deviation
    const t = obj.apply(...use.args.map(decode));
    const m = tf.moments(t);
    return {value: {shape: t.shape, dtype: t.dtype, mean: m.mean.dataSync()[0], std: Math.sqrt(m.variance.dataSync()[0])},
            grad: null, cleanup: () => {}};
  }
  if (use.kind === 'layer') {
    const inputs = decode(use.inputs);
    const callArgs = use.call ? decode(use.call) : {};
    tf.dispose(obj.apply(inputs, callArgs));   // builds it
    const shapes = obj.getWeights().map(w => w.shape);
    const given = use.weights ? decode(use.weights) : null;
    const ws = given || shapes.map((s, j) => layerWeight(s, j, use.scale, use.offset));
    obj.setWeights(ws);
    tf.dispose(ws);
    const many = Array.isArray(inputs);
    const xs = many ? inputs : [inputs];
    const idx = floatIndices(xs);
    const f = (...ys) => {
      const a = xs.slice();
      idx.forEach((j, k) => { a[j] = ys[k]; });
      return first(obj.apply(many ? a : a[0], callArgs));
    };
    return {value: {output: obj.apply(inputs, callArgs), weight_shapes: shapes}, grad: [idx.map(j => xs[j]), f],
            cleanup: () => obj.dispose()};
  }
  if (use.kind === 'optimizer') {
    const vars = use.vars.map((v, j) => tf.variable(decode(v), true, `${c.id}/v${j}`));
    const cleanup = () => { obj.dispose(); tf.dispose(vars); };
    try {
      const costs = [];
      for (let s = 0; s < use.steps; s++) {
        if (use.grads) obj.applyGradients(Object.fromEntries(vars.map((v, j) => [v.name, decode(use.grads[j])])));
        else costs.push(obj.minimize(() => optimizerLoss(vars), true, vars));
      }
      const value = {variables: vars.map(v => v.clone()), costs};
      if (use.slots) value.weights = (await obj.getWeights()).map(w => [w.name, w.tensor]);
      return {value, grad: null, cleanup};
    } catch (e) { cleanup(); throw e; }
  }
  if (use.kind === 'chain') {   // methods called (and properties read) in turn, awaiting what they return
    let x = obj;
    if (x && typeof x.then === 'function') x = await x;   // a function that returns a Promise (tf.util.fetch)
    for (const [name, callArgs] of use.calls) {
      x = callArgs === undefined ? x[name] : x[name](...callArgs.map(decode));
      if (x && typeof x.then === 'function') x = await x;
    }
    return {value: x, grad: null, cleanup: () => {}};
  }
  throw new Error(`unknown use ${use.kind}`);
}

(async () => {
  await tf.setBackend('cpu');
  const cases = JSON.parse(require('fs').readFileSync(0, 'utf8'));
  const results = {};
  for (const c of cases) {
    const r = {};
    let cleanup = () => {};
    try {
      const fn = resolve(c.fn);
      const args = c.args.map(decode);
      if (c.opts) args.push(decode(c.opts));
      const b = await build(c, fn, args);
      cleanup = b.cleanup;
      r.outputs = b.value === undefined ? null : encode(b.value);
      if (c.grad) try {
        const [xs, f] = b.grad;
        const y = f(...xs);
        const dy = tf.tensor(Array.from({length: y.size}, (_, i) => Math.sin(i + 1)), y.shape, y.dtype);
        r.grads = encode(tf.grads(f)(xs, dy));
      } catch (e) {
        r.grad_error = String(e.message || e).slice(0, 300);   // TF.js cannot differentiate this case
      }
    } catch (e) {
      r.error = String((e && e.message) || e).slice(0, 300);   // a Promise may reject with nothing
      r.error_kind = (e && e.name) || 'Error';   // Error; TypeError or RangeError where TF.js or JS throws one
    }
    try { cleanup(); } catch (e) { /* a layer TF.js could not build has nothing to free */ }
    results[c.id] = r;
  }
  process.stdout.write(JSON.stringify(results));
})().catch(e => { console.error(e.stack || e); process.exit(1); });
