"""Smoke test of an installed libgraph wheel (tools/build-wheel.sh runs it,
under qemu for a foreign architecture): BFS, PageRank and connected
components on a small graph with known answers, and on a larger generated
one against plain-Python references, with one thread and with several (the
grafted OpenMP runtime at work).  Needs numpy; prints one line on success."""
import platform
import random
import sys
from collections import deque

import numpy as np

import libgraph as lg


def reference_bfs(n, adj, source):
    dist = [-1] * n
    dist[source] = 0
    queue = deque([source])
    while queue:
        u = queue.popleft()
        for v in adj[u]:
            if dist[v] < 0:
                dist[v] = dist[u] + 1
                queue.append(v)
    return dist


def reference_components(n, adj):
    """Each vertex labelled with the smallest vertex of its component."""
    label = [-1] * n
    for s in range(n):  # s is the smallest vertex of the component it reaches
        if label[s] < 0:
            label[s] = s
            queue = deque([s])
            while queue:
                u = queue.popleft()
                for v in adj[u]:
                    if label[v] < 0:
                        label[v] = s
                        queue.append(v)
    return label


def reference_pagerank(n, adj, alpha=0.85, sweeps=500):
    """networkx.pagerank's iteration: dangling vertices spread uniformly."""
    x = [1.0 / n] * n
    for _ in range(sweeps):
        dangling = sum(x[u] for u in range(n) if not adj[u])
        nxt = [(1.0 - alpha) / n + alpha * dangling / n] * n
        for u in range(n):
            if adj[u]:
                share = alpha * x[u] / len(adj[u])
                for v in adj[u]:
                    nxt[v] += share
        change = sum(abs(a - b) for a, b in zip(nxt, x))
        x = nxt
        if change < 1e-14:
            break
    return x


def check(what, ok):
    if not ok:
        print(f"smoke test FAILED: {what}")
        sys.exit(1)


def own_gil_interpreter():
    """On CPython 3.13+, the module imported and BFS run in an interpreter with
    a GIL of its own (the module says it supports that on 3.12+; on 3.12 the
    package's own imports, ctypes among them, do not).  numpy is kept out of
    that interpreter, which numpy does not support.  Returns what was run:
    "" where the CPython has no such interpreters."""
    code = ("import sys\n"
            "sys.modules['numpy'] = None\n"
            "import libgraph as lg\n"
            "g = lg.Graph.from_edges([0, 1, 2], [1, 2, 3])\n"
            "assert lg.bfs(g, 0).tolist() == [0, 1, 2, 3]\n")
    if sys.version_info >= (3, 14):
        from concurrent import interpreters
        interp = interpreters.create()
        try:
            interp.exec(code)
        finally:
            interp.close()
    elif sys.version_info >= (3, 13):
        import _interpreters  # its default configuration: a GIL of its own
        interp = _interpreters.create()
        try:
            failure = _interpreters.run_string(interp, code)
            check(f"the module in an interpreter with its own GIL: {failure}", failure is None)
        finally:
            _interpreters.destroy(interp)
    else:
        return ""
    return ", BFS in an interpreter with its own GIL"


def main():
    info = lg.build_info()
    check(f"build_info names OpenMP: {info}", "OpenMP" in info)
    check(f"build_info finds no GPU plugin: {info}", "no GPU plugin found" in info)

    # README's graph: the path 0-1-2-3 with the chord 1-3, and the edge 4-5
    g = lg.Graph.from_edges([0, 1, 2, 1, 4], [1, 2, 3, 3, 5], directed=False)
    check("bfs on the small graph", lg.bfs(g, 0, device="cpu").tolist() == [0, 1, 2, 2, -1, -1])
    check("components on the small graph",
          lg.connected_components(g, device="cpu").tolist() == [0, 0, 0, 0, 4, 4])
    check("component count", lg.number_connected_components(g, device="cpu") == 2)
    pr = lg.pagerank(g, device="cpu")
    check("pagerank sums to 1", abs(float(pr.sum()) - 1.0) < 1e-9)
    check("pagerank symmetry (4 and 5)", abs(float(pr[4]) - float(pr[5])) < 1e-12)

    # a generated graph: several components, isolated vertices, no duplicates
    rng = random.Random(20261124)
    n = 3000
    edges = set()
    while len(edges) < 7000:
        u, v = rng.randrange(n), rng.randrange(n)
        if u != v and u // 600 == v // 600:  # edges only inside blocks of 600
            edges.add((min(u, v), max(u, v)))
    src = np.array([e[0] for e in edges], dtype=np.int64)
    dst = np.array([e[1] for e in edges], dtype=np.int64)
    adj = [[] for _ in range(n)]
    for u, v in edges:
        adj[u].append(v)
        adj[v].append(u)
    big = lg.Graph.from_edges(src, dst, num_vertices=n, directed=False)
    want_dist = reference_bfs(n, adj, 1)
    want_label = reference_components(n, adj)
    want_rank = np.array(reference_pagerank(n, adj))
    for threads in (1, 4):
        ctx = lg.Context("cpu", num_threads=threads)
        check(f"bfs ({threads} threads)", lg.bfs(big, 1, device=ctx).tolist() == want_dist)
        check(f"components ({threads} threads)",
              lg.connected_components(big, device=ctx).tolist() == want_label)
        rank = lg.pagerank(big, tol=1e-13, max_iter=1000, device=ctx)
        err = float(np.max(np.abs(rank - want_rank)))
        check(f"pagerank ({threads} threads): max error {err}", err < 1e-10)
    ncomp = len(set(want_label))
    interpreters = own_gil_interpreter()
    print(f"smoke test passed on {platform.machine()} (Python {platform.python_version()}): "
          f"bfs, pagerank, connected components ({ncomp} components) on 1 and 4 threads"
          f"{interpreters}")


if __name__ == "__main__":
    main()
