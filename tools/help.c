/*
 * help.c - lgraph's help texts: the main one, with the list of commands,
 * and each command's.  An algorithm's command help is made from its
 * descriptor: its summary, and an option a parameter with the parameter's
 * help and default (names.c gives the options' names), so a new algorithm
 * is documented here without a line of its own.
 */
#include "cli.h"

#include <string.h>

#define WIDTH 80       /* the help's lines are at most this wide */
#define HELP_COLUMN 23 /* where an option's help starts */

static const char *usage_head = "usage: lgraph COMMAND INPUT [options]\n\nCommands:\n"
                                "  info      size, directedness and degree statistics of a graph\n";

static const char *usage_tail =
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
    "  --weights T             read the weights as float32 or float64 (default: a text\n"
    "                          file's float32, a .lgb's own); float64 takes each decimal as\n"
    "                          Python reads it, so weighted distances equal NetworkX's\n"
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

/* Options of the command line's own for an algorithm's command. */
static const struct {
    const char *algorithm, *text;
} extra_options[] = {
    {"pagerank", "  --top K              print the K best vertices (default 10; 0: none)\n"},
};

/* text from column `col`, words wrapped at WIDTH, later lines from `indent`. */
static void wrap(FILE *f, const char *text, int col, int indent)
{
    const char *p = text;
    while (*p) {
        const char *end = p;
        while (*end && *end != ' ')
            end++;
        const int len = (int)(end - p);
        if (col > indent && col + 1 + len > WIDTH) {
            fprintf(f, "\n%*s", indent, "");
            col = indent;
        } else if (col > indent) {
            fputc(' ', f);
            col++;
        }
        fprintf(f, "%.*s", len, p);
        col += len;
        p = *end ? end + 1 : end;
    }
    fputc('\n', f);
}

/* A command's summary's first clause, up to ": ", for the list of commands. */
static void print_command_line(FILE *f, const char *command, const char *summary)
{
    const char *colon = strstr(summary, ": ");
    const int len = colon ? (int)(colon - summary) : (int)strlen(summary);
    fprintf(f, "  %-9s %.*s\n", command, len, summary);
}

static void print_main(FILE *f)
{
    fputs(usage_head, f);
    for (int i = 0; i < lg_algorithm_count(); i++)
        print_command_line(f, cli_command_of(lg_algorithm_at(i)), lg_algorithm_at(i)->summary);
    for (int i = 0; cli_preset_at(i); i++)
        print_command_line(f, cli_preset_at(i)->command, cli_preset_at(i)->summary);
    fputs(usage_tail, f);
}

/* What an option takes, for its help line: "V[,V...]", "N", "X", ... */
static const char *metavar(const lg_param_info_t *p)
{
    switch (p->type) {
    case LG_TYPE_INT: return " N";
    case LG_TYPE_DOUBLE: return " X";
    case LG_TYPE_PRECISION: return " P";
    case LG_TYPE_VERTICES: return " V[,V...]";
    default: return "";
    }
}

static void print_default(FILE *f, const lg_param_info_t *p)
{
    if (p->type == LG_TYPE_INT)
        fprintf(f, " (default %lld", (long long)p->default_value.i);
    else if (p->type == LG_TYPE_DOUBLE)
        fprintf(f, " (default %g", p->default_value.d);
    else if (p->type == LG_TYPE_PRECISION)
        fprintf(f, " (%s or %s; default %s", p->choices[0], p->choices[1],
                p->choices[p->default_value.i]);
    else if (p->type == LG_TYPE_VERTICES)
        fputs(" (default 0", f);
    else {
        cli_print_aliases(f, p);
        return;
    }
    cli_print_aliases(f, p);
    fputc(')', f);
}

/* The help of the command that runs algorithm a (a preset: its summary, its
 * flag left out as always set, its required option said so). */
static void print_algorithm(FILE *f, const char *command, const lg_algorithm_info_t *a)
{
    const struct cli_preset *preset = cli_preset_of(command);
    fprintf(f, "usage: lgraph %s INPUT [options]\n  ", preset ? command : cli_command_of(a));
    wrap(f, preset ? preset->summary : a->summary, 2, 2);
    char option[64], text[512];
    for (int k = 0; k < a->num_params; k++) {
        const lg_param_info_t *p = &a->params[k];
        if (p->type == LG_TYPE_VERTEX_DOUBLES)
            continue; /* not offered on the command line (a vector a vertex) */
        if (preset && !strcmp(p->name, preset->flag))
            continue;
        cli_option_of(p, option, sizeof option);
        fprintf(f, "  %s%s", option, metavar(p));
        const int col = 2 + (int)strlen(option) + (int)strlen(metavar(p));
        FILE *m = fmemopen(text, sizeof text, "w");
        if (!m)
            continue;
        if (preset && !strcmp(p->name, preset->needs))
            fputs("required: ", m);
        if (p->type == LG_TYPE_BOOL && p->default_value.i)
            fputs("turn off (it is on by default): ", m);
        fputs(p->help, m);
        if (!preset || strcmp(p->name, preset->needs))
            print_default(m, p);
        fclose(m);
        text[sizeof text - 1] = '\0';
        if (col < HELP_COLUMN)
            fprintf(f, "%*s", HELP_COLUMN - col, "");
        else
            fprintf(f, "\n%*s", HELP_COLUMN, "");
        wrap(f, text, HELP_COLUMN, HELP_COLUMN);
    }
    for (size_t i = 0; i < sizeof extra_options / sizeof extra_options[0]; i++)
        if (!strcmp(a->name, extra_options[i].algorithm))
            fputs(extra_options[i].text, f);
    bool arcs = false;
    for (int k = 0; k < a->num_results; k++)
        arcs = arcs || a->results[k].per_arc;
    fputs(arcs ? "  --output F           one line an arc: tail head"
               : "  --output F           one line a vertex:",
          f);
    for (int k = 0; k < a->num_results; k++)
        if (a->results[k].per_vertex || a->results[k].per_arc)
            fprintf(f, " %s%s%s", a->results[k].when ? "[" : "", a->results[k].name,
                    a->results[k].when ? "]" : "");
    fputs("\n", f);
}

bool cli_command_known(const char *command)
{
    return command && (cli_algorithm_of(command) || !strcmp(command, "info") ||
                       !strcmp(command, "convert") || !strcmp(command, "generate"));
}

void cli_print_usage(FILE *f, const char *command)
{
    const lg_algorithm_info_t *a = cli_algorithm_of(command);
    if (a)
        print_algorithm(f, command, a);
    else if (command && !strcmp(command, "info"))
        fputs(usage_info, f);
    else if (command && (!strcmp(command, "convert") || !strcmp(command, "generate")))
        fputs(usage_convert, f);
    else
        print_main(f);
}
