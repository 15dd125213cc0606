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

  // model.json's weightsManifest as JSON text, read by the browser's parser ahead of Python's (the
  // weight requests go out before json.loads runs); null where the browser reads none.
  weightsManifest(buffer) {
    try {
      const json = JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(buffer));
      const manifest = json !== null && typeof json === "object" ? json.weightsManifest : undefined;
      return Array.isArray(manifest) ? JSON.stringify(manifest) : null;
    } catch (e) {   // not JSON, or nested beyond the stack (JSON.stringify recurses)
      return null;
    }
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
