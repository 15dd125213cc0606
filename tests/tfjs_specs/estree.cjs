// A spec file's TypeScript on stdin -> its ESTree as JSON on stdout (types stripped by
// typescript's transpileModule, parsed by acorn), for the Python translators beside this file.
const ts = require('typescript');
const acorn = require('acorn');
const src = require('fs').readFileSync(0, 'utf8');
const js = ts.transpileModule(src, {
  compilerOptions: {target: ts.ScriptTarget.ES2020, module: ts.ModuleKind.ES2020},
}).outputText;
const tree = acorn.parse(js, {ecmaVersion: 2022, sourceType: 'module', locations: true});
process.stdout.write(JSON.stringify(tree, (k, v) => (k === 'start' || k === 'end' ? undefined : v)));
