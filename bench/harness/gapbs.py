"""GAPBS as an anchor of bench/run, when --gapbs-dir (or $GAPBS_DIR) names a
build: the graph serialised once to .sg, its bfs / pr / cc on libgraph's
sources with its own verifier, and the paired rounds that alternate libgraph
and GAPBS processes for a head-to-head ratio of medians."""

import os
import re

from harness.common import CACHE, GIB
from harness.libgraph_runs import run_lgraph
from harness.procs import RUN_STATS, estimate_bytes, mem_available, run_cmd, take_interference, wait_quiet


# ----------------------------------------------------------------- GAPBS --

def gapbs_dir(opts):
    d = opts.gapbs_dir or os.environ.get("GAPBS_DIR")
    if not d:
        return None, "GAPBS_DIR not set"
    missing = [b for b in ("bfs", "pr", "cc") if not os.access(os.path.join(d, b), os.X_OK)]
    if missing:
        return None, f"GAPBS_DIR={d} lacks built {', '.join(missing)} (run make there)"
    return d, None


def gapbs_times(text):
    return [float(x) for x in re.findall(r"^Trial Time:\s+([0-9.eE+-]+)", text, re.M)]


def gapbs_verified(text):
    v = re.findall(r"^Verification:\s+(\S+)", text, re.M)
    return v and all(x == "PASS" for x in v), len(v)


def gapbs_version(d):
    head = os.path.join(d, ".git")
    try:
        rc, out, _, _, _ = run_cmd(["git", "-C", d, "rev-parse", "--short", "HEAD"])
        if rc == 0 and os.path.isdir(head):
            return out.strip()
    except OSError:
        pass
    return "build in " + d


def gapbs_sg(g):
    """Where the GAPBS .sg serialisation of g's edge list is cached."""
    return os.path.join(CACHE, "gapbs", os.path.basename(g.path)[:-3] + ".sg")


def run_gapbs_binary(d, binary, args, env, timeout):
    """One GAPBS process: (stdout, peak RSS MB); RuntimeError when it fails."""
    rc, out, err, rss, killed = run_cmd([os.path.join(d, binary)] + args, env=env, timeout=timeout)
    if killed or rc != 0:
        raise RuntimeError(f"{binary} {' '.join(args)}: " + ("timed out" if killed else f"exit {rc}: {err.strip()[-200:]}"))
    return out, rss


def run_gapbs(g, opts, sources, d):
    res = {"tool": "gapbs", "graph": g.name, "versions": {"GAPBS": gapbs_version(d)}}
    need, avail = estimate_bytes("gapbs", g.n, g.edges), mem_available()
    if need > 0.85 * avail:
        res["skipped"] = f"would need ~{need / GIB:.1f} GiB, {avail / GIB:.1f} GiB available"
        return res
    env = dict(os.environ, OMP_NUM_THREADS=str(opts.threads))
    T = opts.timeout

    peaks = [0.0]
    RUN_STATS.clear()

    def gap(binary, args):
        out, rss = run_gapbs_binary(d, binary, args, env, T)
        peaks.append(rss)
        return out, rss

    # Serialize the graph once (GAPBS's own .sg format) when the converter is
    # built, so each run loads fast; its read + build times are GAPBS's build.
    src_args = ["-f", g.path, "-s"]
    build = {"method": "GAPBS: read .el + build CSR (converter)"}
    out = ""
    if os.access(os.path.join(d, "converter"), os.X_OK):
        sg = gapbs_sg(g)
        os.makedirs(os.path.dirname(sg), exist_ok=True)
        out, _ = gap("converter", ["-f", g.path, "-s", "-b", sg + ".tmp"])
        os.replace(sg + ".tmp", sg)
        rd = re.search(r"^Read Time:\s+([0-9.]+)", out, re.M)
        bd = re.search(r"^Build Time:\s+([0-9.]+)", out, re.M)
        if rd and bd:
            build["times_s"] = [float(rd.group(1)) + float(bd.group(1))]
            build["parse_s"] = float(rd.group(1))
        src_args = ["-f", sg]
    else:
        build["method"] += " (no converter: each run reads the .el)"
    m = re.search(r"Graph has (\d+) nodes and (\d+) (un)?directed edges", out)
    if m and (int(m.group(1)) != g.n or int(m.group(2)) != g.edges):
        build["note"] = f"GAPBS sees {m.group(1)} vertices, {m.group(2)} edges"
    if "times_s" in build:
        build["others_cores"] = take_interference()
        res["build"] = build
    for algo in opts.algorithms:
        RUN_STATS.clear()
        try:
            if algo == "bfs":
                # One process a source (libgraph's sources), two trials each:
                # the second, warm one counts, like libgraph's 15 of 16 warm searches.
                times, ok_all, nver, peak = [], True, 0, 0.0
                spent = 0.0
                for i, s in enumerate(sources):
                    out, rss = gap("bfs", src_args + ["-r", str(s), "-n", "2"] + (["-v"] if i == 0 else []))
                    t = gapbs_times(out)
                    times.append(t[-1])
                    ok, k = gapbs_verified(out)
                    ok_all &= bool(ok) if k else True
                    nver += k
                    spent += sum(t)
                    peak = max(peak, rss)
                    if spent > opts.budget:
                        break
                res["bfs"] = {"times_s": times, "method": "DO-BFS (bfs -r SOURCE -n 2, 2nd trial)",
                              "threads": opts.threads, "sources_run": len(times), "sources_given": len(sources),
                              "check": {"ok": ok_all, "detail": f"GAPBS's own verifier (-v), first source: "
                                        + ("PASS" if ok_all else "FAIL")}}
            elif algo == "pagerank":
                out, rss = gap("pr", src_args + ["-i", "20", "-t", "1e-4", "-n", str(opts.repeat), "-l", "-v"])
                times = gapbs_times(out)
                # with -l, each iteration prints "  k   error"; trials are separated by Trial Time
                trials = re.split(r"^Trial Time:.*$", out, flags=re.M)[:-1]
                iters = [len(re.findall(r"^\s+\d+\s+[0-9.eE+-]+\s*$", t, re.M)) for t in trials]
                ok, _ = gapbs_verified(out)
                k = iters[-1] if iters else None
                K = opts.pr_iterations
                fout, _ = gap("pr", src_args + ["-i", str(K), "-t", "0", "-n", str(opts.repeat)])
                ftimes = gapbs_times(fout)
                fmed = sorted(ftimes)[len(ftimes) // 2]
                res["pagerank"] = {"times_s": times, "iterations": k, "per_iter_s": fmed / K,
                                   "fixed_iterations": K, "fixed_times_s": ftimes, "threads": opts.threads,
                                   "method": "Gauss-Seidel pull, float, tol 1e-4 unscaled L1 (pr -i 20 -t 1e-4)",
                                   "check": {"ok": bool(ok), "detail": "GAPBS's own verifier (-v): "
                                             + ("PASS" if ok else "FAIL") + "; different stopping rule"}}
            elif algo == "cc":
                out, rss = gap("cc", src_args + ["-n", str(opts.repeat), "-v"])
                ok, _ = gapbs_verified(out)
                res["cc"] = {"times_s": gapbs_times(out), "method": "Afforest (cc)", "threads": opts.threads,
                             "check": {"ok": bool(ok), "detail": "GAPBS's own verifier (-v): " + ("PASS" if ok else "FAIL")}}
        except Exception as e:
            res[algo] = {"error": str(e)}
        if isinstance(res.get(algo), dict):
            res[algo]["others_cores"] = take_interference()
    res["peak_rss_mb"] = max(peaks)
    return res


def paired_with_gapbs(g, opts, lgraph, d):
    """PageRank (float, a fixed number of iterations) and CC of libgraph and
    GAPBS in alternating processes, opts.paired rounds: on a VM that drifts
    20-30% within minutes, the times of two tools taken minutes apart differ
    by that much whatever the code, and a ratio of medians over interleaved
    rounds is the comparison the issue's "no slower than GAPBS" needs.  Each
    process runs opts.repeat trials and gives its median; the round's first
    tool alternates, so a drift favours neither."""
    sg = gapbs_sg(g)
    gsrc = ["-f", sg] if os.path.exists(sg) else ["-f", g.path, "-s"]
    env = dict(os.environ, OMP_NUM_THREADS=str(opts.threads))
    R, K, T = opts.repeat, opts.pr_iterations, opts.timeout

    # each returns (median seconds, cores other processes kept busy meanwhile)
    def gap(binary, args, per):
        RUN_STATS.clear()
        out, _ = run_gapbs_binary(d, binary, gsrc + args, env, T)
        t = sorted(gapbs_times(out))
        return t[len(t) // 2] / per, take_interference()

    def lg(command, args, per):
        j = run_lgraph(lgraph, command, g.path, args + ["--repeat", str(R)], opts.threads, T)
        return j["median_s"] / per, j["others_cores"]

    kernels = {  # name: (the algorithm it belongs to, libgraph's run, GAPBS's run)
        "pagerank_float": ("pagerank", lambda: lg("pagerank", ["--float", "--tol", "0", "--max-iter", str(K), "--top", "1"], K),
                           lambda: gap("pr", ["-i", str(K), "-t", "0", "-n", str(R)], K)),
        "cc": ("cc", lambda: lg("cc", [], 1), lambda: gap("cc", ["-n", str(R)], 1)),
    }
    out = {"graph": g.name, "rounds": opts.paired, "trials": R}
    for name, (algo, lg_run, gap_run) in kernels.items():
        if algo not in opts.algorithms:
            continue
        lg_t, gap_t, busy = [], [], []
        try:
            for r in range(opts.paired):
                wait_quiet(opts.wait_quiet)
                order = [(lg_t, lg_run), (gap_t, gap_run)]
                round_busy = []
                for times, fn in (order if r % 2 == 0 else order[::-1]):
                    t, others = fn()
                    times.append(t)
                    round_busy.append(others or 0.0)
                busy.append(max(round_busy))
            out[name] = {"libgraph_s": lg_t, "gapbs_s": gap_t, "others_cores": busy}
        except Exception as e:
            out[name] = {"error": str(e), "libgraph_s": lg_t, "gapbs_s": gap_t}
    return out
