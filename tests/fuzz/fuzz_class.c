/* fuzz_class.c - libFuzzer entry point for a class (SPEC §6, §7): `exercise --class
 * ROSTER -o DIR` with a fuzzed roster, and `check --class DIR ANSWERS...` with fuzzed
 * answers files graded against a class folder made once from a fixed roster.
 *
 * An input is a mode line, then extra arguments one a line, then up to two files, each
 * after a line "%file%":
 *     exercise              attnstep exercise --class roster.txt -o TMP/o --seed 1 [ARGS]
 *     --format\nlatex       (ARGS)
 *     %file%
 *     张三\nAnna Maria      (the roster)
 * or
 *     check                 attnstep check --class cls a.txt [b.txt] [ARGS]
 *     %file%
 *     name: 张三 ...        (a.txt; a second %file% gives b.txt)
 * Any other mode line: nothing is run. An extra argument that could name a file to
 * write (-o, --output and its abbreviations, a short option cluster) or a path with "/"
 * is left out, and so is --color (its escapes are a terminal's, asserted elsewhere).
 * A roster is cut after MOST_NAMES lines, so that an input stays fast.
 *
 * The roster and the answers are read from the input (vfs.c); exercise writes into a
 * new directory under $TMPDIR (else /tmp), removed after each input; the class folder
 * check grades against is made once on disk, read into memory and removed at once.
 *
 * What must hold, or the fuzzer aborts: a command ends in 0, 1 or 3 (check only) or 2, with
 * an error exactly when 2; what it prints and its error message are valid UTF-8 without
 * direction controls (U+202A-U+202E, U+2066-U+2069, U+200E, U+200F, U+061C) or control
 * characters other than tab and newline. exercise: refused, it has made nothing (no
 * DIR); done, DIR/sheets/ holds one sheet and DIR/teacher/ one input per line of
 * class.tsv (no file overwrote another), plus the key, key.txt and class.tsv, and every
 * file name is valid UTF-8 without control characters, never starting "." or "-". */
#include "vfs.h"
#include "fuzz_util.h"
#include "attnstep/cli.h"
#include "attnstep/i18n.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define MOST_ARGS 24
#define MOST_NAMES 64
#define CLASS_DIR "cls"
#define CLASS_SIZE 3

/* The fixed roster of the class check grades against. */
static const char class_roster[] = "张三\nAnna Maria\nO'Brien\n";

/* The class folder in memory: class.tsv and each student's input, by their paths. */
static struct {
    char path[128];
    char *data;
    size_t len;
} class_file[CLASS_SIZE + 1];
static size_t class_files;

/* Nonzero when s[0..n) holds a direction control or a control character other than
 * tab and newline. */
static int unsafe_text(const unsigned char *s, size_t n)
{
    size_t i;

    for (i = 0; i < n; i++) {
        if (s[i] == '\r' && i + 1 < n && s[i + 1] == '\n')
            continue; /* a CSV line ends in CRLF (RFC 4180), as spreadsheets read it */
        if ((s[i] < 0x20 && s[i] != '\t' && s[i] != '\n') || s[i] == 0x7F)
            return 1;
        if (i + 2 < n && s[i] == 0xE2 && s[i + 1] == 0x80 &&
            ((s[i + 2] >= 0xAA && s[i + 2] <= 0xAE) || s[i + 2] == 0x8E || s[i + 2] == 0x8F))
            return 1;
        if (i + 2 < n && s[i] == 0xE2 && s[i + 1] == 0x81 && s[i + 2] >= 0xA6 && s[i + 2] <= 0xA9)
            return 1;
        if (i + 1 < n && s[i] == 0xD8 && s[i + 1] == 0x9C)
            return 1;
    }
    return 0;
}

/* Nonzero when arg may be passed on: it cannot name a file to write or a real path. */
static int harmless(const char *arg)
{
    const size_t n = strcspn(arg, "=");

    if (strchr(arg, '/') != NULL)
        return 0;
    if (arg[0] == '-' && arg[1] != '-' && arg[1] != '\0')
        return 0; /* -o, -ho ... */
    if (arg[0] == '-' && arg[1] == '-') {
        if (n <= 2)
            return 0; /* "--": what follows would be files */
        if (strncmp("output", arg + 2, n - 2) == 0 ||
            strncmp("colo", arg + 2, n - 2 < 4 ? n - 2 : 4) == 0)
            return 0; /* --output, --o, --ou ...; --color, --colour, --col ... */
    }
    return 1;
}

/* Removes path and all under it (never following a symbolic link). */
static void remove_tree(const char *path)
{
    struct stat st;
    DIR *d;
    const struct dirent *e;
    char sub[4096];

    if (lstat(path, &st) != 0)
        return;
    if (S_ISDIR(st.st_mode) && (d = opendir(path)) != NULL) {
        while ((e = readdir(d)) != NULL)
            if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0) {
                snprintf(sub, sizeof sub, "%s/%s", path, e->d_name);
                remove_tree(sub);
            }
        closedir(d);
        rmdir(path);
    } else {
        unlink(path);
    }
}

/* A new empty directory for one run, or NULL. */
static char *new_dir(char *buf, size_t size)
{
    const char *tmp = getenv("TMPDIR");

    snprintf(buf, size, "%s/attnstep-fuzz-XXXXXX", tmp != NULL && tmp[0] ? tmp : "/tmp");
    return mkdtemp(buf);
}

/* Parses and runs argv into memory; returns the exit status, -1 when refused before
 * running (a command line the parser refused says why). *out gets what it printed. */
static int run(int argc, char **argv, char **out, size_t *len, as_error *err)
{
    const as_command *c;
    as_cli cli;
    FILE *mem;
    int rc;

    *out = NULL;
    *len = 0;
    as_error_clear(err);
    if (as_cli_parse(&cli, argc, argv, err) != 0) {
        if (!err->set || err->msg[0] == '\0')
            abort(); /* a refused command line says why */
        return -1;
    }
    if (cli.help || cli.version)
        return -1;
    if ((c = as_command_find(cli.command)) == NULL)
        abort();
    if (as_cli_format_fits(&cli, err) != 0)
        return -1;
    if ((mem = open_memstream(out, len)) == NULL)
        return -1;
    rc = c->fn(mem, &cli, err);
    fclose(mem);
    if (rc != AS_EXIT_OK && rc != AS_EXIT_USAGE &&
        !((rc == AS_EXIT_WRONG || rc == AS_EXIT_PARTIAL) && strcmp(cli.command, "check") == 0))
        abort(); /* 1: a wrong answer, 3: a file not graded; both check's alone */
    if ((rc == AS_EXIT_USAGE) != (err->set && err->msg[0] != '\0'))
        abort(); /* an error exactly when the exit status says so */
    if (!valid_utf8((const unsigned char *)*out, *len) ||
        unsafe_text((const unsigned char *)*out, *len))
        abort();
    if (err->set && (!valid_utf8((const unsigned char *)err->msg, strlen(err->msg)) ||
                     unsafe_text((const unsigned char *)err->msg, strlen(err->msg))))
        abort();
    if (getenv("FUZZ_VERBOSE") != NULL)
        fprintf(stderr, "%s: exit %d, %zu bytes%s%s\n", cli.command, rc, *len,
                err->set ? ": " : "", err->set ? err->msg : "");
    return rc;
}

/* Reads path whole into a new buffer; returns NULL when it cannot. */
static char *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    char *buf = NULL;
    size_t cap = 0, n = 0, got;

    if (f == NULL)
        return NULL;
    do {
        if (n == cap) {
            char *grown = realloc(buf, cap = cap ? 2 * cap : 4096);
            if (grown == NULL)
                abort();
            buf = grown;
        }
        got = fread(buf + n, 1, cap - n, f);
        n += got;
    } while (got > 0);
    fclose(f);
    *len = n;
    return buf;
}

/* Makes the class folder once: exercise --class on the fixed roster into a new
 * directory, whose class.tsv and inputs are then kept in memory, and the folder removed. */
static void make_class(void)
{
    char dir[4096], out_dir[4200], path[4300];
    char *argv[] = {"attnstep", "exercise", "--class", "roster0", "-o", out_dir, "--seed", "7",
                    NULL};
    char *out, *line, *next;
    size_t len, k;
    as_error err;

    if (new_dir(dir, sizeof dir) == NULL)
        abort();
    snprintf(out_dir, sizeof out_dir, "%s/o", dir);
    vfs_name("roster0", (const uint8_t *)class_roster, sizeof class_roster - 1);
    if (run(8, argv, &out, &len, &err) != AS_EXIT_OK)
        abort();
    free(out);
    vfs_forget();
    snprintf(path, sizeof path, "%s/teacher/class.tsv", out_dir);
    snprintf(class_file[0].path, sizeof class_file[0].path, CLASS_DIR "/teacher/class.tsv");
    if ((class_file[0].data = slurp(path, &class_file[0].len)) == NULL)
        abort();
    class_files = 1;
    /* each line after the header: number, name, variant, seed, file */
    line = memchr(class_file[0].data, '\n', class_file[0].len);
    for (k = 0; line != NULL && k < CLASS_SIZE; k++, line = next) {
        const char *file;
        size_t n;
        const size_t left = class_file[0].len - (size_t)(line + 1 - class_file[0].data);
        if ((next = memchr(line + 1, '\n', left)) == NULL)
            break;
        for (file = next; file > line && file[-1] != '\t'; file--)
            ;
        n = (size_t)(next - file);
        snprintf(class_file[class_files].path, sizeof class_file[class_files].path,
                 CLASS_DIR "/teacher/%.*s", (int)n, file);
        snprintf(path, sizeof path, "%s/teacher/%.*s", out_dir, (int)n, file);
        if ((class_file[class_files].data = slurp(path, &class_file[class_files].len)) == NULL)
            abort();
        class_files++;
    }
    if (class_files != CLASS_SIZE + 1)
        abort();
    remove_tree(dir);
}

/* Counts the files dir holds; aborts on a name that is not a safe file name. */
static size_t count_files(const char *dir)
{
    DIR *d = opendir(dir);
    const struct dirent *e;
    size_t n = 0;

    if (d == NULL)
        abort(); /* exercise said it was done */
    while ((e = readdir(d)) != NULL) {
        const size_t k = strlen(e->d_name);
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        if (!valid_utf8((const unsigned char *)e->d_name, k) ||
            unsafe_text((const unsigned char *)e->d_name, k) || strchr(e->d_name, '\t') != NULL ||
            e->d_name[0] == '.' || e->d_name[0] == '-')
            abort();
        n++;
    }
    closedir(d);
    return n;
}

/* exercise --class roster.txt -o DIR/o [args]: what it made, checked. */
static void fuzz_exercise(char **argv, int argc, const char *roster, size_t roster_len)
{
    char dir[4096], out_dir[4200], path[4300], *out, *tsv;
    size_t len, i, lines = 0, sheets, inputs, tsv_len;
    struct stat st;
    as_error err;
    int rc, quiz;

    for (i = 0; i < roster_len && lines < MOST_NAMES; i++)
        lines += roster[i] == '\n';
    vfs_name("roster.txt", (const uint8_t *)roster, i);
    if (new_dir(dir, sizeof dir) == NULL)
        return;
    snprintf(out_dir, sizeof out_dir, "%s/o", dir);
    argv[0] = "attnstep";
    argv[1] = "exercise";
    argv[2] = "--class";
    argv[3] = "roster.txt";
    argv[4] = "-o";
    argv[5] = out_dir;
    argv[6] = "--seed"; /* the same files from the same input (a --seed of its own wins) */
    argv[7] = "1";
    argv[argc] = NULL;
    rc = run(argc, argv, &out, &len, &err);
    free(out);
    if (rc == AS_EXIT_USAGE || rc < 0) {
        if (stat(out_dir, &st) == 0)
            abort(); /* refused, it has made nothing */
    } else if (stat(out_dir, &st) == 0) {
        snprintf(path, sizeof path, "%s/teacher/class.tsv", out_dir);
        if ((tsv = slurp(path, &tsv_len)) == NULL)
            abort();
        for (lines = 0, i = 0; i < tsv_len; i++)
            lines += tsv[i] == '\n';
        free(tsv);
        snprintf(path, sizeof path, "%s/teacher", out_dir);
        inputs = count_files(path);
        snprintf(path, sizeof path, "%s/teacher/quiz.gift", out_dir);
        quiz = stat(path, &st) == 0;
        snprintf(path, sizeof path, "%s/teacher/quiz.xml", out_dir);
        quiz |= stat(path, &st) == 0;
        snprintf(path, sizeof path, "%s/sheets", out_dir);
        sheets = stat(path, &st) == 0 ? count_files(path) : 0;
        if (lines < 2 || inputs != lines - 1 + 3 || (quiz ? sheets != 0 : sheets != lines - 1))
            abort(); /* one sheet (none for a quiz) and one input a student: none lost */
    } else {
        abort(); /* done, and nothing made */
    }
    remove_tree(dir);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char *argv[MOST_ARGS + 8], *args;
    const char *file, *second = NULL;
    size_t main_len, args_len, file_len, second_len = 0, i, start;
    static int made;
    int argc, check;

    if (!made) {
        make_class();
        made = 1;
    }
    vfs_split(data, size, &main_len);
    args_len = fuzz_cut((const char *)data, main_len, &file, &file_len);
    if (file != NULL)
        file_len = fuzz_cut(file, file_len, &second, &second_len);
    if ((args = malloc(args_len + 1)) == NULL)
        return 0;
    memcpy(args, data, args_len);
    args[args_len] = '\0';
    start = strcspn(args, "\n");
    check = start == 5 && memcmp(args, "check", 5) == 0;
    if (!check && !(start == 8 && memcmp(args, "exercise", 8) == 0)) {
        free(args);
        return 0;
    }
    argc = check ? (second != NULL ? 6 : 5) : 8; /* the fixed words first */
    for (i = start + 1, start = i; i <= args_len && argc < MOST_ARGS; i++)
        if (i == args_len || args[i] == '\n') {
            args[i] = '\0';
            if (i > start || i < args_len)
                if (harmless(args + start))
                    argv[argc++] = args + start;
            start = i + 1;
        }
    if (check) {
        size_t k;
        argv[0] = "attnstep";
        argv[1] = "check";
        argv[2] = "--class";
        argv[3] = CLASS_DIR;
        argv[4] = "a.txt";
        if (second != NULL)
            argv[5] = "b.txt";
        argv[argc] = NULL;
        for (k = 0; k < class_files; k++)
            vfs_name(class_file[k].path, (const uint8_t *)class_file[k].data, class_file[k].len);
        if (file == NULL)
            file = "", file_len = 0; /* a.txt is then empty */
        vfs_name("a.txt", (const uint8_t *)file, file_len);
        if (second != NULL)
            vfs_name("b.txt", (const uint8_t *)second, second_len);
        {
            char *out;
            size_t len;
            as_error err;
            run(argc, argv, &out, &len, &err);
            free(out);
        }
    } else {
        fuzz_exercise(argv, argc, file != NULL ? file : "", file != NULL ? file_len : 0);
    }
    vfs_forget();
    free(args);
    return 0;
}
