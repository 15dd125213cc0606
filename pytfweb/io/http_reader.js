// What tf.io.http needs of fetch in the page, with the limits a server we do not control calls for:
// a response within timeoutMs, then its body read chunk by chunk, each chunk within timeoutMs, never
// more than maxBytes in all (a Content-Length says nothing of a compressed or chunked body).
({
  timeoutError(what, ms) {
    return new Error(`${what} within ${ms / 1000} s (the timeout: request_init's 'timeout', or tf.env() ` +
                     `flag HTTP_TIMEOUT_SECONDS)`);
  },

  async fetch(fetchFn, url, init, timeoutMs) {
    const controller = new AbortController();
    if (!init.signal) init.signal = controller.signal;
    let timer;
    const late = new Promise((_, reject) => {
      // reject first: the race then ends with this error rather than fetch's AbortError
      timer = setTimeout(() => { reject(this.timeoutError("no response", timeoutMs)); controller.abort(); },
                         timeoutMs);
    });
    try {
      return await Promise.race([fetchFn(url, init), late]);
    } finally {
      clearTimeout(timer);
    }
  },

  // The page's whole load of a model in one call where it can: the model.json request, its body,
  // the weight requests, and a single weight file's body read into Python's arrays, with no await
  // of Python's in between: each await of a JS promise from Python costs a turn of the page's event
  // loop (a macrotask behind the network's), TF.js's awaits none. Python's work on model.json runs
  // inside, synchronously, while the weights download: onJson(body, depth, urls) (json.loads, its
  // checks, the graph's parse) returns null to stop (the requests abandoned: a manifest Python reads
  // otherwise, or refuses), true to leave the weights to Python (several files, progress to report),
  // or [dst, meta, ends, maxBytes, dequantize]: readInto's arguments for the one file.
  // weights: sendWeights' other arguments, or null (a weight_url_converter names the URLs in Python:
  // nothing sent here). Failures are returned, not thrown, naming the URL: {failed, error}. Else
  // {response} alone for a response that is not a 2xx fetch Response; {response, body, early:
  // sendWeights' result or null (nothing in flight)}; and, when the file was read here, {reply} (a
  // response that is not a 2xx fetch Response: Python reports or reads it) or {reply, total}.
  async fetchModel(fetchFn, url, init, timeoutMs, maxBytes, weights, onJson) {
    let response, body;
    try {
      response = await this.fetch(fetchFn, url, init, timeoutMs);
      if (!response || typeof response.arrayBuffer !== "function" || !(response.status >= 200 && response.status < 300)) {
        return { response };
      }
      body = await this.read(response, maxBytes, timeoutMs);
    } catch (error) {
      return { failed: url, error };
    }
    const early = weights === null ? null : this.sendWeights(body, ...weights);
    if (early === null) return { response, body, early };
    const plan = onJson(body, early.depth, early.urls);
    if (plan === null || plan === undefined) {
      for (const p of early.promises) this.abandon(p);
      return { response, body, early: null };
    }
    if (plan === true) return { response, body, early };
    const [dst, meta, ends, cap, dequantize] = plan;
    const failed = early.urls[0];
    let reply;
    try {
      reply = await early.promises[0];
      if (typeof reply.arrayBuffer !== "function" || !(reply.status >= 200 && reply.status < 300)) {
        return { response, body, early, reply };
      }
      const total = await this.readInto(reply, dst, cap, timeoutMs, dequantize, meta, ends);
      return { response, body, early, reply, total };
    } catch (error) {
      return { failed, error };
    }
  },

  // The weight requests sent as soon as model.json's bytes are in: the browser's parser reads the
  // text, and every weight request goes out at once, before Python's json.loads runs. {depth: the
  // text's nesting (depthOf: core/limits.py's scan, handed in, so Python need not pass the text back
  // to measure it), urls, promises: each request's response}; null, nothing left in flight, where it
  // cannot be sure of sending what Python's checks would let through: text that is not UTF-8 JSON
  // nested at most maxDepth, no weightsManifest list, or a shard path shardPath does not accept. The
  // nesting is measured after the requests are out (the browser's parser takes any depth), off the
  // path to the weights; text nested too deep abandons them.
  sendWeights(buffer, prefix, suffix, fetchFn, init, timeoutMs, maxDepth, depthOf) {
    let text, json;
    try {
      text = new TextDecoder("utf-8", { fatal: true }).decode(buffer);
      json = JSON.parse(text);
    } catch (e) {   // not UTF-8 JSON
      return null;
    }
    const manifest = json !== null && typeof json === "object" ? json.weightsManifest : undefined;
    if (!Array.isArray(manifest)) return null;
    const urls = [], seen = new Set();
    for (const g of manifest) {
      if (g === null || typeof g !== "object" || !Array.isArray(g.paths) || !Array.isArray(g.weights)) return null;
      for (const p of g.paths) {
        const q = this.shardPath(p);
        if (q === null || seen.has(q)) return null;
        seen.add(q);
        urls.push(prefix + p + suffix);
      }
    }
    // each request its own init: fetch() below gives each its own abort signal
    const promises = urls.map((u) => this.fetch(fetchFn, u, Object.assign({}, init), timeoutMs));
    const depth = depthOf(text);
    if (depth === 0 || depth > maxDepth) {
      for (const p of promises) this.abandon(p);
      return null;
    }
    return { depth, urls, promises };
  },

  // A shard path io/weights.py's check_weight_path accepts for certain, normalized; null for any
  // other (a percent sign included: Python's unquote then decides, on the usual path).
  shardPath(path) {
    if (typeof path !== "string" || path.length === 0 || path.length > 4096) return null;
    if (/[\x00-\x1f\\%]/.test(path) || path.startsWith("/") || path.startsWith("~")) return null;
    const segments = path.split("/");
    if (segments[0].includes(":") || segments.includes("..")) return null;
    const normalized = segments.filter((s) => s !== "" && s !== ".").join("/");
    return normalized === "" ? null : normalized;
  },

  // A request sent and then not wanted: its body cancelled, its failure (a timeout) caught.
  abandon(promise) {
    promise.then((r) => { try { if (r.body) r.body.cancel().catch(() => {}); } catch (e) { /* locked */ } },
                 () => {});
  },

  // read()'s checks and messages, each chunk copied as it arrives into dst (a Python bytearray of
  // maxBytes), and the quantized weights whose bytes are all in dequantized at once (dequantize:
  // the page's kernel, over meta's rows first..end-1; ends: the byte where each row's weight ends),
  // so that dequantization overlaps the download. The number of bytes read.
  async readInto(response, dst, maxBytes, timeoutMs, dequantize, meta, ends) {
    const declared = response.headers && response.headers.get("content-length");
    if (declared !== null && declared !== undefined && Number(declared) > maxBytes) {
      throw new Error(`the response declares ${declared} bytes, more than the ${maxBytes} allowed`);
    }
    const e = ends.getBuffer("f64"), stops = e.data.slice();
    e.release();
    let total = 0, done = 0;
    const put = (bytes) => {
      total += bytes.byteLength;
      if (total > maxBytes) throw new Error(`the response holds more than the ${maxBytes} bytes allowed`);
      const d = dst.getBuffer("u8");   // (again each time: Python may have grown the memory meanwhile)
      try { d.data.set(bytes, total - bytes.byteLength); } finally { d.release(); }
      let upto = done;
      while (upto < stops.length && stops[upto] <= total) upto++;
      if (upto > done) { dequantize(dst, meta, done, upto); done = upto; }
    };
    if (!response.body) {
      const buffer = await response.arrayBuffer();
      if (buffer.byteLength > maxBytes) {
        throw new Error(`the response holds ${buffer.byteLength} bytes, more than the ${maxBytes} allowed`);
      }
      put(new Uint8Array(buffer));
      return total;
    }
    const reader = response.body.getReader();
    for (;;) {
      let timer;
      const late = new Promise((_, reject) => {
        timer = setTimeout(() => reject(this.timeoutError("no data", timeoutMs)), timeoutMs);
      });
      let step;
      try {
        step = await Promise.race([reader.read(), late]);
        if (step.done) break;
        put(step.value);
      } catch (err) {
        reader.cancel().catch(() => {});
        throw err;
      } finally {
        clearTimeout(timer);
      }
    }
    return total;
  },

  async read(response, maxBytes, timeoutMs) {
    const declared = response.headers && response.headers.get("content-length");
    if (declared !== null && declared !== undefined && Number(declared) > maxBytes) {
      throw new Error(`the response declares ${declared} bytes, more than the ${maxBytes} allowed`);
    }
    if (!response.body) {
      const buffer = await response.arrayBuffer();
      if (buffer.byteLength > maxBytes) {
        throw new Error(`the response holds ${buffer.byteLength} bytes, more than the ${maxBytes} allowed`);
      }
      return buffer;
    }
    const reader = response.body.getReader();
    const chunks = [];
    let total = 0;
    for (;;) {
      let timer;
      const late = new Promise((_, reject) => {
        timer = setTimeout(() => reject(this.timeoutError("no data", timeoutMs)), timeoutMs);
      });
      let step;
      try {
        step = await Promise.race([reader.read(), late]);
      } catch (e) {
        reader.cancel().catch(() => {});
        throw e;
      } finally {
        clearTimeout(timer);
      }
      if (step.done) break;
      total += step.value.byteLength;
      if (total > maxBytes) {
        reader.cancel().catch(() => {});
        throw new Error(`the response holds more than the ${maxBytes} bytes allowed`);
      }
      chunks.push(step.value);
    }
    const out = new Uint8Array(total);
    let offset = 0;
    for (const c of chunks) { out.set(c, offset); offset += c.byteLength; }
    return out.buffer;
  },
})
