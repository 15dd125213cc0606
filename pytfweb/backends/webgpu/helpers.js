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
