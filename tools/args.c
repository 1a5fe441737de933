/*
 * args.c - the lgraph tool's command line: the help texts, and argv parsed
 * into a struct args with every default filled in.
 *
 *   lgraph COMMAND INPUT [OUTFILE] [options]
 *
 * Options may come before or after the positional arguments; each value is
 * range-checked here, so the commands get only sane numbers.  A bad option
 * is a usage error: exit status 2 with a message that names it.
 */
#include "cli.h"
#include "spec.h"

#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#define DEFAULT_TOP 10

static const char *usage_main =
    "usage: lgraph COMMAND INPUT [options]\n"
    "\n"
    "Commands:\n"
    "  info      size, directedness and degree statistics of a graph\n"
    "  bfs       breadth-first search distances from --source\n"
    "  pagerank  PageRank scores (NetworkX semantics) and the top vertices\n"
    "  cc        connected components (weak on directed graphs)\n"
    "  convert   INPUT OUTFILE: write the graph in the format of OUTFILE's extension\n"
    "  generate  SPEC OUTFILE: generate a graph and write it (same as convert)\n"
    "\n"
    "INPUT is a file (.mtx, .el, .wel, .lgb) or a generator spec kron:SCALE[:EF] or\n"
    "urand:SCALE[:EF] (Graph500 Kronecker / uniform random, 2^SCALE vertices,\n"
    "EF*2^SCALE edges, EF default 16; undirected, self-loops dropped, duplicates merged).\n"
    "\n"
    "Common options:\n"
    "  --device D              auto, cpu, gpu or gpu:N (default auto: with a GPU, a\n"
    "                          graph runs on the CPU until its calls have cost about\n"
    "                          its upload, then on the GPU; gpu and gpu:N always use\n"
    "                          the GPU and fail without one)\n"
    "  --threads N             CPU threads (default: OpenMP's default)\n"
    "  --undirected, -s        read the file as undirected (symmetric)\n"
    "  --directed              read the file as directed (default: what the file\n"
    "                          records, .lgb, .mtx's header or libgraph's .el/.wel\n"
    "                          header line; else undirected)\n"
    "  --drop-self-loops       drop self-loops while building\n"
    "  --merge-duplicates      merge repeated edges (weights: the last copy wins)\n"
    "  --format F              INPUT's format when its name does not say: mtx, el,\n"
    "                          wel or lgb (a pipe, /dev/stdin, an odd extension)\n"
    "  --seed N                generator seed (default 1)\n"
    "  --output FILE           write per-vertex results, one line per vertex\n"
    "  --repeat R              run the algorithm R times: the summary shows their median\n"
    "                          and the first (cold) run apart; --json lists every time\n"
    "  --json                  end with one JSON line of sizes, timings and memory\n"
    "                          (every command; info times its statistics, convert its write)\n"
    "  --distributed           run across MPI ranks: mpirun -np P lgraph bfs|pagerank|cc|info\n"
    "                          INPUT --distributed (libgraph_dist; docs/DISTRIBUTED.md);\n"
    "                          with --device gpu, one GPU a rank (its index on its node)\n"
    "  --version               the library's version and build, and its GPU plugin\n"
    "  --help                  this text; 'lgraph COMMAND --help' for a command's options\n";

static const char *usage_bfs =
    "usage: lgraph bfs INPUT [--source V[,V...]] [--parents] [options]\n"
    "  --source V       start vertex (default 0); a list V,W,... starts from all at once\n"
    "  --parents        also compute a BFS parent per vertex\n"
    "  --max-depth D    stop after D levels (default: no limit)\n"
    "  --do-alpha A     direction switch: bottom-up when frontier edges > unexplored/A\n"
    "                   (default 15; 0 = always top-down)\n"
    "  --do-beta B      back to top-down when the frontier < vertices/B (default 18)\n"
    "  --output F       lines 'distance' (or 'distance parent'); -1 = unreached\n";
static const char *usage_pagerank =
    "usage: lgraph pagerank INPUT [options]\n"
    "  --alpha A      damping factor (default 0.85)\n"
    "  --tol T        tolerance: stop when the L1 change < N*T (default 1e-6)\n"
    "  --max-iter K   iteration limit (default 100)\n"
    "  --float        single precision (default double)\n"
    "  --unweighted   ignore edge weights\n"
    "  --top K        print the K best vertices (default 10; 0: none)\n"
    "  --output F     one score per line\n";
static const char *usage_cc =
    "usage: lgraph cc INPUT [options]\n"
    "  --output F   one label per line: the smallest vertex id of the component\n";
static const char *usage_info = "usage: lgraph info INPUT [options]\n";
static const char *usage_convert =
    "usage: lgraph convert INPUT OUTFILE [options]\n"
    "       lgraph generate kron:SCALE[:EF] OUTFILE [--seed N]\n"
    "  OUTFILE's extension picks the format: .mtx, .el, .wel or .lgb (binary)\n"
    "  --to F      OUTFILE's format whatever its name: mtx, el, wel or lgb\n"
    "  An edge list starts with a '# libgraph edge list: ...' line only where reading\n"
    "  it without the line would give another graph: a directed graph, isolated\n"
    "  vertices past the largest id, an unweighted graph written as .wel.\n"
    "  --plain     .el/.wel: leave that line out anyway: bare \"u v[ w]\" lines for\n"
    "              tools that read only those (GAPBS, igraph, pandas.read_csv); the\n"
    "              file reads back undirected (say --directed), its vertex count one\n"
    "              more than its largest id, a .wel weighted\n";

static const char *command_usage(const char *command)
{
    if (!command)
        return usage_main;
    if (!strcmp(command, "bfs"))
        return usage_bfs;
    if (!strcmp(command, "pagerank"))
        return usage_pagerank;
    if (!strcmp(command, "cc"))
        return usage_cc;
    if (!strcmp(command, "info"))
        return usage_info;
    if (!strcmp(command, "convert") || !strcmp(command, "generate"))
        return usage_convert;
    return NULL;
}

static bool parse_long(const char *s, long long lo, long long hi, long long *out)
{
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (errno || end == s || *end || v < lo || v > hi)
        return false;
    *out = v;
    return true;
}

static bool parse_format(const char *s, lg_file_format_t *out)
{
    static const struct {
        const char *name;
        lg_file_format_t format;
    } formats[] = {{"mtx", LG_FORMAT_MTX},
                   {"el", LG_FORMAT_EL},
                   {"wel", LG_FORMAT_WEL},
                   {"lgb", LG_FORMAT_BINARY}};
    for (size_t i = 0; i < sizeof formats / sizeof formats[0]; i++)
        if (!strcmp(s, formats[i].name)) {
            *out = formats[i].format;
            return true;
        }
    return false;
}

static bool parse_double(const char *s, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (errno || end == s || *end)
        return false;
    *out = v;
    return true;
}

/* A flag without a value: sets its field and returns true; false for any
 * other option. */
static bool set_flag(struct args *a, const char *o)
{
    if (!strcmp(o, "--parents"))
        a->parents = true;
    else if (!strcmp(o, "--json"))
        a->json = true;
    else if (!strcmp(o, "--float"))
        a->use_float = true;
    else if (!strcmp(o, "--unweighted"))
        a->unweighted = true;
    else if (!strcmp(o, "--undirected") || !strcmp(o, "-s"))
        a->directedness = LG_UNDIRECTED;
    else if (!strcmp(o, "--directed"))
        a->directedness = LG_DIRECTED;
    else if (!strcmp(o, "--drop-self-loops"))
        a->drop_self_loops = true;
    else if (!strcmp(o, "--merge-duplicates"))
        a->merge_duplicates = true;
    else if (!strcmp(o, "--distributed"))
        a->distributed = true;
    else if (!strcmp(o, "--plain"))
        a->plain = true;
    else
        return false;
    return true;
}

/* The options whose value is an int in [lo, hi], and the field it goes to. */
struct int_option {
    const char *name;
    long long lo, hi;
    size_t field; /* offsetof(struct args, ...), an int */
};

static const struct int_option int_options[] = {
    {"--threads", 0, LG_MAX_THREADS, offsetof(struct args, threads)},
    {"--repeat", 1, 1 << 20, offsetof(struct args, repeat)},
    {"--max-depth", -1, INT32_MAX, offsetof(struct args, max_depth)},
    {"--do-alpha", 0, INT32_MAX, offsetof(struct args, do_alpha)},
    {"--do-beta", 1, INT32_MAX, offsetof(struct args, do_beta)},
    {"--top", 0, INT32_MAX, offsetof(struct args, top)},
    {"--max-iter", 0, INT32_MAX, offsetof(struct args, max_iter)},
};

static const struct int_option *int_option(const char *o)
{
    for (size_t k = 0; k < sizeof int_options / sizeof int_options[0]; k++)
        if (!strcmp(o, int_options[k].name))
            return &int_options[k];
    return NULL;
}

/* Whether convert / generate writes a .el or .wel: --to says so, or, without
 * --to, OUTFILE's extension (in any case, as the library reads it). */
static bool writes_edge_list(const struct args *a)
{
    if (a->to != LG_FORMAT_AUTO)
        return a->to == LG_FORMAT_EL || a->to == LG_FORMAT_WEL;
    const char *dot = strrchr(a->target, '.');
    return dot && !strchr(dot, '/') && (!strcasecmp(dot, ".el") || !strcasecmp(dot, ".wel"));
}

/* --version: lg_build_info's fields, one a line, each of which says what it
 * is.  The fields before the GPU plugin's (version, compiler, CPU, threads,
 * vectors) hold no "; "; the plugin's, last, may (it lists what failed), and
 * is printed whole. */
enum { BUILD_INFO_FIELDS_BEFORE_PLUGIN = 5 };

static void print_build_info(void)
{
    const char *p = lg_build_info();
    for (int field = 0; field < BUILD_INFO_FIELDS_BEFORE_PLUGIN; field++) {
        const char *sep = strstr(p, "; ");
        if (!sep)
            break;
        printf("%.*s\n", (int)(sep - p), p);
        p = sep + 2;
    }
    puts(p);
}

/* Returns 0 to go on, 1 when help was printed, 2 on a usage error. */
int cli_parse_args(int argc, char **argv, struct args *a)
{
    memset(a, 0, sizeof *a);
    lg_context_options_init(&a->device);
    a->alpha = 0.85;
    a->tol = 1e-6;
    a->max_iter = 100;
    a->top = DEFAULT_TOP;
    a->seed = 1;
    a->sources = "0";
    a->repeat = 1;
    a->max_depth = -1;
    a->do_alpha = -1;
    a->do_beta = -1;
    int positional = 0;
    for (int i = 1; i < argc; i++) {
        const char *o = argv[i];
        const char *val = i + 1 < argc ? argv[i + 1] : NULL;
        long long n = 0;
        if (!strcmp(o, "--help") || !strcmp(o, "-h")) {
            fputs(command_usage(a->command) ? command_usage(a->command) : usage_main, stdout);
            return 1;
        }
        if (!strcmp(o, "--version")) {
            print_build_info();
            return 1;
        }
        if (o[0] != '-' || !o[1]) {
            if (positional == 0)
                a->command = o;
            else if (positional == 1)
                a->input = o;
            else if (positional == 2)
                a->target = o;
            else {
                fprintf(stderr, "lgraph: unexpected argument '%s'\n", o);
                return 2;
            }
            positional++;
            continue;
        }
        if (set_flag(a, o))
            continue;
        /* options with a value */
        if (!val) {
            fprintf(stderr, "lgraph: %s needs a value (or is unknown; see --help)\n", o);
            return 2;
        }
        bool ok = true;
        const struct int_option *io = int_option(o);
        if (io) {
            ok = parse_long(val, io->lo, io->hi, &n);
            *(int *)((char *)a + io->field) = (int)n;
        } else if (!strcmp(o, "--device")) {
            ok = lg_context_options_parse(&a->device, val) == LG_OK;
            a->device_numbered = strchr(val, ':') != NULL;
        } else if (!strcmp(o, "--source")) {
            a->sources = val;
        } else if (!strcmp(o, "--seed")) {
            ok = parse_long(val, 0, LLONG_MAX, &n);
            a->seed = (unsigned long long)n;
        } else if (!strcmp(o, "--alpha")) {
            ok = parse_double(val, &a->alpha);
        } else if (!strcmp(o, "--tol")) {
            ok = parse_double(val, &a->tol);
        } else if (!strcmp(o, "--output")) {
            a->output = val;
        } else if (!strcmp(o, "--format")) {
            ok = parse_format(val, &a->format);
        } else if (!strcmp(o, "--to")) {
            ok = parse_format(val, &a->to);
        } else {
            fprintf(stderr, "lgraph: unknown option '%s' (see --help)\n", o);
            return 2;
        }
        if (!ok) {
            fprintf(stderr, "lgraph: bad value '%s' for %s\n", val, o);
            return 2;
        }
        i++;
    }
    if (!a->command) {
        fputs(usage_main, stderr);
        return 2;
    }
    if (!command_usage(a->command) || !strcmp(a->command, "help")) {
        fprintf(stderr, "lgraph: unknown command '%s'\n\n%s", a->command, usage_main);
        return 2;
    }
    if (!a->input) {
        fprintf(stderr, "lgraph %s: missing INPUT\n\n%s", a->command, command_usage(a->command));
        return 2;
    }
    if (cli_bad_spec(a->input))
        return 2;
    bool needs_target = !strcmp(a->command, "convert") || !strcmp(a->command, "generate");
    if (needs_target != (a->target != NULL)) {
        fprintf(stderr, "lgraph %s: %s\n\n%s", a->command,
                needs_target ? "missing OUTFILE" : "too many arguments", command_usage(a->command));
        return 2;
    }
    if (a->plain && !needs_target) {
        fprintf(stderr, "lgraph %s: --plain is for convert and generate, which write files\n",
                a->command);
        return 2;
    }
    if (a->plain && !writes_edge_list(a)) {
        fprintf(stderr,
                "lgraph %s: --plain is for edge lists: name OUTFILE .el or .wel (or say --to "
                "el), or leave --plain off\n",
                a->command);
        return 2;
    }
    return 0;
}

void cli_bfs_options(const struct args *a, lg_bfs_options_t *o)
{
    lg_bfs_options_init(o);
    o->compute_parents = a->parents;
    o->max_depth = a->max_depth;
    if (a->do_alpha >= 0)
        o->direction_alpha = a->do_alpha;
    if (a->do_beta >= 0)
        o->direction_beta = a->do_beta;
}

void cli_pagerank_options(const struct args *a, lg_pagerank_options_t *o)
{
    lg_pagerank_options_init(o);
    o->alpha = a->alpha;
    o->tol = a->tol;
    o->max_iter = a->max_iter;
    o->use_weights = !a->unweighted;
}

/* Parses --source's "V" or "V,W,..." into a new array (the caller frees it). */
bool cli_parse_sources(const char *list, lg_vertex_t **out, int64_t *count)
{
    int64_t k = 1;
    for (const char *c = list; *c; c++)
        k += *c == ',';
    lg_vertex_t *v = malloc((size_t)k * sizeof *v);
    if (!v)
        return false;
    const char *p = list;
    for (int64_t i = 0; i < k; i++) {
        char *end;
        errno = 0;
        long long x = strtoll(p, &end, 10);
        if (errno || end == p || x < 0 || x > INT32_MAX || (*end && *end != ',')) {
            free(v);
            return false;
        }
        v[i] = (lg_vertex_t)x;
        p = end + 1;
    }
    *out = v;
    *count = k;
    return true;
}

/* ---- generator specs (INPUT): parsed here, generated by load.c ---- */

bool cli_parse_spec(const char *input, lg_generator_t *gen, int *scale, int *ef, bool *bad)
{
    return lg_spec_parse(input, gen, scale, ef, bad);
}

bool cli_bad_spec(const char *input)
{
    lg_generator_t gen;
    int scale, ef;
    bool bad;
    if (!cli_parse_spec(input, &gen, &scale, &ef, &bad) || !bad)
        return false;
    fprintf(stderr, "lgraph: bad generator spec '%s' (want %s:SCALE[:EF], SCALE 1..%d, EF 1..%d)\n",
            input, gen == LG_GENERATOR_KRONECKER ? "kron" : "urand", LG_SPEC_MAX_SCALE,
            LG_SPEC_MAX_EDGE_FACTOR);
    return true;
}
