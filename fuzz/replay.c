/*
 * replay.c - runs a fuzz target (fuzz_*.c) over files without libFuzzer:
 * each argument is a file, or a directory whose files are each one input.
 * The main build links it with every target as a ctest test over the seed
 * corpus and the saved crashes (tests/CMakeLists.txt), so inputs that once
 * broke the library stay tests under gcc, the release build and ASan.
 */
#define _DEFAULT_SOURCE /* DT_REG */
#include <dirent.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int run_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "replay: cannot open %s\n", path);
        return 1;
    }
    size_t cap = 4096, size = 0;
    uint8_t *data = malloc(cap);
    size_t k;
    while (data && (k = fread(data + size, 1, cap - size, f)) > 0) {
        size += k;
        if (size == cap) {
            uint8_t *more = realloc(data, cap *= 2);
            if (!more)
                free(data);
            data = more;
        }
    }
    fclose(f);
    if (!data) {
        fprintf(stderr, "replay: out of memory for %s\n", path);
        return 1;
    }
    LLVMFuzzerTestOneInput(data, size);
    free(data);
    return 0;
}

int main(int argc, char **argv)
{
    int failed = 0, runs = 0;
    for (int i = 1; i < argc; i++) {
        DIR *dir = opendir(argv[i]);
        if (!dir) {
            failed |= run_file(argv[i]);
            runs++;
            continue;
        }
        struct dirent *e;
        while ((e = readdir(dir)) != NULL) {
            if (e->d_name[0] == '.')
                continue;
            char path[4096];
            snprintf(path, sizeof path, "%s/%s", argv[i], e->d_name);
            failed |= run_file(path);
            runs++;
        }
        closedir(dir);
    }
    printf("replayed %d inputs\n", runs);
    return failed;
}
