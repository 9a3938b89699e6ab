/* SPDX-License-Identifier: Apache-2.0 */
/* tests/unit/test_plugin.c: the pure side of plugins: families and variants registered at run time
 * in the catalog (and what it refuses), the plan of a variant with its own dynamic shared memory,
 * cuobjdump's resource report parsed (a value that is no number refused), a function named from
 * an ELF symbol table (this test's own), and the child process a trial load and cuobjdump run in
 * (occ_child_run: output, exit, crash, time limit, output bound, a grandchild holding the pipe). */
#define _GNU_SOURCE /* dladdr */
#include <dlfcn.h>
#include <signal.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include "catalog.h"
#include "check.h"
#include "child.h"
#include "plan.h"
#include "plugin_res.h"
#include "walltime.h"

static const char report[] =
    "\nFatbin elf code:\n================\narch = sm_80\ncode version = [1,8]\n\n"
    "Resource usage:\n Common:\n  GLOBAL:0\n Function _Z6kernelILi4EEvPf:\n"
    "  REG:40 STACK:0 SHARED:0 LOCAL:0 CONSTANT[0]:360 TEXTURE:0 SURFACE:0 SAMPLER:0\n"
    "\nFatbin elf code:\n================\narch = sm_90\ncode version = [1,8]\n\n"
    "Resource usage:\n Common:\n  GLOBAL:0\n Function _Z6kernelILi4EEvPf_long:\n"
    "  REG:99 STACK:0 SHARED:0 LOCAL:0\n Function _Z6kernelILi4EEvPf:\n"
    "  REG:32 STACK:16 SHARED:1032 LOCAL:0 CONSTANT[0]:360 TEXTURE:0\n";

static void test_report(void)
{
    OccKernelResources r;
    const char *bad = NULL;
    CHECK_INT_EQ(occ_plugin_res_parse(report, "_Z6kernelILi4EEvPf", "sm_90", &r, &bad), 0);
    CHECK_INT_EQ(r.regs_per_thread, 32); /* not the sm_80 section, not the longer name */
    CHECK_INT_EQ(r.stack_bytes_per_thread, 16);
    CHECK_INT_EQ(r.static_smem_bytes, 1032);
    CHECK_INT_EQ(occ_plugin_res_parse(report, "_Z6kernelILi4EEvPf", "sm_80", &r, &bad), 0);
    CHECK_INT_EQ(r.regs_per_thread, 40);
    CHECK_INT_EQ(occ_plugin_res_parse(report, "_Z6kernelILi4EEvPf", "sm_100", &r, &bad), -1);
    CHECK_INT_EQ(occ_plugin_res_parse(report, "_Z6kernelILi8EEvPf", "sm_90", &r, &bad), -1);
    CHECK_INT_EQ(occ_plugin_res_has_arch(report, "sm_90"), 1);
    CHECK_INT_EQ(occ_plugin_res_has_arch(report, "sm_9"), 0);
}

/* A resource line whose value is no whole number (REG:abc read as 0 registers): -2, bad at it. */
static void test_report_malformed(void)
{
    static const char *const lines[][2] = {
        {"  REG:abc STACK:0 SHARED:0 LOCAL:0", "REG:abc"},
        {"  REG:-1 STACK:0 SHARED:0", "REG:-1"},
        {"  REG:16x STACK:0 SHARED:0", "REG:16x"},
        {"  REG:16 STACK: SHARED:0", "STACK:"},
        {"  REG:16 STACK:0 SHARED:99999999999", "SHARED:99999999999"},
    };
    for (size_t i = 0; i < sizeof lines / sizeof lines[0]; i++) {
        char text[256];
        snprintf(text, sizeof text, "arch = sm_90\n Function k:\n%s\n", lines[i][0]);
        OccKernelResources r = {.regs_per_thread = 7};
        const char *bad = NULL;
        CHECK_INT_EQ(occ_plugin_res_parse(text, "k", "sm_90", &r, &bad), -2);
        CHECK(bad && strncmp(bad, lines[i][1], strlen(lines[i][1])) == 0);
        CHECK_INT_EQ(r.regs_per_thread, 7); /* untouched */
    }
    OccKernelResources r;
    const char *bad = NULL;
    CHECK_INT_EQ(occ_plugin_res_parse("arch = sm_90\n Function k:\n  REG:255 STACK:8 SHARED:0",
                                      "k", "sm_90", &r, &bad), 0);
    CHECK_INT_EQ(r.regs_per_thread, 255);
    CHECK_INT_EQ(r.stack_bytes_per_thread, 8);
}

/* The children of test_child, by the number arg points to. */
static int child_fn(void *arg, int fd)
{
    const int what = *(const int *)arg;
    if (what == 0) return write(fd, "hello", 5) == 5 ? 3 : 1; /* output and an exit status */
    if (what == 1) raise(SIGSEGV);                             /* a crash */
    if (what == 2) for (;;) pause();                           /* a hang */
    if (what == 3) {                                           /* more than the bound */
        char buf[100];
        memset(buf, 'x', sizeof buf);
        return write(fd, buf, sizeof buf) == (ssize_t)sizeof buf ? 0 : 1;
    }
    /* 4: a grandchild that keeps the pipe open and sleeps; its pid is the child's output. */
    const pid_t g = fork();
    if (g == 0) {
        sleep(30);
        _exit(0);
    }
    char pid_text[32];
    const int n = snprintf(pid_text, sizeof pid_text, "%d", (int)g);
    return write(fd, pid_text, (size_t)n) == n ? 0 : 1;
}

static void test_child(void)
{
    OccChildResult r;
    int what = 0;
    CHECK_INT_EQ(occ_child_run(child_fn, &what, 10, 64, &r), 0);
    CHECK_STR_EQ(r.output, "hello");
    CHECK(WIFEXITED(r.status) && WEXITSTATUS(r.status) == 3 && !r.timed_out && !r.overflowed);
    free(r.output);
    what = 1; /* the caller's SIGSEGV handler (a sanitizer's) is not the child's */
    CHECK_INT_EQ(occ_child_run(child_fn, &what, 10, 64, &r), 0);
    CHECK(WIFSIGNALED(r.status) && WTERMSIG(r.status) == SIGSEGV);
    free(r.output);
    what = 2;
    double start_s = occ_walltime_s();
    CHECK_INT_EQ(occ_child_run(child_fn, &what, 0.3, 64, &r), 0);
    CHECK(r.timed_out && WIFSIGNALED(r.status) && WTERMSIG(r.status) == SIGKILL);
    CHECK(occ_walltime_s() - start_s < 5);
    free(r.output);
    what = 3;
    CHECK_INT_EQ(occ_child_run(child_fn, &what, 10, 10, &r), 0);
    CHECK(r.overflowed && r.output_bytes == 10 && strlen(r.output) == 10);
    free(r.output);
    what = 4; /* done when the child has ended, not when its grandchild lets the pipe go */
    start_s = occ_walltime_s();
    CHECK_INT_EQ(occ_child_run(child_fn, &what, 20, 64, &r), 0);
    CHECK(!r.timed_out && WIFEXITED(r.status) && WEXITSTATUS(r.status) == 0);
    CHECK(occ_walltime_s() - start_s < 10);
    const int grandchild = atoi(r.output);
    CHECK(grandchild > 0 && kill(grandchild, SIGKILL) == 0);
    free(r.output);
}

/* A function of this executable, found again by its offset in the symbol table. */
int occ_test_plugin_marker(void) { return 42; }

static void test_symbol(const char *self)
{
    Dl_info info;
    char name[128] = "";
    int (*fn)(void) = occ_test_plugin_marker;
    void *addr;
    memcpy(&addr, &fn, sizeof addr);
    CHECK(dladdr(addr, &info) != 0);
    const unsigned long long off = (unsigned long long)((char *)addr - (char *)info.dli_fbase);
    CHECK_INT_EQ(occ_plugin_res_symbol(self, off, name, sizeof name), 0);
    CHECK(strcmp(name, "occ_test_plugin_marker") == 0);
    CHECK_INT_EQ(occ_plugin_res_symbol(self, off + 1, name, sizeof name), -1);
    CHECK_INT_EQ(occ_plugin_res_symbol("/nonexistent/lib.so", off, name, sizeof name), -1);
}

static const OccFamilyInfo family = {.id = "mine", .kernel = "mine", .mode = "persistent",
                                     .default_mode = 1, .shape = OCC_SHAPE_OCCUPANCY,
                                     .options = "unroll,occ,block,carveout,size",
                                     .dram_bytes_per_load_byte = NAN, .size_l2_multiple = 8,
                                     .plugin_path = "./libmine.so"};

static void test_catalog(void)
{
    char err[256];
    const int n0 = occ_variant_count(), f0 = occ_family_count();
    OccVariantInfo v[2] = {{.name = "mine_a", .unroll = 2, .vec_bytes = 4},
                           {.name = "mine_b", .unroll = 8, .vec_bytes = 4,
                            .own_dyn_smem_bytes = 17424}};
    OccFamilyInfo bad = family;
    bad.kernel = "copy";
    CHECK_INT_EQ(occ_catalog_add_family(&bad, v, 2, err, sizeof err), -1);
    CHECK(strstr(err, "'copy' is already in the catalog") != NULL);
    bad.kernel = "my kernel";
    CHECK_INT_EQ(occ_catalog_add_family(&bad, v, 2, err, sizeof err), -1);
    OccVariantInfo twice[2] = {v[0], v[0]};
    CHECK_INT_EQ(occ_catalog_add_family(&family, twice, 2, err, sizeof err), -1);
    CHECK(strstr(err, "'mine_a' is already in the catalog") != NULL);
    OccVariantInfo clash = {.name = "copy_u4_v16"};
    CHECK_INT_EQ(occ_catalog_add_family(&family, &clash, 1, err, sizeof err), -1);
    CHECK_INT_EQ(occ_family_count(), f0); /* refused: nothing registered */
    const int f = occ_catalog_add_family(&family, v, 2, err, sizeof err);
    CHECK_INT_EQ(f, f0);
    CHECK_INT_EQ(occ_family_count(), f0 + 1);
    CHECK_INT_EQ(occ_variant_count(), n0 + 2);
    CHECK_INT_EQ(occ_family_find("mine", NULL), f);
    CHECK_INT_EQ(occ_variant_find("mine_b"), n0 + 1);
    CHECK_INT_EQ(occ_variant_at(n0 + 1)->family, f);
    CHECK_INT_EQ(occ_variant_at(n0 + 1)->natural, n0 + 1);
    CHECK_INT_EQ(occ_variant_at(n0 + 1)->n_capped, 0);
    CHECK(strcmp(occ_variant_at(n0)->kernel, "mine") == 0);
    int u[8];
    CHECK_INT_EQ(occ_family_axis_values(f, 'u', u, 8), 2);
    CHECK(u[0] == 2 && u[1] == 8);
    CHECK_INT_EQ(occ_family_has_capped(f), 0);
    CHECK_INT_EQ(occ_catalog_add_family(&family, v, 2, err, sizeof err), -1); /* twice */
}

/* The plan pads on top of a variant's own dynamic shared memory: mine_b (17424 B of its own)
 * gets 17424 B less padding than mine_a at a level, and tops out at 12 blocks of 128 threads
 * per SM on sm_90 (228 KiB / (17424 + 1 KiB reserved)). */
static void test_plan(void)
{
    static OccVariantResources res[256];
    static OccOptions opt;
    char err[256];
    const OccArchLimits *arch = occ_arch_find("sm_90");
    const int a = occ_variant_find("mine_a"), b = occ_variant_find("mine_b");
    occ_options_defaults(&opt);
    opt.families = 1u << occ_family_find("mine", NULL);
    opt.n_unroll = occ_family_axis_values(occ_family_find("mine", NULL), 'u', opt.unroll, 8);
    opt.carveout = OCC_CARVEOUT_MAX;
    for (int i = 0; i < occ_variant_count(); i++)
        res[i] = (OccVariantResources){.regs_per_thread = 16};
    OccLevel levels[2] = {
        {.block_threads = 128, .asked_pct = 25, .blocks_per_sm = 4, .level_pct = 25},
        {.block_threads = 128, .asked_pct = 100, .blocks_per_sm = 16, .level_pct = 100}};
    OccPlan plan = {0};
    CHECK_INT_EQ(occ_plan_build(arch, 0, &opt, res, levels, 2, &plan, err, sizeof err), 4);
    int pad[2][2] = {{-1, -1}, {-1, -1}}, reachable[2][2] = {{0}};
    for (int i = 0; i < plan.n; i++) {
        const int which = plan.points[i].variant_index == b, l = plan.points[i].level.blocks_per_sm == 16;
        CHECK(plan.points[i].variant_index == a || plan.points[i].variant_index == b);
        pad[which][l] = plan.points[i].pad_bytes;
        reachable[which][l] = plan.points[i].reachable;
    }
    CHECK(reachable[0][0] && reachable[1][0] && reachable[0][1]);
    CHECK_INT_EQ(pad[0][0] - pad[1][0], 17424);
    CHECK_INT_EQ(reachable[1][1], 0);
    CHECK(strstr(plan.points[3].skip_reason, "12 blocks/SM") != NULL);
    occ_plan_free(&plan);
}

int main(int argc, char **argv)
{
    (void)argc;
    test_report();
    test_report_malformed();
    test_symbol(argv[0]);
    test_catalog();
    test_plan();
    test_child();
    return check_done();
}
