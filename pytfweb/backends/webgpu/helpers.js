// One call per upload, dispatch or read from Python (Pyodide charges about a microsecond per JS
// call). Evaluated once per device; returns an object bound to it.
(function (device) {
  const STORAGE = GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST;
  const UNIFORM = GPUBufferUsage.UNIFORM | GPUBufferUsage.COPY_DST;
  const STAGING = GPUBufferUsage.MAP_READ | GPUBufferUsage.COPY_DST;
  // WebGPU reports validation errors (a WGSL compile error, a bad binding) asynchronously, not
  // by throwing: they are collected here and the next read raises them in Python.
  const errors = [];
  device.addEventListener("uncapturederror", (e) => errors.push(String(e.error.message)));
  // Uniform and staging buffers, recycled by size. A uniform buffer goes back to its pool as
  // soon as its dispatch is submitted: the queue runs writeBuffer calls and submissions in
  // order, so the next writeBuffer into it happens after that dispatch has read it.
  const uniformPool = new Map();
  const stagingPool = new Map();
  let uniformBuffers = 0, stagingBuffers = 0, openReads = 0;
  function take(pool, size, usage) {
    const free = pool.get(size);
    if (free && free.length) return free.pop();
    if (usage === UNIFORM) uniformBuffers++; else stagingBuffers++;
    return device.createBuffer({size, usage});
  }
  function give(pool, size, buffer) {
    let free = pool.get(size);
    if (!free) pool.set(size, free = []);
    free.push(buffer);
  }
  function bindGroup(c, t, ubuf) {
    const entries = c.b.map((k, binding) => ({binding, resource: {buffer: t[k]}}));
    entries.push({binding: c.b.length, resource: {buffer: ubuf, offset: c.uo, size: c.us}});
    return device.createBindGroup({layout: c.layout, entries});
  }
  // A dispatch binding per-call buffers: its bind group is made again only when they are not
  // the buffers of one of the last two calls (a steady predict gets the same input and recycled
  // output buffers; a training step's variables alternate between two).
  function perCallBindGroup(c, t, n, ubuf) {
    const b = c.b;
    for (const [bufs, bg] of c.cache) {
      let same = true;
      for (let j = 0, m = 0; j < b.length; j++) {
        if (b[j] < n && bufs[m++] !== t[b[j]]) { same = false; break; }
      }
      if (same) return bg;
    }
    const bufs = [];
    for (const k of b) if (k < n) bufs.push(t[k]);
    const bg = bindGroup(c, t, ubuf);
    c.cache.unshift([bufs, bg]);
    if (c.cache.length > 2) c.cache.pop();
    return bg;
  }
  return {
    createBuffer(size) {
      return device.createBuffer({size, usage: STORAGE});
    },
    destroy(buffer) {
      buffer.destroy();
    },
    // bytes: a Uint8Array (or any typed array) written at offset 0.
    upload(buffer, bytes) {
      device.queue.writeBuffer(buffer, 0, bytes);
    },
    // A compute pipeline from WGSL; compile errors are collected with the program's key and
    // numbered source (getCompilationInfo is asynchronous).
    pipeline(source, key) {
      const module = device.createShaderModule({code: source, label: key});
      module.getCompilationInfo().then((info) => {
        const bad = info.messages.filter((m) => m.type === "error");
        if (bad.length) {
          const lines = source.split("\n").map((l, i) => String(i + 1).padStart(4) + "  " + l).join("\n");
          errors.push("WGSL of program '" + key + "' does not compile:\n" +
                      bad.map((m) => "line " + m.lineNum + ":" + m.linePos + ": " + m.message).join("\n") +
                      "\n" + lines);
        }
      });
      return device.createComputePipeline({label: key, layout: "auto", compute: {module, entryPoint: "main"}});
    },
    // uniforms: a Uint8Array (size a multiple of 16); buffers: the output(s), then the inputs,
    // in binding order (the uniform buffer takes the next binding).
    dispatch(pipeline, uniforms, x, y, z, ...buffers) {
      const size = uniforms.byteLength;
      const ubuf = take(uniformPool, size, UNIFORM);
      device.queue.writeBuffer(ubuf, 0, uniforms);
      const entries = buffers.map((buffer, binding) => ({binding, resource: {buffer}}));
      entries.push({binding: buffers.length, resource: {buffer: ubuf}});
      const bindGroup = device.createBindGroup({layout: pipeline.getBindGroupLayout(0), entries});
      const encoder = device.createCommandEncoder();
      const pass = encoder.beginComputePass();
      pass.setPipeline(pipeline);
      pass.setBindGroup(0, bindGroup);
      pass.dispatchWorkgroups(x, y, z);
      pass.end();
      device.queue.submit([encoder.finish()]);
      give(uniformPool, size, ubuf);
    },
    // A plan runner's program (webgpu/plan_runner.py), made once. table: the buffers, the first
    // nPerCall given per call (null here), the rest the runner's own; cmds: [{p: pipeline,
    // b: [table index of each binding], uo, us: the uniforms' offset and size in `uniforms`,
    // x, y, z}]. The uniforms are constants of the plan: written once into one buffer, and every
    // bind group that binds only the runner's buffers is made here, once.
    buildPlan(table, nPerCall, cmds, uniforms) {
      const ubuf = device.createBuffer({size: Math.max(16, uniforms.byteLength), usage: UNIFORM});
      device.queue.writeBuffer(ubuf, 0, uniforms);
      for (const c of cmds) {
        c.layout = c.p.getBindGroupLayout(0);
        c.bg = null;
        c.cache = [];   // [[per-call buffers], bind group]: the last two (state ping-pongs between two)
        if (c.b.every((k) => k >= nPerCall)) c.bg = bindGroup(c, table, ubuf);
      }
      return {table, nPerCall, cmds, ubuf};
    },
    // One call of a plan: one command encoder, one compute pass (each dispatch is its own usage
    // scope, so a dispatch sees what the ones before it wrote), one submit.
    runPlan(plan, ...perCall) {
      const t = plan.table, n = plan.nPerCall;
      for (let i = 0; i < n; i++) t[i] = perCall[i];
      const encoder = device.createCommandEncoder();
      const pass = encoder.beginComputePass();
      let last = null;
      for (const c of plan.cmds) {
        let bg = c.bg;
        if (bg === null) bg = perCallBindGroup(c, t, n, plan.ubuf);
        if (c.p !== last) { pass.setPipeline(c.p); last = c.p; }
        pass.setBindGroup(0, bg);
        pass.dispatchWorkgroups(c.x, c.y, c.z);
      }
      pass.end();
      device.queue.submit([encoder.finish()]);
      // The per-call buffers go back to their owners: the table does not keep them.
      for (let i = 0; i < n; i++) t[i] = null;
    },
    disposePlan(plan) {
      plan.ubuf.destroy();
      for (const c of plan.cmds) { c.bg = null; c.cache = []; }
    },
    // Copy nbytes of a storage buffer into a staging buffer now (so the data may be disposed and
    // its buffer reused while the read waits), then map it: resolves to a Uint8Array copy.
    async read(buffer, nbytes) {
      const size = Math.max(16, Math.ceil(nbytes / 16) * 16);
      const staging = take(stagingPool, size, STAGING);
      const encoder = device.createCommandEncoder();
      encoder.copyBufferToBuffer(buffer, 0, staging, 0, size);
      device.queue.submit([encoder.finish()]);
      openReads++;
      try {
        await staging.mapAsync(GPUMapMode.READ, 0, size);
      } catch (e) {
        errors.push("mapAsync failed: " + e);
        openReads--;
        return undefined;
      }
      const out = new Uint8Array(staging.getMappedRange(0, size).slice(0, nbytes));
      staging.unmap();
      give(stagingPool, size, staging);
      openReads--;
      return out;
    },
    // Resolves when the queue has done all work submitted so far.
    async done() {
      await device.queue.onSubmittedWorkDone();
    },
    takeErrors() {
      return errors.splice(0, errors.length);
    },
    stats() {
      return {uniformBuffers, stagingBuffers, openReads};
    },
    dispose() {
      for (const pool of [uniformPool, stagingPool]) {
        for (const free of pool.values()) for (const b of free) b.destroy();
        pool.clear();
      }
    },
  };
})
