"""What every anchor shares (bench/anchors.py runs them): the Anchor class,
whose run_bfs / run_pagerank / run_cc time a subclass's bfs, pagerank and cc
within the budget and check each answer; the checks against libgraph's
answers (the same distances, the same partition, PageRank within 1e-6
relative L1, or 1e-3 L1 for a different method); NetworkX's power iteration
over any SpMV; and the helpers: the .el reader (pandas' C reader), the
symmetric adjacency of an edge list, canonical component labels, BFS levels
from a parent array, and a budgeted repeat timer.
"""

import gc
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
