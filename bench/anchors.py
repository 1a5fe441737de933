"""The anchors: the libraries libgraph is measured against, one class each.

bench/run starts this file once per (graph, anchor), in its own process, as

    python bench/anchors.py SPEC.json RESULT.json

so an anchor that runs out of memory, crashes or hangs costs one row of the
report, not the run, and each one starts with a clean heap.  SPEC says which
anchor, which edge-list file (the same file libgraph read), the thread count,
the BFS sources (libgraph's own, from its --json line), the repeat count, and
libgraph's answers to check against.  RESULT gets, per algorithm, the times,
the method, and whether the answer agrees.

What each anchor times (and nothing else; conversions for the checks are
outside the timed regions):

  build     the .el file -> the anchor's graph object.  Anchors with their own
            reader use it (igraph's Graph.Read_Edgelist); the others parse the
            file with pandas' C reader (its share is reported as parse_s) and
            build from the numpy arrays.
  bfs       one search per source, each timed alone.
  pagerank  one full solve from the uniform start (setup included), repeated.
  cc        one full labelling, repeated.

Every anchor builds the *undirected* graph of the file: each line u v is the
edge {u, v}; vertices are 0..n-1 with n from libgraph (max id + 1).
"""

import gc
import json
import os
import resource
import sys
import time

import numpy as np

now = time.perf_counter

# An algorithm that has already used this much of its budget runs no more
# repeats or sources: NetworkX on a large graph would otherwise take hours.
DEFAULT_BUDGET_S = 120.0


# ---------------------------------------------------------------- helpers --

def read_el(path):
    """(src, dst) int32 arrays of a 'u v' edge list, separated by one space
    (as lgraph writes) or one tab; a regular-expression separator would make
    pandas 60% slower."""
    import pandas as pd
    with open(path) as f:
        sep = "\t" if "\t" in f.readline() else " "
    df = pd.read_csv(path, sep=sep, header=None, names=["s", "d"], usecols=[0, 1],
                     dtype=np.int32, engine="c", comment="#")
    return df["s"].to_numpy(), df["d"].to_numpy()


def read_column(path, dtype):
    """One number a line (lgraph --output) as a numpy array."""
    import pandas as pd
    return pd.read_csv(path, header=None, dtype=dtype, engine="c")[0].to_numpy()


def both_directions(s, d):
    """Rows and columns of the symmetric adjacency: every edge both ways, a
    self-loop once (libgraph's convention for undirected graphs)."""
    keep = s != d
    return np.concatenate([s, d[keep]]), np.concatenate([d, s[keep]])


def canonical_labels(labels):
    """Each vertex's component named by its smallest vertex id, whatever the
    anchor's own label numbering: two labelings are the same partition exactly
    when their canonical forms are equal."""
    labels = np.asarray(labels)
    _, first, inverse = np.unique(labels, return_index=True, return_inverse=True)
    return first[inverse.reshape(-1)].astype(np.int64)


def depth_from_parents(parent, source):
    """BFS levels from a parent array (parent[v] < 0: unreached; parent[source]
    may be anything), by pointer jumping: O(n log depth) numpy passes."""
    n = parent.shape[0]
    reached = parent >= 0
    reached[source] = True
    jump = np.where(reached, parent, np.arange(n)).astype(np.int64)
    jump[source] = source
    depth = (reached & (np.arange(n) != source)).astype(np.int64)
    while True:
        nxt = jump[jump]
        if np.array_equal(nxt, jump):
            break
        depth = depth + depth[jump]
        jump = nxt
    # depth[jump] counts hops to the node jumped to; with jump fixed at the
    # source for every reached vertex, depth is the level.
    return np.where(reached, depth, -1)


class Timer:
    """Runs fn up to `count` times while the budget lasts; keeps each time."""

    def __init__(self, budget_s):
        self.budget_s = budget_s

    def repeat(self, fn, count):
        times, result, spent = [], None, 0.0
        for _ in range(count):
            gc.collect()
            t0 = now()
            result = fn()
            dt = now() - t0
            times.append(dt)
            spent += dt
            if spent > self.budget_s:
                break
        return times, result


# --------------------------------------------------------------- checks --

def check_bfs(dist, spec):
    ref = read_column(spec["check"]["bfs_ref"], np.int64)
    dist = np.asarray(dist, dtype=np.int64)
    if dist.shape != ref.shape:
        return {"ok": False, "detail": f"{dist.shape[0]} distances, libgraph has {ref.shape[0]}"}
    bad = np.flatnonzero(dist != ref)
    if bad.size:
        v = int(bad[0])
        return {"ok": False, "detail": f"{bad.size} distances differ (vertex {v}: {int(dist[v])} vs libgraph {int(ref[v])})"}
    return {"ok": True, "detail": f"distances from {spec['check']['bfs_source']} equal"}


def check_cc(labels, spec):
    ref = read_column(spec["check"]["cc_ref"], np.int64)
    mine = canonical_labels(labels)
    if mine.shape != ref.shape:
        return {"ok": False, "detail": f"{mine.shape[0]} labels, libgraph has {ref.shape[0]}"}
    bad = np.flatnonzero(mine != ref)
    if bad.size:
        return {"ok": False, "detail": f"partitions differ at {bad.size} vertices (first {int(bad[0])})"}
    return {"ok": True, "detail": "same partition"}


def check_pagerank(x, spec, how):
    """how 'strict': the same quantity (NetworkX semantics and tolerance), so
    relative L1 < 1e-6 against libgraph's scores.  how 'loose': a different
    method or stopping rule, compared with libgraph run to tol 1e-12, L1 < 1e-3."""
    x = np.asarray(x, dtype=np.float64)
    key = "pr_ref" if how == "strict" else "pr_ref_tight"
    ref = read_column(spec["check"][key], np.float64)
    if x.shape != ref.shape:
        return {"ok": False, "detail": f"{x.shape[0]} scores, libgraph has {ref.shape[0]}"}
    l1 = float(np.abs(x - ref).sum())
    if how == "strict":
        rel = l1 / max(float(np.abs(ref).sum()), 1e-300)
        return {"ok": rel < 1e-6, "detail": f"rel. L1 {rel:.1e} vs libgraph" + ("" if rel < 1e-6 else " (> 1e-6)"),
                "l1": rel}
    return {"ok": l1 < 1e-3, "detail": f"loose: L1 {l1:.1e} vs converged libgraph" + ("" if l1 < 1e-3 else " (> 1e-3)"),
            "l1": l1}


def check_pagerank_iterations(result, spec):
    """The strict anchors follow NetworkX's rule: they should stop at the
    iteration libgraph stopped at."""
    want = spec["check"].get("pr_iterations")
    got = result.get("iterations")
    if want is not None and got is not None and got != want and result["check"]["ok"]:
        result["check"]["detail"] += f"; {got} iterations vs libgraph's {want}"


# ------------------------------------------------------ power iteration --

def networkx_power_iteration(spmv, x_sum_dangling, n, alpha, tol, max_iter):
    """NetworkX's PageRank loop (networkx.pagerank: uniform start, uniform
    dangling and teleport vectors, stop when sum|x - x_last| < n * tol),
    over an abstract SpMV.  spmv(x) returns sum over in-edges (u -> v) of x[u]/outdeg[u].
    Returns (x, iterations, converged, seconds spent in the iterations)."""
    x = np.full(n, 1.0 / n)
    t0 = now()
    for it in range(1, max_iter + 1):
        xlast = x
        x = alpha * (spmv(xlast) + x_sum_dangling(xlast) / n) + (1.0 - alpha) / n
        err = float(np.abs(x - xlast).sum())
        if err < n * tol:
            return x, it, True, now() - t0
    return x, max_iter, False, now() - t0


# -------------------------------------------------------------- anchors --

class Anchor:
    name = "?"
    threads_note = ""  # how the thread count is honoured

    def __init__(self, spec):
        self.spec = spec
        self.n = spec["n"]
        self.threads = spec["threads"]
        self.timer = Timer(spec.get("budget_s", DEFAULT_BUDGET_S))

    # Subclasses define build() -> (seconds, parse seconds or None, method),
    # and bfs(source) / bfs_distances(result, source), pagerank(), cc().
    def threads_used(self, algorithm):
        return self.threads

    def versions(self):
        return {}

    def pagerank_for_check(self, x):
        """The scores to check: the timed run's, unless the anchor needs an
        untimed run of its own to compute a comparable quantity."""
        return x

    def run_bfs(self):
        """One timed search per source (libgraph's sources), in order, while
        the budget lasts; then the distances from the check source, which is
        the last one, compared with libgraph's."""
        sources = self.spec["sources"]
        check_src = self.spec["check"]["bfs_source"]
        times, spent, last = [], 0.0, None
        for s in sources:
            last = None
            gc.collect()
            t0 = now()
            res = self.bfs(s)
            dt = now() - t0
            times.append(dt)
            last = (s, res)
            spent += dt
            if spent > self.timer.budget_s:
                break
        out = {"times_s": times, "method": self.bfs_method, "threads": self.threads_used("bfs"),
               "sources_run": len(times), "sources_given": len(sources)}
        res = last[1] if last and last[0] == check_src else self.bfs(check_src)
        out["check"] = check_bfs(self.bfs_distances(res, check_src), self.spec)
        return out

    # Anchors whose PageRank takes a tolerance and an iteration limit also run
    # a fixed number of iterations (tol 0), for a steady time per iteration:
    # NetworkX's tolerance, n * 1e-6 in L1, stops large graphs after 1-3.
    fixed_iterations = True

    def run_pagerank(self):
        spec = self.spec
        times, res = self.timer.repeat(lambda: self.pagerank(spec["tol"], spec["max_iter"]), spec["repeat"])
        x, iters, iter_s = res
        out = {"times_s": times, "method": self.pr_method, "threads": self.threads_used("pagerank"),
               "iterations": iters}
        k = spec.get("pr_fixed_iterations")
        if k and self.fixed_iterations:
            ftimes, fres = self.timer.repeat(lambda: self.pagerank(0.0, k), spec["repeat"])
            out["fixed_iterations"] = fres[1]
            out["fixed_times_s"] = ftimes
            out["per_iter_s"] = sorted(ftimes)[len(ftimes) // 2] / max(fres[1], 1)
        elif iter_s is not None and iters:
            out["per_iter_s"] = iter_s / iters
        out["check"] = check_pagerank(self.pagerank_for_check(x), self.spec, self.pr_check)
        if self.pr_check == "strict":
            check_pagerank_iterations(out, self.spec)
        return out

    def run_cc(self):
        times, labels = self.timer.repeat(self.cc, self.spec["repeat"])
        labels = np.asarray(labels)
        out = {"times_s": times, "method": self.cc_method, "threads": self.threads_used("cc"),
               "components": int(np.unique(labels).size)}
        out["check"] = check_cc(labels, self.spec)
        return out


class NetworkXAnchor(Anchor):
    name = "networkx"
    bfs_method = "single_source_shortest_path_length"
    pr_method = "nx.pagerank (SciPy inside), tol 1e-6"
    pr_check = "strict"
    cc_method = "connected_components (BFS)"

    def threads_used(self, algorithm):
        return 1

    def versions(self):
        import networkx
        return {"networkx": networkx.__version__}

    def build(self):
        import networkx as nx
        t0 = now()
        s, d = read_el(self.spec["graph"])
        parse = now() - t0
        g = nx.Graph()
        g.add_nodes_from(range(self.n))
        g.add_edges_from(zip(s.tolist(), d.tolist()))
        self.g = g
        return now() - t0, parse, "pandas + Graph.add_edges_from"

    def bfs(self, s):
        import networkx as nx
        return nx.single_source_shortest_path_length(self.g, s)

    def bfs_distances(self, res, s):
        dist = np.full(self.n, -1, np.int64)
        dist[np.fromiter(res.keys(), np.int64, len(res))] = np.fromiter(res.values(), np.int64, len(res))
        return dist

    fixed_iterations = False  # nx.pagerank raises when it does not converge

    def pagerank(self, tol, max_iter):
        import networkx as nx
        pr = nx.pagerank(self.g, alpha=self.spec["alpha"], tol=tol, max_iter=max_iter)
        x = np.fromiter((pr[v] for v in range(self.n)), np.float64, self.n)
        # nx.pagerank does not say how many iterations it took.
        return x, None, None

    def cc(self):
        import networkx as nx
        labels = np.empty(self.n, np.int64)
        for i, comp in enumerate(nx.connected_components(self.g)):
            labels[list(comp)] = i
        return labels


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


class IGraphAnchor(Anchor):
    name = "igraph"
    bfs_method = "Graph.bfs"
    pr_method = "Graph.pagerank (PRPACK, solved exactly)"
    pr_check = "loose"
    cc_method = "Graph.connected_components"

    def threads_used(self, algorithm):
        return 1

    def versions(self):
        import igraph
        return {"igraph": igraph.__version__}

    def build(self):
        import igraph as ig
        t0 = now()
        g = ig.Graph.Read_Edgelist(self.spec["graph"], directed=False)
        if g.vcount() < self.n:
            g.add_vertices(self.n - g.vcount())
        self.g = g
        return now() - t0, None, "Graph.Read_Edgelist"

    def bfs(self, s):
        return self.g.bfs(s)

    def bfs_distances(self, res, s):
        vids, layers, _ = res
        dist = np.full(self.n, -1, np.int64)
        vids = np.asarray(vids, np.int64)
        layers = np.asarray(layers, np.int64)
        for level in range(len(layers) - 1):
            dist[vids[layers[level]:layers[level + 1]]] = level
        return dist

    fixed_iterations = False  # PRPACK takes no tolerance

    def pagerank(self, tol, max_iter):
        x = self.g.pagerank(damping=self.spec["alpha"])
        return np.asarray(x), None, None

    def cc(self):
        return self.g.connected_components().membership

    def run_cc(self):
        # igraph caches "is connected" on the graph, and a connected graph's
        # components then come back in O(n) without a search: drop the cache
        # (untimed) before every timed run by adding and deleting a vertex.
        def fresh_cc():
            self.g.add_vertices(1)
            self.g.delete_vertices([self.g.vcount() - 1])
            t0 = now()
            labels = self.cc()
            self._cc_times.append(now() - t0)
            return labels

        self._cc_times = []
        _, labels = self.timer.repeat(fresh_cc, self.spec["repeat"])
        labels = np.asarray(labels)
        return {"times_s": self._cc_times, "method": self.cc_method + " (cache dropped before each run)",
                "threads": 1, "components": int(np.unique(labels).size), "check": check_cc(labels, self.spec)}


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


ANCHORS = {a.name: a for a in (NetworkXAnchor, SciPyAnchor, IGraphAnchor, NetworKitAnchor, GraphBLASAnchor,
                               LibgraphPythonAnchor)}

# The module each anchor needs, for "is it installed?" without importing it.
MODULES = {"networkx": "networkx", "scipy": "scipy", "igraph": "igraph",
           "networkit": "networkit", "graphblas": "graphblas", "libgraph-py": "libgraph"}


# What each anchor imports, loaded before any clock starts.
IMPORTS = {"networkx": ["networkx"], "scipy": ["scipy.sparse", "scipy.sparse.csgraph"],
           "igraph": ["igraph"], "networkit": ["networkit"], "graphblas": ["graphblas"],
           "libgraph-py": ["libgraph"]}


def run(spec):
    import importlib
    for mod in ["pandas"] + IMPORTS[spec["tool"]]:
        importlib.import_module(mod)
    anchor = ANCHORS[spec["tool"]](spec)
    result = {"tool": anchor.name, "graph": spec["graph_name"], "versions": anchor.versions()}
    t, parse, method = anchor.build()
    result["build"] = {"times_s": [t], "parse_s": parse, "method": method}
    for algo in spec["algorithms"]:
        try:
            result[algo] = getattr(anchor, "run_" + algo)()
        except MemoryError:
            result[algo] = {"error": "out of memory"}
        except Exception as e:  # one algorithm's failure is a row, not a crash
            result[algo] = {"error": f"{type(e).__name__}: {e}"}
    result["peak_rss_mb"] = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0
    return result


def main(argv):
    with open(argv[1]) as f:
        spec = json.load(f)
    try:
        result = run(spec)
    except MemoryError:
        result = {"tool": spec["tool"], "graph": spec["graph_name"], "error": "out of memory"}
    except Exception as e:
        import traceback
        traceback.print_exc()
        result = {"tool": spec["tool"], "graph": spec["graph_name"], "error": f"{type(e).__name__}: {e}"}
    tmp = argv[2] + ".tmp"
    with open(tmp, "w") as f:
        json.dump(result, f)
    os.replace(tmp, argv[2])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
