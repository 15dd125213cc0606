"""Running a parsed graph: a fixed plan for static graphs, a data-flow scheduler with loop frames for
graphs with control flow.

Static (execute): the nodes the outputs need are put in dependency order once per (inputs,
outputs) and cached as a NodePlan; each node's outputs are disposed right after the last node
reading them runs. Everything runs inside one tidy scope, so an error leaves nothing behind.
The NodePlan is the first level of the plan; the second is the kernels it runs: the first
execute with given feed shapes and dtypes runs the nodes while recording their kernels
(core/plan.py, the machinery tf.function uses), later executes with the same feed signature
replay that kernel plan with no per-node Python. A graph whose run cannot be replayed (it reads
values computed from the feeds: a graph break) keeps running node by node for that signature
(`NodePlan.breaks` says why); so does every run while the TRACE_FUNCTIONS flag is off or
KEEP_INTERMEDIATE_TENSORS is on.

Dynamic (execute_async): nodes run when their inputs are ready, as TensorFlow's executor does.
A value lives in a frame context, a tuple of (frame name, iteration) pairs: Enter opens a frame
(iteration 0), NextIteration moves to the next iteration, Exit returns to the enclosing frame; a
node reads a value from its own context or, failing that, from the enclosing ones (so loop
bodies see constants and the values entered with is_constant). Switch sends its data to one of
two outputs and only nodes whose inputs all have values run; Merge runs on whichever input
arrives. A value is disposed once every node reading it in its own context has run; the rest at
the end.

Ownership: every tensor the executor stores is its own (an op returning one of its inputs gets a
fresh reference to it), except the inputs given by the user and the model's weights, which it
never disposes.
"""
from ..core.api import get_backend, keep, tidy
from ..core.environment import ENV
from ..core.plan import Diverged, signature, trace, tracing_enabled
from .ops import lookup

_LOOP_OPS = ("Enter", "Exit", "NextIteration")
# Static parts of a dynamic graph with fewer nodes than this run node by node with the rest.
_MIN_SEGMENT = 8
# Feed signatures a NodePlan records plans for; later new ones run node by node. Shapes that change
# from run to run (a dynamic graph's island after a non-max suppression: as many boxes as it kept)
# would otherwise record, and hold, a plan per shape.
_MAX_RECORDED = 8
# Runs of one signature that diverged (a split kernel's output shapes or a read's values other than
# the trace's) before its plan is dropped.
_MAX_DIVERGENCES = 3


class Runtime:
    """The state of one top-level run: the TensorArrays and TensorLists created by it (found by
    handle), the model's hash tables, and the library functions While and If call."""

    def __init__(self, root):
        self.root = root
        self.containers = {}
        self.model_resources = root.model_resources

    def add(self, resource):
        self.containers[resource.handle.data_id] = resource
        return resource

    def get(self, handle, kind, attrs):
        res = self.containers.get(handle.data_id)
        if res is None:
            res = next((r for r in self.model_resources.values() if r.handle.data_id is handle.data_id), None)
        if not isinstance(res, kind):
            raise ValueError(f"graph model: node '{attrs.node}' ({attrs.op}) expects a {kind.kind} handle as its "
                             f"first input, got {'a ' + res.kind if res is not None else 'an ordinary tensor'}")
        return res

    async def call(self, name, args, attrs):
        fn = self.root.functions.get(name)
        if fn is None:
            raise ValueError(f"graph model: node '{attrs.node}' ({attrs.op}) calls the function '{name}', which is not "
                             f"in the graph's library")
        return await fn.run_function(args, self)

    def close(self):
        for res in self.containers.values():
            res.close()
        self.containers = {}


class Island:
    """Static nodes of a dynamic graph run together (GraphExecutor._islands): their names, the
    values they read from outside ({node name: output indices}) and the outputs read outside
    or asked for ([(node, index)])."""
    __slots__ = ("members", "inputs", "border", "exits")

    def __init__(self, members):
        self.members = set(members)
        self.inputs = {}
        self.border = []
        self.exits = []   # (member, child outside): where the run goes on after the island


class NodePlan:
    """What computes some outputs from some feeds: the nodes in order (order), after which node
    each value goes (free_after: position -> node names), the first node needing execute_async
    (dynamic, None for a static graph) and the nodes needed (used); for a static graph, the
    recorded kernel plans by feed signature (recorded: key -> core.plan.Plan, or None where the
    recording broke, the reason in breaks)."""
    __slots__ = ("order", "free_after", "dynamic", "used", "recorded", "breaks", "islands")

    def __init__(self, order, free_after, dynamic, used):
        self.order = order
        self.free_after = free_after
        self.dynamic = dynamic
        self.used = used
        self.recorded = {}
        self.breaks = {}
        self.islands = None   # a dynamic graph's static islands: see GraphExecutor._islands

    def dispose(self):
        for plan in self.recorded.values():
            if plan is not None:
                plan.dispose()
        self.recorded = {}


def _annotated(exc, node):
    """exc with the node named in its message (same type), or None to re-raise it as it is."""
    msg = str(exc)
    if f"'{node.name}'" in msg:
        return None
    try:
        return type(exc)(f"graph model: node '{node.name}' ({node.op}): {msg}")
    except Exception:  # noqa: BLE001 - an exception type with another constructor: keep it
        return None


def _context_id(ctx):
    """A frame context as TF.js writes it: 'frame-iteration' per level, joined by '/'."""
    return "/".join(f"{frame}-{it}" for frame, it in ctx)


def _dispose_list(tensors, keep_ids):
    for t in tensors:
        if t is not None and id(t) not in keep_ids and not t.kept:
            t.dispose()


class GraphExecutor:
    """Executes one graph (the model's, or a library function's) with the model's constants."""

    def __init__(self, graph, consts, model_resources, root=None):
        self.graph = graph
        # node name -> Tensor, for this graph's Const nodes (the model and its functions share the weights)
        self.consts = {name: consts[name] for name, node in graph.nodes.items() if node.op == "Const" and name in consts}
        self.model_resources = model_resources
        self._root = root   # None for the model's own executor (no self-reference: no cycle to collect)
        self.node_plans = {}   # (feeds, outputs) -> NodePlan
        self.intermediates = None  # {node name: [kept copies]} while tf.env() KEEP_INTERMEDIATE_TENSORS is on
        if root is None:
            self.functions = {}
            for name, fgraph in graph.functions.items():
                self.functions[name] = GraphExecutor(fgraph, consts, model_resources, self)

    @property
    def root(self):
        """The model's executor: this one, or the one whose function this executor runs."""
        return self._root or self

    # --- analysis ----------------------------------------------------------------------------------
    def _analyze(self, feeds, output_nodes):
        """Backwards from the outputs: the nodes needed (name -> node, outputs first), the
        placeholders and value-less constants missing, the first node needing execute_async and
        the nodes whose op pytfweb does not know."""
        used, missing, unknown, dynamic = {}, [], [], None
        stack = list(reversed(output_nodes))
        while stack:
            node = stack.pop()
            if node.name in used:
                continue
            used[node.name] = node
            if node.name in feeds or node.name in self.consts:
                continue
            if node.op in ("Placeholder", "Const"):
                missing.append(node)
                continue
            opdef = lookup(node.op)
            if opdef is None:
                unknown.append(node)
            elif opdef.is_async and dynamic is None:
                dynamic = node
            stack.extend(reversed([p for p, _ in node.inputs] + node.control))
        return used, missing, unknown, dynamic

    def _check(self, used, missing, unknown, feeds, output_nodes, api):
        if unknown:
            ops = sorted({n.op for n in unknown})
            nodes = ", ".join(f"'{n.name}' ({n.op})" for n in unknown[:5])
            raise NotImplementedError(
                f"{api}: the graph uses the op{'s' if len(ops) > 1 else ''} {', '.join(ops)}, which pytfweb does not "
                f"map (node{'s' if len(unknown) > 1 else ''} {nodes}{', ...' if len(unknown) > 5 else ''}); register "
                f"an implementation with tf.register_op('{ops[0]}', fn)")
        if missing:
            placeholders = [n.name for n in missing if n.op == "Placeholder"]
            consts = [n.name for n in missing if n.op == "Const"]
            parts = []
            if placeholders:
                parts.append(f"missing the inputs {placeholders}")
            if consts:
                parts.append(f"the constants {consts} have no value in the weights")
            raise ValueError(f"{api}: cannot compute the outputs {[n.name for n in output_nodes]} from the inputs "
                             f"{sorted(feeds)}: {'; '.join(parts)}")

    def plan(self, feeds, outputs, api="execute"):
        """The cached NodePlan computing outputs [(node, index)] from the fed node names."""
        output_nodes = [n for n, _ in outputs]
        key = (frozenset(feeds), tuple(n.name for n in output_nodes))
        plan = self.node_plans.get(key)
        if plan is not None:
            return plan
        used, missing, unknown, dynamic = self._analyze(feeds, output_nodes)
        self._check(used, missing, unknown, feeds, output_nodes, api)
        order, free_after = [], {}
        if dynamic is None:
            order = self._order(used, feeds, output_nodes)
            last = {}
            for pos, node in enumerate(order):
                for parent in [p for p, _ in node.inputs] + node.control:
                    last[parent.name] = pos
            requested = {n.name for n in output_nodes}
            for pos, node in enumerate(order):
                if node.name not in requested:
                    free_after.setdefault(last.get(node.name, pos), []).append(node.name)
        plan = NodePlan(order, free_after, dynamic, used)
        self.node_plans[key] = plan
        return plan

    def _order(self, used, feeds, output_nodes):
        """The nodes to run, each after its inputs (depth first from the outputs)."""
        order, state = [], {}
        for out in output_nodes:
            stack = [(out, False)]
            while stack:
                node, expanded = stack.pop()
                if expanded:
                    state[node.name] = 2
                    order.append(node)
                    continue
                s = state.get(node.name)
                if s == 2:
                    continue
                if s == 1:
                    raise ValueError(f"graph model: the graph has a cycle through node '{node.name}' ({node.op})")
                if node.name in feeds or node.name in self.consts:
                    state[node.name] = 2
                    continue
                state[node.name] = 1
                stack.append((node, True))
                for parent in reversed([p for p, _ in node.inputs] + node.control):
                    if state.get(parent.name) != 2:
                        if state.get(parent.name) == 1:
                            raise ValueError(f"graph model: the graph has a cycle through node '{parent.name}' "
                                             f"({parent.op}); loops run with execute_async")
                        stack.append((parent, False))
        return order

    # --- one node ------------------------------------------------------------------------------------
    def _call(self, node, x, rt):
        opdef = lookup(node.op)
        if len(x) < opdef.arity:
            raise ValueError(f"graph model: node '{node.name}' ({node.op}) has {len(x)} input(s); the op needs "
                             f"{opdef.arity}")
        return opdef.fn(x, node.attrs, rt) if opdef.runtime else opdef.fn(x, node.attrs)

    @staticmethod
    def _outputs(node, out, x):
        """An op's result as a list of tensors the executor owns."""
        if out is None:
            out = []
        elif not isinstance(out, (list, tuple)):
            out = [out]
        inputs = {id(t) for t in x if t is not None}
        return [t.clone() if t is not None and (id(t) in inputs or t.kept) else t for t in out]

    def _run_sync(self, node, x, rt):
        try:
            out = tidy(lambda: self._call(node, x, rt))
        except (ValueError, TypeError, NotImplementedError, IndexError, ArithmeticError) as exc:
            new = _annotated(exc, node)
            if new is None:
                raise
            raise new from exc
        return self._outputs(node, out, x)

    async def _run_async(self, node, x, rt):
        opdef = lookup(node.op)
        if not opdef.is_async:
            return self._run_sync(node, x, rt)
        try:
            result = self._call(node, x, rt)
            if hasattr(result, "__await__"):
                result = await result
        except (ValueError, TypeError, NotImplementedError, IndexError, ArithmeticError) as exc:
            new = _annotated(exc, node)
            if new is None:
                raise
            raise new from exc
        return self._outputs(node, result, x)

    def dispose_plans(self):
        """Drop the node plans and the kernel plans recorded in them (and the constants those hold)."""
        for plan in self.node_plans.values():
            plan.dispose()
        self.node_plans = {}
        for fn in getattr(self, "functions", {}).values():
            fn.dispose_plans()

    # --- static execution -------------------------------------------------------------------------------
    # --- debugging: TF.js's KEEP_INTERMEDIATE_TENSORS -------------------------------------------------
    def dispose_intermediates(self):
        for lst in (self.intermediates or {}).values():
            for t in lst:
                if t is not None:
                    t.dispose()
        self.intermediates = None

    def _start_keeping(self, feeds):
        """At the start of a top-level run: drop the last run's copies; with the flag on, start
        keeping copies of the weights, the inputs and then every node's outputs."""
        self.dispose_intermediates()
        if ENV.get_bool("KEEP_INTERMEDIATE_TENSORS"):
            self.intermediates = {}
            for name, t in self.consts.items():
                self._keep_copy(name, [t])
            for name, ts in feeds.items():
                self._keep_copy(name, ts)

    def _keep_copy(self, name, tensors):
        if self.root.intermediates is not None:
            self.root.intermediates[name] = [keep(t.clone()) if t is not None else None for t in tensors]

    def execute(self, feeds, outputs, api="execute", rt=None):
        """Tensors for outputs [(node, index)], feeds {node name: [tensors by output index]}."""
        if self.root is self and rt is None:
            self._start_keeping(feeds)
        plan = self.plan(feeds, outputs, api)
        if plan.dynamic is not None:
            node = plan.dynamic
            sync_inputs = [c.name for c in node.children if c.name in plan.used]
            raise RuntimeError(
                f"{api}: node '{node.name}' has the dynamic op '{node.op}' (control flow, or an output shape that "
                f"depends on the values); use `await model.execute_async(...)` instead"
                + (f", or feed the inputs {sync_inputs} to skip it" if sync_inputs else ""))
        borrowed = {id(t) for ts in feeds.values() for t in ts}
        if self.root is self and rt is None and self.intermediates is None and tracing_enabled():
            return self._run_recorded(plan, feeds, outputs, borrowed)
        return tidy(lambda: self._run_plan(plan, feeds, outputs, borrowed, rt))

    def _run_recorded(self, plan, feeds, outputs, borrowed):
        """Replay the kernel plan recorded for these feeds' signature, recording it first."""
        names = sorted(feeds)
        # (a feed list may leave outputs out: None, the values of a dynamic graph's island)
        flat = [t for name in names for t in feeds[name] if t is not None]
        key = (get_backend(), tuple((name, tuple(t is not None for t in feeds[name])) for name in names),
               signature(flat))
        recorded = plan.recorded.get(key, False)
        if recorded is None or (recorded is False and len(plan.recorded) >= _MAX_RECORDED):
            return tidy(lambda: self._run_plan(plan, feeds, outputs, borrowed, None))
        if recorded and not recorded.stale:
            try:
                return recorded.run(flat)
            except Diverged as exc:   # a split's output shapes or a read's values changed: this run goes node by node
                recorded.divergences += 1
                if recorded.divergences >= _MAX_DIVERGENCES:
                    plan.recorded[key] = None
                    plan.breaks[key] = (f"value-dependent output shapes or values read back changed from run to "
                                        f"run (last: {exc})")
                    recorded.dispose()
                return tidy(lambda: self._run_plan(plan, feeds, outputs, borrowed, None))
        result, recorded, reason = trace(lambda: self._run_plan(plan, feeds, outputs, borrowed, None), flat)
        plan.recorded[key] = recorded
        if recorded is None:
            plan.breaks[key] = reason
        return result

    def _run_plan(self, plan, feeds, outputs, borrowed, rt):
        values = {}

        def fetch(reader, parent, index):
            if parent.name in feeds:
                lst = feeds[parent.name]
            elif parent.name in self.consts:
                lst = [self.consts[parent.name]]
            else:
                lst = values[parent.name]
            if index >= len(lst) or lst[index] is None:
                raise ValueError(f"graph model: node '{reader}' reads output {index} of node '{parent.name}' "
                                 f"({parent.op}), which has {len(lst)} output(s)")
            return lst[index]

        for pos, node in enumerate(plan.order):
            x = [fetch(node.name, p, i) for p, i in node.inputs]
            values[node.name] = self._run_sync(node, x, rt)
            self._keep_copy(node.name, values[node.name])
            for name in plan.free_after.get(pos, ()):
                _dispose_list(values.pop(name), borrowed)
        results = []
        for node, index in outputs:
            t = fetch("the outputs", node, index)
            results.append(t.clone() if id(t) in borrowed or t.kept else t)
        return results

    # --- dynamic execution ----------------------------------------------------------------------------
    async def execute_async(self, feeds, outputs, rt=None, api="execute_async"):
        plan = self.plan(feeds, outputs, api)
        if plan.dynamic is None:
            return self.execute(feeds, outputs, api, rt)
        own_runtime = rt is None
        if own_runtime and self.root is self:
            self._start_keeping(feeds)
        rt = rt or Runtime(self.root)
        try:
            return await self._run_frames(plan, feeds, outputs, rt, api)
        finally:
            if own_runtime:
                rt.close()

    def _islands(self, plan, feeds, outputs):
        """A dynamic graph's static islands: {node name: Island}. A node is dynamic where its op is
        async (control flow, value-dependent shapes), it runs inside a loop frame (after an Enter,
        before its Exit), or it initialises a resource; every other node is static. The static
        nodes are grouped by their dynamic level, the most dynamic nodes on a path from the feeds
        to them (NextIteration's back edges left out): a group reads only dynamic nodes of its level
        or below, and those only lower levels, so each group can run at once, as one execute()
        (so from a recorded plan) once its inputs from outside are there. Groups of fewer than
        _MIN_SEGMENT nodes stay node by node."""
        used = plan.used
        init = {n.name for n in self.graph.init_nodes}
        level, depth, static = {}, {}, {}

        def parents(n):
            ps = [p for p, _ in n.inputs] + n.control
            return [p for p in ps if p.name in used and not (n.op == "Merge" and p.op == "NextIteration")]
        # Without a cycle each edge is pushed at most twice; past that the graph has a cycle that no
        # NextIteration closes, which this analysis does not understand: then no islands.
        budget = 2 * sum(len(parents(n)) for n in used.values()) + len(used)
        for root in used.values():
            stack = [root]
            while stack:
                n = stack[-1]
                if n.name in level:
                    stack.pop()
                    continue
                todo = [p for p in parents(n) if p.name not in level]
                if todo:
                    budget -= len(todo)
                    if budget < 0:
                        return {}
                    stack.extend(todo)
                    continue
                stack.pop()
                ps = parents(n)
                d = max((depth[p.name] for p in ps), default=0)
                d += 1 if n.op == "Enter" else -1 if n.op == "Exit" and d > 0 else 0
                depth[n.name] = d
                given = n.name in feeds or n.name in self.consts
                opdef = None if given else lookup(n.op)
                dynamic = not given and (opdef is None or opdef.is_async or n.name in init or d > 0
                                         or n.op in _LOOP_OPS)
                static[n.name] = not given and not dynamic
                level[n.name] = max((level[p.name] for p in ps), default=0) + (1 if dynamic else 0)
        groups = {}
        for name, is_static in static.items():
            if is_static:
                groups.setdefault(level[name], []).append(name)
        islands = {}
        for members in groups.values():
            if len(members) < _MIN_SEGMENT:
                continue
            island = Island(members)
            inside = island.members
            outside = [(n, i) for n, i in outputs if n.name in inside]
            for name in members:
                node = used[name]
                # (the model's constants need no feeding: execute() has them)
                for p, i in node.inputs:
                    if p.name not in inside and p.name not in self.consts:
                        island.inputs.setdefault(p.name, set()).add(i)
                for p in node.control:
                    if p.name not in inside and p.name not in self.consts:
                        island.inputs.setdefault(p.name, set())
                for i, readers in node.consumers.items():
                    if any(c in used and c not in inside for c in readers):
                        island.border.append((node, i))
            island.border += [(n, i) for n, i in outside if (n, i) not in island.border]
            island.exits = [(used[name], child) for name in members for child in used[name].children
                            if child.name in used and child.name not in inside]
            for name in members:
                islands[name] = island
        return islands

    async def _run_frames(self, plan, feeds, outputs, rt, api):
        used = plan.used
        values = {}      # (node name, context) -> [tensors]
        remaining = {}   # (node name, context) -> consumers in that context still to run
        borrowed = set()
        for name, ts in feeds.items():
            values[(name, ())] = list(ts)
            borrowed.update(id(t) for t in ts)
        for name, t in self.consts.items():
            if name in used and name not in feeds:
                values[(name, ())] = [t]
                borrowed.add(id(t))
        predefined = {name for name, _ in values}
        requested = {n.name for n, _ in outputs}
        graph_nodes = self.graph.nodes
        starts = [graph_nodes[name] for name, _ in values if name in graph_nodes]
        starts += [n for n in self.graph.init_nodes if n.name in used and n.name not in predefined]
        stack = [(n, ()) for n in reversed(starts)]
        added = set()
        iterations = {}  # (enclosing context, frame name) -> {iteration context: None} seen so far
        islands = {}
        if self.root is self and self.intermediates is None and tracing_enabled():
            if plan.islands is None:
                plan.islands = self._islands(plan, feeds, outputs)
            islands = plan.islands
        done = set()     # ids of the islands run

        def find(name, ctx):
            for k in range(len(ctx), -1, -1):
                key = (name, ctx[:k])
                if key in values:
                    return key
            return None

        def value(parent, index, ctx):
            key = find(parent.name, ctx)
            if key is None:
                return None
            lst = values[key]
            return lst[index] if index < len(lst) else None

        def island_ready(island):
            for name, indices in island.inputs.items():
                key = find(name, ())
                if key is None:
                    return False
                lst = values[key]
                if any(i >= len(lst) or lst[i] is None for i in indices):
                    return False
            return True

        def ready(node, ctx):
            if not ctx and node.name in islands:
                return island_ready(islands[node.name])
            if node.op == "Merge":
                return any(value(p, i, ctx) is not None for p, i in node.inputs)
            return (all(value(p, i, ctx) is not None for p, i in node.inputs)
                    and all(find(p.name, ctx) is not None for p in node.control))

        def release(entry):
            """Dispose an entry's tensors, keeping the entry (None outputs): the node has run."""
            if entry[0] not in requested:
                lst = values[entry]
                _dispose_list(lst, borrowed)
                values[entry] = [None] * len(lst)
                remaining.pop(entry, None)

        def run_island(island):
            """The island's nodes at once (execute(): a recorded plan), its border values stored
            as if its nodes had run one by one."""
            fed = {}
            for name, indices in island.inputs.items():
                lst = values[find(name, ())]
                fed[name] = [t if i in indices else None for i, t in enumerate(lst)]
            out = self.execute(fed, island.border, api)
            border_nodes = {}
            for (bnode, i), t in zip(island.border, out):
                lst = values.setdefault((bnode.name, ()), [])
                lst.extend([None] * (i + 1 - len(lst)))
                lst[i] = t
                border_nodes[bnode.name] = bnode
            for bnode in border_nodes.values():
                key = (bnode.name, ())
                readers = dict.fromkeys(c for i, t in enumerate(values[key]) if t is not None
                                        for c in bnode.consumers.get(i, ()) if c in used and c not in island.members)
                if readers:
                    remaining[key] = len(readers)
                elif bnode.name not in requested:
                    release(key)
            for name in island.members:
                for parent in dict.fromkeys(p.name for p, _ in used[name].inputs if p.name not in island.members):
                    entry = find(parent, ())
                    if entry is not None and entry[1] == () and entry in remaining:
                        remaining[entry] -= 1
                        if remaining[entry] <= 0:
                            release(entry)
            for member, child in island.exits:
                # a member read only as a control input has run too: an entry with no values
                values.setdefault((member.name, ()), [])
            for member, child in island.exits:
                if (child.name, ()) not in added and ready(child, ()):
                    added.add((child.name, ()))
                    stack.append((child, ()))

        try:
            while stack:
                node, ctx = stack.pop()
                island = islands.get(node.name) if not ctx else None
                if island is not None:
                    if id(island) not in done:
                        done.add(id(island))
                        run_island(island)
                    continue
                out_ctx = ctx
                if node.name not in predefined:
                    out_ctx, store_ctx = self._frame_after(node, ctx)
                    key = (node.name, store_ctx)
                    if key not in values:
                        x = [value(p, i, ctx) for p, i in node.inputs]
                        out = await self._run_async(node, x, rt)
                        self._keep_copy(node.name if not store_ctx else f"{node.name}-{_context_id(store_ctx)}", out)
                        values[key] = out
                        readers = dict.fromkeys(c for i, t in enumerate(out) if t is not None
                                                for c in node.consumers.get(i, ()) if c in used)
                        if readers:
                            remaining[key] = len(readers)
                        elif node.name not in requested:
                            release(key)
                        for parent in dict.fromkeys(p.name for p, _ in node.inputs):
                            entry = find(parent, ctx)
                            if entry is not None and entry[1] == ctx and entry in remaining:
                                remaining[entry] -= 1
                                if remaining[entry] <= 0:
                                    release(entry)
                if out_ctx:
                    iterations.setdefault((out_ctx[:-1], out_ctx[-1][0]), {})[out_ctx] = None
                contexts = [out_ctx]
                if node.op == "Enter" and out_ctx != ctx and out_ctx[:-1] == ctx and node.name not in predefined \
                        and node.attrs.bool("is_constant", False):
                    # a loop invariant arriving late reaches the iterations already under way
                    contexts += [c for c in iterations[(ctx, out_ctx[-1][0])] if c != out_ctx]
                for c in contexts:
                    for child in node.children:
                        if child.name not in used or (child.name, c) in added:
                            continue
                        if ready(child, c):
                            added.add((child.name, c))
                            stack.append((child, c))
            results = []
            for node, index in outputs:
                lst = values.get((node.name, ()))
                if lst is None or index >= len(lst) or lst[index] is None:
                    raise ValueError(f"{api}: cannot compute the output '{node.name}:{index}' from the inputs "
                                     f"{sorted(feeds)} (the branch or loop producing it did not run)")
                t = lst[index]
                results.append(t.clone() if id(t) in borrowed or t.kept else t)
        except BaseException:
            for lst in values.values():
                _dispose_list(lst, borrowed)
            raise
        keep = borrowed | {id(t) for t in results}
        for lst in values.values():
            _dispose_list(lst, keep)
        return results

    @staticmethod
    def _frame_after(node, ctx):
        """(the context the node's results live in for its readers, the one they are stored in)."""
        op = node.op
        if op not in _LOOP_OPS:
            return ctx, ctx
        if op == "Enter":
            inner = ctx + ((node.attrs.str("frame_name"), 0),)
            return inner, (ctx if node.attrs.bool("is_constant", False) else inner)
        if not ctx:
            raise ValueError(f"graph model: node '{node.name}' ({op}) runs outside of any loop frame")
        if op == "Exit":
            return ctx[:-1], ctx[:-1]
        nxt = ctx[:-1] + ((ctx[-1][0], ctx[-1][1] + 1),)
        return nxt, nxt

    # --- library functions ---------------------------------------------------------------------------------
    async def run_function(self, args, rt):
        """The function's results for args (fresh tensors; the args stay the caller's)."""
        params = self.graph.inputs
        if len(args) != len(params):
            raise ValueError(f"graph model: function '{self.graph.name}' takes {len(params)} argument(s), got "
                             f"{len(args)}")
        feeds = {p.name: [t] for p, t in zip(params, args)}
        return await self.execute_async(feeds, self.graph.output_refs, rt, api=f"function '{self.graph.name}'")

