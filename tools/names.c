/*
 * names.c - the command line's names for the library's algorithms, read
 * from their descriptors (libgraph.h, "Algorithms as data"), so that a new
 * algorithm is a command of lgraph with no code here:
 *
 *   the command    the descriptor's name, or a short name listed below
 *                  (cc for connected_components);
 *   an option      --NAME for parameter NAME, its underscores as dashes
 *                  (--max-depth); a flag that is off by default is set by
 *                  --NAME alone, one that is on by default cleared by
 *                  --no-NAME; a precision is --NAME float32;
 *   an alias       an older spelling kept for its users (below);
 *   a preset       a command that is an algorithm's with one of its flags
 *                  set and one of its options required (lgraph path).
 *
 * An option names the parameter of that name in any algorithm, so a name
 * means one type everywhere (an option is parsed before the command is
 * known: options may come first).
 */
#include "cli.h"

#include <string.h>

static const struct {
    const char *command, *algorithm;
} short_names[] = {{"cc", "connected_components"},
                   {"scc", "strongly_connected_components"},
                   {"bc", "betweenness_centrality"},
                   {"ebc", "edge_betweenness_centrality"},
                   {"bc-subset", "betweenness_centrality_subset"},
                   {"closeness", "closeness_centrality"},
                   {"eigenvector", "eigenvector_centrality"},
                   {"katz", "katz_centrality"},
                   {"tc", "triangles"}};

/* Commands that are an algorithm's with a flag of it set and an option of
 * it required (cli.h, struct cli_preset). */
static const struct cli_preset presets[] = {
    {"path", "sssp", "predecessors", "target",
     "The shortest path between two vertices: sssp from --source until --target is final, "
     "with its predecessors; prints the path, source first, and its length (none when "
     "--target is not reachable)"},
};

/* value NULL: the option takes the parameter's value from the next
 * argument; else the option alone sets that value. */
static const struct {
    const char *option, *param, *value;
} aliases[] = {
    {"--do-alpha", "direction_alpha", NULL},
    {"--do-beta", "direction_beta", NULL},
    {"--unweighted", "use_weights", "0"},
    {"--float", "precision", "float32"},
};

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

const struct cli_preset *cli_preset_of(const char *command)
{
    for (size_t i = 0; command && i < COUNT(presets); i++)
        if (!strcmp(command, presets[i].command))
            return &presets[i];
    return NULL;
}

const struct cli_preset *cli_preset_at(int i)
{
    return i >= 0 && (size_t)i < COUNT(presets) ? &presets[i] : NULL;
}

const lg_algorithm_info_t *cli_algorithm_of(const char *command)
{
    if (!command)
        return NULL;
    if (cli_preset_of(command))
        return lg_algorithm_find(cli_preset_of(command)->algorithm);
    for (size_t i = 0; i < COUNT(short_names); i++)
        if (!strcmp(command, short_names[i].command))
            return lg_algorithm_find(short_names[i].algorithm);
    for (int i = 0; i < lg_algorithm_count(); i++)
        if (!strcmp(command, lg_algorithm_at(i)->name))
            return lg_algorithm_at(i);
    return NULL;
}

const char *cli_command_of(const lg_algorithm_info_t *a)
{
    for (size_t i = 0; i < COUNT(short_names); i++)
        if (!strcmp(a->name, short_names[i].algorithm))
            return short_names[i].command;
    return a->name;
}

/* The parameter called `name` in any algorithm, or NULL. */
static const lg_param_info_t *any_param(const char *name)
{
    for (int i = 0; i < lg_algorithm_count(); i++) {
        const lg_algorithm_info_t *a = lg_algorithm_at(i);
        const int k = lg_algorithm_index(a, name, false);
        if (k >= 0)
            return &a->params[k];
    }
    return NULL;
}

/* "--max-depth" -> "max_depth" into buf; false when it does not fit. */
static bool undash(const char *option, char *buf, size_t size)
{
    const size_t len = strlen(option + 2);
    if (len + 1 > size)
        return false;
    for (size_t i = 0; i <= len; i++)
        buf[i] = option[2 + i] == '-' ? '_' : option[2 + i];
    return true;
}

const lg_param_info_t *cli_option_param(const char *option, const char **value)
{
    char name[64];
    *value = NULL;
    for (size_t i = 0; i < COUNT(aliases); i++)
        if (!strcmp(option, aliases[i].option)) {
            *value = aliases[i].value;
            return any_param(aliases[i].param);
        }
    if (strncmp(option, "--", 2) || !undash(option, name, sizeof name))
        return NULL;
    const lg_param_info_t *p = any_param(name);
    if (p && p->type == LG_TYPE_BOOL && !p->default_value.i) {
        *value = "1";
        return p;
    }
    if (p && p->type != LG_TYPE_BOOL)
        return p;
    p = !strncmp(name, "no_", 3) ? any_param(name + 3) : NULL;
    if (p && p->type == LG_TYPE_BOOL && p->default_value.i) {
        *value = "0";
        return p;
    }
    return NULL;
}

void cli_option_of(const lg_param_info_t *p, char *buf, size_t size)
{
    const bool negated = p->type == LG_TYPE_BOOL && p->default_value.i;
    int w = snprintf(buf, size, "--%s%s", negated ? "no-" : "", p->name);
    for (int i = 2; i < w && (size_t)i < size; i++)
        buf[i] = buf[i] == '_' ? '-' : buf[i];
}

void cli_print_aliases(FILE *f, const lg_param_info_t *p)
{
    char option[64];
    cli_option_of(p, option, sizeof option);
    for (size_t i = 0; i < COUNT(aliases); i++)
        if (!strcmp(aliases[i].param, p->name)) {
            if (!aliases[i].value)
                fprintf(f, "; also %s", aliases[i].option);
            else if (p->type == LG_TYPE_BOOL)
                fprintf(f, "; %s is %s", aliases[i].option, option);
            else
                fprintf(f, "; %s is %s %s", aliases[i].option, option, aliases[i].value);
        }
}
