"""lgraph against hostile input and failing output: one clear error line, the
right exit status, and no results lost.

--output is written beside the target and renamed over it, so a write that
fails (a file size limit stands in for a full disk) leaves the old results
whole; a 0600 file keeps its mode, a symbolic link stays a link, and
/dev/stdout is written into.  INPUT may be a pipe with --format naming its
format; a bad generator spec is one line; an error names its file once;
every command's --json line is one JSON object, valid (and UTF-8) whatever
bytes the file names hold.
"""
import json
import os
import resource
import signal
import subprocess
import tempfile

import pytest
from hypothesis import given, settings, strategies as st

from conftest import _lgraph_path

EDGES = "0 1\n1 2\n2 0\n2 3\n"


def run(*args, stdin=None, limit_file_bytes=None):
    def limit():
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit_file_bytes, resource.RLIM_INFINITY))

    return subprocess.run([str(_lgraph_path()), *map(str, args)], input=stdin,
                          capture_output=True, text=True,
                          preexec_fn=limit if limit_file_bytes is not None else None)


def test_output_on_a_full_disk_keeps_the_old_results(tmp_path):
    out = tmp_path / "scores.txt"
    out.write_text("old results\n")
    proc = run("pagerank", "kron:12", "--output", out, "--top", 0, limit_file_bytes=4096)
    assert proc.returncode == 1
    assert proc.stderr.startswith(f"lgraph: cannot write {out}: File too large")
    assert out.read_text() == "old results\n"
    assert [p.name for p in tmp_path.iterdir()] == ["scores.txt"]  # no temporary file left


def test_output_keeps_mode_and_follows_links(tmp_path):
    out = tmp_path / "labels.txt"
    out.write_text("old\n")
    out.chmod(0o600)
    link = tmp_path / "link.txt"
    link.symlink_to(out)
    assert run("cc", "kron:4", "--output", link).returncode == 0
    assert link.is_symlink() and (out.stat().st_mode & 0o777) == 0o600
    assert len(out.read_text().splitlines()) == 16


def test_output_to_stdout_and_into_a_directory(tmp_path):
    """/dev/stdout is written through, also when the shell sent it to a file
    (the file is appended to, not replaced: the summary stays)."""
    redirected = tmp_path / "all.txt"
    with open(redirected, "w") as out:
        subprocess.run([str(_lgraph_path()), "cc", "kron:3", "--output", "/dev/stdout"], stdout=out,
                       check=True)
    lines = redirected.read_text().splitlines()
    assert lines[0].startswith("graph kron:3") and lines.count("0") == 8
    proc = run("cc", "kron:3", "--output", "/dev/stdout")
    assert proc.returncode == 0 and proc.stdout.splitlines().count("0") == 8
    proc = run("cc", "kron:3", "--output", tmp_path)
    assert proc.returncode == 1 and "it is a directory" in proc.stderr


def test_input_from_a_pipe_needs_and_takes_format():
    proc = run("info", "/dev/stdin", stdin=EDGES)
    assert proc.returncode == 2
    assert proc.stderr == "lgraph: /dev/stdin: the name does not say the format: give --format mtx|el|wel|lgb\n"
    proc = run("info", "/dev/stdin", "--format", "el", stdin=EDGES)
    assert proc.returncode == 0 and "4 vertices, 8 arcs" in proc.stdout
    assert run("info", "x.el", "--format", "xml").stderr == "lgraph: bad value 'xml' for --format\n"


def test_convert_to_a_named_format(tmp_path):
    src, out = tmp_path / "g.el", tmp_path / "g.graph"
    src.write_text(EDGES)
    assert "give --to" in run("convert", src, out).stderr
    assert run("convert", src, out, "--to", "mtx").returncode == 0
    assert out.read_text().startswith("%%MatrixMarket matrix coordinate pattern symmetric\n")


def test_binary_garbage_on_a_pipe_is_refused_at_its_first_line():
    proc = run("info", "/dev/stdin", "--format", "el", stdin="0 1\n\x01\x02\x03\n")
    assert proc.returncode == 2 and "/dev/stdin:2: byte 0x01: this is not a text file" in proc.stderr


@pytest.mark.parametrize("spec", ["kron:31", "urand:0", "kron:4:0", "kron:x"])
def test_bad_generator_spec_is_one_line(spec):
    proc = run("info", spec)
    assert proc.returncode == 2
    assert proc.stderr.count("\n") == 1 and f"bad generator spec '{spec}'" in proc.stderr


def test_json_line_escapes_the_input_name(tmp_path):
    path = tmp_path / 'tab\there "quoted" \\ \x01.el'
    path.write_text(EDGES)
    proc = run("cc", path, "--json")
    assert proc.returncode == 0, proc.stderr
    record = json.loads(proc.stdout.splitlines()[-1])
    assert record["input"] == str(path) and record["vertices"] == 4


def test_utf8_bom_and_tiny_weights(tmp_path):
    bom = tmp_path / "bom.el"
    bom.write_bytes(b"\xef\xbb\xbf" + EDGES.encode())
    assert "4 vertices" in run("info", bom).stdout
    tiny = tmp_path / "tiny.wel"
    tiny.write_text("0 1 1e-50\n1 2 1\n2 0 1\n")
    proc = run("pagerank", tiny)
    assert proc.returncode == 2 and "tiny.wel:1: weight 1e-50 rounds to 0" in proc.stderr


def test_threads_beyond_the_limit_are_refused():
    proc = run("cc", "kron:3", "--threads", 100000)
    assert proc.returncode == 2 and "--threads" in proc.stderr


@pytest.mark.parametrize("ext", ["el", "wel", "mtx", "lgb"])
def test_convert_keeps_isolated_vertices_past_the_largest_id(tmp_path, ext):
    """An edge list with vertices past its largest id records its vertex
    count in its header line, so they survive a conversion (and PageRank of
    the result is the original's)."""
    src, out = tmp_path / "iso.mtx", tmp_path / f"iso.{ext}"
    src.write_text("%%MatrixMarket matrix coordinate pattern general\n6 6 2\n1 2\n2 3\n")
    assert run("convert", src, out).returncode == 0
    for path in (src, out):
        proc = run("pagerank", path, "--json", "--top", 0)
        assert "6 vertices" in proc.stdout and json.loads(proc.stdout.splitlines()[-1])["vertices"] == 6
    assert run("pagerank", src, "--output", tmp_path / "a.txt").returncode == 0
    assert run("pagerank", out, "--output", tmp_path / "b.txt").returncode == 0
    assert (tmp_path / "a.txt").read_text() == (tmp_path / "b.txt").read_text()


def test_convert_writes_the_header_line_only_where_needed_and_plain(tmp_path):
    """An undirected edge list whose last vertex has edges goes out as bare
    lines; a directed one with isolated vertices past its largest id gets
    the header line, which --plain leaves out: the file is then the arcs
    alone, read back undirected unless --directed says otherwise."""
    pd = pytest.importorskip("pandas")
    src = tmp_path / "in.el"
    src.write_text(EDGES)
    assert run("convert", src, tmp_path / "u.el").returncode == 0
    assert (tmp_path / "u.el").read_text() == "0 1\n0 2\n1 2\n2 3\n"

    iso = tmp_path / "iso.mtx"
    iso.write_text("%%MatrixMarket matrix coordinate pattern general\n6 6 2\n1 2\n2 3\n")
    assert run("convert", iso, tmp_path / "d.el").returncode == 0
    assert (tmp_path / "d.el").read_text() == (
        "# libgraph edge list: directed, 6 vertices, unweighted\n0 1\n1 2\n")
    assert "6 vertices, 2 arcs, directed" in run("info", tmp_path / "d.el").stdout
    for args in (("convert", iso, tmp_path / "p.el", "--plain"),
                 ("generate", iso, tmp_path / "q.txt", "--to", "el", "--plain")):
        assert run(*args).returncode == 0
    for plain in (tmp_path / "p.el", tmp_path / "q.txt"):
        assert plain.read_text() == "0 1\n1 2\n"
    assert pd.read_csv(tmp_path / "p.el", sep=" ", header=None).values.tolist() == [[0, 1], [1, 2]]
    assert "3 vertices, 4 arcs, undirected" in run("info", tmp_path / "p.el").stdout
    assert "3 vertices, 2 arcs, directed" in run("info", tmp_path / "p.el", "--directed").stdout
    assert run("convert", iso, tmp_path / "p.wel", "--plain").returncode == 0
    assert (tmp_path / "p.wel").read_text() == "0 1 1\n1 2 1\n"

    for args, why in [(("convert", iso, tmp_path / "x.mtx", "--plain"),
                       "lgraph convert: --plain is for edge lists: name OUTFILE .el or .wel"),
                      (("convert", iso, tmp_path / "x.el", "--to", "lgb", "--plain"),
                       "lgraph convert: --plain is for edge lists"),
                      (("info", iso, "--plain"),
                       "lgraph info: --plain is for convert and generate")]:
        proc = run(*args)
        assert proc.returncode == 2 and proc.stderr.startswith(why), proc.stderr
    assert not (tmp_path / "x.mtx").exists() and not (tmp_path / "x.el").exists()


def test_an_error_names_its_file_once(tmp_path):
    bad = tmp_path / "bad.el"
    bad.write_text("0 1\n2 x\n")
    for args in (("info", bad), ("bfs", bad), ("convert", bad, tmp_path / "out.lgb")):
        proc = run(*args)
        assert proc.returncode == 2
        assert proc.stderr.count(str(bad)) == 1 and f"lgraph: {bad}:2: " in proc.stderr
    missing = tmp_path / "missing.el"
    proc = run("cc", missing)
    assert proc.returncode == 2
    assert proc.stderr == f"lgraph: {missing}: cannot open: No such file or directory (LG_ERR_IO)\n"
    unwritable = tmp_path / "no-such-dir" / "g.lgb"
    proc = run("convert", "kron:3", unwritable)
    assert proc.returncode == 2 and proc.stderr.count(str(unwritable)) == 1
    lgb = tmp_path / "g.lgb"
    assert run("convert", "kron:3", lgb).returncode == 0
    proc = run("info", lgb, "--directed")  # a .lgb holds its directedness: the message names it
    assert proc.returncode == 2 and proc.stderr.count(str(lgb)) == 1
    assert "holds an undirected graph" in proc.stderr


def test_info_and_convert_print_their_json_line(tmp_path):
    src, out = tmp_path / "g.el", tmp_path / "g.lgb"
    src.write_text(EDGES + "3 3\n")
    proc = run("info", src, "--json")
    assert proc.returncode == 0, proc.stderr
    record = json.loads(proc.stdout.splitlines()[-1])
    assert record["command"] == "info" and record["input"] == str(src)
    assert (record["vertices"], record["arcs"], record["directed"]) == (4, 9, False)
    assert (record["max_out_degree"], record["no_out_edges"], record["self_loops"]) == (3, 0, 1)
    assert record["weighted"] is False and len(record["times_s"]) == 1
    for command in ("convert", "generate"):
        proc = run(command, src if command == "convert" else "kron:3", out, "--json")
        assert proc.returncode == 0, proc.stderr
        record = json.loads(proc.stdout.splitlines()[-1])
        assert record["command"] == command and record["output"] == str(out)
        assert record["vertices"] == (4 if command == "convert" else 8)
        assert len(record["times_s"]) == 1 and out.exists()


# A file name is any bytes but '/' and NUL: control characters, quotes,
# backslashes, bytes that are not UTF-8.
NAME_BYTES = (st.binary(min_size=1, max_size=40)
              .map(lambda b: b.replace(b"/", b"_").replace(b"\0", b"_")))


@settings(max_examples=25, deadline=None, derandomize=True, database=None)
@given(name=NAME_BYTES)
def test_json_line_is_valid_for_any_file_name_bytes(name):
    """Each command's JSON line is UTF-8 and parses, and its names decode to
    the file names as os.fsdecode has them (bytes that are not UTF-8 as
    lone surrogates)."""
    with tempfile.TemporaryDirectory() as tmp:
        src = os.path.join(os.fsencode(tmp), name + b".el")
        out = os.path.join(os.fsencode(tmp), name + b".lgb")
        with open(src, "wb") as f:
            f.write(EDGES.encode())
        for args in ([b"bfs", src], [b"pagerank", src], [b"cc", src], [b"info", src],
                     [b"convert", src, out]):
            proc = subprocess.run([os.fsencode(_lgraph_path()), *args, b"--json"],
                                  capture_output=True)
            assert proc.returncode == 0, proc.stderr
            record = json.loads(proc.stdout.splitlines()[-1].decode("utf-8"))
            assert record["command"] == args[0].decode()
            assert record["input"] == os.fsdecode(src) and record["vertices"] == 4
            if args[0] == b"convert":
                assert record["output"] == os.fsdecode(out) and os.path.exists(out)
