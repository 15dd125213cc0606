// TensorFlow.js 4.22 (pure JS @tensorflow/tfjs, cpu backend) runs zoo models on given inputs:
// the reference tests/unit/test_zoo.py compares pytfweb with.
//
//   node tests/zoo_reference.mjs cases.json results.json
//
// cases.json: [{name, model (path of model.json), input (path of the input's raw little-endian
// values), shape, dtype}, ...]. results.json: {name: [{name, shape, dtype, values}, ...]}: every
// output of the model, in the order of its `outputs` (NaN comes out as null).
import {readFileSync, writeFileSync} from 'node:fs';
import {createRequire} from 'node:module';
import {dirname, join} from 'node:path';

const require = createRequire(import.meta.url);
const tf = require('@tensorflow/tfjs');

// @tensorflow/tfjs in node has no file:// handler (that is tfjs-node's): this reads model.json
// and its shards from disk as the http handler reads them over the network.
function fileHandler(modelPath) {
  return {
    async load() {
      const modelJSON = JSON.parse(readFileSync(modelPath, 'utf8'));
      return tf.io.getModelArtifactsForJSON(modelJSON, async (manifest) => {
        const specs = [], shards = [];
        for (const group of manifest) {
          specs.push(...group.weights);
          for (const p of group.paths) {
            const b = readFileSync(join(dirname(modelPath), p));
            shards.push(b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength));
          }
        }
        return [specs, tf.io.concatenateArrayBuffers(shards)];
      });
    },
  };
}

const TYPED = {float32: Float32Array, int32: Int32Array};

async function main([casesPath, resultsPath]) {
  await tf.setBackend('cpu');
  await tf.ready();
  const results = {};
  for (const c of JSON.parse(readFileSync(casesPath, 'utf8'))) {
    const model = await tf.loadGraphModel(fileHandler(c.model));
    const raw = readFileSync(c.input);
    const values = new TYPED[c.dtype](raw.buffer.slice(raw.byteOffset, raw.byteOffset + raw.byteLength));
    const x = tf.tensor(values, c.shape, c.dtype);
    const names = model.outputs.map((o) => o.name);
    let outs = await model.executeAsync({[model.inputs[0].name]: x}, names);
    outs = Array.isArray(outs) ? outs : [outs];
    results[c.name] = [];
    for (let i = 0; i < outs.length; i++) {
      const t = outs[i];
      results[c.name].push({name: names[i], shape: t.shape, dtype: t.dtype, values: Array.from(await t.data())});
    }
    tf.dispose([x, ...outs]);
    model.dispose();
  }
  writeFileSync(resultsPath, JSON.stringify(results));
}

main(process.argv.slice(2)).catch((err) => {
  console.error(err);
  process.exit(1);
});
