/* SPDX-License-Identifier: Apache-2.0 */
/* tests/unit/test_family_table.c PYTHON SASS_AUDIT_PY ARCH...: every family of the registry
 * (kernels/families.def: the mode entries of each descriptor kernels/families/<name>.h) is
 * complete.
 *
 * - its fields: names, one default mode per kernel, shape, model inputs, bound note, the
 *   estimator's launch time;
 * - its options: each one named in .options is a scoped option of harness/cli/options_table.c,
 *   every scoped option is taken by some family, a list option (unroll, vec, fmas) is taken
 *   exactly by the families whose variants hold more than one value of its axis, "size" exactly
 *   by the families with a default size (size_l2_multiple), a sweep takes "occ" and "block";
 * - its ops (harness/families/family_ops.c): present, with the functions its shape calls, and a
 *   kernel for each of its variants;
 * - each of its variants (the descriptor's catalog list): its slot (its position in its
 *   descriptor's list) picks a kernel no other variant has, a capped twin's natural variant is its
 *   name without the cap, a chain-model work has a peak to be judged against; a resource row of
 *   the build (kernel_resources.c, kernels/gen_resources.sh) for every compiled arch ARCH
 *   (gpu_archs, e.g. 90), and a SASS promise (the descriptor's, read by promise() of
 *   tests/build/test_sass_audit.py, run by PYTHON) whose count is the variant's unroll.
 *
 * Links the GPU library for the ops and the resource table but makes no CUDA call: it runs on
 * machines without a GPU. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "catalog.h"
#include "check.h"
#include "family.h"
#include "kernel_resources.h"
#include "loaded_model.h"
#include "options_table.h"

/* One check: counted, and when !ok printed as "FAILED: family <family>: <what>". Returns ok. */
static int need(int ok, const char *family, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int need(int ok, const char *family, const char *fmt, ...)
{
    check_count_++;
    if (ok) return 1;
    check_failed_++;
    va_list ap;
    va_start(ap, fmt);
    fprintf(stderr, "FAILED: family %s: ", family);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    return 0;
}

static int count_variants(int f)
{
    int n = 0;
    for (int i = 0; i < occ_variant_count(); i++) n += occ_variant_at(i)->family == f;
    return n;
}

/* 1 when `name` (name[0..len)) is a scoped option of the option table. */
static int scoped_option(const char *name, size_t len)
{
    for (int i = 0; i < occ_option_count(); i++) {
        const OccOptSpec *s = occ_option_at(i);
        if (s->scoped && strlen(s->name) == len && memcmp(s->name, name, len) == 0) return 1;
    }
    return 0;
}

static void check_fields(int f, const OccFamilyInfo *fi)
{
    const char *id = fi->id;
    if (!need(fi->kernel && *fi->kernel && fi->mode && *fi->mode && fi->options, id,
              "no .kernel, .mode or .options"))
        return;
    need(occ_family_find(fi->kernel, fi->mode) == f, id, "(kernel, mode) is not unique");
    int defaults = 0, same_id = 0;
    for (int g = 0; g < occ_family_count(); g++) {
        const OccFamilyInfo *o = occ_family_at(g);
        defaults += strcmp(o->kernel, fi->kernel) == 0 && o->default_mode;
        same_id += g != f && o->id && strcmp(o->id, id) == 0;
    }
    need(same_id == 0, id, "id is not unique");
    need(defaults == 1, id, "kernel %s has %d default modes (.default_mode), want 1", fi->kernel,
         defaults);
    need(fi->shape == OCC_SHAPE_OCCUPANCY || fi->shape == OCC_SHAPE_FOOTPRINT ||
             fi->shape == OCC_SHAPE_LEVELS,
         id, "no valid .shape");
    const int model = !isnan(fi->dram_bytes_per_load_byte);
    need(!model || fi->dram_bytes_per_load_byte > 0, id,
         ".dram_bytes_per_load_byte is neither NAN (no model) nor positive");
    need(model == (fi->requests != OCC_REQUESTS_NONE), id,
         ".requests is set exactly where .dram_bytes_per_load_byte is (the model)");
    need(fi->curve_traffic >= 0 && fi->curve_traffic < OCC_CURVE_TRAFFICS, id,
         ".curve_traffic is no OccCurveTraffic");
    need(fi->size_l2_multiple >= 0 && fi->size_floor_gib >= 0, id, "a negative default size");
    need(fi->size_floor_gib == 0 || fi->size_l2_multiple > 0, id,
         ".size_floor_gib without .size_l2_multiple");
    need(fi->launch_ms >= 0 && fi->launch_ms < 1000, id, ".launch_ms is not 0..1000 ms");
    const int variants = count_variants(f);
    need((fi->shape == OCC_SHAPE_OCCUPANCY) == (variants > 0), id,
         "%d variants in its descriptor (a sweep has some, an experiment none)", variants);
}

/* 1 when every variant of family f is written for one block size (OccVariantInfo.block_threads),
 * so that --block does not apply to it. */
static int fixed_block(int f)
{
    int any = 0;
    for (int i = 0; i < occ_variant_count(); i++) {
        const OccVariantInfo *v = occ_variant_at(i);
        if (v->family != f) continue;
        if (v->block_threads <= 0) return 0;
        any = 1;
    }
    return any;
}

static void check_options(int f, const OccFamilyInfo *fi)
{
    const char *id = fi->id;
    if (!fi->options) return;
    for (const char *p = fi->options; *p;) {
        const int n = (int)strcspn(p, ",");
        need(scoped_option(p, (size_t)n), id,
             ".options names '%.*s', which is no scoped option of the option table", n, p);
        int twice = 0;
        for (const char *q = fi->options; q < p; q += strcspn(q, ",") + 1)
            twice |= (int)strcspn(q, ",") == n && memcmp(q, p, (size_t)n) == 0;
        need(!twice, id, ".options names '%.*s' twice", n, p);
        p += n + (p[n] == ',');
    }
    need((fi->size_l2_multiple > 0) == occ_family_takes(fi, "size"), id,
         "takes \"size\" exactly when .size_l2_multiple gives a default size");
    need(fi->size_l2_multiple == 0 || occ_family_default_bytes(fi, 50 << 20, 0) > 0, id,
         "no default size");
    if (fi->shape == OCC_SHAPE_OCCUPANCY)
        need(occ_family_takes(fi, "occ") && occ_family_takes(fi, "block") != fixed_block(f), id,
             "a sweep (OCC_SHAPE_OCCUPANCY) takes \"occ\", and \"block\" unless every variant "
             "is written for one block size");
    else
        need(!occ_family_takes(fi, "occ"), id, "an experiment has no occupancy axis but takes "
             "\"occ\"");
    for (int i = 0; i < occ_option_count(); i++) {
        const OccOptSpec *s = occ_option_at(i);
        if (s->kind != OCC_OPT_LIST) continue;
        int vals[64];
        const int distinct = occ_family_axis_values(f, s->axis, vals, 64);
        const int takes = occ_family_takes(fi, s->name);
        need((distinct > 1) == takes, id, "its variants hold %d value(s) of axis '%c' but it %s "
             "\"%s\"", distinct, s->axis, takes ? "takes" : "does not take", s->name);
    }
}

static void check_ops(int f, const OccFamilyInfo *fi)
{
    const OccFamilyOps *o = occ_family_ops(f);
    if (!need(o != NULL, fi->id, "no OccFamilyOps (harness/families/family_ops.c)")) return;
    need(o->setup && o->teardown, fi->id, "ops without setup or teardown");
    const int sweep = fi->shape == OCC_SHAPE_OCCUPANCY;
    if (sweep)
        need(o->kernel && o->bind && o->launch && o->verify && !o->measure, fi->id,
             "a sweep's ops have kernel, bind, launch and verify, and no measure");
    else
        need(o->measure && !o->kernel && !o->bind && !o->launch, fi->id,
             "an experiment's ops have measure, and no kernel, bind or launch");
    for (int i = 0; sweep && o->kernel && i < occ_variant_count(); i++) {
        const OccVariantInfo *v = occ_variant_at(i);
        if (v->family == f) need(o->kernel(v) != NULL, fi->id, "variant %s: no kernel", v->name);
    }
}

/* The id of a variant's family, or "(no family)" for a variant whose (kernel, mode) names no entry
 * of the table (check_variants reports it). */
static const char *family_id(const OccVariantInfo *v)
{
    const OccFamilyInfo *f = occ_family_at(v->family);
    return f ? f->id : "(no family)";
}

/* Every variant belongs to an entry of the registry; its slot picks its own kernel (two variants
 * with one kernel: the host file's table and the descriptor's list disagree); its natural twin is
 * its name without the _r<cap> suffix; a chain-model work has a peak. */
static void check_variants(void)
{
    for (int i = 0; i < occ_variant_count(); i++) {
        const OccVariantInfo *v = occ_variant_at(i);
        if (!need(v->family >= 0 && v->family < occ_family_count(), "(table)",
                  "variant %s: family %d is no entry of the registry", v->name, v->family))
            continue;
        const char *id = family_id(v);
        const OccVariantInfo *nat = occ_variant_at(v->natural);
        char want[96];
        snprintf(want, sizeof want, "%s_r%d", nat ? nat->name : "?", v->reg_cap);
        need(nat && (v->reg_cap ? strcmp(want, v->name) == 0 : v->natural == i), id,
             "variant %s: natural twin %s (a capped twin follows its natural variant)", v->name,
             nat ? nat->name : "(none)");
        need(v->work_per_op == 0 || (v->work_per_op > 0 && v->peak != OCC_RATE_NONE), id,
             "variant %s: chain-model work %g without a peak", v->name, v->work_per_op);
        const OccFamilyOps *o = occ_family_ops(v->family);
        const void *k = o && o->kernel ? o->kernel(v) : NULL;
        for (int j = 0; k && j < i; j++) {
            const OccVariantInfo *w = occ_variant_at(j);
            const OccFamilyOps *p = occ_family_ops(w->family);
            need(!(p && p->kernel && p->kernel(w) == k), id,
                 "variant %s (slot %d) has the kernel of %s: its host table is not in its "
                 "descriptor's order", v->name, v->slot, w->name);
        }
    }
}

static const OccKernelResources *resource_row(const char *variant, const char *arch)
{
    for (int k = 0; k < occ_kernel_resources_count; k++) {
        const OccKernelResources *t = &occ_kernel_resources[k];
        if (strcmp(t->variant, variant) == 0 && strcmp(t->arch, arch) == 0) return t;
    }
    return NULL;
}

static void check_resources(char **archs, int n_archs)
{
    char arch[32];
    for (int i = 0; i < occ_variant_count(); i++) {
        const OccVariantInfo *v = occ_variant_at(i);
        for (int a = 0; a < n_archs; a++) {
            snprintf(arch, sizeof arch, "sm_%s", archs[a]);
            const OccKernelResources *t = resource_row(v->name, arch);
            need(t && t->regs_per_thread > 0, family_id(v),
                 "variant %s: %s for %s in the build's kernel_resources (gen_resources.sh)",
                 v->name, t ? "0 registers" : "no resource row", arch);
        }
    }
}

/* Runs PYTHON on the promise() of SASS_AUDIT_PY for every catalog variant: one line each,
 * "<name> <count> <axis>", or "<name> none" for a name without a promise. */
static const char promise_script[] =
    "import os, sys\n"
    "sys.path.insert(0, os.path.dirname(os.path.abspath(sys.argv[1])))\n"
    "import test_sass_audit as t\n"
    "for n in sys.argv[2:]:\n"
    "    p = t.promise(n)\n"
    "    print(n, 'none' if p is None else '%d %s' % p[:2])\n";

static void check_promises(const char *python, const char *audit)
{
    const int n = occ_variant_count();
    char **argv = calloc((size_t)n + 5, sizeof *argv);
    int fd[2];
    if (!need(argv && pipe(fd) == 0, "(all)", "cannot start %s", python)) {
        free(argv);
        return;
    }
    argv[0] = (char *)python;
    argv[1] = "-c";
    argv[2] = (char *)promise_script;
    argv[3] = (char *)audit;
    for (int i = 0; i < n; i++) argv[4 + i] = (char *)occ_variant_at(i)->name;
    fflush(NULL);
    const pid_t pid = fork();
    if (pid == 0) {
        dup2(fd[1], 1);
        close(fd[0]);
        execv(python, argv);
        _exit(127);
    }
    close(fd[1]);
    FILE *in = fdopen(fd[0], "r");
    char line[256], name[128], axis[8];
    int seen = 0, count;
    while (in && fgets(line, sizeof line, in)) {
        const int got = sscanf(line, "%127s %d %7s", name, &count, axis);
        const int v = occ_variant_find(name);
        if (v < 0) continue;
        seen++;
        const OccVariantInfo *vi = occ_variant_at(v);
        const char *id = family_id(vi);
        if (need(got == 3, id, "variant %s: no SASS promise in %s", name, audit))
            need((strcmp(axis, "U") != 0 && strcmp(axis, "K") != 0) || count == vi->unroll, id,
                 "variant %s: its SASS promise is %s=%d, its unroll %d", name, axis, count,
                 vi->unroll);
    }
    if (in) fclose(in);
    int status = 0;
    waitpid(pid, &status, 0);
    need(WIFEXITED(status) && WEXITSTATUS(status) == 0 && seen == n, "(all)",
         "%s on %s: exit status %d, %d of %d variants answered", python, audit,
         WIFEXITED(status) ? WEXITSTATUS(status) : -1, seen, n);
    free(argv);
}

int main(int argc, char **argv)
{
    if (argc < 4) {
        fprintf(stderr, "usage: test_family_table PYTHON SASS_AUDIT_PY ARCH...\n");
        return 2;
    }
    const int families = occ_family_count();
    CHECK(families > 0);
    CHECK(occ_family_ops(families) == NULL);
    for (int f = 0; f < families; f++) {
        const OccFamilyInfo *fi = occ_family_at(f);
        if (!need(fi->id && *fi->id && !fi->plugin_path, "(table)", "entry %d has no id", f))
            continue;
        check_fields(f, fi);
        check_options(f, fi);
        check_ops(f, fi);
    }
    for (int i = 0; i < occ_option_count(); i++) {
        const OccOptSpec *s = occ_option_at(i);
        int takers = 0;
        for (int f = 0; f < families; f++) takers += occ_family_takes(occ_family_at(f), s->name);
        if (s->scoped)
            need(takers > 0, "(none)", "scoped option --%s is in no family's .options", s->name);
    }
    check_variants();
    check_resources(argv + 3, argc - 3);
    check_promises(argv[1], argv[2]);
    printf("%d families, %d variants, %d arch(es)\n", families, occ_variant_count(), argc - 3);
    return check_done();
}
