/*
 * repl.js: the pytfweb REPL. Two parts:
 *
 *   window.pytfwebRepl   the one way entries are evaluated, used by this page's input line and by
 *                        `pytfweb repl` (which opens repl.html?driven and calls it from the terminal):
 *       await pytfwebRepl.start(loadOptions)  -> {banner, status}   load pytfweb (pytfweb.load), make the session
 *       await pytfwebRepl.push(line)          -> {more, exit, status, memory}   (pytfweb/host/console.py)
 *       pytfwebRepl.interrupt()               cancel the running entry at its next await
 *       pytfwebRepl.cancelInput()             drop the lines of an incomplete entry
 *     An entry's output (prints, the echoed repr, tracebacks) goes to Python's stdout and stderr,
 *     i.e. to whatever the page's loader was given: this page's output area, or the terminal.
 *
 *   the page's front end  a console: banner, output, prompt line, status line (tf.memory()).
 *     Enter submits a line, Up/Down walk the history, Ctrl+L clears the output, Ctrl+C copies a
 *     selection or else cancels the line being typed (or interrupts a running entry), Tab indents,
 *     a multi-line paste runs line by line. It stays idle when the URL has ?driven.
 */
(function () {
  "use strict";

  // --- the evaluation, shared by both front ends ---------------------------------------------

  const repl = { session: null, module: null };
  let queue = Promise.resolve();  // entries run one after another, whoever submits them

  repl.start = async function start(loadOptions) {
    const py = await pytfweb.load(loadOptions || {});  // the first call's options win (see pytfweb.js)
    // input() has no keyboard to read here: raise instead of a blocking window.prompt().
    py.setStdin({ error: true });
    repl.module = py.pyimport("pytfweb.host.console");
    repl.session = repl.module.Console();
    return { banner: repl.module.banner(), status: repl.module.status_line() };
  };

  repl.push = function push(line) {
    const run = queue.then(async () => JSON.parse(await repl.session.push_json(line)));
    queue = run.catch(() => {});
    return run;
  };

  repl.interrupt = () => Boolean(repl.session && repl.session.interrupt());
  repl.cancelInput = () => { if (repl.session) repl.session.cancel_input(); };

  window.pytfwebRepl = repl;

  // --- the page's front end ------------------------------------------------------------------

  const PS1 = ">>> ", PS2 = "... ";
  const HISTORY_KEY = "pytfweb-repl-history", HISTORY_MAX = 500;
  let el = {};          // the page's elements, by id
  let more = false;     // the entry being typed needs more lines
  let busy = false;     // an entry is running
  const history = loadHistory();
  let historyIndex = history.length, draft = "";

  function setState(state) {
    document.body.dataset.state = state;   // the tests wait on it
    el.state.textContent = {
      loading: "loading…", ready: "ready", running: "running…", error: "error", driven: "driven by pytfweb repl",
    }[state];
  }

  function scrollToEnd() { el.terminal.scrollTop = el.terminal.scrollHeight; }

  // Appends text to the output; consecutive writes of one kind share one node.
  function write(kind, text) {
    const last = el.output.lastChild;
    if (last && last.dataset.kind === kind) last.firstChild.appendData(text);
    else {
      const span = document.createElement("span");
      span.className = kind;
      span.dataset.kind = kind;
      span.appendChild(document.createTextNode(text));
      el.output.appendChild(span);
    }
    scrollToEnd();
  }

  // A Pyodide raw writer: bytes in, text out as it is written (a multi-byte character split
  // across two writes is held by the decoder until its second half comes).
  function writer(kind) {
    const decoder = new TextDecoder();
    return {
      isatty: false,
      write(bytes) {
        const text = decoder.decode(bytes, { stream: true });
        if (text) write(kind, text);
        return bytes.length;
      },
    };
  }

  function showPrompt() { el.prompt.textContent = more ? PS2 : PS1; }

  async function submit(line) {
    write("input", (more ? PS2 : PS1) + line + "\n");
    remember(line);
    busy = true;
    setState("running");
    try {
      const reply = await repl.push(line);
      more = reply.more;
      if (!reply.more) el.memory.textContent = reply.status;
      if (reply.exit !== null && reply.exit !== undefined) {
        write("note", `(SystemExit ${reply.exit}: the session goes on; close the tab to end it)\n`);
      }
    } catch (err) {
      more = false;
      write("stderr", `${err && err.message ? err.message : err}\n`);
    } finally {
      busy = false;
      setState("ready");
      showPrompt();
      scrollToEnd();
    }
  }

  async function submitLines(lines) {
    for (const line of lines) await submit(line);
  }

  // --- history (each submitted line, as readline keeps it) ---

  function loadHistory() {
    try { return JSON.parse(localStorage.getItem(HISTORY_KEY)) || []; } catch (e) { return []; }
  }

  function remember(line) {
    if (line.trim() && history[history.length - 1] !== line) {
      history.push(line);
      if (history.length > HISTORY_MAX) history.splice(0, history.length - HISTORY_MAX);
      try { localStorage.setItem(HISTORY_KEY, JSON.stringify(history)); } catch (e) { /* private mode */ }
    }
    historyIndex = history.length;
    draft = "";
  }

  function walkHistory(step) {
    const next = historyIndex + step;
    if (next < 0 || next > history.length) return;
    if (historyIndex === history.length) draft = el.input.value;  // keep what was being typed
    historyIndex = next;
    el.input.value = next === history.length ? draft : history[next];
    const end = el.input.value.length;
    el.input.setSelectionRange(end, end);
  }

  // --- keys ---

  function onKey(event) {
    const key = event.key;
    const ctrl = event.ctrlKey && !event.altKey && !event.metaKey;
    if (key === "Enter" && !event.shiftKey) {
      event.preventDefault();
      if (busy) return;
      const line = el.input.value;
      el.input.value = "";
      submit(line);
    } else if (key === "ArrowUp" || key === "ArrowDown") {
      event.preventDefault();
      walkHistory(key === "ArrowUp" ? -1 : 1);
    } else if (ctrl && key.toLowerCase() === "l") {
      event.preventDefault();
      el.output.textContent = "";
    } else if (ctrl && key.toLowerCase() === "c") {
      const selected = el.input.selectionStart !== el.input.selectionEnd || String(window.getSelection());
      if (selected) return;  // copy, as usual
      event.preventDefault();
      if (busy) {
        if (!repl.interrupt()) write("note", "(Ctrl+C: this entry does not await, so it runs to its end)\n");
        return;
      }
      write("input", (more ? PS2 : PS1) + el.input.value + "^C\n");
      write("stderr", "KeyboardInterrupt\n");
      el.input.value = "";
      more = false;
      repl.cancelInput();
      historyIndex = history.length;
      showPrompt();
    } else if (key === "Tab" && !event.shiftKey) {
      event.preventDefault();
      el.input.setRangeText("    ", el.input.selectionStart, el.input.selectionEnd, "end");
    }
  }

  function onPaste(event) {
    const text = (event.clipboardData && event.clipboardData.getData("text/plain")) || "";
    if (!/[\r\n]/.test(text)) return;  // one line: the browser pastes it
    event.preventDefault();
    if (busy) return;
    const input = el.input;
    const whole = input.value.slice(0, input.selectionStart) + text + input.value.slice(input.selectionEnd);
    const lines = whole.replace(/\r\n?/g, "\n").split("\n");
    const rest = lines.pop();  // the part after the last newline stays in the input line
    input.value = "";
    submitLines(lines).then(() => { input.value = rest; });
  }

  async function startPage() {
    for (const id of ["terminal", "banner", "output", "prompt", "input", "memory", "state"]) {
      el[id] = document.getElementById(id);
    }
    setState("loading");
    el.input.addEventListener("keydown", onKey);
    el.input.addEventListener("paste", onPaste);
    // A click anywhere in the console focuses the input line, unless it selected text.
    el.terminal.addEventListener("mouseup", () => { if (!String(window.getSelection())) el.input.focus(); });

    const params = new URLSearchParams(location.search);
    if (params.has("driven")) {
      el.banner.textContent = "This page is driven by `pytfweb repl`; open repl.html without ?driven to type here.";
      setState("driven");
      return;
    }
    const backend = params.get("backend") || "auto";
    try {
      const t0 = performance.now();
      const hello = await repl.start({ backend, stdout: writer("stdout"), stderr: writer("stderr") });
      const seconds = ((performance.now() - t0) / 1000).toFixed(1);
      el.banner.textContent = `${hello.banner}\n` +
        "`tf` is imported; top-level await works (await t.data()). Enter runs a line, ↑/↓ history, " +
        `Ctrl+L clears, Ctrl+C cancels. Ready in ${seconds} s.`;
      el.memory.textContent = hello.status;
      el.input.disabled = false;
      setState("ready");
      showPrompt();
      el.input.focus();
    } catch (err) {
      el.banner.textContent = `Loading pytfweb failed: ${err && err.message ? err.message : err}`;
      el.banner.classList.add("failed");
      setState("error");
    }
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", startPage);
  else startPage();
})();
