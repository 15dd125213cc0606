// One call per draw from Python: Pyodide charges about a microsecond per JS call, so the
// per-draw GL sequence lives here. Evaluated once per context; returns an object bound to gl.
(function (gl, fbo) {
  let readFormat = null;
  // The format readPixels takes for float textures: RED here, RGBA/FLOAT everywhere.
  function format() {
    if (readFormat === null) {
      const red = gl.getParameter(gl.IMPLEMENTATION_COLOR_READ_FORMAT) === gl.RED &&
                  gl.getParameter(gl.IMPLEMENTATION_COLOR_READ_TYPE) === gl.FLOAT;
      readFormat = red ? gl.RED : gl.RGBA;
    }
    return readFormat;
  }
  // Colour attachments beyond the first, left by a draw with several outputs (the GEMM's).
  let extraAttachments = 0;
  function attach(tex) {
    gl.bindFramebuffer(gl.FRAMEBUFFER, fbo);
    if (extraAttachments > 0) {
      // Otherwise the next draw would also write (undefined values) into those textures,
      // which by then may belong to other tensors.
      for (let i = 1; i <= extraAttachments; i++) {
        gl.framebufferTexture2D(gl.FRAMEBUFFER, gl.COLOR_ATTACHMENT0 + i, gl.TEXTURE_2D, null, 0);
      }
      gl.drawBuffers([gl.COLOR_ATTACHMENT0]);
      extraAttachments = 0;
    }
    const layers = tex.layers;
    if (layers === undefined) {
      gl.framebufferTexture2D(gl.FRAMEBUFFER, gl.COLOR_ATTACHMENT0, gl.TEXTURE_2D, tex, 0);
      return;
    }
    // A product's blocks (an array texture, gpgpu_context.create_texture): layer i is output i.
    const buffers = [];
    for (let i = 0; i < layers; i++) {
      gl.framebufferTextureLayer(gl.FRAMEBUFFER, gl.COLOR_ATTACHMENT0 + i, tex, 0, i);
      buffers.push(gl.COLOR_ATTACHMENT0 + i);
    }
    gl.drawBuffers(buffers);
    extraAttachments = layers - 1;
  }
  // An input texture on unit i, at the target its sampler (sampler2D or sampler2DArray) reads.
  function bindInput(i, tex) {
    gl.activeTexture(gl.TEXTURE0 + i);
    gl.bindTexture(tex.layers === undefined ? gl.TEXTURE_2D : gl.TEXTURE_2D_ARRAY, tex);
  }
  function attachAll(textures) {
    attach(textures[0]);
    const buffers = [gl.COLOR_ATTACHMENT0];
    for (let i = 1; i < textures.length; i++) {
      gl.framebufferTexture2D(gl.FRAMEBUFFER, gl.COLOR_ATTACHMENT0 + i, gl.TEXTURE_2D, textures[i], 0);
      buffers.push(gl.COLOR_ATTACHMENT0 + i);
    }
    gl.drawBuffers(buffers);
    extraAttachments = textures.length - 1;
  }
  function firstChannel(out, channels, n) {
    if (channels === 1) return out.subarray(0, n);
    const r = new Float32Array(n);
    for (let i = 0; i < n; i++) r[i] = out[4 * i];
    return r;
  }
  return {
    // p: {program, numInputs, uniformLocs[], uniformTypes[]}; outTex: a texture, or an array of
    // them for a program with several outputs; args: input textures, then uniform values.
    // Returns true when the context is lost (the draw did nothing): no second call per draw.
    draw(p, outTex, width, height, ...args) {
      if (gl.isContextLost()) return true;
      gl.useProgram(p.program);
      if (Array.isArray(outTex)) attachAll(outTex); else attach(outTex);
      gl.viewport(0, 0, width, height);
      const n = p.numInputs;
      for (let i = 0; i < n; i++) bindInput(i, args[i]);
      const locs = p.uniformLocs, types = p.uniformTypes;
      for (let j = 0; j < locs.length; j++) {
        const v = args[n + j];
        if (types[j] === 'float') gl.uniform1f(locs[j], v);
        else gl.uniform1i(locs[j], v);
      }
      gl.drawArrays(gl.TRIANGLE_STRIP, 0, 4);
      return gl.isContextLost();
    },
    // A plan runner's program (webgl/plan_runner.py): plan.cmds = [{p, outs, ins, w, h, u}]
    // over plan.table, whose first entries (the externals and the escaping outputs) are given
    // per call. Returns true when the context is lost.
    runPlan(plan, ...perCall) {
      if (gl.isContextLost()) return true;
      const t = plan.table;
      for (let i = 0; i < perCall.length; i++) t[i] = perCall[i];
      let last = null;
      for (const c of plan.cmds) {
        const p = c.p;
        if (p !== last) { gl.useProgram(p.program); last = p; }
        const outs = c.outs;
        if (outs.length === 1) attach(t[outs[0]]); else attachAll(outs.map((k) => t[k]));
        gl.viewport(0, 0, c.w, c.h);
        const ins = c.ins;
        for (let i = 0; i < ins.length; i++) bindInput(i, t[ins[i]]);
        const locs = p.uniformLocs, types = p.uniformTypes, u = c.u;
        for (let j = 0; j < locs.length; j++) {
          if (types[j] === 'float') gl.uniform1f(locs[j], u[j]);
          else gl.uniform1i(locs[j], u[j]);
        }
        gl.drawArrays(gl.TRIANGLE_STRIP, 0, 4);
      }
      // The per-call textures go back to their owners: the table does not keep them.
      for (let i = 0; i < perCall.length; i++) t[i] = null;
      return gl.isContextLost();
    },
    isLost() {
      return gl.isContextLost();
    },
    // Upload n floats from a Python buffer (already a Float32Array view) into a w x h texture.
    upload(tex, width, height, data, padded) {
      gl.bindTexture(gl.TEXTURE_2D, tex);
      let src = data;
      if (padded) {
        src = new Float32Array(width * height);
        src.set(data);
      }
      gl.texSubImage2D(gl.TEXTURE_2D, 0, 0, 0, width, height, gl.RED, gl.FLOAT, src);
      gl.bindTexture(gl.TEXTURE_2D, null);
    },
    // Blocking read of the first n values of a texture.
    readSync(tex, width, height, n) {
      attach(tex);
      const readFormat = format();
      const channels = readFormat === gl.RED ? 1 : 4;
      const out = new Float32Array(width * height * channels);
      gl.readPixels(0, 0, width, height, readFormat, gl.FLOAT, out);
      return firstChannel(out, channels, n);
    },
    // Wait until the GPU has finished all work so far (profiling only). Not a fence: Chrome
    // updates a fence's status only between tasks, so waiting on one inside a task never ends.
    // Reading one pixel of the last output blocks until every draw before it is done.
    finish() {
      gl.bindFramebuffer(gl.FRAMEBUFFER, fbo);
      if (gl.checkFramebufferStatus(gl.FRAMEBUFFER) !== gl.FRAMEBUFFER_COMPLETE) return;  // nothing drawn yet
      // RGBA/FLOAT: valid for every float attachment (the last draw may have had RGBA outputs)
      gl.readPixels(0, 0, 1, 1, gl.RGBA, gl.FLOAT, new Float32Array(4));
    },
    // Start an asynchronous read: pixels go into a pack buffer, a fence marks completion.
    readAsyncStart(tex, width, height) {
      attach(tex);
      const readFormat = format();
      const channels = readFormat === gl.RED ? 1 : 4;
      const bytes = width * height * channels * 4;
      const buffer = gl.createBuffer();
      gl.bindBuffer(gl.PIXEL_PACK_BUFFER, buffer);
      gl.bufferData(gl.PIXEL_PACK_BUFFER, bytes, gl.STREAM_READ);
      gl.readPixels(0, 0, width, height, readFormat, gl.FLOAT, 0);
      gl.bindBuffer(gl.PIXEL_PACK_BUFFER, null);
      const sync = gl.fenceSync(gl.SYNC_GPU_COMMANDS_COMPLETE, 0);
      gl.flush();
      return {buffer, sync, channels, length: width * height * channels};
    },
    readAsyncFinish(job, n) {
      const out = new Float32Array(job.length);
      gl.bindBuffer(gl.PIXEL_PACK_BUFFER, job.buffer);
      gl.getBufferSubData(gl.PIXEL_PACK_BUFFER, 0, out);
      gl.bindBuffer(gl.PIXEL_PACK_BUFFER, null);
      gl.deleteBuffer(job.buffer);
      gl.deleteSync(job.sync);
      return firstChannel(out, job.channels, n);
    },
    // A promise of true once the fence has signalled, false if the context is lost or the read
    // cancelled first. Polled here with a backoff (0, then 1 ms doubling to 4 ms: a tight poll
    // keeps a core busy that SwiftShader, or the GPU driver, would use for the very work
    // awaited), so that Python wakes once per read rather than once per poll.
    readAsyncWait(job) {
      return new Promise((resolve) => {
        let delay = 0;
        const poll = () => {
          if (job.cancelled || gl.isContextLost()) return resolve(false);
          const status = gl.clientWaitSync(job.sync, 0, 0);
          if (status === gl.ALREADY_SIGNALED || status === gl.CONDITION_SATISFIED) return resolve(true);
          if (status === gl.WAIT_FAILED) return resolve(false);
          setTimeout(poll, delay);
          delay = Math.min(4, delay * 2 || 1);
        };
        poll();
      });
    },
    // A read given up before it finished: its buffer and fence are freed unread.
    readAsyncCancel(job) {
      job.cancelled = true;
      gl.deleteBuffer(job.buffer);
      gl.deleteSync(job.sync);
    },
  };
})
