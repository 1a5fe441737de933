/*
 * args.c - the lgraph tool's command line: argv parsed into a struct args
 * with every default filled in (the help texts are help.c's).
 *
 *   lgraph COMMAND INPUT [OUTFILE] [options]
 *
 * Options may come before or after the positional arguments.  The tool's
 * own options are range-checked here; an algorithm's options (names.c
 * names them) are read by their parameter's type, and what their values
 * mean is checked once, by the library, when the command runs.  A bad
 * option is a usage error: exit status 2 with a message that names it.
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
    if (!strcmp(o, "--json"))
        a->json = true;
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
    {"--top", 0, INT32_MAX, offsetof(struct args, top)},
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

/* An algorithm's option as the command line gave it: the option, the
 * parameter it sets, and the value's text. */
struct given {
    const char *option, *param, *value;
};
#define CLI_MAX_GIVEN 64

/* Parameter p's value from text (the option as given: `option`); 0, or 2
 * after saying what is wrong. */
static int parse_value(struct args *a, int k, const char *option, const char *text)
{
    const lg_param_info_t *p = &a->algorithm->params[k];
    lg_value_t *v = &a->params[k];
    long long n = 0;
    bool ok = true;
    switch (p->type) {
    case LG_TYPE_BOOL:
    case LG_TYPE_INT:
        ok = parse_long(text, LLONG_MIN, LLONG_MAX, &n); /* the library checks the range */
        v->i = n;
        break;
    case LG_TYPE_DOUBLE:
        ok = parse_double(text, &v->d);
        break;
    case LG_TYPE_PRECISION:
        ok = false;
        for (int64_t c = 0; p->choices[c]; c++)
            if (!strcmp(text, p->choices[c])) {
                v->i = c;
                ok = true;
            }
        break;
    case LG_TYPE_VERTICES:
        free(a->vertices[k]);
        a->vertices[k] = NULL;
        if (!cli_parse_sources(text, &a->vertices[k], &v->length)) {
            fprintf(stderr, "lgraph: bad %s '%s' (want V or V,W,...)\n", option, text);
            return 2;
        }
        v->array = a->vertices[k];
        break;
    default:
        fprintf(stderr, "lgraph: %s is not available on the command line\n", option);
        return 2;
    }
    if (!ok) {
        fprintf(stderr, "lgraph: bad value '%s' for %s\n", text, option);
        return 2;
    }
    a->param_text[k] = text;
    return 0;
}

/* The command's algorithm's parameters: the defaults, then the options
 * given (a->algorithm NULL: none may be).  A vertices parameter that is
 * required and not given is vertex 0.  0, or 2 after saying what is wrong. */
static int algorithm_options(struct args *a, const struct given *given, int num_given)
{
    const lg_algorithm_info_t *alg = a->algorithm;
    if (alg && alg->num_params > CLI_MAX_PARAMS) {
        fprintf(stderr, "lgraph %s: more parameters than the tool holds\n", a->command);
        return 2;
    }
    if (alg && lg_algorithm_defaults(alg, a->params) != LG_OK)
        return 2;
    for (int k = 0; alg && k < alg->num_params; k++)
        if (alg->params[k].required && alg->params[k].type == LG_TYPE_VERTICES &&
            parse_value(a, k, "--source", "0") != 0)
            return 2;
    for (int i = 0; i < num_given; i++) {
        const int k = alg ? lg_algorithm_index(alg, given[i].param, false) : -1;
        if (k < 0) {
            fprintf(stderr, "lgraph %s: %s is not an option of this command (see lgraph %s --help)\n",
                    a->command, given[i].option, a->command);
            return 2;
        }
        if (parse_value(a, k, given[i].option, given[i].value) != 0)
            return 2;
    }
    const struct cli_preset *preset = cli_preset_of(a->command);
    if (preset) {
        const int flag = lg_algorithm_index(alg, preset->flag, false);
        const int needs = lg_algorithm_index(alg, preset->needs, false);
        if (flag < 0 || needs < 0 || parse_value(a, flag, preset->flag, "1") != 0)
            return 2;
        if (!a->param_text[needs]) {
            char option[64];
            cli_option_of(&alg->params[needs], option, sizeof option);
            fprintf(stderr, "lgraph %s: %s is required (see lgraph %s --help)\n", a->command,
                    option, a->command);
            return 2;
        }
    }
    return 0;
}

/* Returns 0 to go on, 1 when help was printed, 2 on a usage error. */
int cli_parse_args(int argc, char **argv, struct args *a)
{
    memset(a, 0, sizeof *a);
    lg_context_options_init(&a->device);
    a->top = DEFAULT_TOP;
    a->seed = 1;
    a->repeat = 1;
    struct given given[CLI_MAX_GIVEN];
    int num_given = 0;
    int positional = 0;
    for (int i = 1; i < argc; i++) {
        const char *o = argv[i];
        const char *val = i + 1 < argc ? argv[i + 1] : NULL;
        long long n = 0;
        if (!strcmp(o, "--help") || !strcmp(o, "-h")) {
            cli_print_usage(stdout, a->command);
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
        const char *fixed;
        const lg_param_info_t *param = cli_option_param(o, &fixed);
        if (param) { /* an algorithm's option: read once the command is known */
            if (num_given == CLI_MAX_GIVEN) {
                fprintf(stderr, "lgraph: more than %d algorithm options\n", CLI_MAX_GIVEN);
                return 2;
            }
            if (!fixed && !val) {
                fprintf(stderr, "lgraph: %s needs a value (see --help)\n", o);
                return 2;
            }
            given[num_given++] = (struct given){o, param->name, fixed ? fixed : val};
            i += fixed ? 0 : 1;
            continue;
        }
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
        } else if (!strcmp(o, "--seed")) {
            ok = parse_long(val, 0, LLONG_MAX, &n);
            a->seed = (unsigned long long)n;
        } else if (!strcmp(o, "--output")) {
            a->output = val;
        } else if (!strcmp(o, "--format")) {
            ok = parse_format(val, &a->format);
        } else if (!strcmp(o, "--weights")) {
            ok = !strcmp(val, "float32") || !strcmp(val, "float64");
            a->weight_type = val[5] == '6' ? LG_WEIGHTS_FLOAT64 : LG_WEIGHTS_FLOAT32;
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
        cli_print_usage(stderr, NULL);
        return 2;
    }
    if (!cli_command_known(a->command)) {
        fprintf(stderr, "lgraph: unknown command '%s'\n\n", a->command);
        cli_print_usage(stderr, NULL);
        return 2;
    }
    if (!a->input) {
        fprintf(stderr, "lgraph %s: missing INPUT\n\n", a->command);
        cli_print_usage(stderr, a->command);
        return 2;
    }
    a->algorithm = cli_algorithm_of(a->command);
    if (algorithm_options(a, given, num_given) != 0)
        return 2;
    if (cli_bad_spec(a->input))
        return 2;
    bool needs_target = !strcmp(a->command, "convert") || !strcmp(a->command, "generate");
    if (needs_target != (a->target != NULL)) {
        fprintf(stderr, "lgraph %s: %s\n\n", a->command,
                needs_target ? "missing OUTFILE" : "too many arguments");
        cli_print_usage(stderr, a->command);
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

int64_t cli_param_int(const struct args *a, const char *name)
{
    const int k = lg_algorithm_index(a->algorithm, name, false);
    return k >= 0 ? a->params[k].i : 0;
}

double cli_param_double(const struct args *a, const char *name)
{
    const int k = lg_algorithm_index(a->algorithm, name, false);
    return k >= 0 ? a->params[k].d : 0.0;
}

const char *cli_sources_text(const struct args *a)
{
    const int k = lg_algorithm_index(a->algorithm, "source", false);
    return k >= 0 && a->param_text[k] ? a->param_text[k] : "0";
}

void cli_bfs_options(const struct args *a, lg_bfs_options_t *o)
{
    lg_bfs_options_init(o);
    o->compute_parents = cli_param_int(a, "parents") != 0;
    o->max_depth = (int32_t)cli_param_int(a, "max_depth");
    o->direction_alpha = (int)cli_param_int(a, "direction_alpha");
    o->direction_beta = (int)cli_param_int(a, "direction_beta");
}

void cli_pagerank_options(const struct args *a, lg_pagerank_options_t *o)
{
    lg_pagerank_options_init(o);
    o->alpha = cli_param_double(a, "alpha");
    o->tol = cli_param_double(a, "tol");
    o->max_iter = (int)cli_param_int(a, "max_iter");
    o->use_weights = cli_param_int(a, "use_weights") != 0;
}

void cli_free_args(struct args *a)
{
    for (int k = 0; k < CLI_MAX_PARAMS; k++) {
        free(a->vertices[k]);
        a->vertices[k] = NULL;
    }
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
