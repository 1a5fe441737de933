"""The SciPy anchor: a csr_array of the symmetric adjacency, csgraph's
breadth_first_order and connected_components, and PageRank as NetworkX's
power iteration over SciPy's SpMV (checked strictly), single-threaded.
"""

import numpy as np

from anchors_base import Anchor, both_directions, depth_from_parents, networkx_power_iteration, now, read_el


class SciPyAnchor(Anchor):
    name = "scipy"
    bfs_method = "csgraph.breadth_first_order"
    pr_method = "SpMV power iteration (NetworkX's loop), float64"
    pr_check = "strict"
    cc_method = "csgraph.connected_components"

    def threads_used(self, algorithm):
        return 1

    def versions(self):
        import scipy
        return {"scipy": scipy.__version__, "numpy": np.__version__}

    def build(self):
        import scipy.sparse as sp
        t0 = now()
        s, d = read_el(self.spec["graph"])
        parse = now() - t0
        r, c = both_directions(s, d)
        del s, d
        self.A = sp.csr_array((np.ones(r.shape[0]), (r, c)), shape=(self.n, self.n))
        self.A.sort_indices()
        return now() - t0, parse, "pandas + coo -> csr_array"

    def bfs(self, s):
        from scipy.sparse import csgraph
        # The matrix is symmetric: directed=True walks it as stored, with no
        # symmetrizing copy.
        return csgraph.breadth_first_order(self.A, s, directed=True, return_predecessors=True)

    def bfs_distances(self, res, s):
        _, pred = res
        return depth_from_parents(pred.astype(np.int64), s)

    def pagerank(self, tol, max_iter):
        A = self.A
        n = self.n
        deg = np.asarray(A.sum(axis=1)).ravel()
        dangling = deg == 0
        inv = np.divide(1.0, deg, out=np.zeros(n), where=~dangling)
        # A is symmetric, so the in-edges of v are its row: y = A @ (x / outdeg).
        x, iters, ok, iter_s = networkx_power_iteration(
            lambda x: A @ (x * inv), lambda x: float(x[dangling].sum()), n,
            self.spec["alpha"], tol, max_iter)
        return x, iters, iter_s

    def cc(self):
        from scipy.sparse import csgraph
        _, labels = csgraph.connected_components(self.A, directed=False)
        return labels
