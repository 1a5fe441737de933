"""The programs a bench/run needs, and the machine it runs on: lgraph checked
(it must have --json), bench_bfs found or built, bench/stream_copy.c built
and run for the memory bandwidth, the anchors pip-installed, and the
machine's description for the report."""

import datetime
import os
import platform
import re
import shlex
import subprocess
import sys

from harness.common import CACHE, GIB, HERE, REQUIREMENTS, ROOT, log
from harness.procs import mem_total, run_cmd, wait_quiet


def machine_info(lgraph, threads):
    info = {"date": datetime.datetime.now().strftime("%Y-%m-%d %H:%M"), "threads": threads,
            "cores": os.cpu_count(), "memory_gib": round(mem_total() / GIB, 1),
            "python": platform.python_version(), "platform": platform.platform()}
    try:
        out = subprocess.run(["lscpu"], capture_output=True, text=True).stdout
        m = re.search(r"^Model name:\s*(.+)$", out, re.M)
        info["cpu"] = m.group(1).strip() if m else platform.processor()
        fl = re.search(r"^Flags:\s*(.+)$", out, re.M)
        if fl:
            flags = fl.group(1).split()
            info["simd"] = ", ".join(f for f in ("avx2", "avx512f") if f in flags) or "none of avx2/avx512f"
        l3 = re.search(r"^L3 cache:\s*(.+)$", out, re.M)
        if l3:
            info["l3"] = l3.group(1).strip()
    except OSError:
        info["cpu"] = platform.processor()
    rc, out, _, _, _ = run_cmd([lgraph, "--version"])
    info["libgraph"] = "; ".join(relative_paths(line) for line in out.strip().splitlines())
    rc, out, _, _, _ = run_cmd(["git", "-C", ROOT, "describe", "--always", "--dirty=+changes"])
    if rc == 0 and out.strip():
        info["commit"] = out.strip()  # the tree the run's build came from
    try:
        load = os.getloadavg()
        info["load_at_start"] = f"{load[0]:.2f}"
    except OSError:
        pass
    return info


def relative_paths(text):
    """text with each absolute path inside the repository written relative
    to its root (a report names no path of the machine that made it)."""
    def rel(m):
        path = os.path.normpath(m.group(0))
        inside = os.path.commonpath([path, ROOT]) == ROOT
        return os.path.relpath(path, ROOT) if inside else m.group(0)
    return re.sub(r"/[^\s;,()]+", rel, text)


def stream_copy(threads):
    """The machine's memory bandwidth in this run: bench/stream_copy.c (a
    STREAM-like copy, best of 10), compiled into the cache on first use with
    $CC (default gcc) -O2 -fopenmp, run with the harness's thread count."""
    src = os.path.join(HERE, "stream_copy.c")
    exe = os.path.join(CACHE, "bench_stream")
    if not os.path.exists(exe) or os.path.getmtime(exe) < os.path.getmtime(src):
        os.makedirs(CACHE, exist_ok=True)
        cc = os.environ.get("CC", "gcc")
        rc, out, err, _, _ = run_cmd([cc, "-O2", "-fopenmp", "-o", exe, src])
        if rc != 0:
            return {"skipped": f"{cc} could not build bench/stream_copy.c: {(err or out).strip()[:200]}"}
    wait_quiet(30)
    rc, out, err, _, _ = run_cmd([exe, str(threads)], timeout=300)
    m = re.search(r"stream_copy_gbs ([0-9.]+) threads (\d+) mib (\d+)", out)
    if rc != 0 or not m:
        return {"skipped": f"bench_stream failed: {(err or out).strip()[:200]}"}
    return {"gbs": float(m.group(1)), "threads": int(m.group(2)), "mib": int(m.group(3))}


def check_lgraph(lgraph):
    if not os.access(lgraph, os.X_OK):
        sys.exit(f"bench/run: no lgraph at {lgraph}: run ./install.sh first (or pass --lgraph PATH)")
    rc, out, _, _, _ = run_cmd([lgraph, "--help"])
    if "--json" not in out:
        sys.exit(f"bench/run: {lgraph} is too old (it has no --json): "
                 f"rerun ./install.sh, or pass --lgraph PATH of a newer build")


def bench_bfs_binary(opts, lgraph):
    """The BFS benchmark program (bench/bfs_sources.c), on the same library as
    lgraph: --bench-bfs PATH when given; else the bench_bfs a CMake build
    directory holds beside its lgraph; else built into the cache with $CC
    (default gcc) against the libgraph installed in lgraph's prefix."""
    if opts.bench_bfs:
        exe = os.path.abspath(opts.bench_bfs)
        if not os.access(exe, os.X_OK):
            sys.exit(f"bench/run: no bench_bfs at {exe}")
        return exe
    beside = os.path.join(os.path.dirname(lgraph), "bench_bfs")
    if os.access(beside, os.X_OK):
        return beside
    prefix = os.path.dirname(os.path.dirname(lgraph))
    include = os.path.join(prefix, "include")
    libs = [d for d in (os.path.join(prefix, x) for x in ("lib", "lib64"))
            if os.path.exists(os.path.join(d, "libgraph.so"))]
    if not os.path.exists(os.path.join(include, "libgraph.h")) or not libs:
        sys.exit(f"bench/run: no bench_bfs beside {lgraph}, and no installed libgraph in {prefix} to build "
                 "bench/bfs_sources.c against: pass --bench-bfs PATH (CMake builds bench_bfs)")
    os.makedirs(CACHE, exist_ok=True)
    exe = os.path.join(CACHE, "bench_bfs")
    cc = os.environ.get("CC", "gcc")
    rc, out, err, _, _ = run_cmd([cc, "-O2", "-std=c11", "-I", include, "-o", exe,
                                  os.path.join(HERE, "bfs_sources.c"), "-L", libs[0], "-lgraph",
                                  "-Wl,-rpath," + libs[0]])
    if rc != 0:
        sys.exit(f"bench/run: {cc} could not build bench/bfs_sources.c: {(err or out).strip()[:500]}")
    return exe


def install():
    cmd = [sys.executable, "-m", "pip", "install", "--disable-pip-version-check", "-r", REQUIREMENTS]
    log("$ " + " ".join(map(shlex.quote, cmd)))
    rc = subprocess.call(cmd)
    if rc != 0:
        log("bench/run: pip failed; the anchors that did not install will be skipped with the reason")
    return rc
