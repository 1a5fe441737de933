"""Building blocks for results in NetworkX's shapes and order: what a
NetworkX backend (libgraph's own, ``nx_libgraph``, is built on these and
on the public package alone) or a tool that mirrors NetworkX needs beyond
the algorithms themselves.  Each is done in C (python/ext/networkx.c,
nx_backend.c, nx_paths.c, nx_bidirectional.c, nx_scc.c, nx_bellman_ford.c),
since building these Python objects is most of such a call's time.

adjacency_csr(nodes, adj, weight=None, default=1.0, multigraph=False,
              count_parallel=False, strict=False, exact=False, wide=False,
              ints=False)
    A NetworkX adjacency dict (``G._adj``; ``G._succ`` or ``G._pred`` of a
    directed graph) as CSR arrays: (index, offsets, indices, weights), with
    index the dict {node: vertex id} of ``nodes`` (the node keys in vertex
    order), offsets int64, indices int32 and weights float32 (float64 with
    wide; or None) as bytearrays, each row in the adjacency's order.  weight
    names the edge attribute (default where it is missing; a multigraph's
    parallel edges summed); count_parallel weighs a multigraph's arc by its
    parallel edges; strict refuses weights libgraph's PageRank cannot take
    as NetworkX gives them (negative, not finite, beyond float32); exact,
    besides, any that float32 would round; wide keeps each weight as
    NetworkX holds it and refuses only NaN and infinities (and, strict,
    negative weights); ints (with wide) adds a fifth entry: whether every
    weight is a Python int (a missing one: an integral default, as
    NetworkX's 1) of at most 2**22, so that NetworkX's path sums are ints.
graph_from_adjacency(nodes, index, offsets, indices, weights, directed,
                     device=None)
    The Graph of those arrays (rows sorted and checked as from_csr checks
    any), with nodes as its names and index as its node index.
bfs_visit(offsets, indices, first, depth_limit=-1)
    NetworkX's breadth-first visit over an adjacency-order CSR (the arrays
    above, not the sorted graph's): (order, parents, ends), the vertices in
    visit order and each one's discoverer (-1 in the first layer) as int32
    bytes, and the end of each layer.
components(nodes, labels)
    The sets of nodes with one label each (int32 labels, a node's position
    as its component's label), in the order of each set's first node.
tree_edges(nodes, order, parents, form="edges")
    [(parent, node), ...] in visit order; "reversed": [(node, parent), ...];
    "successors": [(parent, [children]), ...].
levels(nodes, order, ends)
    {node: layer} in visit order.
take(nodes, order, begin, end)
    [nodes[v] for v in order[begin:end]].
dijkstra_visit(offsets, indices, weights, first, cutoff=None, target=-1)
    NetworkX's Dijkstra (its heap of (distance, count, node), so ties pop in
    its order) over an adjacency-order CSR with float32 or float64 weights (or None:
    each arc 1): (order, dists, parents, found), the settled vertices in
    order (int32 bytes) with their distances (float64 bytes), each vertex's
    parent on its path (int32 bytes, one a vertex, -1 for a source or an
    unseen vertex) and the seen vertices in the order first seen (the order
    of NetworkX's paths dict).  cutoff: arcs that would pass it are not
    taken; target: the search stops once it is settled.
lengths(nodes, order, dists, sources=0, integral=False)
    {node: distance} in order; the first `sources` entries (the sources)
    the int 0, every one an int with integral.
paths(nodes, order, parents, found=None, aligned=False)
    {node: [the nodes of its path]}, each path its parent's plus itself,
    made in order and keyed in the order of found (default order); parents
    one a vertex, or (aligned) one an entry of order as bfs_visit's.
scc_visit(offsets, indices)
    NetworkX's strongly connected components' search (its iterative Tarjan,
    neighbours in adjacency order, sources in node order): (order, ends),
    the vertices component by component in the order NetworkX yields the
    components (int32 bytes), and each one's end.
groups(nodes, order, ends)
    [set of the nodes of each group]: scc_visit's components as sets.
bellman_ford_visit(offsets, indices, weights, first, heuristic=True)
    NetworkX's Bellman-Ford (its queue, its skip of a vertex whose
    predecessor is queued, its lists of tight predecessors, its
    negative-cycle tests) over an adjacency-order CSR with float32 or
    float64 weights (or None): (order, dists, pred_offsets, preds, cycle),
    the vertices in the order NetworkX's dist dict gets them, their
    distances (float64 bytes), each one's predecessor list (int64 offsets
    aligned with order, int32 vertices), and the vertex where NetworkX finds
    a negative cycle, or -1.
bidirectional_visit(offsets, indices, in_offsets, in_indices, source, target)
    NetworkX's bidirectional breadth-first search between two vertices (the
    smaller fringe grown a level at a time, out-arcs forward and in-arcs
    backward, rows in adjacency order) and its path: the path's vertices as
    int32 bytes, or None when there is none.
bidirectional_dijkstra(offsets, indices, weights, in_offsets, in_indices,
                       in_weights, source, target, snapshot=False)
    NetworkX's bidirectional Dijkstra between two distinct vertices (the two
    heaps popped in turn, the best meeting found so far kept while relaxing),
    over the out- and in-arcs in adjacency order with their weights:
    (distance, path's vertices as int32 bytes), or None when there is no
    path; snapshot: the path as NetworkX before 3.6 records it (the meeting
    vertex's predecessors when it was chosen, not at the end).
predecessor_paths(nodes, order, pred_offsets, preds, sources, target=-1)
    {node: path}: for each vertex of order (or only target) the first path
    NetworkX's walk of the predecessor lists yields, back to one of the
    first `sources` vertices of order.
"""

from ._graph import Graph
from ._libgraph import (adjacency_csr, bellman_ford_visit, bfs_visit, bidirectional_dijkstra,
                        bidirectional_visit, components, dijkstra_visit, groups, lengths, levels,
                        paths, predecessor_paths, scc_visit, take, tree_edges)

__all__ = ["adjacency_csr", "graph_from_adjacency", "bfs_visit", "components", "tree_edges",
           "levels", "take", "dijkstra_visit", "lengths", "paths", "scc_visit", "groups",
           "bellman_ford_visit", "predecessor_paths", "bidirectional_visit",
           "bidirectional_dijkstra"]


def graph_from_adjacency(nodes, index, offsets, indices, weights, directed, device=None):
    """The Graph of adjacency_csr's arrays (see the module's text)."""
    return Graph._from_adjacency(nodes, index, offsets, indices, weights, directed, device)
