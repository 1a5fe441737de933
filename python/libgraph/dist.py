"""libgraph across MPI ranks (libgraph_dist), for mpi4py programs.

    # mpirun -np 4 python app.py
    from mpi4py import MPI
    import libgraph.dist as lgd

    with lgd.Context(MPI.COMM_WORLD) as ctx:
        with lgd.Graph.generate(ctx, "kron", 20) as g:
            first, count = g.local_range        # this rank's vertices
            x = lgd.pagerank(g)                 # x[i]: vertex first + i
            everything = g.gather(x, root=0)    # the whole vector on rank 0

Every call is collective: all ranks of the communicator call it, in the same
order, with the same options, each with its own share of the inputs; each
gets its own vertices' results.  A failure on any rank raises the same
libgraph exception on every rank.  Freeing a context or graph is collective
too: close them (or use with-blocks) on every rank.  Needs numpy and mpi4py
(pip install "libgraph[mpi]"), and a libgraph built where MPI was found
(docs/DISTRIBUTED.md).
"""

import importlib

import numpy as np

from . import _libgraph


def _require(module, message):
    try:
        return importlib.import_module(module)
    except ImportError as e:
        raise ImportError(message) from e


MPI = _require("mpi4py.MPI", "libgraph.dist needs mpi4py: pip install 'libgraph[mpi]'")
# the extension behind this module, built only where MPI was found
_dist = _require("libgraph._dist",
                 "libgraph.dist: this libgraph was built without MPI (libgraph._dist is "
                 "missing); install MPI (e.g. apt-get install libopenmpi-dev) and reinstall "
                 "libgraph")

__all__ = ["Context", "Graph", "bfs", "pagerank", "connected_components"]

_ERRORS = {
    "LG_ERR_INVALID_ARGUMENT": _libgraph.InvalidArgumentError,
    "LG_ERR_OUT_OF_MEMORY": _libgraph.OutOfMemoryError,
    "LG_ERR_DEVICE": _libgraph.DeviceError,
    "LG_ERR_UNSUPPORTED": _libgraph.UnsupportedError,
    "LG_ERR_IO": _libgraph.FileFormatError,
    "LG_ERR_NOT_CONVERGED": _libgraph.NotConverged,
    "LG_ERR_UNBOUNDED": _libgraph.Unbounded,
}
_DUPLICATES = {"keep": 0, "sum": 1, "min": 2, "max": 3, "first": 4, "last": 5}
_FORMATS = {None: 0, "mtx": 1, "el": 2, "wel": 3, "lgb": 4}
_GENERATORS = {"kron": 0, "urand": 1}


def _call(fn, *args):
    try:
        return fn(*args)
    except _dist.Failure as e:
        status, message = e.args
        raise _ERRORS.get(status, _libgraph.InternalError)(message) from None


def _traffic(t):
    return {"bytes_sent": t[0], "max_bytes_sent": t[1], "total_bytes": t[2], "rounds": t[3]}


class _Handle:
    """A context or graph of the extension: freed collectively by close()
    (or a with-block) on every rank."""

    _h: object

    def close(self):
        """Frees it (collective: every rank closes it)."""
        _dist.close(self._h)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def _device(device):
    """(gpu, device_id) of device "cpu", "gpu" (the rank's index on its node)
    or "gpu:N"."""
    if device == "cpu":
        return 0, -1
    if device == "gpu":
        return 1, -1
    if isinstance(device, str) and device.startswith("gpu:") and device[4:].isdigit():
        return 1, int(device[4:])
    raise ValueError(f"device must be 'cpu', 'gpu' or 'gpu:N', not {device!r}")


class Context(_Handle):
    """A communicator's ranks, with each rank's CPU threads (0: OpenMP's
    default) and device: "cpu", or one GPU a rank with NCCL traffic ("gpu":
    the rank's index on its node; "gpu:N"; docs/DISTRIBUTED.md, GPU ranks).
    The communicator is duplicated; comm None means COMM_WORLD.
    ``last_traffic`` holds what the last algorithm call sent: this rank's
    bytes, the largest and the total over ranks, and its rounds."""

    def __init__(self, comm=None, *, threads=0, device="cpu"):
        comm = MPI.COMM_WORLD if comm is None else comm
        gpu, device_id = _device(device)
        self._h = _call(_dist.context_create, comm.py2f(), int(threads), gpu, device_id)
        self.rank, self.size, self.threads, self.device = _dist.context_info(self._h)
        self.last_traffic = None

    def __repr__(self):
        return (f"<libgraph.dist.Context rank {self.rank} of {self.size}, {self.threads} "
                f"threads, {self.device}>")


def _graph_options(num_vertices, directed, symmetrize, drop_self_loops, duplicates):
    if duplicates not in _DUPLICATES:
        raise ValueError(f"duplicates must be one of {sorted(_DUPLICATES)}, not {duplicates!r}")
    directedness = 0 if directed is None else (1 if directed else 2)
    return (-1 if num_vertices is None else int(num_vertices), directedness, bool(symmetrize),
            bool(drop_self_loops), _DUPLICATES[duplicates])


class Graph(_Handle):
    """A graph whose vertices are split over the ranks; this rank owns the
    global ids ``range(first, first + count)`` (``local_range``)."""

    def __init__(self, context, handle):
        self.context = context
        self._h = handle
        (self.num_vertices, self.num_edges, directed, weighted, first, count,
         self.local_edges, self.num_ghosts) = _dist.graph_info(handle)
        self.is_directed, self.is_weighted = bool(directed), bool(weighted)
        self.local_range = (first, count)

    @classmethod
    def from_edges(cls, context, src, dst, weights=None, *, num_vertices=None, directed=False,
                   symmetrize=False, drop_self_loops=False, duplicates="keep"):
        """This rank's share of the edges src[i] -> dst[i] (global ids; any
        share, none included): the graph of all ranks' edges in rank order,
        as Graph.from_edges would build it.  num_vertices None: one more than
        the largest id on any rank."""
        src = np.ascontiguousarray(src, dtype=np.int64)
        dst = np.ascontiguousarray(dst, dtype=np.int64)
        w = None if weights is None else np.ascontiguousarray(weights, dtype=np.float32)
        opts = _graph_options(num_vertices, bool(directed), symmetrize, drop_self_loops,
                              duplicates)
        return cls(context, _call(_dist.graph_from_edges, context._h, src, dst, w, opts))

    @classmethod
    def generate(cls, context, kind, scale, edge_factor=16, seed=1):
        """libgraph.Graph.generate's graph ("kron" or "urand"), each rank
        making its own share of the edges: the same graph for any rank count."""
        if kind not in _GENERATORS:
            raise ValueError(f"kind must be 'kron' or 'urand', not {kind!r}")
        return cls(context, _call(_dist.graph_generate, context._h, _GENERATORS[kind],
                                  int(scale), int(edge_factor), int(seed)))

    @classmethod
    def read(cls, context, path, *, format=None, directed=None, drop_self_loops=False,
             duplicates="keep"):
        """A graph file (.mtx, .el, .wel, .lgb), each rank reading its part;
        directed None: as the file records."""
        if format not in _FORMATS:
            raise ValueError(f"format must be one of mtx, el, wel, lgb or None, not {format!r}")
        opts = _graph_options(None, directed, False, drop_self_loops, duplicates)
        return cls(context, _call(_dist.graph_read, context._h, str(path), _FORMATS[format],
                                  opts))

    @property
    def vertices(self):
        """This rank's global vertex ids."""
        first, count = self.local_range
        return np.arange(first, first + count, dtype=np.int64)

    def gather(self, local, root=0):
        """Every rank's share of a per-vertex array (4- or 8-byte items) in
        global id order on rank `root`; None on the other ranks."""
        local = np.ascontiguousarray(local)
        if local.shape != (self.local_range[1],):
            raise ValueError(f"local has shape {local.shape}, not ({self.local_range[1]},)")
        out = (np.empty(self.num_vertices, dtype=local.dtype)
               if self.context.rank == root else None)
        _call(_dist.gather, self.context._h, self._h, local, int(root), out)
        return out

    def __repr__(self):
        first, count = self.local_range
        return (f"<libgraph.dist.Graph {self.num_vertices} vertices, {self.num_edges} arcs, "
                f"{'directed' if self.is_directed else 'undirected'}; this rank "
                f"[{first}, {first + count})>")


def bfs(graph, sources, *, parents=False, max_depth=None, direction_alpha=15,
        direction_beta=18):
    """Hops from the global ids `sources` (one id or a list, the same on every
    rank) to this rank's vertices (int32, -1 unreached); with parents=True
    also (dist, parents), parents as global ids (int64)."""
    sources = np.atleast_1d(np.ascontiguousarray(sources, dtype=np.int64))
    count = graph.local_range[1]
    dist = np.empty(count, dtype=np.int32)
    par = np.empty(count, dtype=np.int64) if parents else None
    ctx = graph.context
    t = _call(_dist.bfs, ctx._h, graph._h, sources, dist, par, int(direction_alpha),
              int(direction_beta), -1 if max_depth is None else int(max_depth))
    ctx.last_traffic = _traffic(t)
    return (dist, par) if parents else dist


def pagerank(graph, *, alpha=0.85, tol=1e-6, max_iter=100, weight=True, personalization=None,
             nstart=None, dangling=None):
    """PageRank with networkx.pagerank's semantics: this rank's vertices'
    scores (float64).  personalization, nstart and dangling are this rank's
    entries (arrays of its vertex count), normalised over all ranks.  Raises
    libgraph.NotConverged, with .scores, when max_iter runs out."""
    count = graph.local_range[1]

    def local(v, name):
        if v is None:
            return None
        v = np.ascontiguousarray(v, dtype=np.float64)
        if v.shape != (count,):
            raise ValueError(f"{name} has shape {v.shape}, not ({count},)")
        return v

    x = np.empty(count, dtype=np.float64)
    ctx = graph.context
    iterations, residual, converged, t = _call(
        _dist.pagerank, ctx._h, graph._h, x, float(alpha), float(tol), int(max_iter),
        bool(weight), local(personalization, "personalization"), local(nstart, "nstart"),
        local(dangling, "dangling"))
    ctx.last_traffic = _traffic(t)
    if not converged:
        e = _libgraph.NotConverged(
            f"pagerank: no convergence in {iterations} iterations (last L1 change {residual:g})")
        e.scores, e.iterations, e.residual = x, iterations, residual
        raise e
    return x


def connected_components(graph):
    """Each of this rank's vertices' component label: the smallest global id
    in its (weak) component (int64)."""
    labels = np.empty(graph.local_range[1], dtype=np.int64)
    ctx = graph.context
    count, t = _call(_dist.components, ctx._h, graph._h, labels)
    ctx.last_traffic = _traffic(t)
    ctx.last_traffic["components"] = count
    return labels
