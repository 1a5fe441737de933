"""The python-graphblas anchor (SuiteSparse:GraphBLAS): the textbook algebraic
BFS, PageRank (NetworkX's loop, checked strictly) and min-label propagation
for components, written here over GraphBLAS's primitives, with the run's
thread count.
"""

import numpy as np

from anchors_base import Anchor, both_directions, now, read_el


class GraphBLASAnchor(Anchor):
    """python-graphblas over SuiteSparse:GraphBLAS.  GraphBLAS is a set of
    sparse linear-algebra primitives, not a graph library: these are the
    textbook algebraic formulations, written here (no LAGraph from PyPI)."""
    name = "graphblas"
    bfs_method = "level-synchronous push BFS (vxm any_pair, complemented mask)"
    pr_method = "SpMV power iteration (NetworkX's loop), plus_first, float64"
    pr_check = "strict"
    cc_method = "min-label propagation (mxv min_second) + pointer jumping"

    def __init__(self, spec):
        super().__init__(spec)
        import graphblas as gb
        gb.ss.config["nthreads"] = self.threads

    def threads_used(self, algorithm):
        import graphblas as gb
        return int(gb.ss.config["nthreads"])

    def versions(self):
        import graphblas as gb
        v = gb.ss.about["library_version"]
        return {"python-graphblas": gb.__version__, "SuiteSparse:GraphBLAS": ".".join(map(str, v))}

    def build(self):
        from graphblas import Matrix, dtypes
        t0 = now()
        s, d = read_el(self.spec["graph"])
        parse = now() - t0
        r, c = both_directions(s, d)
        del s, d
        self.A = Matrix.from_coo(r, c, 1.0, nrows=self.n, ncols=self.n, dtype=dtypes.FP64)
        self.A.wait()
        return now() - t0, parse, "pandas + Matrix.from_coo (iso-valued)"

    def bfs(self, s):
        from graphblas import Vector, dtypes, semiring
        n, A = self.n, self.A
        level = Vector(dtypes.INT32, n)
        frontier = Vector(dtypes.BOOL, n)
        frontier[s] = True
        level[s] = 0
        depth = 0
        while frontier.nvals:
            depth += 1
            frontier(~level.S, replace=True) << frontier.vxm(A, semiring.any_pair[dtypes.BOOL])
            level(frontier.S) << depth
        level.wait()
        return level

    def bfs_distances(self, res, s):
        idx, vals = res.to_coo()
        dist = np.full(self.n, -1, np.int64)
        dist[idx] = vals
        return dist

    def pagerank(self, tol, max_iter):
        from graphblas import Vector, agg, binary, dtypes, semiring, unary
        n, A = self.n, self.A
        deg = A.reduce_rowwise(agg.count).new(dtype=dtypes.FP64)
        inv = deg.apply(binary.truediv, left=1.0).new()  # 1 / outdeg where outdeg > 0
        dangling = Vector(dtypes.BOOL, n)
        dangling(~deg.S) << True                      # no out-edges
        alpha = self.spec["alpha"]
        x = Vector.from_scalar(1.0 / n, n, dtype=dtypes.FP64)
        iters = 0
        t0 = now()
        for it in range(1, max_iter + 1):
            iters = it
            t = (x * inv).new()                       # x / outdeg, on non-dangling vertices
            y = t.vxm(A, semiring.plus_first[dtypes.FP64]).new()  # sum over in-edges
            dsum = 0.0
            if dangling.nvals:
                xd = Vector(dtypes.FP64, n)
                xd(dangling.S) << x
                dsum = xd.reduce().get(0.0)
            c = alpha * dsum / n + (1.0 - alpha) / n
            xnew = Vector.from_scalar(c, n, dtype=dtypes.FP64)
            xnew(binary.plus) << y.apply(binary.times, alpha)
            err = xnew.ewise_mult(x, binary.minus).new().apply(unary.abs).reduce().get(0.0)
            x = xnew
            if err < n * tol:
                break
        iter_s = now() - t0
        idx, vals = x.to_coo()
        out = np.zeros(n)
        out[idx] = vals
        return out, iters, iter_s

    def cc(self):
        from graphblas import Vector, binary, dtypes, semiring
        n, A = self.n, self.A
        ids = np.arange(n, dtype=np.int64)
        label = Vector.from_coo(ids, ids, size=n, dtype=dtypes.INT64)
        while True:
            # every vertex takes the smallest label among itself and its neighbours
            nxt = label.dup()
            nxt(binary.min) << A.mxv(label, semiring.min_second[dtypes.INT64])
            # pointer jumping: label[v] is a vertex of v's component with a
            # smaller-or-equal label, so label[label[v]] is one too
            _, lv = nxt.to_coo()
            jumped = lv[lv]
            nxt = Vector.from_coo(ids, jumped, size=n, dtype=dtypes.INT64)
            if nxt.isequal(label):
                break
            label = nxt
        _, lv = label.to_coo()
        return lv
