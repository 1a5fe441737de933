"""The libgraph-py anchor: libgraph itself through its Python module, on a CPU
context of the run's thread count, beside the CLI's C-level times.
"""

from anchors_base import Anchor, now


class LibgraphPythonAnchor(Anchor):
    """libgraph itself through its Python module (python/): what a notebook
    user gets, beside the CLI's C-level times.  CPU context of the run's
    thread count; numpy arrays out."""
    name = "libgraph-py"
    bfs_method = "libgraph.bfs"
    pr_method = "libgraph.pagerank, float64"
    pr_check = "strict"
    cc_method = "libgraph.connected_components"

    def __init__(self, spec):
        super().__init__(spec)
        import libgraph
        self.lg = libgraph
        self.ctx = libgraph.Context("cpu", num_threads=self.threads)

    def threads_used(self, algorithm):
        return self.ctx.num_threads

    def versions(self):
        return {"libgraph-py": self.lg.__version__}

    def build(self):
        t0 = now()
        self.g = self.lg.Graph.load(self.spec["graph"], directed=False, device=self.ctx)
        return now() - t0, None, "Graph.load (the C reader)"

    def bfs(self, s):
        return self.lg.bfs(self.g, s, device=self.ctx)

    def bfs_distances(self, res, s):
        return res

    def pagerank(self, tol, max_iter):
        # tol 0 runs max_iter iterations and ends in NotConverged, which
        # carries the scores
        try:
            return self.lg.pagerank(self.g, tol=tol, max_iter=max_iter, device=self.ctx), None, None
        except self.lg.NotConverged as e:
            return e.scores, e.iterations, None

    def cc(self):
        return self.lg.connected_components(self.g, device=self.ctx)
