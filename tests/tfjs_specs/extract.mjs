// Front end of the TF.js spec translator: one jasmine spec file (compiled .js, or .ts whose types
// are stripped by the TypeScript compiler first) -> JSON on stdout (or one JSON object per file,
// keyed by path, with --out FILE for several files at once):
//   imports  [{local, source, imported}]   imported: a name, "*" (namespace) or "default"
//   helpers  [ESTree statements]           file-level code other than the suites (helper functions, constants)
//   suites   [{kind: "describe", name, flags, line, setup, before_each, after_each, children}]
//            children: suites and {kind: "it", name, line, async, skipped, body, src}
//            flags: the describeWithFlags constraint as written (ALL_ENVS, BROWSER_ENVS, an object
//            literal's source), null for a plain describe
//            setup: statements of the describe body that are not it/describe/before*/after*
//   dynamic  [{line, src, its}]            statements that create `it` cases at run time (a loop
//            around it(...)): reported, not translated
// Locations are reduced to `line` (of the spec file, after type stripping) to keep the JSON small.
import fs from 'node:fs';
import path from 'node:path';
import {createRequire} from 'node:module';

const require = createRequire(import.meta.url);
const acorn = require('acorn');

function loadSource(file) {
  let text = fs.readFileSync(file, 'utf8');
  if (file.endsWith('.ts')) {
    const ts = require('typescript');
    text = ts.transpileModule(text, {
      compilerOptions: {target: ts.ScriptTarget.ES2017, module: ts.ModuleKind.ESNext},
      fileName: path.basename(file),
    }).outputText;
  }
  // the compiled files end with an inline source map: nothing the translator needs
  return text.replace(/\/\/# sourceMappingURL=.*$/m, '');
}

const DROP = new Set(['start', 'end', 'loc', 'range', 'sourceType']);

function slim(node) {
  if (Array.isArray(node)) return node.map(slim);
  if (node === null || typeof node !== 'object') return node;
  const out = {};
  if (node.loc) out.line = node.loc.start.line;
  for (const [k, v] of Object.entries(node)) {
    if (DROP.has(k)) continue;
    if (k === 'value' && node.type === 'Literal' && node.regex) continue;  // a RegExp object: keep .regex
    if (k === 'value' && node.type === 'Literal' && typeof v === 'bigint') { out.value = String(v); continue; }
    out[k] = slim(v);
  }
  return out;
}

function calleeName(call) {
  const c = call.callee;
  if (c.type === 'Identifier') return c.name;
  return null;
}

function isCall(stmt, names) {
  return stmt.type === 'ExpressionStatement' && stmt.expression.type === 'CallExpression' &&
      names.includes(calleeName(stmt.expression));
}

function stringOf(node, text) {
  if (node.type === 'Literal') return String(node.value);
  if (node.type === 'TemplateLiteral' && node.expressions.length === 0) return node.quasis[0].value.cooked;
  if (node.type === 'BinaryExpression' && node.operator === '+') {
    return stringOf(node.left, text) + stringOf(node.right, text);
  }
  return text.slice(node.start, node.end);   // a computed name: its source
}

function fnBody(fn) {
  return fn && (fn.type === 'ArrowFunctionExpression' || fn.type === 'FunctionExpression') ? fn : null;
}

function containsIt(node) {
  let found = 0;
  (function walk(n) {
    if (Array.isArray(n)) return n.forEach(walk);
    if (n === null || typeof n !== 'object') return;
    if (n.type === 'CallExpression' && n.callee.type === 'Identifier' &&
        ['it', 'xit', 'fit'].includes(n.callee.name)) found++;
    for (const [k, v] of Object.entries(n)) if (k !== 'loc') walk(v);
  })(node);
  return found;
}

const DESCRIBES = ['describe', 'describeWithFlags', 'xdescribe', 'fdescribe'];
const ITS = ['it', 'xit', 'fit'];
const HOOKS = ['beforeEach', 'afterEach', 'beforeAll', 'afterAll'];

// Modules of TF.js's test code (not its library) a spec imports helpers from: their top-level
// functions become the spec's helpers (translated with it), and a helper that defines `it`
// cases (identityPoolTest) is expanded where a describe calls it.
const TEST_HELPER = /(_test|rand_util|image_test_util)$/;

function loadHelperModule(file, source, out) {
  const base = path.resolve(path.dirname(file), source);
  const found = ['.js', '.ts'].map(e => base + e).find(f => fs.existsSync(f));
  if (!found) return null;
  if (out.helperModules[found]) return out.helperModules[found];
  const text = loadSource(found);
  const ast = acorn.parse(text, {ecmaVersion: 'latest', sourceType: 'module', locations: true});
  const mod = {functions: {}, text};
  out.helperModules[found] = mod;
  for (const st of ast.body) {
    const decl = st.type === 'ExportNamedDeclaration' && st.declaration ? st.declaration : st;
    if (decl.type === 'ImportDeclaration') {
      for (const sp of decl.specifiers) {
        if (!out.imports.some(i => i.local === sp.local.name)) {
          out.imports.push({
            local: sp.local.name, source: decl.source.value,
            imported: sp.type === 'ImportNamespaceSpecifier' ? '*' :
                sp.type === 'ImportDefaultSpecifier' ? 'default' : sp.imported.name,
          });
        }
      }
    } else if (decl.type === 'FunctionDeclaration' || decl.type === 'ClassDeclaration') {
      mod.functions[decl.id.name] = decl;
      if (!containsIt(decl)) {
        out.helpers.push(Object.assign(slim(decl), {src: text.slice(decl.start, decl.end), from: path.basename(found)}));
      }
    }
  }
  return mod;
}

function helperIts(st, out) {
  // `helper(args)` in a describe body, helper a test-helper function defining it() cases
  if (!(st.type === 'ExpressionStatement' && st.expression.type === 'CallExpression' &&
        st.expression.callee.type === 'Identifier')) return null;
  const fn = out.itHelpers[st.expression.callee.name];
  if (!fn) return null;
  const binds = fn.decl.params.map((p, i) => ({
    name: p.type === 'Identifier' ? p.name : null,
    value: st.expression.arguments[i] ? slim(st.expression.arguments[i]) : null,
  }));
  const its = [];
  for (const inner of fn.decl.body.body) {
    if (isCall(inner, ITS)) its.push(itCase(inner.expression, fn.text, binds));
  }
  return its;
}

function itCase(c, text, binds) {
  const f = fnBody(c.arguments[1]);
  return {
    kind: 'it', name: stringOf(c.arguments[0], text), line: c.loc.start.line,
    async: !!(f && f.async), skipped: calleeName(c) === 'xit',
    params: f ? slim(f.params) : [],
    body: f ? slim(f.body) : null,
    src: text.slice(c.start, c.end),
    binds: binds || [],
  };
}

function suite(call, text, out) {
  const name = calleeName(call);
  const args = call.arguments;
  const withFlags = name === 'describeWithFlags';
  const fn = fnBody(args[withFlags ? 2 : 1]);
  const s = {
    kind: 'describe', name: stringOf(args[0], text), line: call.loc.start.line,
    flags: withFlags ? text.slice(args[1].start, args[1].end) : null,
    skipped: name === 'xdescribe', setup: [], before_each: [], after_each: [], children: [],
    params: fn ? slim(fn.params) : [],
  };
  if (!fn) return s;
  const body = fn.body.type === 'BlockStatement' ? fn.body.body : [];
  for (const st of body) {
    if (isCall(st, DESCRIBES)) {
      s.children.push(suite(st.expression, text, out));
    } else if (isCall(st, ITS)) {
      s.children.push(itCase(st.expression, text));
    } else if (helperIts(st, out)) {
      s.children.push(...helperIts(st, out));
    } else if (isCall(st, HOOKS)) {
      const hook = calleeName(st.expression);
      const f = fnBody(st.expression.arguments[0]);
      const entry = {hook, async: !!(f && f.async), body: f ? slim(f.body) : null};
      if (hook === 'beforeEach' || hook === 'beforeAll') s.before_each.push(entry);
      else s.after_each.push(entry);
    } else if (containsIt(st)) {
      out.dynamic.push({line: st.loc.start.line, suite: s.name, its: containsIt(st), src: text.slice(st.start, st.end)});
    } else {
      s.setup.push(slim(st));
    }
  }
  return s;
}

export function extract(file) {
  const text = loadSource(file);
  const ast = acorn.parse(text, {ecmaVersion: 'latest', sourceType: 'module', locations: true});
  const out = {file, imports: [], helpers: [], suites: [], dynamic: [], helperModules: {}, itHelpers: {}};
  for (const st of ast.body) {
    if (st.type === 'ImportDeclaration' && TEST_HELPER.test(st.source.value) &&
        !/(^|\/)test_util$/.test(st.source.value)) {
      const mod = loadHelperModule(file, st.source.value, out);
      for (const sp of st.specifiers) {
        const decl = mod && sp.imported && mod.functions[sp.imported.name];
        if (decl && containsIt(decl)) out.itHelpers[sp.local.name] = {decl, text: mod.text};
        else if (!decl) out.imports.push({local: sp.local.name, source: st.source.value, imported: sp.imported ? sp.imported.name : '*'});
      }
    } else if (st.type === 'ImportDeclaration') {
      for (const sp of st.specifiers) {
        out.imports.push({
          local: sp.local.name, source: st.source.value,
          imported: sp.type === 'ImportNamespaceSpecifier' ? '*' :
              sp.type === 'ImportDefaultSpecifier' ? 'default' : sp.imported.name,
        });
      }
    } else if (isCall(st, DESCRIBES)) {
      out.suites.push(suite(st.expression, text, out));
    } else if (containsIt(st) && /FunctionDeclaration$/.test(st.type === 'ExportNamedDeclaration' && st.declaration ?
                                                               st.declaration.type : st.type)) {
      // a function defining it() cases (identityPoolTest): its cases count where a spec calls it
    } else if (containsIt(st)) {
      out.dynamic.push({line: st.loc.start.line, suite: null, its: containsIt(st), src: text.slice(st.start, st.end)});
    } else {
      const decl = st.type === 'ExportNamedDeclaration' && st.declaration ? st.declaration : st;
      out.helpers.push(Object.assign(slim(decl), {src: text.slice(decl.start, decl.end)}));
    }
  }
  // the literal constants TF.js's internal modules export (selu_util.SELU_SCALE,
  // reduce_util.PARALLELIZE_THRESHOLD): values the specs compute expectations or sizes from
  out.constants = {};
  for (const imp of out.imports) {
    if (!imp.source.startsWith('.') || out.constants[imp.source]) continue;
    const base = path.resolve(path.dirname(file), imp.source);
    const found = ['.js', '.ts'].map(e => base + e).find(f => fs.existsSync(f));
    if (!found) continue;
    const consts = {};
    let ast2;
    try {
      ast2 = acorn.parse(loadSource(found), {ecmaVersion: 'latest', sourceType: 'module'});
    } catch (e) {
      continue;
    }
    for (const st of ast2.body) {
      const d = st.type === 'ExportNamedDeclaration' && st.declaration;
      if (!d || d.type !== 'VariableDeclaration' || d.kind !== 'const') continue;
      for (const v of d.declarations) {
        const init = v.init;
        if (v.id.type !== 'Identifier' || !init) continue;
        if (init.type === 'Literal' && ['number', 'string', 'boolean'].includes(typeof init.value)) {
          consts[v.id.name] = init.value;
        } else if (init.type === 'UnaryExpression' && init.operator === '-' && init.argument.type === 'Literal' &&
                   typeof init.argument.value === 'number') {
          consts[v.id.name] = -init.argument.value;
        }
      }
    }
    out.constants[imp.source] = consts;
  }
  delete out.helperModules;
  delete out.itHelpers;
  return out;
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const args = process.argv.slice(2);
  const outAt = args.indexOf('--out');
  if (outAt >= 0) {
    const dest = args[outAt + 1];
    const files = args.filter((a, i) => i !== outAt && i !== outAt + 1);
    const all = {};
    for (const f of files) all[f] = extract(f);
    fs.writeFileSync(dest, JSON.stringify(all));
  } else {
    for (const f of args) process.stdout.write(JSON.stringify(extract(f)) + '\n');
  }
}
