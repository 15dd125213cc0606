"""What the engine asks of a backend."""


class Backend:
    name = "base"

    def write(self, values, shape, dtype, data_id=None):
        """Store a flat buffer (array.array or 1-D ndarray) under data_id (a new DataId when
        None) and return the DataId."""
        raise NotImplementedError

    def read_sync(self, data_id):
        """The data as a flat array.array (typecode per dtypes.TYPECODES)."""
        raise NotImplementedError

    async def ready(self, automatic=False):
        """Finish an asynchronous initialisation (`await tf.ready()`). automatic: the engine is
        choosing the best backend, and this one may decline (BackendError) where a lower one is
        the better default."""

    def ready_sync(self, automatic=False):
        """ready() without awaiting, where the platform allows (BackendError where it cannot)."""

    async def read(self, data_id):
        return self.read_sync(data_id)

    def dispose_data(self, data_id):
        raise NotImplementedError

    def sync(self):
        """Block until all work issued so far is done (a no-op where work is synchronous)."""

    def settle(self, data_id):
        """Compute data the backend holds as pending work (webgl's lazy elementwise fusion): the
        engine settles what a variable takes, so that state carried from step to step is values,
        not ever longer expressions."""

    def plan_runner(self, plan):
        """An object whose run(plan, inputs) replays a recorded plan (core/plan.py) faster than
        step by step, giving the same result as plan.run_steps(inputs); None where this backend
        has none. Asked once per plan, on its first replay; plan.dispose() calls its dispose()."""
        return None

    def memory(self):
        """Backend-specific fields added to tf.memory()."""
        return {}

    def float_precision(self):
        """Bits of the float storage (TF.js's floatPrecision): 32, or 16 on half-float textures."""
        return 32

    def dispose(self):
        """Release everything (engine reset, backend removal)."""
