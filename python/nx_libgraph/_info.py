"""What NetworkX reads about the backend when it starts (the
``networkx.backend_info`` entry point): plain data, no import of libgraph."""

# The functions the backend runs, with the parameters it adds to NetworkX's.
_DEVICE = {
    "device : str, optional": (
        '"auto", "cpu", "gpu" or "gpu:N": where libgraph runs the call; the default is '
        "nx.config.backends.libgraph.device."
    ),
}

FUNCTIONS = {
    "pagerank": {
        "additional_docs": "Computed in double precision by libgraph's PageRank (the same "
        "iteration and stopping rule as NetworkX's). Weights libgraph cannot hold as given "
        "(negative, NaN, infinite, outside float32's normal range) and arguments it refuses "
        "are declined: NetworkX runs the call.",
        "additional_parameters": _DEVICE,
    },
    "connected_components": {"additional_parameters": _DEVICE},
    "number_connected_components": {"additional_parameters": _DEVICE},
    "is_connected": {"additional_parameters": _DEVICE},
    "node_connected_component": {"additional_parameters": _DEVICE},
    "weakly_connected_components": {"additional_parameters": _DEVICE},
    "number_weakly_connected_components": {"additional_parameters": _DEVICE},
    "is_weakly_connected": {"additional_parameters": _DEVICE},
    "strongly_connected_components": {
        "additional_docs": "The components in NetworkX's order (its search, made in C)."},
    "number_strongly_connected_components": {"additional_parameters": _DEVICE},
    "is_strongly_connected": {"additional_parameters": _DEVICE},
}
_ORDER = ("Returns NetworkX's result in NetworkX's order (the same visit, made in C); "
          "sort_neighbors is declined (NetworkX runs the call).")
for _name in ("bfs_edges", "bfs_tree", "bfs_predecessors", "bfs_successors", "bfs_layers",
              "descendants_at_distance", "single_source_shortest_path_length"):
    FUNCTIONS[_name] = {"additional_docs": _ORDER}
for _name in ("single_source_shortest_path", "descendants", "ancestors", "has_path",
              "bidirectional_shortest_path"):
    FUNCTIONS[_name] = {"additional_docs": _ORDER}
_DIJKSTRA = ("NetworkX's Dijkstra made in C (the same distances, paths and order, each "
             "weight as NetworkX holds it); negative weights, weight functions and "
             "multigraphs are declined (NetworkX runs the call).")
for _name in ("single_source_dijkstra", "single_source_dijkstra_path",
              "single_source_dijkstra_path_length", "multi_source_dijkstra",
              "multi_source_dijkstra_path", "multi_source_dijkstra_path_length", "dijkstra_path",
              "dijkstra_path_length", "bidirectional_dijkstra"):
    FUNCTIONS[_name] = {"additional_docs": _DIJKSTRA}
_BELLMAN_FORD = ("NetworkX's Bellman-Ford made in C (its queue and predecessor lists: the same "
                 "distances, paths, order and NetworkXUnbounded for a negative cycle); weight "
                 "functions and multigraphs are declined (NetworkX runs the call).")
for _name in ("single_source_bellman_ford", "single_source_bellman_ford_path",
              "single_source_bellman_ford_path_length", "bellman_ford_path",
              "bellman_ford_path_length", "bellman_ford_predecessor_and_distance"):
    FUNCTIONS[_name] = {"additional_docs": _BELLMAN_FORD}
_SHORTEST = ("From one source (unweighted, Dijkstra or Bellman-Ford), to one target of an "
             "undirected graph, and a pair (its bidirectional breadth-first search, its "
             "bidirectional Dijkstra, its Bellman-Ford path, its lengths); every pair and a "
             "directed graph's target are declined.")
for _name in ("shortest_path", "shortest_path_length"):
    FUNCTIONS[_name] = {"additional_docs": _SHORTEST}

FUNCTIONS["betweenness_centrality"] = {
    "additional_docs": "Brandes's algorithm in libgraph's C (the sources over the CPU's "
    "threads), the same sampled sources as NetworkX's for the same seed and NetworkX's "
    "scaling; values equal NetworkX's up to rounding (sums in another order). Weight "
    "functions, weighted multigraphs, zero and negative weights are declined (NetworkX "
    "runs the call).",
    "additional_parameters": _DEVICE,
}

FUNCTIONS["edge_betweenness_centrality"] = {
    "additional_docs": "Brandes's algorithm in libgraph's C, each shortest path's share "
    "credited to the arcs it takes; the same sampled sources as NetworkX's for the same seed "
    "and NetworkX's scaling; values equal NetworkX's up to rounding. Multigraphs, weight "
    "functions, zero and negative weights are declined (NetworkX runs the call).",
    "additional_parameters": _DEVICE,
}

FUNCTIONS["betweenness_centrality_subset"] = {
    "additional_docs": "Brandes's algorithm in libgraph's C with a path's end counted at the "
    "targets only, and NetworkX's scaling of a subset; values equal NetworkX's up to "
    "rounding. Repeated or missing sources, sources or targets that are not collections, "
    "weight functions, weighted multigraphs, zero and negative weights are declined "
    "(NetworkX runs the call).",
    "additional_parameters": _DEVICE,
}

for _name in ("closeness_centrality", "harmonic_centrality"):
    FUNCTIONS[_name] = {
        "additional_docs": "A search from every node in libgraph's C, over the in-arcs "
        "(NetworkX's distances into a node), the nodes over the CPU's threads; unweighted "
        "closeness equals NetworkX's to the bit, weighted closeness and harmonic values up to "
        "rounding. u, nbunch, sources, distance functions, weighted multigraphs and negative "
        "weights are declined (NetworkX runs the call).",
        "additional_parameters": _DEVICE,
    }

for _name in ("degree_centrality", "in_degree_centrality", "out_degree_centrality"):
    FUNCTIONS[_name] = {"additional_docs": "From the converted graph's rows (NetworkX's degrees: "
                        "a self-loop twice in an undirected graph); multigraphs are declined."}

for _name in ("triangles", "clustering", "average_clustering", "transitivity"):
    FUNCTIONS[_name] = {
        "additional_docs": "Triangles counted in libgraph's C, each once on the edges oriented "
        "by degree, the vertices over the CPU's threads; counts and coefficients equal "
        "NetworkX's (the same formulas, the sums in node order). Directed graphs, weights and "
        "the multigraphs NetworkX refuses are declined (NetworkX runs the call)."}

for _name in ("eigenvector_centrality", "katz_centrality"):
    FUNCTIONS[_name] = {
        "additional_docs": "NetworkX's power iteration in libgraph's C (a pull over the "
        "in-edges, the vertices over the CPU's threads); values equal NetworkX's up to rounding "
        "and the same iterations run. Multigraphs and weight functions are declined (NetworkX "
        "runs the call).",
        "additional_parameters": _DEVICE,
    }

for _name in ("eigenvector_centrality_numpy", "katz_centrality_numpy"):
    FUNCTIONS[_name] = {
        "additional_docs": "The same vector as NetworkX's (its eigenvector, its linear solve), "
        "reached by libgraph's power iteration run until an iteration's L1 change is below "
        "n * 1e-14 (eigenvector's on A + I: max_iter and tol, ARPACK's, are not used); a call "
        "whose iteration does not get there in 5000 iterations (Katz at or above 1 / the "
        "largest eigenvalue) is declined when it runs, as are multigraphs and weight functions "
        "(NetworkX runs the call).",
        "additional_parameters": _DEVICE,
    }

FUNCTIONS["hits"] = {
    "additional_docs": "NetworkX's own HITS power iteration (its _hits_python, scaled by the "
    "largest entries, stopped by the L1 change of the hubs) in libgraph's C, whose limit is the "
    "singular vectors NetworkX's hits computes by an SVD: values equal to about tol. "
    "Multigraphs and negative weights are declined (NetworkX runs the call).",
    "additional_parameters": _DEVICE,
}


def get_info():
    """The backend's description for NetworkX (``networkx.backend_info``)."""
    return {
        "backend_name": "libgraph",
        "project": "libgraph",
        "package": "nx_libgraph",
        "short_summary": "libgraph's C kernels (CPU and AMD/NVIDIA GPUs) for NetworkX.",
        "description": "PageRank and connected components run by libgraph, on the CPU "
        "or a GPU, and NetworkX's breadth-first traversals, Dijkstra and Bellman-Ford in C; graphs are "
        "converted once (in C) and cached by NetworkX.",
        "functions": FUNCTIONS,
        "default_config": {"device": "auto"},
    }
