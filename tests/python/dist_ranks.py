"""libgraph.dist on the ranks of an MPI job, checked against single-process
libgraph: run by test_dist.py as `mpiexec -n P python dist_ranks.py`.

Every rank builds the small graphs whole with libgraph too, and compares its
own share of each distributed result: BFS distances and component labels
exactly, parents as a valid BFS tree, PageRank within 1e-9 in L1 summed over
ranks.  Failures are counted, not raised, so that every rank stays in step
through the collectives; the exit status says whether any rank failed.
"""
import sys

import numpy as np
from mpi4py import MPI

import libgraph as lg
import libgraph.dist as lgd

comm = MPI.COMM_WORLD
failures = []


def check(ok, what):
    if not ok:
        failures.append(what)


def compare(ctx, g, whole, label):
    first, count = g.local_range
    n = whole.num_vertices
    check(g.num_vertices == n and g.num_edges == whole.num_edges, f"{label}: sizes")
    check(comm.allreduce(count) == n, f"{label}: owned counts")
    check(np.array_equal(g.vertices, np.arange(first, first + count)), f"{label}: vertices")
    if n == 0:
        return
    mine = slice(first, first + count)
    for sources in ([0], [n - 1, n // 2]):
        for alpha in (15, 0, 1000):
            d, p = lgd.bfs(g, sources, parents=True, direction_alpha=alpha)
            ref = np.asarray(lg.bfs(whole, sources))
            check(np.array_equal(d, ref[mine]), f"{label}: bfs {sources} alpha {alpha}")
            src, dst = np.asarray(whole.csr()[0]), np.asarray(whole.csr()[1])
            for v in np.nonzero(d > 0)[0][:50]:
                par = p[v]
                row = dst[src[par]:src[par + 1]]
                check(ref[par] == d[v] - 1 and (first + v) in row, f"{label}: parent of {first + v}")
    x = lgd.pagerank(g, tol=1e-10)
    ref = np.asarray(lg.pagerank(whole, tol=1e-10))
    l1 = comm.allreduce(float(np.abs(x - ref[mine]).sum()))
    check(l1 <= 1e-9, f"{label}: pagerank L1 {l1}")
    t = ctx.last_traffic
    check(t["rounds"] >= 1 and t["total_bytes"] >= t["max_bytes_sent"] >= t["bytes_sent"] >= 0,
          f"{label}: traffic {t}")
    labels = lgd.connected_components(g)
    ref = np.asarray(lg.connected_components(whole))
    check(np.array_equal(labels, ref[mine]), f"{label}: components")
    everything = g.gather(labels, root=comm.size - 1)
    if comm.rank == comm.size - 1:
        check(np.array_equal(everything, ref), f"{label}: gather")
    else:
        check(everything is None, f"{label}: gather elsewhere")


def gpu_context():
    """A GPU context where this build, machine and NCCL allow one; otherwise
    the same error on every rank (a module, a GPU or NCCL missing)."""
    try:
        with lgd.Context(comm, threads=1, device="gpu") as ctx:
            check(ctx.device.startswith("GPU"), f"gpu context: {ctx.device}")
    except (lg.UnsupportedError, lg.DeviceError) as e:
        check("GPU" in str(e), f"gpu context error: {e}")
        messages = comm.allgather(str(e))
        check(len(set(messages)) == 1, f"gpu context errors differ: {messages}")
    try:
        lgd.Context(comm, device="tpu")
        check(False, "device 'tpu' accepted")
    except ValueError:
        pass


def main():
    gpu_context()
    with lgd.Context(comm, threads=1) as ctx:
        check(ctx.device == "cpu", f"cpu context: {ctx.device}")
        for kind in ("kron", "urand"):
            with lgd.Graph.generate(ctx, kind, 9, 8, seed=3) as g:
                compare(ctx, g, lg.Graph.generate(kind, 9, 8, seed=3), kind)
        # uneven shares of random weighted directed edges (rank 1 none)
        rng = np.random.default_rng(5)
        E, n = 1500, 240
        src, dst = rng.integers(0, n - 10, E), rng.integers(0, n - 10, E)
        w = rng.uniform(0.5, 2.0, E).astype(np.float32)
        cuts = np.linspace(0, E, comm.size + 1).astype(int)
        lo, hi = cuts[comm.rank], cuts[comm.rank + 1]
        if comm.size > 2 and comm.rank == 1:
            lo = hi
        if comm.size > 2 and comm.rank == 0:
            hi = cuts[2]
        for directed in (True, False):
            with lgd.Graph.from_edges(ctx, src[lo:hi], dst[lo:hi], w[lo:hi], num_vertices=n,
                                      directed=directed, duplicates="sum") as g:
                whole = lg.Graph.from_edges(src, dst, w, num_vertices=n, directed=directed,
                                            duplicates="sum")
                compare(ctx, g, whole, f"edges directed={directed}")
        # errors: the same exception and message on every rank
        bad = dst[lo:hi].copy()
        if comm.rank == comm.size - 1 and len(bad):
            bad[-1] = n
        try:
            lgd.Graph.from_edges(ctx, src[lo:hi], bad, num_vertices=n)
            check(not len(dst[cuts[-2]:cuts[-1]]), "a bad id was accepted")
        except lg.InvalidArgumentError as e:
            msgs = comm.allgather(str(e))
            check(len(set(msgs)) == 1 and f">= num_vertices {n}" in msgs[0], f"errors: {msgs}")
        try:
            lgd.pagerank(lgd.Graph.generate(ctx, "kron", 6), max_iter=1, tol=1e-15)
            check(False, "pagerank converged in 1 iteration")
        except lg.NotConverged as e:
            check(e.iterations == 1 and len(e.scores) >= 0, "NotConverged fields")
        try:
            lgd.Graph.read(ctx, "/nonexistent/graph.el")
            check(False, "a missing file was read")
        except lg.FileFormatError as e:
            check("cannot open" in str(e), f"missing file: {e}")
        g = lgd.Graph.generate(ctx, "urand", 5)
        g.close()
        g.close()  # twice: nothing
        try:
            lgd.bfs(g, 0)
            check(False, "a closed graph was used")
        except ValueError as e:
            check("closed" in str(e), f"closed graph: {e}")
    failed = comm.allreduce(len(failures))
    for f in failures:
        print(f"rank {comm.rank}: FAILED {f}", file=sys.stderr)
    if comm.rank == 0:
        print(f"{comm.size} ranks: {failed} failures")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
