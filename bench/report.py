"""The report of a bench/run: one markdown file and one PNG plot per algorithm.

write(results, out, plots) turns bench/run's results (bench/.cache/results.json)
into tables of times, ratios to libgraph and agreement, and log-log plots of
time against graph size.  `bench/run --report-only` calls it alone.
"""

import os
import statistics

from harness.tools import relative_paths

TOOL_ORDER = ["libgraph", "libgraph-py", "gapbs", "networkit", "graphblas", "igraph", "scipy", "networkx"]
TOOL_LABEL = {"libgraph": "libgraph", "libgraph-py": "libgraph (Python)", "gapbs": "GAPBS", "networkit": "NetworKit",
              "graphblas": "python-graphblas", "igraph": "python-igraph", "scipy": "SciPy",
              "networkx": "NetworkX"}
ALGO_TITLE = {"bfs": "BFS", "pagerank": "PageRank", "cc": "Connected components", "build": "Graph build"}


# ---------------------------------------------------------------- numbers --

def headline_time(algo, r):
    """BFS: the mean time of a search (Graph500 averages searches); the rest:
    the median of the repeats."""
    t = r.get("times_s") or []
    if not t:
        return None
    return statistics.fmean(t) if algo == "bfs" else statistics.median(t)


def fmt_time(t):
    if t is None:
        return "—"
    if t >= 100:
        return f"{t:.0f} s"
    if t >= 1:
        return f"{t:.2f} s"
    if t >= 1e-3:
        return f"{t * 1e3:.3g} ms"
    return f"{t * 1e6:.3g} µs"


# Other processes kept more than this many cores busy while the tool ran: its
# time is marked, since two-core VMs shared with a compiler measure badly.
BUSY_CORES = 0.25


def busy_mark(r):
    oc = r.get("others_cores")
    return " †" if oc is not None and oc > BUSY_CORES else ""


def fmt_ratio(x):
    if x is None:
        return "—"
    return f"{x:.2f}x" if x < 10 else f"{x:.0f}x" if x >= 100 else f"{x:.1f}x"


def fmt_int(x):
    return "—" if x is None else f"{x:,}"


def agreement(r):
    c = r.get("check")
    if not c or c.get("ok") is None:
        return c.get("detail", "reference") if c else "not checked"
    return ("ok: " if c["ok"] else "**FAIL**: ") + c.get("detail", "")


def failures(results):
    out = []
    for run in results["runs"]:
        for algo in ("bfs", "pagerank", "cc"):
            c = run.get(algo, {}).get("check") if isinstance(run.get(algo), dict) else None
            if c and c.get("ok") is False:
                out.append(f"{run['graph']} {algo} {run['tool']}: {c.get('detail')}")
    return out


def runs_by(results):
    """{graph: {tool: run}}"""
    by = {}
    for run in results["runs"]:
        by.setdefault(run["graph"], {})[run["tool"]] = run
    return by


def ordered_tools(tools):
    return [t for t in TOOL_ORDER if t in tools] + sorted(t for t in tools if t not in TOOL_ORDER)


def status_row(run, algo):
    """A short reason when this tool has no number for algo, else None."""
    if "skipped" in run:
        return "skipped: " + run["skipped"]
    if "error" in run:
        return "**ERROR**: " + run["error"]
    r = run.get(algo)
    if r is None:
        return "not run"
    if "error" in r:
        return "**ERROR**: " + r["error"]
    return None


# ----------------------------------------------------------------- tables --

def table(header, rows):
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(str(c) for c in row) + " |" for row in rows]
    return "\n".join(lines)


def bfs_table(results, by):
    header = ["graph", "tool", "method", "threads", "time / search (mean)", "(median)", "GTEPS",
              "time vs libgraph", "searches", "agreement"]
    rows = []
    for g in results["graphs"]:
        runs = by.get(g["name"], {})
        base = runs.get("libgraph", {}).get("bfs")
        base_t = headline_time("bfs", base) if base and "times_s" in base else None
        edges = g.get("component_edges")
        for tool in ordered_tools(runs):
            run = runs[tool]
            why = status_row(run, "bfs")
            if why:
                rows.append([g["name"], TOOL_LABEL.get(tool, tool), why, "", "", "", "", "", "", ""])
                continue
            r = run["bfs"]
            t = headline_time("bfs", r)
            gteps = edges / t / 1e9 if edges and t else None
            rows.append([g["name"], TOOL_LABEL.get(tool, tool), r.get("method", ""), r.get("threads", ""),
                         fmt_time(t) + busy_mark(r), fmt_time(statistics.median(r["times_s"])),
                         f"{gteps:.3g}" if gteps else "—",
                         "1x" if tool == "libgraph" else fmt_ratio(t / base_t if base_t and t else None),
                         f"{r.get('sources_run', len(r['times_s']))} of {r.get('sources_given', '?')}",
                         agreement(r)])
    return table(header, rows)


def pagerank_floor_bytes(g, elem):
    """The least an iteration of pull PageRank moves: the in-edge indices (4
    bytes an arc), the offsets (8 bytes a vertex) and 4 vectors of n in the
    working precision (scores read and written, contributions read and
    written, out-weights), each once."""
    if not g.get("arcs") or not g.get("n"):
        return None
    return 4.0 * g["arcs"] + 8.0 * (g["n"] + 1) + 4.0 * elem * g["n"]


def pagerank_bandwidth(g, elem, per_iter_s, copy_gbs):
    floor = pagerank_floor_bytes(g, elem)
    if not floor or not per_iter_s:
        return "n/a"
    gbs = floor / per_iter_s / 1e9
    return f"{gbs:.1f} GB/s" + (f" ({100.0 * gbs / copy_gbs:.0f}% of the copy)" if copy_gbs else "")


def pagerank_table(results, by):
    k = results["options"].get("pr_iterations")
    header = ["graph", "tool", "method", "threads", "total to tolerance (median)", "iterations",
              f"time / iteration (runs of {k})" if k else "time / iteration",
              "total vs libgraph", "per iteration vs libgraph", "floor bytes / iteration time", "agreement"]
    copy_gbs = results["machine"].get("stream", {}).get("gbs")
    rows = []
    for g in results["graphs"]:
        runs = by.get(g["name"], {})
        base = runs.get("libgraph", {}).get("pagerank")
        base_t = headline_time("pagerank", base) if base and "times_s" in base else None
        base_it = base.get("per_iter_s") if base else None
        for tool in ordered_tools(runs):
            run = runs[tool]
            variants = [("pagerank", TOOL_LABEL.get(tool, tool))]
            if tool == "libgraph" and "pagerank_float" in run:
                variants.append(("pagerank_float", "libgraph (float)"))
            for key, label in variants:
                why = status_row(run, key)
                if why:
                    rows.append([g["name"], label, why, "", "", "", "", "", "", "", ""])
                    continue
                r = run[key]
                t = headline_time("pagerank", r)
                it = r.get("per_iter_s")
                is_base = tool == "libgraph" and key == "pagerank"
                rows.append([g["name"], label, r.get("method", ""), r.get("threads", ""), fmt_time(t) + busy_mark(r),
                             r.get("iterations") if r.get("iterations") is not None else "n/a",
                             fmt_time(it) if it else "n/a",
                             "1x" if is_base else fmt_ratio(t / base_t if base_t and t else None),
                             "1x" if is_base else fmt_ratio(it / base_it if base_it and it else None),
                             pagerank_bandwidth(g, 4 if key == "pagerank_float" else 8, it, copy_gbs)
                             if tool == "libgraph" else "",
                             agreement(r)])
    return table(header, rows)


def cc_table(results, by):
    header = ["graph", "tool", "method", "threads", "time (median)", "components", "time vs libgraph", "agreement"]
    rows = []
    for g in results["graphs"]:
        runs = by.get(g["name"], {})
        base = runs.get("libgraph", {}).get("cc")
        base_t = headline_time("cc", base) if base and "times_s" in base else None
        for tool in ordered_tools(runs):
            run = runs[tool]
            why = status_row(run, "cc")
            if why:
                rows.append([g["name"], TOOL_LABEL.get(tool, tool), why, "", "", "", "", ""])
                continue
            r = run["cc"]
            t = headline_time("cc", r)
            rows.append([g["name"], TOOL_LABEL.get(tool, tool), r.get("method", ""), r.get("threads", ""),
                         fmt_time(t) + busy_mark(r), fmt_int(r.get("components")),
                         "1x" if tool == "libgraph" else fmt_ratio(t / base_t if base_t and t else None),
                         agreement(r)])
    return table(header, rows)


def paired_table(results):
    """libgraph and GAPBS in alternating processes (paired_with_gapbs, bench/harness/gapbs.py)."""
    rows = []
    labels = {"pagerank_float": "PageRank float, per iteration", "cc": "CC"}
    for p in results.get("paired", []):
        for name, label in labels.items():
            r = p.get(name)
            if not r:
                continue
            lg, gap = r.get("libgraph_s", []), r.get("gapbs_s", [])
            pairs = list(zip(lg, gap))
            if "error" in r or not pairs:
                rows.append([p["graph"], label, str(len(pairs)), "—", "—", "—", "—", "—",
                             "error: " + r.get("error", "no rounds")])
                continue
            ratios = [a / b for a, b in pairs]
            busy = [x for x in r.get("others_cores", []) if x is not None]
            mark = " †" if busy and max(busy) > BUSY_CORES else ""
            rows.append([p["graph"], label, str(len(pairs)), fmt_time(statistics.median(lg)) + mark,
                         fmt_time(statistics.median(gap)), f"**{statistics.median(ratios):.2f}**", f"{min(ratios):.2f}-{max(ratios):.2f}",
                         f"{sum(a < b for a, b in pairs)} of {len(pairs)}", ""])
    if not rows:
        return None
    return table(["graph", "kernel", "rounds", "libgraph (median)", "GAPBS (median)",
                  "libgraph / GAPBS (median of the rounds' ratios)", "the rounds' ratios", "rounds libgraph faster",
                  "note"], rows)


def scaling_table(results, by):
    """libgraph and GAPBS side by side, one row a graph: throughput of each
    kernel and the processes' peak memory.  BFS: the largest component's
    edges over the mean search; PageRank and CC: the CSR's arcs over the
    median of the paired rounds (a PageRank iteration in float), so both
    tools' figures come from processes run back to back."""
    paired = {p["graph"]: p for p in results.get("paired", [])}
    rows = []
    for g in results["graphs"]:
        runs = by.get(g["name"], {})
        lg, gap = runs.get("libgraph", {}), runs.get("gapbs", {})
        if not lg or "skipped" in lg or "error" in lg:
            continue

        def bfs_gteps(run):
            if not run or status_row(run, "bfs") or not g.get("component_edges"):
                return None
            t = headline_time("bfs", run["bfs"])
            return g["component_edges"] / t / 1e9 if t else None

        def paired_rate(key, tool):
            times = paired.get(g["name"], {}).get(key, {}).get(tool + "_s") or []
            return g["arcs"] / statistics.median(times) / 1e9 if times and g.get("arcs") else None

        def both(a, b, digits=2):
            f = lambda x: "—" if x is None else f"{x:.{digits}f}"
            return f"{f(a)} / {f(b)}"

        def per_edge(run):
            rss = run.get("peak_rss_mb") if run else None
            return rss * 2**20 / g["edges"] if rss and g.get("edges") else None

        def mib(run):
            rss = run.get("peak_rss_mb") if run else None
            return f"{rss:,.0f}" if rss else "—"

        rows.append([g["name"], fmt_int(g.get("arcs")), both(bfs_gteps(lg), bfs_gteps(gap)),
                     both(paired_rate("pagerank_float", "libgraph"), paired_rate("pagerank_float", "gapbs")),
                     both(paired_rate("cc", "libgraph"), paired_rate("cc", "gapbs")),
                     f"{mib(lg)} / {mib(gap)}", both(per_edge(lg), per_edge(gap), 1)])
    if not rows:
        return None
    return table(["graph", "arcs", "BFS GTEPS, libgraph / GAPBS", "PageRank float, G arcs/s an iteration",
                  "CC, G arcs/s", "peak MiB of the processes", "peak bytes an edge"], rows)


def build_table(results, by):
    header = ["graph", "tool", "how (from the same .el file)", "time", "of which parsing text",
              "time vs libgraph", "peak RSS of the process (Python ones include the interpreter and modules)",
              "peak bytes an edge (the graph's arcs / 2)"]
    rows = []
    for g in results["graphs"]:
        runs = by.get(g["name"], {})
        base = runs.get("libgraph", {}).get("build")
        base_t = headline_time("build", base) if base else None
        for tool in ordered_tools(runs):
            run = runs[tool]
            if "skipped" in run or "error" in run or "build" not in run:
                continue
            r = run["build"]
            t = headline_time("build", r)
            rss = run.get("peak_rss_mb")
            rows.append([g["name"], TOOL_LABEL.get(tool, tool), r.get("method", ""), fmt_time(t) + busy_mark(r),
                         fmt_time(r["parse_s"]) if r.get("parse_s") is not None else "—",
                         "1x" if tool == "libgraph" else fmt_ratio(t / base_t if base_t and t else None),
                         f"{rss:,.0f} MiB" if rss else "—",
                         f"{rss * 2**20 / g['edges']:.1f}" if rss and g.get("edges") else "—"])
    return table(header, rows)


# ------------------------------------------------------------------ plots --

FAMILY_STYLES = {"kron": ("-", "o"), "urand": ("--", "s"), "real": ("", "*")}


def draw_line(ax, colors, label, family, pts):
    """One tool's points of one graph family: a colour a tool, a line style a family."""
    ls, marker = FAMILY_STYLES[family]
    color = colors.setdefault(label, f"C{len(colors)}")
    ax.plot([p[0] for p in pts], [p[1] for p in pts], linestyle=ls or "none", marker=marker,
            color=color, label=label if label not in [h.get_label() for h in ax.lines] else None,
            markersize=9 if family == "real" else 5)


def finish_plot(plt, fig, ax, results, title, ylabel, log_y, path):
    """Axes, title, legend and key of a plot against graph size; saves it."""
    ax.set_xscale("log")
    if log_y:
        ax.set_yscale("log")
    ax.set_xlabel("arcs in the CSR (2 x undirected edges)")
    ax.set_ylabel(ylabel)
    m = results["machine"]
    ax.set_title(f"{title}: {m.get('threads')} threads, {m.get('cpu', '')[:40]}", fontsize=10)
    ax.grid(True, which="both", alpha=0.3)
    ax.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1.0), borderaxespad=0)
    ax.text(0.99, 0.01, "solid/o: Kronecker   dashed/s: uniform random   *: real graph",
            transform=ax.transAxes, ha="right", va="bottom", fontsize=7, color="0.4")
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def plot(results, by, algo, path):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    graphs = {g["name"]: g for g in results["graphs"] if g.get("arcs")}
    fig, ax = plt.subplots(figsize=(9, 5))
    colors = {}
    any_point = False
    series = [(t, "pagerank" if algo == "pagerank" else algo) for t in TOOL_ORDER]
    if algo == "pagerank":
        series.insert(1, ("libgraph", "pagerank_float"))
    for tool, key in series:
        label = TOOL_LABEL.get(tool, tool) + (" (float)" if key == "pagerank_float" else "")
        for family in FAMILY_STYLES:
            pts = []
            for name, g in graphs.items():
                if g["family"] != family:
                    continue
                run = by.get(name, {}).get(tool)
                if not run or status_row(run, key):
                    continue
                t = headline_time(algo, run[key])
                if t:
                    pts.append((g["arcs"], t))
            if pts:
                draw_line(ax, colors, label, family, sorted(pts))
                any_point = True
    if not any_point:
        plt.close(fig)
        return False
    what = {"bfs": "mean time per search (s)", "pagerank": "total time to NetworkX's tolerance (s)",
            "cc": "time (s)", "build": "read .el + build (s)"}[algo]
    finish_plot(plt, fig, ax, results, ALGO_TITLE[algo], what, True, path)
    return True


def plot_memory(results, by, path):
    """Peak resident memory of each tool's processes over the graph's edges
    (arcs / 2), against the graph's size."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    graphs = {g["name"]: g for g in results["graphs"] if g.get("arcs") and g.get("edges")}
    fig, ax = plt.subplots(figsize=(9, 5))
    colors, any_point = {}, False
    for tool in TOOL_ORDER:
        for family in FAMILY_STYLES:
            pts = sorted((g["arcs"], by[name][tool]["peak_rss_mb"] * 2**20 / g["edges"])
                         for name, g in graphs.items()
                         if g["family"] == family and by.get(name, {}).get(tool, {}).get("peak_rss_mb"))
            if pts:
                draw_line(ax, colors, TOOL_LABEL.get(tool, tool), family, pts)
                any_point = True
    if not any_point:
        plt.close(fig)
        return False
    finish_plot(plt, fig, ax, results, "Peak memory of a process", "peak resident memory / edges (bytes)",
                False, path)
    return True


# ----------------------------------------------------------------- report --

def write(results, out, plots_dir):
    by = runs_by(results)
    m = results["machine"]
    o = results["options"]
    os.makedirs(plots_dir, exist_ok=True)
    os.makedirs(os.path.dirname(os.path.abspath(out)), exist_ok=True)
    plot_links = {}
    for algo in ("bfs", "pagerank", "cc", "build", "memory"):
        path = os.path.join(plots_dir, f"bench-{algo}.png")
        try:
            made = plot_memory(results, by, path) if algo == "memory" else plot(results, by, algo, path)
            if made:
                plot_links[algo] = os.path.relpath(path, os.path.dirname(os.path.abspath(out)))
        except ImportError:
            pass

    L = []
    L.append("# libgraph against its anchors (CPU)\n")
    L.append("Written by `bench/run`; do not edit by hand: rerun it. Every tool read the same edge-list file "
             "with the same thread count, in one run; compare within a table, as ratios (these VMs drift 20-30% "
             "between runs). A ratio above 1x means the anchor took longer than libgraph.\n")
    L.append(f"- Command: `{results['command']}`")
    L.append(f"- Date: {m['date']}; run took {results.get('elapsed_s', 0):.0f} s"
             + (f"; commit {m['commit']}" if m.get("commit") else ""))
    L.append(f"- Machine: {m.get('cpu')}, {m.get('cores')} cores, {m.get('memory_gib')} GiB"
             + (f", L3 {m['l3']}" if m.get("l3") else "") + (f", {m['simd']}" if m.get("simd") else "")
             + (f"; load average {m['load_at_start']} at the start" if m.get("load_at_start") else ""))
    L.append(f"- Threads: {o['threads']} for every tool that takes a thread count (OMP_NUM_THREADS, "
             "`lgraph --threads`, `networkit.setNumberOfThreads`, `graphblas.ss.config['nthreads']`); "
             "the threads column says what each one used: SciPy, python-igraph, NetworkX, and NetworKit's BFS and "
             "sequential CC are single-threaded.")
    st = m.get("stream", {})
    if "gbs" in st:
        L.append(f"- Memory bandwidth in this run: {st['gbs']:.1f} GB/s, a STREAM-like copy (bench/stream_copy.c: "
                 f"c[i] = a[i] over 2 x {st['mib']} MiB, 16 bytes an element, best of 10) with {st['threads']} "
                 "threads. PageRank's bandwidth column: the least bytes an iteration must move (in-edge indices 4 B "
                 "an arc, offsets 8 B a vertex, 4 vectors of n once) over libgraph's time an iteration, and that as a "
                 "share of the copy's rate: well under 100% means the iteration is bound by the latency of its "
                 "random gathers, not by DRAM bandwidth (a graph whose arrays fit in the last-level cache, like "
                 "facebook's, hardly touches DRAM at all).")
    elif st.get("skipped"):
        L.append(f"- Memory bandwidth: not measured ({st['skipped']})")
    version = "; ".join(relative_paths(x) for x in str(m.get("libgraph")).splitlines())
    L.append(f"- libgraph: {version}; Python {m.get('python')}")
    vers = results.get("versions", {})
    if vers:
        L.append("- Anchors: " + ", ".join(f"{k} {v}" for k, v in sorted(vers.items())))
    if results.get("gapbs_skipped"):
        L.append(f"- GAPBS: not run ({results['gapbs_skipped']})")
    L.append(f"- BFS: {o['sources']} random sources in the largest component, picked by libgraph "
             f"(`bench_bfs FILE {o['sources']} --seed {o['seed']}`, bench/bfs_sources.c) and given to every "
             "tool; each search timed alone. GTEPS = undirected edges of the source's component / mean search "
             "time (Graph500's harmonic mean of TEPS).")
    L.append(f"- PageRank: alpha 0.85, NetworkX's stopping rule (sum |x - x_last| < n * 1e-6), median of "
             f"{o['repeat']} full solves from the uniform start. That rule loosens with n (n * 1e-6 is 1.05 on a "
             "2^20-vertex graph), so large graphs stop after 1-3 iterations and the total is mostly set-up: "
             + (f"the time per iteration comes from separate runs of exactly {o['pr_iterations']} iterations "
                "(tolerance 0; median of the repeats, set-up included, divided by the count), for the tools that "
                "take an iteration limit. " if o.get("pr_iterations") else "")
             + f"CC: median of {o['repeat']}.")
    L.append(f"- † marks a time taken while other processes kept more than {BUSY_CORES} cores busy on average "
             "(measured from /proc/stat around the tool's process, less its own CPU time); the harness waits up to "
             f"{o.get('wait_quiet_s', 0):.0f} s for a quiet machine before each tool. Multi-threaded tools suffer most: "
             "a descheduled OpenMP thread stalls every barrier.")
    L.append(f"- Slow tools stop repeating after {o['budget_s']:.0f} s on one algorithm (the searches column "
             f"shows it); NetworkX runs only on graphs of at most {o['networkx_max_vertices']:,} vertices.")
    L.append("")

    L.append("## Graphs\n")
    rows = []
    for g in results["graphs"]:
        rows.append([g["name"], g["family"], os.path.basename(g["path"]), fmt_int(g.get("n")),
                     fmt_int(g.get("edges")), fmt_int(g.get("arcs")), fmt_int(g.get("components")),
                     fmt_int(g.get("component_edges")), f"{g.get('file_mb', '—')} MB"])
    L.append(table(["graph", "kind", "file", "vertices", "undirected edges", "arcs (CSR)", "components",
                    "edges in the largest component", ".el size"], rows))
    L.append("\nGenerated graphs: `lgraph generate SPEC FILE.el` (Graph500 Kronecker A=.57 B=C=.19 or uniform "
             "random, edge factor 16, ids permuted, self-loops dropped, duplicates merged, undirected; each edge "
             "once in the file). Every tool reads the file as undirected; vertices are 0 .. max id.\n")

    sections = [("bfs", "BFS", bfs_table), ("pagerank", "PageRank", pagerank_table),
                ("cc", "Connected components", cc_table), ("build", "Graph build (file to graph)", build_table)]
    for algo, title, fn in sections:
        if algo != "build" and algo not in o["algorithms"]:
            continue
        L.append(f"## {title}\n")
        L.append(fn(results, by))
        if algo in plot_links:
            L.append(f"\n![{title}: time against graph size]({plot_links[algo]})")
        if algo == "build" and "memory" in plot_links:
            L.append(f"\n![Peak memory of each tool's processes, bytes an edge, against graph size]"
                     f"({plot_links['memory']})")
        L.append("")

    st = scaling_table(results, by) if any(r.get("tool") == "gapbs" for r in results["runs"]) else None
    if st:
        L.append("## libgraph and GAPBS against graph size\n")
        L.append("Throughput of each kernel and the peak memory of each tool's processes (every process of the "
                 "tool on that graph: reading the .el file, or GAPBS's converter and its .sg runs). BFS: edges "
                 "of the largest component over the mean search time; PageRank (float, an iteration) and CC: "
                 "arcs over the median time of the alternating rounds below. Higher is faster.\n")
        L.append(st)
        L.append("")

    pt = paired_table(results)
    if pt:
        L.append("## Head to head with GAPBS, alternating processes\n")
        L.append(f"libgraph and GAPBS in turn, {o.get('paired')} rounds (the first tool of a round alternates), each "
                 f"process the median of {o['repeat']} trials; PageRank in float for exactly "
                 f"{o.get('pr_iterations')} iterations (libgraph `--float --tol 0 --max-iter K`, GAPBS `pr -i K -t 0`: "
                 "the same loop of arcs, Jacobi against Gauss-Seidel). Each round's ratio compares two processes "
                 "run back to back; their median is the comparison (below 1: libgraph faster). Tools measured "
                 "minutes apart in the tables above can differ by this VM's drift (20-30% within minutes, often "
                 "more between rounds here); a round's two processes much less. † marks rows where another "
                 f"process kept more than {BUSY_CORES} cores busy during some round.\n")
        L.append(pt)
        L.append("")

    L.append("## What each anchor runs\n")
    L.append("""- **libgraph**: the installed `lgraph` CLI, `--undirected --threads T --json`; the times are the
  library calls' own (`times_s`), without reading the file. `build` is the CLI's read + build time (`build_s`,
  median over its runs).
- **GAPBS** (when `GAPBS_DIR` names a build): `converter -s -b` makes a `.sg` once (its read + build times are the
  build row), then `bfs -r SOURCE -n 2` for each of libgraph's sources (the second, warm trial counts; the first
  source with `-v`), `pr -i 20 -t 1e-4 -n R -l -v` (Gauss-Seidel, float, its own unscaled tolerance: compare
  the time per iteration), `cc -n R -v` (Afforest). Its answers are checked by its own verifier.
- **NetworKit**: `graph.GraphFromCoo` from the pandas-parsed edges; `distance.BFS(storePaths=False)`
  (sequential); `centrality.PageRank` with the L1 norm, tolerance n * 1e-6 (NetworkX's rule), sinks distributed;
  CC: the faster of `ConnectedComponents` (sequential) and `ParallelConnectedComponents`. NetworKit leaks the
  rank of isolated vertices in undirected graphs, so its scores are checked after rescaling to sum 1,
  from an untimed run to tolerance 1e-12 against libgraph's converged scores (L1 < 1e-3).
- **python-graphblas** (SuiteSparse:GraphBLAS): an iso-valued FP64 matrix from the pandas-parsed edges. GraphBLAS has
  no graph algorithms of its own (LAGraph is not on PyPI), so the harness writes the textbook ones: BFS as
  level-synchronous `vxm` over `any_pair` with a complemented mask (push only); PageRank as NetworkX's power
  iteration with `vxm` over `plus_first`; CC as min-label propagation (`mxv` over `min_second`) with pointer
  jumping.
- **python-igraph**: `Graph.Read_Edgelist` on the file; `Graph.bfs`; `Graph.pagerank` (PRPACK, which
  solves the system exactly, so no iteration count; checked against libgraph's converged scores, L1 < 1e-3);
  `Graph.connected_components`. Single-threaded.
- **SciPy**: a `csr_array` built from the pandas-parsed edges (both directions); `csgraph.breadth_first_order`
  (order and predecessors; the check derives levels from them); a power iteration written here with
  NetworkX's exact loop over `A @ (x / outdeg)` in float64 (single-threaded SpMV); `csgraph.connected_components`.
- **NetworkX**: `Graph.add_edges_from`; `single_source_shortest_path_length`; `nx.pagerank` (its SciPy
  implementation; no iteration count is exposed); `connected_components`.

Agreement: BFS distances from one source (the last of the sources) equal to libgraph's; CC the same partition
(labels compared after naming each component by its smallest vertex); PageRank within 1e-6 relative L1 of
libgraph's scores for the tools that compute the same quantity with the same rule (SciPy, python-graphblas,
NetworkX), and loosely (L1 < 1e-3 against libgraph run to tolerance 1e-12) for the others. A failed check is a
**FAIL** in its row and makes `bench/run` exit 1.
""")
    with open(out + ".tmp", "w") as f:
        f.write("\n".join(L))
    os.replace(out + ".tmp", out)
