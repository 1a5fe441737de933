"""The NetworKit anchor: graph.GraphFromCoo, distance.BFS, centrality.PageRank
(L1 norm; its scores rescaled from an untimed converged run, checked
loosely) and the faster of its sequential and parallel components, with the
run's thread count where NetworKit is parallel.
"""

import numpy as np

from anchors_base import Anchor, now, read_el


class NetworKitAnchor(Anchor):
    name = "networkit"
    bfs_method = "distance.BFS"
    pr_check = "loose"

    def __init__(self, spec):
        super().__init__(spec)
        import networkit as nk
        nk.setNumberOfThreads(self.threads)
        try:
            nk.setLogLevel("ERROR")
        except Exception:
            pass

    def threads_used(self, algorithm):
        import networkit as nk
        return 1 if algorithm == "bfs" else nk.getMaxNumberOfThreads()

    def versions(self):
        import networkit
        return {"networkit": networkit.__version__}

    @property
    def pr_method(self):
        return "centrality.PageRank, L1 norm, tol n*1e-6"

    def build(self):
        import networkit as nk
        t0 = now()
        s, d = read_el(self.spec["graph"])
        parse = now() - t0
        self.g = nk.graph.GraphFromCoo((s.astype(np.uint64), d.astype(np.uint64)), n=self.n,
                                       directed=False)
        return now() - t0, parse, "pandas + graph.GraphFromCoo"

    def bfs(self, s):
        import networkit as nk
        b = nk.distance.BFS(self.g, s, storePaths=False)
        b.run()
        return b

    def bfs_distances(self, res, s):
        d = np.asarray(res.getDistances(), np.float64)
        return np.where(d < 1e300, d, -1).astype(np.int64)

    def pagerank(self, tol, max_iter):
        import networkit as nk
        sinks = getattr(nk.centrality.SinkHandling, "DISTRIBUTE_SINKS", None) or \
            nk.centrality.SinkHandling.DistributeSinks
        t0 = now()
        pr = nk.centrality.PageRank(self.g, damp=self.spec["alpha"], tol=self.n * tol,
                                    distributeSinks=sinks)
        pr.norm = nk.centrality.Norm.L1_NORM
        pr.maxIterations = max_iter
        pr.run()
        dt = now() - t0
        return np.asarray(pr.scores()), pr.numberOfIterations(), dt

    def pagerank_for_check(self, x):
        # NetworKit loses the rank of isolated vertices in undirected graphs
        # (its sink handling covers directed sinks only), so its scores are
        # NetworkX's times a constant once converged: run it to convergence,
        # untimed, and rescale to sum 1.
        import networkit as nk
        pr = nk.centrality.PageRank(self.g, damp=self.spec["alpha"], tol=1e-12)
        pr.norm = nk.centrality.Norm.L1_NORM
        pr.maxIterations = 10000
        pr.run()
        y = np.asarray(pr.scores())
        return y / y.sum()

    def cc(self):
        import networkit as nk
        c = self.cc_class(self.g)
        c.run()
        return c.getPartition().getVector()

    def run_cc(self):
        # NetworKit has a sequential (BFS) and a parallel (label propagation)
        # algorithm; the faster one here is reported.
        import networkit as nk
        best = None
        for cls in (nk.components.ConnectedComponents, nk.components.ParallelConnectedComponents):
            self.cc_class = cls
            self.cc_method = "components." + cls.__name__
            out = Anchor.run_cc(self)
            out["threads"] = 1 if cls is nk.components.ConnectedComponents else self.threads_used("cc")
            if best is None or np.median(out["times_s"]) < np.median(best["times_s"]):
                best = out
        return best
