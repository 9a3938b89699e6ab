/* SPDX-License-Identifier: Apache-2.0 */
/* harness/cli/options_resume.c: the options of a resumed run, from its file's command line
 * (contract in harness/cli/options_resume.h). */
#include "options_resume.h"

#include "exitcodes.h"
#include "options.h"
#include "options_msg.h"
#include "options_table.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The option a word names ("--unroll", "--unroll=1" or an unambiguous prefix of a name), with
 * the value after '=' in *value (NULL when none); NULL for a word that names none. */
static const OccOptSpec *named(const char *word, const char **value)
{
    *value = NULL;
    if (strncmp(word, "--", 2) != 0 || word[2] == '\0') return NULL;
    const char *name = word + 2;
    const size_t len = strcspn(name, "=");
    if (name[len] == '=') *value = name + len + 1;
    const OccOptSpec *found = occ_option_named(name, len);
    if (found) return found;
    int n = 0;
    for (int i = 0; i < occ_option_count(); i++)
        if (strncmp(occ_option_at(i)->name, name, len) == 0) found = occ_option_at(i), n++;
    return n == 1 ? found : NULL;
}

/* 1 when a[0..na) and b[0..nb) hold the same values (lists drop duplicates: order aside). */
static int same_set(const int *a, int na, const int *b, int nb)
{
    if (na != nb) return 0;
    for (int i = 0; i < na; i++) {
        int in = 0;
        for (int j = 0; j < nb && !in; j++) in = a[i] == b[j];
        if (!in) return 0;
    }
    return 1;
}

/* 1 when option s has the same value in a and b (the kernels and mode: the same families). */
static int same_value(const OccOptions *a, const OccOptions *b, const OccOptSpec *s)
{
    const char *pa = (const char *)a + s->field, *pb = (const char *)b + s->field;
    const OccOccSpec *oa = (const OccOccSpec *)(const void *)pa;
    const OccOccSpec *ob = (const OccOccSpec *)(const void *)pb;
    switch (s->kind) {
    case OCC_OPT_KERNELS:
    case OCC_OPT_MODE:
        return a->families == b->families;
    case OCC_OPT_DOUBLE:
        return *(const double *)(const void *)pa == *(const double *)(const void *)pb;
    case OCC_OPT_SIZE:
        return *(const long long *)(const void *)pa == *(const long long *)(const void *)pb;
    case OCC_OPT_FOOTPRINT:
        return a->footprint_lo_bytes == b->footprint_lo_bytes &&
               a->footprint_hi_bytes == b->footprint_hi_bytes;
    case OCC_OPT_LIST:
    case OCC_OPT_INT_LIST:
    case OCC_OPT_DEVICES:
        return same_set((const int *)(const void *)pa, *OCC_OPTION_FIELD(a, s->field2, int),
                        (const int *)(const void *)pb, *OCC_OPTION_FIELD(b, s->field2, int));
    case OCC_OPT_OCC:
        if (oa->is_list != ob->is_list || oa->n_pct != ob->n_pct) return 0;
        for (int i = 0; i < oa->n_pct; i++) {
            int in = 0;
            for (int j = 0; j < ob->n_pct && !in; j++) in = oa->pct[i] == ob->pct[j];
            if (!in) return 0;
        }
        return oa->lo_pct == ob->lo_pct && oa->hi_pct == ob->hi_pct &&
               oa->step_pct == ob->step_pct;
    case OCC_OPT_PATH:
    case OCC_OPT_ARCH: {
        const char *sa = *(const char *const *)(const void *)pa;
        const char *sb = *(const char *const *)(const void *)pb;
        return sa == sb || (sa && sb && strcmp(sa, sb) == 0);
    }
    case OCC_OPT_FLAG:
    case OCC_OPT_INT:
    case OCC_OPT_ENUM:
        break;
    }
    return memcmp(pa, pb, sizeof(int)) == 0;
}

/* The value of option s in o as a command line spells it, into buf. */
static const char *value_text(const OccOptions *o, const OccOptSpec *s, char *buf, size_t len)
{
    const char *p = (const char *)o + s->field;
    const OccOccSpec *occ = &o->occ;
    size_t used = 0;
    buf[0] = '\0';
    switch (s->kind) {
    case OCC_OPT_KERNELS:
        snprintf(buf, len, "%s", o->kernel_arg ? o->kernel_arg : "all");
        break;
    case OCC_OPT_MODE:
        snprintf(buf, len, "%s", o->mode_arg ? o->mode_arg : "(each kernel's default)");
        break;
    case OCC_OPT_DOUBLE:
        snprintf(buf, len, "%g", *(const double *)(const void *)p);
        break;
    case OCC_OPT_FOOTPRINT:
        snprintf(buf, len, "%lld..%lld", o->footprint_lo_bytes, o->footprint_hi_bytes);
        break;
    case OCC_OPT_LIST:
    case OCC_OPT_INT_LIST:
    case OCC_OPT_DEVICES:
        for (int i = 0; i < *OCC_OPTION_FIELD(o, s->field2, int) && used < len; i++)
            used += (size_t)snprintf(buf + used, len - used, "%s%d", i ? "," : "",
                                     ((const int *)(const void *)p)[i]);
        break;
    case OCC_OPT_OCC:
        if (!occ->is_list)
            snprintf(buf, len, occ->step_pct > 0 ? "%g..%g:%g" : "%g..%g", occ->lo_pct,
                     occ->hi_pct, occ->step_pct);
        for (int i = 0; occ->is_list && i < occ->n_pct && used < len; i++)
            used += (size_t)snprintf(buf + used, len - used, "%s%g", i ? "," : "", occ->pct[i]);
        break;
    case OCC_OPT_PATH:
    case OCC_OPT_ARCH:
        snprintf(buf, len, "%s", *(const char *const *)(const void *)p
                                     ? *(const char *const *)(const void *)p : "(none)");
        break;
    case OCC_OPT_FLAG:
        snprintf(buf, len, "%s", *(const int *)(const void *)p ? "given" : "not given");
        break;
    case OCC_OPT_INT:
    case OCC_OPT_ENUM:
    case OCC_OPT_SIZE:
        occ_option_value(o, s, buf, len);
        break;
    }
    return buf;
}

/* The words of command after its first (the program), as the file's resumed options, into
 * out[*n..]: each resumed option with its value; the others (--out, --resume, --quiet...) left
 * out, and so is a word that names no option (the rest of a value with a space, such as an --out
 * path). 0, or OCC_EXIT_USAGE with err: an option this build does not know, or a --plugin this
 * command line does not load. */
static int resumed_words(char *command, const OccOptions *o, char **out, int *n, char *err,
                         size_t err_len)
{
    char *save = NULL;
    char *word = strtok_r(command, " ", &save); /* the program */
    while ((word = strtok_r(NULL, " ", &save)) != NULL) {
        const char *value;
        if (word[0] != '-') continue;
        const OccOptSpec *s = named(word, &value);
        if (s == NULL)
            return occ_msg_usage(err, err_len, "--resume %s: its command line has '%s', which "
                                 "this build does not know; give the run's options with "
                                 "--resume-mismatch", OCC_QUOTE(o->resume_path), OCC_QUOTE(word));
        char *arg = s->kind != OCC_OPT_FLAG && value == NULL ? strtok_r(NULL, " ", &save) : NULL;
        if (s->field == offsetof(OccOptions, plugin_path) && o->plugin_path == NULL)
            return occ_msg_usage(err, err_len, "--resume %s: its run loaded --plugin %s; give "
                                 "--plugin too", OCC_QUOTE(o->resume_path),
                                 OCC_QUOTE(arg ? arg : value ? value : ""));
        if (!s->resumed) continue;
        out[(*n)++] = word;
        if (arg) out[(*n)++] = arg;
    }
    return 0;
}

int occ_options_resume(int argc, char **argv, const char *command, OccOptions *o, char **storage,
                       char *err, size_t err_len)
{
    *storage = NULL;
    if (command == NULL)
        return o->resume_mismatch
                   ? OCC_EXIT_OK
                   : occ_msg_usage(err, err_len, "--resume %s: the file records no command line "
                                   "(# command=); give the run's options with --resume-mismatch",
                                   OCC_QUOTE(o->resume_path));
    const size_t len = strlen(command);
    char *copy = malloc(len + 1);
    char **words = malloc((len / 2 + 2 + (size_t)argc) * sizeof *words);
    if (!copy || !words) {
        free(copy);
        free(words);
        return occ_msg_usage(err, err_len, "--resume: out of memory for its command line");
    }
    memcpy(copy, command, len + 1);
    OccOptions file, merged;
    int n = 1, rc = OCC_EXIT_USAGE;
    words[0] = argv[0];
    if (resumed_words(copy, o, words, &n, err, err_len) == 0 &&
        occ_options_parse(n, words, &file, err, err_len) == OCC_EXIT_OK) {
        for (int i = 1; i < argc; i++) words[n++] = argv[i];
        rc = occ_options_parse(n, words, &merged, err, err_len);
        for (int i = 0; rc == OCC_EXIT_OK && !o->resume_mismatch && i < occ_option_count(); i++) {
            const OccOptSpec *s = occ_option_at(i);
            char given[160], had[160];
            if (!s->resumed || same_value(&file, &merged, s)) continue;
            rc = occ_msg_usage(err, err_len, "--resume %s: --%s %s differs from the run of the "
                               "file (--%s %s); leave --%s out to resume that run, or add "
                               "--resume-mismatch", OCC_QUOTE(o->resume_path), s->name,
                               value_text(&merged, s, given, sizeof given), s->name,
                               value_text(&file, s, had, sizeof had), s->name);
        }
    }
    free(words);
    if (rc == OCC_EXIT_OK) {
        *o = merged;
        *storage = copy; /* merged's kernel and mode point into it */
        return OCC_EXIT_OK;
    }
    free(copy);
    /* With --resume-mismatch, a file command that cannot be read or combined: the options given
     * alone. */
    return o->resume_mismatch ? OCC_EXIT_OK : OCC_EXIT_USAGE;
}
