/* SPDX-License-Identifier: Apache-2.0 */
/* tests/unit/test_options.c: occ_options_parse and its helpers, accepted forms, every bad class. */
#define _POSIX_C_SOURCE 200809L /* dup, dup2, fileno: to catch getopt printing */

#include "catalog.h"
#include "check.h"
#include "exitcodes.h"
#include "options.h"

#include <limits.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static OccOptions opt;
static char err[512];
static char *last_argv[64];

/* Parses "run_sweep" followed by the NULL-terminated args; argv stays in last_argv. */
static int parse_v(const char *const *args)
{
    int argc = 0;
    while (args[argc] != NULL) {
        last_argv[argc] = (char *)args[argc];
        argc++;
    }
    last_argv[argc] = NULL;
    return occ_options_parse(argc, last_argv, &opt, err, sizeof err);
}

#define PARSE(...) parse_v((const char *const[]){"run_sweep", __VA_ARGS__, NULL})

/* A usage error whose one-line message holds both needles (the bad value and a hint). */
#define BAD(needle1, needle2, ...)                                                                 \
    do {                                                                                           \
        CHECK_INT_EQ(PARSE(__VA_ARGS__), OCC_EXIT_USAGE);                                          \
        CHECK_CONTAINS(err, needle1);                                                              \
        CHECK_CONTAINS(err, needle2);                                                              \
        CHECK(strchr(err, '\n') == NULL);                                                          \
        CHECK(strncmp(err, "run_sweep", 9) != 0);                                                  \
    } while (0)

/* The family bit of kernel k in mode m (NULL: its default mode). */
static unsigned fam(const char *k, const char *m)
{
    int f = occ_family_find(k, m);
    CHECK(f >= 0);
    return f >= 0 ? 1u << f : 0;
}

#define CHECK_INTS(got, n_got, ...)                                                                \
    do {                                                                                           \
        const int want_[] = {__VA_ARGS__};                                                         \
        int nw_ = (int)(sizeof want_ / sizeof want_[0]);                                           \
        CHECK_INT_EQ(n_got, nw_);                                                                  \
        for (int i_ = 0; i_ < nw_ && i_ < (n_got); i_++)                                           \
            CHECK_INT_EQ((got)[i_], want_[i_]);                                                    \
    } while (0)

static void test_defaults(void)
{
    const char *only_prog[] = {"run_sweep", NULL};
    memset(&opt, 0x5a, sizeof opt);
    occ_options_defaults(&opt);
    CHECK_INT_EQ(opt.families, fam("copy", NULL) | fam("reduce", NULL) | fam("chase", NULL) |
                                   fam("fma", NULL) | fam("mixed", NULL) |
                                   fam("smem", NULL) | fam("mma", NULL) | fam("async", NULL) |
                                   fam("wgmma", NULL));
    CHECK_INT_EQ(opt.families, fam("copy", "stream") | fam("reduce", "stream") |
                                   fam("chase", "warp") | fam("fma", "chain") |
                                   fam("mixed", "stream") | fam("smem", "chase") |
                                   fam("mma", "f16") | fam("async", "bulk") | fam("wgmma", "f16"));
    CHECK(opt.kernel_arg == NULL && opt.mode_arg == NULL);
    CHECK_INTS(opt.unroll, opt.n_unroll, 1, 2, 4, 8);
    CHECK_INTS(opt.vec_bytes, opt.n_vec, 4, 8, 16, 128, 256, 512, 1024); /* async bulk: C / 32 */
    CHECK_INT_EQ(opt.occ.is_list, 0);
    CHECK_INT_EQ(opt.occ.n_pct, 0);
    CHECK_NEAR(opt.occ.lo_pct, 6.25, 0);
    CHECK_NEAR(opt.occ.hi_pct, 100, 0);
    CHECK_NEAR(opt.occ.step_pct, 0, 0);
    CHECK_INTS(opt.block_threads, opt.n_block_threads, 128);
    CHECK_INT_EQ(opt.lever, OCC_LEVER_AUTO);
    CHECK_INT_EQ(opt.size_bytes, 0);
    CHECK_NEAR(opt.max_noise_pct, 0.5, 0);
    CHECK_NEAR(opt.max_time_s, 0.5, 0);
    CHECK_INT_EQ(opt.min_samples, 10);
    CHECK(opt.out_path == NULL);
    CHECK(opt.arch == NULL);
    CHECK_INT_EQ(opt.plot + opt.force + opt.dry_run + opt.list + opt.quiet, 0);
    CHECK_INT_EQ(opt.help + opt.version + opt.device, 0);
    CHECK_INT_EQ(opt.footprint_lo_bytes, 4096);
    CHECK_INT_EQ(opt.footprint_hi_bytes, 4LL << 30);
    CHECK_INT_EQ(opt.stride_bytes, 128);
    CHECK_INT_EQ(opt.chain, OCC_CHAIN_ADDRESS);
    CHECK_INT_EQ(opt.index_bytes, 4);
    CHECK_INT_EQ(opt.waves, 1);
    CHECK_INT_EQ(opt.cold, 0);
    CHECK(opt.resume_path == NULL);

    memset(&opt, 0x5a, sizeof opt);
    strcpy(err, "stale");
    CHECK_INT_EQ(parse_v(only_prog), OCC_EXIT_OK);
    CHECK_STR_EQ(err, "");
    CHECK_INTS(opt.block_threads, opt.n_block_threads, 128);
    CHECK_INTS(opt.unroll, opt.n_unroll, 1, 2, 4, 8);
}

static void test_mission_command(void)
{
    CHECK_INT_EQ(PARSE("--kernel", "reduce", "--unroll", "1,2,4", "--occ", "25..100"), OCC_EXIT_OK);
    CHECK_INT_EQ(opt.families, fam("reduce", NULL));
    CHECK_STR_EQ(opt.kernel_arg, "reduce");
    CHECK_STR_EQ(last_argv[2], "reduce");
    CHECK(opt.kernel_arg == last_argv[2]); /* points into argv */
    CHECK(opt.mode_arg == NULL);
    CHECK_INTS(opt.unroll, opt.n_unroll, 1, 2, 4);
    CHECK_INTS(opt.vec_bytes, opt.n_vec, 4, 8, 16);
    CHECK_INT_EQ(opt.occ.is_list, 0);
    CHECK_NEAR(opt.occ.lo_pct, 25, 0);
    CHECK_NEAR(opt.occ.hi_pct, 100, 0);
    CHECK_NEAR(opt.occ.step_pct, 0, 0);
    CHECK_INTS(opt.block_threads, opt.n_block_threads, 128);
}

static void test_lists_and_kernels(void)
{
    CHECK_INT_EQ(PARSE("--kernel", "copy,reduce"), OCC_EXIT_OK);
    CHECK_INT_EQ(opt.families, fam("copy", NULL) | fam("reduce", NULL));
    CHECK_INT_EQ(PARSE("--kernel", "chase"), OCC_EXIT_OK);
    CHECK_INT_EQ(opt.families, fam("chase", "warp"));
    CHECK_INT_EQ(opt.n_vec, 0); /* no chase family takes --vec */
    CHECK_INTS(opt.unroll, opt.n_unroll, 1, 2, 4, 8);
    CHECK_INT_EQ(PARSE("--kernel=all"), OCC_EXIT_OK);
    CHECK_INT_EQ(opt.families, fam("copy", NULL) | fam("reduce", NULL) | fam("chase", NULL) |
                                   fam("fma", NULL) | fam("mixed", NULL) |
                                   fam("smem", NULL) | fam("mma", NULL) | fam("async", NULL) |
                                   fam("wgmma", NULL));
    CHECK_INT_EQ(PARSE("--kernel", "copy", "--kernel", "chase,copy"), OCC_EXIT_OK);
    CHECK_INT_EQ(opt.families, fam("chase", NULL) | fam("copy", NULL));
    CHECK_STR_EQ(opt.kernel_arg, "chase,copy"); /* last one wins */
    CHECK_INT_EQ(PARSE("--kernel", "chase", "--mode", "thread"), OCC_EXIT_OK);
    CHECK_INT_EQ(opt.families, fam("chase", "thread"));
    CHECK_STR_EQ(opt.mode_arg, "thread");
    CHECK_INT_EQ(PARSE("--mode", "latency", "--kernel", "chase"), OCC_EXIT_OK); /* any order */
    CHECK_INT_EQ(opt.families, fam("chase", "latency"));
    CHECK_INT_EQ(opt.n_unroll + opt.n_vec, 0); /* the ladder takes neither */
    CHECK_INT_EQ(PARSE("--kernel", "copy,reduce", "--mode", "stream"), OCC_EXIT_OK);
    CHECK_INT_EQ(opt.families, fam("copy", NULL) | fam("reduce", NULL));
    CHECK_INT_EQ(PARSE("--kernel", "copy,all"), OCC_EXIT_OK);
    CHECK_INT_EQ(opt.families, fam("copy", NULL) | fam("reduce", NULL) | fam("chase", NULL) |
                                   fam("fma", NULL) | fam("mixed", NULL) |
                                   fam("smem", NULL) | fam("mma", NULL) | fam("async", NULL) |
                                   fam("wgmma", NULL));

    CHECK_INT_EQ(PARSE("--unroll", "1..8"), OCC_EXIT_OK);
    CHECK_INTS(opt.unroll, opt.n_unroll, 1, 2, 4, 8);
    CHECK_INT_EQ(PARSE("--unroll", "2..8"), OCC_EXIT_OK);
    CHECK_INTS(opt.unroll, opt.n_unroll, 2, 4, 8);
    CHECK_INT_EQ(PARSE("--unroll=3..8"), OCC_EXIT_OK);
    CHECK_INTS(opt.unroll, opt.n_unroll, 4, 8);
    CHECK_INT_EQ(PARSE("--unroll", "8,2,8,2"), OCC_EXIT_OK); /* duplicates dropped silently */
    CHECK_INTS(opt.unroll, opt.n_unroll, 8, 2);
    CHECK_INT_EQ(PARSE("--unroll", "4"), OCC_EXIT_OK);
    CHECK_INTS(opt.unroll, opt.n_unroll, 4);
    CHECK_INT_EQ(PARSE("--vec", "4..16"), OCC_EXIT_OK);
    CHECK_INTS(opt.vec_bytes, opt.n_vec, 4, 8, 16);
    CHECK_INT_EQ(PARSE("--vec", "16,4"), OCC_EXIT_OK);
    CHECK_INTS(opt.vec_bytes, opt.n_vec, 16, 4);
    CHECK_INT_EQ(PARSE("--unr", "2"), OCC_EXIT_OK); /* getopt_long takes unique prefixes */
    CHECK_INTS(opt.unroll, opt.n_unroll, 2);

    /* The arithmetic families: fma's type is --vec (element bytes), mixed's axis is --fmas. */
    CHECK_INT_EQ(PARSE("--kernel", "fma"), OCC_EXIT_OK);
    CHECK_INT_EQ(opt.families, fam("fma", "chain"));
    CHECK_INTS(opt.vec_bytes, opt.n_vec, 4, 8);
    CHECK_INTS(opt.unroll, opt.n_unroll, 1, 2, 4, 8);
    CHECK_INT_EQ(opt.n_fma_per_element, 0);
    CHECK_INT_EQ(PARSE("--kernel", "mixed"), OCC_EXIT_OK);
    CHECK_INTS(opt.fma_per_element, opt.n_fma_per_element, 0, 1, 2, 4, 8, 12, 16, 24, 32, 48, 64,
               96, 128, 256);
    CHECK_INT_EQ(opt.n_unroll + opt.n_vec, 0);
    CHECK_INT_EQ(PARSE("--kernel", "mixed", "--fmas", "0,16..64"), OCC_EXIT_OK);
    CHECK_INTS(opt.fma_per_element, opt.n_fma_per_element, 0, 16, 32, 64);
    CHECK_INT_EQ(PARSE("--kernel", "fma,mixed", "--fmas", "256", "--vec", "8"), OCC_EXIT_OK);
    CHECK_INTS(opt.fma_per_element, opt.n_fma_per_element, 256);
    CHECK_INTS(opt.vec_bytes, opt.n_vec, 8);
}

static void test_occ_forms(void)
{
    CHECK_INT_EQ(PARSE("--occ", "25..100:12.5"), OCC_EXIT_OK);
    CHECK_INT_EQ(opt.occ.is_list, 0);
    CHECK_NEAR(opt.occ.lo_pct, 25, 0);
    CHECK_NEAR(opt.occ.hi_pct, 100, 0);
    CHECK_NEAR(opt.occ.step_pct, 12.5, 0);
    CHECK_INT_EQ(PARSE("--occ", "6.25..50"), OCC_EXIT_OK);
    CHECK_NEAR(opt.occ.lo_pct, 6.25, 0);
    CHECK_NEAR(opt.occ.hi_pct, 50, 0);
    CHECK_INT_EQ(PARSE("--occ", "50..50"), OCC_EXIT_OK);
    CHECK_NEAR(opt.occ.lo_pct, 50, 0);
    CHECK_INT_EQ(PARSE("--occ", "50,25,100,25"), OCC_EXIT_OK);
    CHECK_INT_EQ(opt.occ.is_list, 1);
    CHECK_INT_EQ(opt.occ.n_pct, 3);
    CHECK_NEAR(opt.occ.pct[0], 50, 0);
    CHECK_NEAR(opt.occ.pct[1], 25, 0);
    CHECK_NEAR(opt.occ.pct[2], 100, 0);
    CHECK_NEAR(opt.occ.lo_pct, 25, 0);
    CHECK_NEAR(opt.occ.hi_pct, 100, 0);
    CHECK_NEAR(opt.occ.step_pct, 0, 0);
    CHECK_INT_EQ(PARSE("--occ", "37.5"), OCC_EXIT_OK);
    CHECK_INT_EQ(opt.occ.is_list, 1);
    CHECK_INT_EQ(opt.occ.n_pct, 1);
    CHECK_NEAR(opt.occ.lo_pct, 37.5, 0);
    CHECK_NEAR(opt.occ.hi_pct, 37.5, 0);
    CHECK_INT_EQ(PARSE("--occ", "1e2"), OCC_EXIT_OK);
    CHECK_NEAR(opt.occ.pct[0], 100, 0);
}

static void test_scalars_and_flags(void)
{
    CHECK_INT_EQ(PARSE("--block", "32"), OCC_EXIT_OK);
    CHECK_INTS(opt.block_threads, opt.n_block_threads, 32);
    CHECK_INT_EQ(PARSE("--block", "256"), OCC_EXIT_OK);
    CHECK_INTS(opt.block_threads, opt.n_block_threads, 256);
    /* --block LIST: a sweep axis of block sizes, each a multiple of 32 up to 1024 (the CUDA
     * maximum of every arch); a range is its powers of two. */
    CHECK_INT_EQ(PARSE("--block", "128,256,512,1024"), OCC_EXIT_OK);
    CHECK_INTS(opt.block_threads, opt.n_block_threads, 128, 256, 512, 1024);
    CHECK_INT_EQ(PARSE("--block", "96..1024"), OCC_EXIT_OK);
    CHECK_INTS(opt.block_threads, opt.n_block_threads, 128, 256, 512, 1024);
    CHECK_INT_EQ(PARSE("--block", "1024,96,1024"), OCC_EXIT_OK);
    CHECK_INTS(opt.block_threads, opt.n_block_threads, 1024, 96);
    CHECK_INT_EQ(PARSE("--block", "128,200"), OCC_EXIT_USAGE);
    CHECK_STR_EQ(err, "--block: '200' is not a multiple of 32 (accepted: 32..1024, a multiple of "
                      "32; a list like 128,256 or a range of powers of two like 128..1024)");
    CHECK_INT_EQ(PARSE("--block", "256,2048"), OCC_EXIT_USAGE);
    CHECK_STR_EQ(err, "--block: '2048' is out of range (accepted: 32..1024, a multiple of 32; a "
                      "list like 128,256 or a range of powers of two like 128..1024)");
    CHECK_INT_EQ(PARSE("--block", "1056"), OCC_EXIT_USAGE);
    CHECK_CONTAINS(err, "'1056' is out of range");
    CHECK_INT_EQ(PARSE("--block", "0..16"), OCC_EXIT_USAGE);
    CHECK_CONTAINS(err, "is out of range");
    CHECK_INT_EQ(PARSE("--block", "128,,256"), OCC_EXIT_USAGE);
    CHECK_INT_EQ(PARSE("--lever", "pad"), OCC_EXIT_OK);
    CHECK_INT_EQ(opt.lever, OCC_LEVER_PAD);
    CHECK_INT_EQ(PARSE("--kernel", "copy", "--lever", "bounds"), OCC_EXIT_OK);
    CHECK_INT_EQ(opt.lever, OCC_LEVER_BOUNDS);
    CHECK_INT_EQ(PARSE("--lever", "both"), OCC_EXIT_OK);
    CHECK_INT_EQ(opt.lever, OCC_LEVER_BOTH);
    CHECK_INT_EQ(PARSE("--lever", "pad", "--lever", "auto"), OCC_EXIT_OK); /* last one wins */
    CHECK_INT_EQ(opt.lever, OCC_LEVER_AUTO);
    CHECK_INT_EQ(PARSE("--size", "512M"), OCC_EXIT_OK);
    CHECK_INT_EQ(opt.size_bytes, 536870912LL);
    CHECK_INT_EQ(PARSE("--size=4KiB"), OCC_EXIT_OK);
    CHECK_INT_EQ(opt.size_bytes, 4096);
    CHECK_INT_EQ(PARSE("--max-noise", "100", "--max-time", "2.5", "--min-samples", "100000"),
                 OCC_EXIT_OK);
    CHECK_NEAR(opt.max_noise_pct, 100, 0);
    CHECK_NEAR(opt.max_time_s, 2.5, 0);
    CHECK_INT_EQ(opt.min_samples, 100000);
    CHECK_INT_EQ(PARSE("--max-noise", "0.1", "--min-samples", "1", "--device", "3"), OCC_EXIT_OK);
    CHECK_NEAR(opt.max_noise_pct, 0.1, 0);
    CHECK_INT_EQ(opt.min_samples, 1);
    CHECK_INT_EQ(opt.device, 3);
    CHECK_INT_EQ(opt.n_devices, 1);
    CHECK_INT_EQ(opt.devices[0], 3);
    /* Device lists: in the order given, ranges expanded, repeats dropped; all; the default. */
    CHECK_INT_EQ(PARSE("--device", "2,0..1,2"), OCC_EXIT_OK);
    CHECK_INT_EQ(opt.n_devices, 3);
    CHECK_INT_EQ(opt.devices[0] * 100 + opt.devices[1] * 10 + opt.devices[2], 201);
    CHECK_INT_EQ(opt.device, 2);
    CHECK_INT_EQ(PARSE("--device", "all"), OCC_EXIT_OK);
    CHECK_INT_EQ(opt.n_devices, OCC_DEVICES_ALL);
    CHECK_INT_EQ(opt.device, 0);
    CHECK_INT_EQ(PARSE("--device", "0..15"), OCC_EXIT_OK);
    CHECK_INT_EQ(opt.n_devices, 16);
    CHECK_INT_EQ(PARSE("--quiet"), OCC_EXIT_OK);
    CHECK_INT_EQ(opt.n_devices * 10 + opt.devices[0], 10);
    CHECK_INT_EQ(PARSE("--out", "x.csv", "--force", "--plot", "--quiet", "--list"), OCC_EXIT_OK);
    CHECK_STR_EQ(opt.out_path, "x.csv");
    CHECK_INT_EQ(opt.force + opt.plot + opt.quiet + opt.list, 4);
    CHECK_INT_EQ(PARSE("--dry-run", "--arch", "sm_90"), OCC_EXIT_OK);
    CHECK_INT_EQ(opt.dry_run, 1);
    CHECK_STR_EQ(opt.arch, "sm_90");
    CHECK_INT_EQ(PARSE("--arch", "sm_100a", "--dry-run"), OCC_EXIT_OK); /* order is free */
    CHECK_STR_EQ(opt.arch, "sm_100a");
    CHECK_INT_EQ(PARSE("--footprint", "4K..1G", "--mode", "latency", "--kernel", "chase"),
                 OCC_EXIT_OK);
    CHECK_INT_EQ(opt.families, fam("chase", "latency"));
    CHECK_INT_EQ(opt.footprint_lo_bytes, 4096);
    CHECK_INT_EQ(opt.footprint_hi_bytes, 1LL << 30);
    CHECK_INT_EQ(PARSE("--kernel", "chase", "--mode", "latency", "--stride", "256", "--cold",
                       "--index-bytes", "8", "--chain", "index"),
                 OCC_EXIT_OK);
    CHECK_INT_EQ(opt.stride_bytes, 256);
    CHECK_INT_EQ(opt.cold, 1);
    CHECK_INT_EQ(opt.chain, OCC_CHAIN_INDEX);
    CHECK_INT_EQ(opt.index_bytes, 8);
    CHECK_INT_EQ(PARSE("--kernel", "chase", "--mode", "latency", "--chain", "index"), OCC_EXIT_OK);
    CHECK_INT_EQ(opt.chain, OCC_CHAIN_INDEX);
    CHECK_INT_EQ(opt.index_bytes, 4);
    CHECK_INT_EQ(PARSE("--kernel", "chase", "--mode", "latency", "--chain", "index", "--chain",
                       "address"),
                 OCC_EXIT_OK); /* last one wins */
    CHECK_INT_EQ(opt.chain, OCC_CHAIN_ADDRESS);
    CHECK_INT_EQ(PARSE("--kernel", "copy", "--waves", "64"), OCC_EXIT_OK);
    CHECK_INT_EQ(opt.waves, 64);
    CHECK_INT_EQ(PARSE("-h"), OCC_EXIT_OK);
    CHECK_INT_EQ(opt.help, 1);
    CHECK_INT_EQ(PARSE("--help", "--unroll", "3", "foo"), OCC_EXIT_OK); /* help stops parsing */
    CHECK_INT_EQ(opt.help, 1);
    CHECK_INT_EQ(PARSE("-V"), OCC_EXIT_OK);
    CHECK_INT_EQ(opt.version, 1);
    CHECK_INT_EQ(opt.help, 0);
    CHECK_INT_EQ(PARSE("--version"), OCC_EXIT_OK);
    CHECK_INT_EQ(opt.version, 1);
}

static void test_bad_flags_and_lists(void)
{
    BAD("'--frobnicate'", "unknown", "--frobnicate");
    BAD("'-x'", "unknown", "-x");
    BAD("'--max'", "ambiguous", "--max", "1"); /* --max-noise or --max-time */
    BAD("--plot", "takes no value", "--plot=yes");
    BAD("--help", "takes no value", "--help=1");
    BAD("--version takes no value (got '--version=x')", "", "--version=x");
    BAD("--unroll", "missing value", "--unroll");
    BAD("--out", "missing value", "--out");
    BAD("unexpected argument 'foo'", "", "foo");
    BAD("unexpected argument 'foo'", "", "--plot", "foo", "--quiet");
    BAD("unexpected argument 'bar'", "", "--", "bar");
    BAD("--kernel: 'triad' is not a kernel",
        "accepted: copy, reduce, chase, fma, mixed, smem, mma, async, wgmma, all",
        "--kernel", "triad");
    BAD("'copy,,reduce'", "empty", "--kernel", "copy,,reduce");
    BAD("--fmas: '3' is not compiled", "accepted: 0, 1, 2, 4, 8, 12, 16, 24, 32, 48, 64, 96, 128, 256",
        "--kernel", "mixed", "--fmas", "3");
    BAD("--fmas does not apply to fma", "(it takes: unroll, vec, occ, block, lever, carveout)", "--kernel",
        "fma", "--fmas", "4");
    BAD("--vec does not apply to mixed", "", "--kernel", "mixed", "--vec", "16");
    BAD("--vec: '16' is not compiled", "accepted: 4, 8", "--kernel", "fma", "--vec", "16");
    BAD("--lever bounds", "", "--kernel", "fma", "--lever", "bounds");
    BAD("'Copy'", "not a kernel", "--kernel", "Copy");
    BAD("--unroll: '' is empty", "accepted: 1, 2, 4, 8", "--unroll", "");
    BAD("--out: '' is empty", "", "--out=");
    BAD("--arch: '' is empty", "", "--arch", "");
    BAD("'1,,2'", "empty element", "--unroll", "1,,2");
    BAD("'1,'", "empty element", "--unroll", "1,");
    BAD("',1'", "empty element", "--unroll", ",1");
    BAD("'a'", "non-integer", "--unroll", "a");
    BAD("'1..'", "incomplete range", "--unroll", "1..");
    BAD("'..4'", "incomplete range", "--unroll", "..4");
    BAD("'4..1'", "reversed", "--unroll", "4..1");
    BAD("'1.5'", "non-integer", "--unroll", "1.5");
    BAD("'4x'", "non-integer", "--unroll", "4x");
    BAD("' 4'", "non-integer", "--vec", " 4");
    BAD("'99999999999'", "out of range", "--unroll", "99999999999");
    BAD("--unroll: '3' is not compiled (accepted: 1, 2, 4, 8)", "", "--unroll", "3");
    BAD("--unroll: '6' is not compiled", "", "--unroll", "1,6");
    BAD("--unroll: '0' is not compiled", "", "--unroll", "0");
    BAD("--unroll: '-2' is not compiled", "", "--unroll", "-2");
    BAD("--unroll: '16' is not compiled (accepted: 1, 2, 4, 8)", "", "--unroll", "1..16");
    BAD("'5..7'", "without a power of two", "--unroll", "5..7");
    BAD("--unroll: '1..2..4'", "accepted: 1, 2, 4, 8 or a range like 1..8", "--unroll", "1..2..4");
    BAD("--vec: '2' is not compiled (accepted: 4, 8, 16, 128, 256, 512, 1024)", "", "--vec", "2");
    BAD("--vec: '32' is not compiled", "", "--vec", "4,32");
    BAD("--vec: '12' is not compiled", "", "--vec", "12");
    BAD("--vec: '0' is not compiled", "", "--vec", "0");
    BAD("--vec: '-4' is not compiled", "", "--vec", "-4");
}

static void test_bad_occ(void)
{
    BAD("'abc'", "not a number", "--occ", "abc");
    BAD("'25..'", "incomplete range", "--occ", "25..");
    BAD("'..50'", "incomplete range", "--occ", "..50");
    BAD("'0'", "not in (0, 100]", "--occ", "0..50");
    BAD("'150'", "not in (0, 100]", "--occ", "50..150");
    BAD("'0'", "not a step in (0, 100]", "--occ", "25..100:0");
    BAD("'-5'", "not a step", "--occ", "25..100:-5");
    BAD("'25..100:'", "empty element", "--occ", "25..100:");
    BAD("'x'", "not a number", "--occ", "25..100:x");
    BAD("'nan'", "not a number", "--occ", "nan");
    BAD("'inf'", "not a number", "--occ", "inf");
    BAD("'nan'", "not a number", "--occ", "nan..100");
    BAD("'0x10'", "not a number", "--occ", "0x10");
    BAD("'100..25'", "reversed", "--occ", "100..25");
    BAD("'25,,50'", "empty element", "--occ", "25,,50");
    BAD("'25,'", "empty element", "--occ", "25,");
    BAD("'-10'", "not in (0, 100]", "--occ", "-10,50");
    BAD("'101'", "not in (0, 100]", "--occ", "25,101");
    BAD("'25,50:5'", "step but no range", "--occ", "25,50:5");
    BAD("'1e999'", "not a number", "--occ", "1e999");
    BAD("more than 16", "", "--occ", "1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17");
    /* N,D reads as a decimal comma; other lists of two levels stay lists. */
    BAD("'12,5'", "(for 12.5% write 12.5)", "--occ", "12,5");
    /* a byte order mark (a value pasted from a file saved with one) is named, not shown */
    BAD("--kernel: '<U+FEFF BOM>reduce' is not a kernel", "", "--kernel", "\xef\xbb\xbfreduce");
    BAD("'100,0'", "(for 100.0% write 100.0)", "--occ", "100,0");
    CHECK_INT_EQ(PARSE("--occ", "5,12"), OCC_EXIT_OK);
    CHECK_INT_EQ(opt.occ.n_pct, 2);
    /* 100.5 is no occupancy: "100,5" is the levels 100% and 5%, no hint to write 100.5 */
    CHECK_INT_EQ(PARSE("--occ", "100,5"), OCC_EXIT_OK);
    CHECK_INT_EQ(opt.occ.n_pct, 2);
    CHECK_INT_EQ(PARSE("--occ", "12,5.0"), OCC_EXIT_OK);
    CHECK_INT_EQ(PARSE("--occ", "12,5,50"), OCC_EXIT_OK);
    CHECK_INT_EQ(opt.occ.n_pct, 3);
    CHECK_INT_EQ(PARSE("--occ", "1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,16"), OCC_EXIT_OK);
    CHECK_INT_EQ(opt.occ.n_pct, 16);
}

static void test_bad_scalars(void)
{
    BAD("--block: '48'", "multiple of 32", "--block", "48");
    BAD("'0'", "out of range", "--block", "0");
    BAD("'2048'", "out of range", "--block", "2048");
    BAD("--block: '1056' is out of range (accepted: 32..1024, a multiple of 32; a list like "
        "128,256 or a range of powers of two like 128..1024)", "", "--block", "1056");
    BAD("'-32'", "out of range", "--block", "-32");
    BAD("'128x'", "non-integer element", "--block", "128x");
    BAD("'1e3'", "non-integer element", "--block", "1e3");
    BAD("'99999999999999999999999'", "out of range", "--block", "99999999999999999999999");
    BAD("'fast'", "auto, pad, bounds, both", "--lever", "fast");
    BAD("'99999999999G'", "too large", "--size", "99999999999G");
    BAD("'0'", "not positive", "--size", "0");
    BAD("'-1M'", "not a positive size", "--size", "-1M");
    BAD("'1.5G'", "unknown unit", "--size", "1.5G");
    BAD("'4x'", "unknown unit", "--size", "4x");
    BAD("'4KB'", "K, M, G, KiB, MiB or GiB", "--size", "4KB");
    BAD("'abc'", "not a positive size", "--size", "abc");
    BAD("'0'", "out of range", "--max-noise", "0");
    BAD("'100.5'", "out of range", "--max-noise", "100.5");
    BAD("'-1'", "out of range", "--max-noise", "-1");
    BAD("'nan'", "not a number", "--max-noise", "nan");
    BAD("'0.5s'", "not a number", "--max-time", "0.5s");
    BAD("'0'", "out of range", "--max-time", "0");
    BAD("'inf'", "not a number", "--max-time", "inf");
    BAD("'0'", "1..100000", "--min-samples", "0");
    BAD("'100001'", "out of range", "--min-samples", "100001");
    BAD("'ten'", "not an integer", "--min-samples", "ten");
    BAD("'-1'", "out of range", "--device", "-1");
    BAD("'2147483648'", "out of range", "--device", "2147483648");
    BAD("'gpu0'", "not an integer", "--device", "gpu0");
    BAD("'0,gpu1'", "has a non-integer element", "--device", "0,gpu1");
    BAD("'0,-1'", "has a number out of range", "--device", "0,-1");
    BAD("'3..1'", "has a reversed range", "--device", "3..1");
    BAD("'0,,1'", "has an empty element", "--device", "0,,1");
    BAD("'0..16'", "has too many values", "--device", "0..16");
    BAD("'All'", "not an integer", "--device", "All");
    BAD("'90'", "sm_NN", "--dry-run", "--arch", "90");
    BAD("'sm_9'", "not an architecture", "--dry-run", "--arch", "sm_9");
    BAD("'sm_90x'", "not an architecture", "--dry-run", "--arch", "sm_90x");
    BAD("'compute_90'", "not an architecture", "--dry-run", "--arch", "compute_90");
    BAD("'sm_90'", "needs --dry-run", "--arch", "sm_90");
    BAD("--mode: 'fast' is not a mode", "chase warp|thread|latency", "--mode", "fast");
    BAD("--mode: 'Warp' is not a mode", "", "--mode", "Warp");
    BAD("--footprint: '1G..4K' is a reversed range", "", "--footprint", "1G..4K");
    BAD("'4K'", "not a range", "--footprint", "4K");
    BAD("'4K..'", "incomplete range", "--footprint", "4K..");
    BAD("'0'", "not positive", "--footprint", "0..4K");
    BAD("--footprint: '4Q' has an unknown unit", "", "--footprint", "1K..4Q");
    BAD("--stride: '96' is not a power of two", "a power of two in 32..65536", "--stride", "96");
    BAD("--stride: '16' is out of range", "", "--stride", "16");
    BAD("--index-bytes: '6' is not a power of two (accepted: 4 or 8)", "", "--index-bytes", "6");
    BAD("--index-bytes: '16' is out of range", "", "--index-bytes", "16");
    BAD("--chain: 'pointer' is not a chain (accepted: address, index)", "", "--chain", "pointer");
    BAD("--chain: 'Address' is not a chain", "", "--chain", "Address");
    BAD("--waves: '0' is out of range (accepted: 1..64)", "", "--waves", "0");
    BAD("--waves: '65' is out of range", "", "--waves", "65");
}

static void test_size_helper(void)
{
    long long v = -7;
    CHECK_INT_EQ(occ_parse_size_bytes("4096", &v), 0);
    CHECK_INT_EQ(v, 4096);
    CHECK_INT_EQ(occ_parse_size_bytes("512M", &v), 0);
    CHECK_INT_EQ(v, 512LL << 20);
    CHECK_INT_EQ(occ_parse_size_bytes("1G", &v), 0);
    CHECK_INT_EQ(v, 1LL << 30);
    CHECK_INT_EQ(occ_parse_size_bytes("4KiB", &v), 0);
    CHECK_INT_EQ(v, 4096);
    CHECK_INT_EQ(occ_parse_size_bytes("3MiB", &v), 0);
    CHECK_INT_EQ(v, 3LL << 20);
    CHECK_INT_EQ(occ_parse_size_bytes("2GiB", &v), 0);
    CHECK_INT_EQ(v, 2LL << 30);
    CHECK_INT_EQ(occ_parse_size_bytes("9223372036854775807", &v), 0);
    CHECK_INT_EQ(v, LLONG_MAX);
    CHECK_INT_EQ(occ_parse_size_bytes("8589934591G", &v), 0); /* (2^33 - 1) x 2^30 fits */
    CHECK_INT_EQ(v, LLONG_MAX - ((1LL << 30) - 1));
    v = -7;
    CHECK_INT_EQ(occ_parse_size_bytes("8589934592G", &v), -1); /* 2^63 does not */
    CHECK_INT_EQ(occ_parse_size_bytes("9223372036854775808", &v), -1);
    CHECK_INT_EQ(occ_parse_size_bytes("99999999999G", &v), -1);
    CHECK_INT_EQ(occ_parse_size_bytes("", &v), -1);
    CHECK_INT_EQ(occ_parse_size_bytes("0", &v), -1);
    CHECK_INT_EQ(occ_parse_size_bytes("-1", &v), -1);
    CHECK_INT_EQ(occ_parse_size_bytes("+1", &v), -1);
    CHECK_INT_EQ(occ_parse_size_bytes(" 1", &v), -1);
    CHECK_INT_EQ(occ_parse_size_bytes("1k", &v), -1);
    CHECK_INT_EQ(occ_parse_size_bytes("1KB", &v), -1);
    CHECK_INT_EQ(occ_parse_size_bytes("1 K", &v), -1);
    CHECK_INT_EQ(occ_parse_size_bytes("G", &v), -1);
    CHECK_INT_EQ(v, -7); /* untouched on error */
}

static void test_int_list_helper(void)
{
    int out[32], n = -1;
    CHECK_INT_EQ(occ_parse_int_list("1,2,4", out, 16, &n, 1), 0);
    CHECK_INTS(out, n, 1, 2, 4);
    CHECK_INT_EQ(occ_parse_int_list("1..8", out, 16, &n, 1), 0);
    CHECK_INTS(out, n, 1, 2, 4, 8);
    CHECK_INT_EQ(occ_parse_int_list("3..6", out, 16, &n, 0), 0);
    CHECK_INTS(out, n, 3, 4, 5, 6);
    CHECK_INT_EQ(occ_parse_int_list("3..16", out, 16, &n, 1), 0);
    CHECK_INTS(out, n, 4, 8, 16);
    CHECK_INT_EQ(occ_parse_int_list("1..4,16,2", out, 16, &n, 1), 0);
    CHECK_INTS(out, n, 1, 2, 4, 16);
    CHECK_INT_EQ(occ_parse_int_list("-2,3,-2", out, 16, &n, 0), 0);
    CHECK_INTS(out, n, -2, 3);
    CHECK_INT_EQ(occ_parse_int_list("-1..1", out, 16, &n, 0), 0);
    CHECK_INTS(out, n, -1, 0, 1);
    CHECK_INT_EQ(occ_parse_int_list("7", out, 16, &n, 1), 0); /* single values need not be 2^k */
    CHECK_INTS(out, n, 7);
    CHECK_INT_EQ(occ_parse_int_list("2147483647", out, 16, &n, 0), 0);
    CHECK_INTS(out, n, INT_MAX);
    CHECK_INT_EQ(occ_parse_int_list("1..16", out, 16, &n, 0), 0);
    CHECK_INT_EQ(n, 16);
    CHECK_INT_EQ(out[15], 16);
    CHECK_INT_EQ(occ_parse_int_list("1..2147483647", out, 32, &n, 1), 0);
    CHECK_INT_EQ(n, 31);
    CHECK_INT_EQ(out[30], 1 << 30);

    n = -1;
    CHECK_INT_EQ(occ_parse_int_list("1..17", out, 16, &n, 0), -1);
    CHECK_INT_EQ(occ_parse_int_list("1..2147483647", out, 16, &n, 0), -1); /* stops early */
    CHECK_INT_EQ(occ_parse_int_list("1,2,3", out, 2, &n, 0), -1);
    CHECK_INT_EQ(occ_parse_int_list("", out, 16, &n, 0), -1);
    CHECK_INT_EQ(occ_parse_int_list("1,,2", out, 16, &n, 0), -1);
    CHECK_INT_EQ(occ_parse_int_list("1,", out, 16, &n, 0), -1);
    CHECK_INT_EQ(occ_parse_int_list(",1", out, 16, &n, 0), -1);
    CHECK_INT_EQ(occ_parse_int_list("a", out, 16, &n, 0), -1);
    CHECK_INT_EQ(occ_parse_int_list("1..", out, 16, &n, 0), -1);
    CHECK_INT_EQ(occ_parse_int_list("..4", out, 16, &n, 0), -1);
    CHECK_INT_EQ(occ_parse_int_list("4..1", out, 16, &n, 0), -1);
    CHECK_INT_EQ(occ_parse_int_list("1.5", out, 16, &n, 0), -1);
    CHECK_INT_EQ(occ_parse_int_list("4x", out, 16, &n, 0), -1);
    CHECK_INT_EQ(occ_parse_int_list("+4", out, 16, &n, 0), -1);
    CHECK_INT_EQ(occ_parse_int_list("-", out, 16, &n, 0), -1);
    CHECK_INT_EQ(occ_parse_int_list("2147483648", out, 16, &n, 0), -1);
    CHECK_INT_EQ(occ_parse_int_list("-2147483649", out, 16, &n, 0), -1);
    CHECK_INT_EQ(occ_parse_int_list("5..7", out, 16, &n, 1), -1);
    CHECK_INT_EQ(occ_parse_int_list("1..2..4", out, 16, &n, 0), -1);
    CHECK_INT_EQ(n, -1); /* untouched on error */
}

static void test_reparse_and_argv_order(void)
{
    CHECK_INT_EQ(PARSE("--unroll", "3"), OCC_EXIT_USAGE);
    CHECK_INT_EQ(PARSE("--block", "256", "--plot"), OCC_EXIT_OK);
    CHECK_INTS(opt.block_threads, opt.n_block_threads, 256);
    CHECK_INT_EQ(opt.plot, 1);
    CHECK_INTS(opt.unroll, opt.n_unroll, 1, 2, 4, 8);
    CHECK_INT_EQ(PARSE("--bogus"), OCC_EXIT_USAGE);
    CHECK_INT_EQ(PARSE("--block", "64"), OCC_EXIT_OK);
    CHECK_INTS(opt.block_threads, opt.n_block_threads, 64);
    CHECK_INT_EQ(opt.plot, 0); /* every parse starts from the defaults */
    CHECK_INT_EQ(PARSE("--unroll"), OCC_EXIT_USAGE);
    CHECK_INT_EQ(PARSE("--unroll", "2"), OCC_EXIT_OK);
    CHECK_INTS(opt.unroll, opt.n_unroll, 2);
    /* an error inside a short-option cluster leaves getopt pointing at the 'V': no leftovers */
    CHECK_INT_EQ(PARSE("-xV"), OCC_EXIT_USAGE);
    CHECK_INT_EQ(PARSE("--block", "64"), OCC_EXIT_OK);
    CHECK_INT_EQ(opt.version, 0);
    CHECK_INTS(opt.block_threads, opt.n_block_threads, 64);

    CHECK_INT_EQ(PARSE("--plot", "stray", "--quiet"), OCC_EXIT_USAGE);
    CHECK_STR_EQ(last_argv[1], "--plot"); /* argv is not permuted */
    CHECK_STR_EQ(last_argv[2], "stray");
    CHECK_STR_EQ(last_argv[3], "--quiet");
    /* a NULL or tiny err buffer is allowed; a tiny one is truncated, still terminated */
    last_argv[1] = (char *)"--bogus";
    CHECK_INT_EQ(occ_options_parse(2, last_argv, &opt, NULL, 0), OCC_EXIT_USAGE);
    CHECK_INT_EQ(occ_options_parse(2, last_argv, &opt, err, 8), OCC_EXIT_USAGE);
    CHECK_STR_EQ(err, "unknown");
}

/* getopt prints its own complaints unless opterr is 0; the parser must stay silent. */
static void test_never_prints(void)
{
    FILE *sink = tmpfile();
    int saved_out = dup(1), saved_err = dup(2);
    CHECK(sink != NULL && saved_out >= 0 && saved_err >= 0);
    if (sink == NULL || saved_out < 0 || saved_err < 0) return;
    fflush(stdout);
    fflush(stderr);
    dup2(fileno(sink), 1);
    dup2(fileno(sink), 2);
    PARSE("--bogus");
    PARSE("-x");
    PARSE("--unroll");
    PARSE("--plot=1");
    PARSE("--max", "1");
    PARSE("--unroll", "3");
    fflush(stdout);
    fflush(stderr);
    dup2(saved_out, 1);
    dup2(saved_err, 2);
    close(saved_out);
    close(saved_err);
    fseek(sink, 0, SEEK_END);
    CHECK_INT_EQ(ftell(sink), 0);
    fclose(sink);
}

static char help_text[16384];

static void read_help(void)
{
    size_t len;
    FILE *f = tmpfile();
    CHECK(f != NULL);
    if (f == NULL) return;
    occ_options_print_help(f, "./run_sweep");
    rewind(f);
    len = fread(help_text, 1, sizeof help_text - 1, f);
    help_text[len] = '\0';
    fclose(f);
    CHECK(len > 1000 && len < sizeof help_text - 1);
}

/* The help's entry for --name, its lines joined by single spaces; "" when there is none. */
static void help_entry(const char *name, char *out, size_t len)
{
    char needle[48];
    const char *at = NULL, *end;
    size_t n = 0;
    out[0] = '\0';
    snprintf(needle, sizeof needle, "\n  --%s ", name);
    at = strstr(help_text, needle);
    if (at == NULL) return;
    at += 3;
    end = strstr(at, "\n  -");
    if (strstr(at, "\n\n") != NULL && (end == NULL || strstr(at, "\n\n") < end))
        end = strstr(at, "\n\n");
    for (const char *p = at; p < end && n + 1 < len; p++) {
        int space = *p == ' ' || *p == '\n';
        if (!space || (n > 0 && out[n - 1] != ' ')) out[n++] = space ? ' ' : *p;
    }
    out[n] = '\0';
}

/* The text of entry between key ("accepted: ") and stop ("; default: " or the end). */
static void entry_part(const char *entry, const char *key, const char *stop, char *out, size_t len)
{
    const char *at = strstr(entry, key), *end;
    out[0] = '\0';
    if (at == NULL) return;
    at += strlen(key);
    end = stop ? strstr(at, stop) : NULL;
    snprintf(out, len, "%.*s", (int)(end ? (size_t)(end - at) : strlen(at)), at);
}

/* The kernels the entry says take a scoped option: its last "(...)" before " accepted:" (or
 * the end, for a flag). */
static void entry_scope(const char *entry, char *out, size_t len)
{
    const char *end = strstr(entry, " accepted: "), *open = NULL;
    out[0] = '\0';
    end = end ? end : entry + strlen(entry);
    for (const char *p = entry; p < end; p++)
        open = *p == '(' ? p : open;
    if (open != NULL && end[-1] == ')') snprintf(out, len, "%.*s", (int)(end - open - 2), open + 1);
}

/* Parses "run_sweep" + sel (NULL-terminated, may be NULL) + "--name" [value]. */
static int parse_with(const char *const *sel, const char *name, const char *value)
{
    static char flag[48];
    const char *args[16] = {"run_sweep"};
    int n = 1;
    for (int i = 0; sel != NULL && sel[i] != NULL && n < 12; i++)
        args[n++] = sel[i];
    snprintf(flag, sizeof flag, "--%s", name);
    args[n++] = flag;
    if (value != NULL) args[n++] = value;
    args[n] = NULL;
    return parse_v(args);
}

/* Field by field: pointers into different argv copies may differ. */
static int same_options(const OccOptions *a, const OccOptions *b)
{
    int same = a->families == b->families && a->n_unroll == b->n_unroll && a->n_vec == b->n_vec &&
               a->occ.is_list == b->occ.is_list && a->occ.n_pct == b->occ.n_pct &&
               a->occ.lo_pct == b->occ.lo_pct && a->occ.hi_pct == b->occ.hi_pct &&
               a->occ.step_pct == b->occ.step_pct && a->n_block_threads == b->n_block_threads &&
               !memcmp(a->block_threads, b->block_threads, sizeof a->block_threads) &&
               a->lever == b->lever && a->size_bytes == b->size_bytes &&
               a->max_noise_pct == b->max_noise_pct && a->max_time_s == b->max_time_s &&
               a->min_samples == b->min_samples && a->device == b->device &&
               a->footprint_lo_bytes == b->footprint_lo_bytes &&
               a->footprint_hi_bytes == b->footprint_hi_bytes &&
               a->stride_bytes == b->stride_bytes && a->cold == b->cold && a->waves == b->waves &&
               a->chain == b->chain && a->index_bytes == b->index_bytes;
    for (int i = 0; same && i < a->n_unroll; i++)
        same = a->unroll[i] == b->unroll[i];
    for (int i = 0; same && i < a->n_vec; i++)
        same = a->vec_bytes[i] == b->vec_bytes[i];
    return same;
}

/* --kernel K [--mode M] for the first family a scope ("copy, reduce" or "chase latency")
 * names; sel gets the NULL-terminated arguments, held in store. */
static void scope_selection(const char *scope, char *store, size_t len, const char **sel)
{
    char *mode;
    int n = 0;
    snprintf(store, len, "%.*s", (int)strcspn(scope, ","), scope);
    mode = strchr(store, ' ');
    sel[n++] = "--kernel";
    sel[n++] = store;
    if (mode != NULL) {
        *mode++ = '\0';
        sel[n++] = "--mode";
        sel[n++] = mode;
    }
    sel[n] = NULL;
}

/* Appends to sel (NULL-terminated, room for two more) the option and value an entry says it
 * needs ("..., only with --chain index (...)"), held in store; nothing when it needs none. */
static void entry_requires(const char *entry, char *store, size_t len, const char **sel)
{
    const char *at = strstr(entry, "only with --");
    char *value;
    int n = 0;
    if (at == NULL) return;
    snprintf(store, len, "%s", at + strlen("only with "));
    value = store + strcspn(store, " ");
    if (*value == '\0') return;
    *value++ = '\0';
    value[strcspn(value, " ")] = '\0';
    while (sel[n] != NULL)
        n++;
    sel[n++] = store;
    sel[n++] = value;
    sel[n] = NULL;
}

static void test_help_text(void)
{
    static const char *const every_option[] = {
        "kernel",    "mode",     "unroll",      "vec",    "occ",  "block", "lever",
        "size",      "waves",    "footprint",   "stride", "cold", "chain", "index-bytes",
        "max-noise", "max-time", "min-samples", "device", "out",  "force", "resume",
        "plot",      "quiet",    "dry-run",     "arch",   "list",
        "calc",      "regs",     "smem",        "target-occ", "target-blocks"};
    char entry[1024];
    read_help();
    CHECK_CONTAINS(help_text, "Usage: ./run_sweep [OPTIONS]");
    CHECK_CONTAINS(help_text, "./run_sweep --dry-run --arch sm_90\n");
    CHECK_CONTAINS(help_text, "\n  -h, --help ");
    CHECK_CONTAINS(help_text, "\n  -V, --version ");
    CHECK_CONTAINS(help_text, "Exit codes:");
    CHECK_CONTAINS(help_text, "\n  0  ");
    CHECK_CONTAINS(help_text, "\n  1  ");
    CHECK_CONTAINS(help_text, "\n  2  bad command line");
    CHECK_CONTAINS(help_text, "\n  3  no usable CUDA device");
    for (size_t i = 0; i < sizeof every_option / sizeof every_option[0]; i++) {
        help_entry(every_option[i], entry, sizeof entry);
        CHECK(strlen(entry) > strlen(every_option[i]) + 8);
        if (strlen(entry) <= strlen(every_option[i]) + 8)
            fprintf(stderr, "    no --help entry for --%s\n", every_option[i]);
    }
    /* Every line is at most 79 columns. */
    for (const char *p = help_text; *p; p += strcspn(p, "\n") + (p[strcspn(p, "\n")] != '\0'))
        CHECK(strcspn(p, "\n") <= 79);
    /* The scopes come from the catalog. */
    help_entry("vec", entry, sizeof entry);
    CHECK_CONTAINS(entry, "(copy, reduce, fma, smem stream, smem rw, async bulk) accepted: 4, 8, 16, "
                          "128, 256, 512, 1024 or a range like 4..1024;");
    help_entry("footprint", entry, sizeof entry);
    CHECK_CONTAINS(entry, "(chase latency) accepted:");
    help_entry("size", entry, sizeof entry);
    CHECK_CONTAINS(entry, "default: auto: 8 x the L2 size, at least 4 GiB where a quarter of the "
                          "free memory allows (copy, reduce, mixed, async), 8 x (chase warp), 16 x "
                          "(chase thread)");
    help_entry("block", entry, sizeof entry);
    CHECK_CONTAINS(entry, "accepted: 32..1024, a multiple of 32; a list like 128,256 or a range "
                          "of powers of two like 128..1024; default: 128");
    /* A requires rule is stated beside the option that has it. */
    help_entry("index-bytes", entry, sizeof entry);
    CHECK_CONTAINS(entry, "indices, only with --chain index (chase latency) accepted: 4 or 8;");
    help_entry("chain", entry, sizeof entry);
    CHECK_CONTAINS(entry, "(chase latency) accepted: address, index; default: address");
    help_entry("mode", entry, sizeof entry);
    CHECK_CONTAINS(entry, "default: copy stream, reduce stream, chase warp");
}

/* Each example the help gives parses. */
static void test_help_examples(void)
{
    const char *at = strstr(help_text, "\nExamples:\n");
    int n = 0;
    CHECK(at != NULL);
    for (at = at ? at + 11 : ""; strncmp(at, "  ./run_sweep ", 14) == 0; n++) {
        static char line[256];
        const char *args[24];
        int argc = 0;
        size_t len = strcspn(at, "\n");
        snprintf(line, sizeof line, "%.*s", (int)len - 2, at + 2);
        for (char *tok = strtok(line, " "); tok != NULL && argc < 23; tok = strtok(NULL, " "))
            args[argc++] = tok;
        args[argc] = NULL;
        CHECK_INT_EQ(parse_v(args), OCC_EXIT_OK);
        if (err[0]) fprintf(stderr, "    example '%.*s': %s\n", (int)len, at, err);
        at += len + (at[len] == '\n');
    }
    CHECK(n >= 3);
}

/* The accepted range and the default each numeric option's help entry states are what the
 * parser accepts at the edges and what occ_options_defaults gives. */
static void check_numeric_entry(const char *name)
{
    static OccOptions base;
    char entry[1024], accepted[256], def[128], scope[128], store[64], need[64], v[4][48];
    const char *sel[12] = {NULL};
    double lo = 0, hi = 0;
    long long ilo = 0, ihi = 0;
    int mult = 0, is_pow2 = 0, is_real = 0;
    help_entry(name, entry, sizeof entry);
    entry_part(entry, "accepted: ", "; default: ", accepted, sizeof accepted);
    entry_part(entry, "; default: ", NULL, def, sizeof def);
    entry_scope(entry, scope, sizeof scope);
    if (scope[0]) scope_selection(scope, store, sizeof store, sel);
    entry_requires(entry, need, sizeof need, sel);
    if (sscanf(accepted, "a power of two in %lld..%lld", &ilo, &ihi) == 2 ||
        sscanf(accepted, "%lld or %lld", &ilo, &ihi) == 2) {
        is_pow2 = 1;
    } else if (sscanf(accepted, "a number in (%lf, %lf]", &lo, &hi) == 2) {
        is_real = 1;
    } else if (sscanf(accepted, "an integer >= %lld", &ilo) == 1) {
        ihi = 2147483647;
    } else if (sscanf(accepted, "%lld..%lld, a multiple of %d", &ilo, &ihi, &mult) < 2) {
        CHECK(0);
        fprintf(stderr, "    --%s: cannot read the range in '%s'\n", name, accepted);
        return;
    }
    if (!is_real) {
        lo = (double)ilo;
        hi = (double)ihi;
    }
    /* The stated default parses to what no value gives. */
    CHECK_INT_EQ(parse_with(sel, "dry-run", NULL), OCC_EXIT_OK);
    base = opt;
    CHECK_INT_EQ(parse_with(sel, name, def), OCC_EXIT_OK);
    CHECK(same_options(&opt, &base));
    if (is_real) {
        snprintf(v[0], sizeof v[0], "%.17g", lo);
        snprintf(v[1], sizeof v[1], "%.17g", hi);
        snprintf(v[2], sizeof v[2], "%.17g", hi * 1.0001);
        snprintf(v[3], sizeof v[3], "%.17g", lo + (hi - lo) * 1e-9);
        CHECK_INT_EQ(parse_with(sel, name, v[0]), OCC_EXIT_USAGE); /* (lo, hi] */
        CHECK_INT_EQ(parse_with(sel, name, v[1]), OCC_EXIT_OK);
        CHECK_INT_EQ(parse_with(sel, name, v[2]), OCC_EXIT_USAGE);
        CHECK_INT_EQ(parse_with(sel, name, v[3]), OCC_EXIT_OK);
        return;
    }
    snprintf(v[0], sizeof v[0], "%.0f", lo);
    snprintf(v[1], sizeof v[1], "%.0f", hi);
    CHECK_INT_EQ(parse_with(sel, name, v[0]), OCC_EXIT_OK);
    CHECK_INT_EQ(parse_with(sel, name, v[1]), OCC_EXIT_OK);
    snprintf(v[2], sizeof v[2], "%.0f", lo - (mult > 1 ? mult : is_pow2 ? lo / 2 : 1));
    snprintf(v[3], sizeof v[3], "%.0f", hi + (mult > 1 ? mult : is_pow2 ? hi : 1));
    CHECK_INT_EQ(parse_with(sel, name, v[2]), OCC_EXIT_USAGE);
    CHECK_CONTAINS(err, "out of range");
    CHECK_INT_EQ(parse_with(sel, name, v[3]), OCC_EXIT_USAGE);
    CHECK_CONTAINS(err, "out of range");
    if (mult > 1 || is_pow2) {
        snprintf(v[2], sizeof v[2], "%.0f", lo + (mult > 1 ? mult / 2 : lo / 2));
        CHECK_INT_EQ(parse_with(sel, name, v[2]), OCC_EXIT_USAGE);
        CHECK_CONTAINS(err, mult > 1 ? "not a multiple of" : "not a power of two");
        snprintf(v[2], sizeof v[2], "%.0f", mult > 1 ? lo + mult : lo * 2);
        CHECK_INT_EQ(parse_with(sel, name, v[2]),
                     lo * 2 <= hi || mult > 1 ? OCC_EXIT_OK : OCC_EXIT_USAGE);
    }
}

static void test_help_agrees_with_parser(void)
{
    static const char *const numeric[] = {"block",       "waves",     "stride",  "index-bytes",
                                          "min-samples", "max-noise", "max-time"};
    static const struct {
        const char *name;
        int scoped; /* 1: parsed for the first family its help entry names */
    } valued[] = {{"occ", 1}, {"lever", 1}, {"kernel", 0}, {"chain", 1}};
    char entry[1024], def[128];
    for (size_t i = 0; i < sizeof numeric / sizeof numeric[0]; i++)
        check_numeric_entry(numeric[i]);
    /* Stated defaults that are values parse to the defaults (for a family that takes them). */
    for (size_t i = 0; i < sizeof valued / sizeof valued[0]; i++) {
        static OccOptions none;
        const char *sel[12] = {NULL};
        char scope[128], store[64];
        help_entry(valued[i].name, entry, sizeof entry);
        entry_part(entry, "; default: ", NULL, def, sizeof def);
        entry_scope(entry, scope, sizeof scope);
        if (valued[i].scoped) scope_selection(scope, store, sizeof store, sel);
        CHECK_INT_EQ(parse_with(sel, "dry-run", NULL), OCC_EXIT_OK);
        none = opt;
        CHECK_INT_EQ(parse_with(sel, valued[i].name, def), OCC_EXIT_OK);
        CHECK(same_options(&opt, &none));
    }
    /* The list defaults are the compiled values the help lists as accepted. */
    help_entry("unroll", entry, sizeof entry);
    CHECK_CONTAINS(entry, "accepted: 1, 2, 4, 8 or a range like 1..8;");
    occ_options_defaults(&opt);
    CHECK_INTS(opt.unroll, opt.n_unroll, 1, 2, 4, 8);
}

/* Each scoped option is accepted by exactly the families its help entry names. */
static void test_help_scopes(void)
{
    static const struct {
        const char *name, *value;
    } scoped[] = {{"unroll", "1"},   {"vec", "4"},   {"occ", "50"},       {"block", "64"},
                  {"lever", "pad"},  {"size", "1M"}, {"waves", "2"},      {"footprint", "4K..1M"},
                  {"stride", "256"}, {"cold", NULL}, {"chain", "index"}, {"index-bytes", "8"}};
    char entry[1024], scope[256], name[64], need[64];
    for (size_t i = 0; i < sizeof scoped / sizeof scoped[0]; i++) {
        help_entry(scoped[i].name, entry, sizeof entry);
        entry_scope(entry, scope, sizeof scope);
        CHECK(scope[0] != '\0');
        for (int f = 0; f < occ_family_count(); f++) {
            const OccFamilyInfo *fi = occ_family_at(f);
            const char *sel[12] = {"--kernel", fi->kernel, "--mode", fi->mode, NULL};
            size_t klen = strlen(fi->kernel);
            int named = 0;
            snprintf(name, sizeof name, "%s %s", fi->kernel, fi->mode);
            for (const char *p = scope; *p; p += strcspn(p, ",") + (p[strcspn(p, ",")] ? 2 : 0)) {
                size_t len = strcspn(p, ",");
                named |= (len == klen && strncmp(p, fi->kernel, klen) == 0) ||
                         (len == strlen(name) && strncmp(p, name, len) == 0);
            }
            if (named) entry_requires(entry, need, sizeof need, sel);
            /* unroll and vec: a value the family compiled (async bulk has no 4-byte V) */
            char own[16];
            const char *value = scoped[i].value;
            int first;
            const char axis = strcmp(scoped[i].name, "vec") == 0      ? 'v'
                              : strcmp(scoped[i].name, "unroll") == 0 ? 'u'
                                                                      : 0;
            if (named && axis && occ_family_axis_values(f, axis, &first, 1) > 0) {
                snprintf(own, sizeof own, "%d", first);
                value = own;
            }
            CHECK_INT_EQ(parse_with(sel, scoped[i].name, value),
                         named ? OCC_EXIT_OK : OCC_EXIT_USAGE);
            if (!named) CHECK(strstr(err, "does not apply to") != NULL);
        }
    }
}

/* A scoped option given for a selection where no family takes it is refused, whatever the
 * order, naming the option, the selection and what it takes. */
static void test_applicability(void)
{
    static const char *const ladder_refuses[][2] = {
        {"--occ", "50"}, {"--lever", "pad"}, {"--block", "64"}, {"--unroll", "1"},
        {"--vec", "4"},  {"--size", "1M"},   {"--waves", "2"}};
    const char *takes_ladder = "(it takes: footprint, stride, cold, chain, index-bytes)";
    BAD("--vec does not apply to chase warp (it takes: unroll, occ, block, lever, carveout, size)", "",
        "--kernel", "chase", "--vec", "8");
    BAD("--vec does not apply to chase warp (it takes: unroll, occ, block, lever, carveout, size)", "",
        "--vec", "8", "--kernel", "chase");
    BAD("--vec does not apply to chase thread", "", "--kernel", "chase", "--mode", "thread",
        "--vec", "4");
    BAD("--waves does not apply to chase warp", "", "--kernel", "chase", "--waves", "4");
    BAD("--waves does not apply to chase warp", "", "--kernel", "chase", "--waves", "1");
    for (size_t i = 0; i < sizeof ladder_refuses / sizeof ladder_refuses[0]; i++) {
        char want[96];
        snprintf(want, sizeof want, "%s does not apply to chase latency", ladder_refuses[i][0]);
        BAD(want, takes_ladder, "--kernel", "chase", "--mode", "latency", ladder_refuses[i][0],
            ladder_refuses[i][1]);
        BAD(want, takes_ladder, ladder_refuses[i][0], ladder_refuses[i][1], "--mode", "latency",
            "--kernel", "chase");
    }
    BAD("--footprint does not apply to copy, reduce, chase warp, fma, mixed, smem chase, mma f16, "
        "async bulk, wgmma f16 (they take: unroll, vec, fmas, occ, block, lever, carveout, schedule, size, waves)",
        "", "--footprint", "4K..1G");
    BAD("--stride does not apply to chase warp", "", "--kernel", "chase", "--stride", "256");
    BAD("--cold does not apply to chase thread", "", "--kernel", "chase", "--mode", "thread",
        "--cold");
    BAD("--index-bytes does not apply to copy (it takes", "", "--kernel", "copy", "--index-bytes",
        "8");
    BAD("--footprint does not apply to copy, reduce", "", "--kernel", "copy,reduce", "--footprint",
        "4K..1M");
    BAD("--chain does not apply to chase warp (it takes", "", "--kernel", "chase", "--chain",
        "index");
    /* --index-bytes only with --chain index: the default address chain refuses it, in any
     * order, even at its default value; --chain index takes it before or after. */
    BAD("--index-bytes applies only with --chain index (this run has --chain address)", "",
        "--kernel", "chase", "--mode", "latency", "--index-bytes", "8");
    BAD("--index-bytes applies only with --chain index (this run has --chain address)", "",
        "--index-bytes", "4", "--kernel", "chase", "--mode", "latency");
    BAD("--index-bytes applies only with --chain index (this run has --chain address)", "",
        "--kernel", "chase", "--mode", "latency", "--chain", "index", "--index-bytes", "8",
        "--chain", "address");
    CHECK_INT_EQ(PARSE("--index-bytes", "8", "--kernel", "chase", "--mode", "latency", "--chain",
                       "index"),
                 OCC_EXIT_OK);
    CHECK_INT_EQ(opt.index_bytes, 8);
    /* A family that takes it among the selected ones is enough. */
    CHECK_INT_EQ(PARSE("--kernel", "chase,copy", "--vec", "8", "--waves", "2"), OCC_EXIT_OK);
    CHECK_INT_EQ(PARSE("--kernel", "chase", "--unroll", "8", "--lever", "pad", "--size", "1M"),
                 OCC_EXIT_OK);
    /* --mode must exist for every selected kernel. */
    BAD("--mode: 'latency' does not apply to copy (its modes: stream)", "", "--kernel", "copy",
        "--mode", "latency");
    BAD("--mode: 'latency' does not apply to copy (its modes: stream)", "", "--mode", "latency");
    BAD("--mode: 'warp' does not apply to reduce (its modes: stream)", "", "--mode", "warp",
        "--kernel", "reduce,chase");
    BAD("--mode: 'stream' does not apply to chase (its modes: warp, thread, latency, loaded)", "",
        "--kernel", "copy,chase", "--mode", "stream");
    /* bounds needs register-capped variants in every selected sweep family. */
    BAD("--lever bounds: chase warp has no register-capped variants (use auto, pad or both)", "",
        "--kernel", "chase", "--lever", "bounds");
    BAD("--lever bounds: chase warp has no register-capped variants", "", "--lever", "bounds");
    BAD("--lever bounds: chase thread has no register-capped", "", "--lever", "bounds", "--kernel",
        "chase", "--mode", "thread");
    CHECK_INT_EQ(PARSE("--kernel", "copy,reduce", "--lever", "bounds"), OCC_EXIT_OK);
    CHECK_INT_EQ(opt.lever, OCC_LEVER_BOUNDS);
    CHECK_INT_EQ(PARSE("--kernel", "all", "--lever", "both"), OCC_EXIT_OK);
    CHECK_INT_EQ(PARSE("--kernel", "chase", "--lever", "pad"), OCC_EXIT_OK);
    /* Compiled values: those of the selected families that take the option. */
    for (int f = 0; f < occ_family_count(); f++) {
        int vals[16], n = occ_family_axis_values(f, 'u', vals, 16);
        const char *sel[] = {"--kernel", occ_family_at(f)->kernel, "--mode", occ_family_at(f)->mode,
                             NULL};
        char v[16];
        if (!occ_family_takes(occ_family_at(f), "unroll")) continue;
        for (int i = 0; i < n && i < 16; i++) {
            snprintf(v, sizeof v, "%d", vals[i]);
            CHECK_INT_EQ(parse_with(sel, "unroll", v), OCC_EXIT_OK);
            CHECK_INTS(opt.unroll, opt.n_unroll, vals[i]);
        }
        snprintf(v, sizeof v, "%d", 2 * vals[n - 1]);
        CHECK_INT_EQ(parse_with(sel, "unroll", v), OCC_EXIT_USAGE);
        CHECK_CONTAINS(err, "is not compiled (accepted: ");
    }
}

/* The run axes of opt as "name=value name=value ..." (the first 8). */
static const char *axes_text(void)
{
    static char buf[512];
    OccRunAxis ax[8];
    int n = occ_options_run_axes(&opt, ax, 8);
    size_t at = 0;
    buf[0] = '\0';
    for (int i = 0; i < n && i < 8 && at < sizeof buf; i++)
        at += (size_t)snprintf(buf + at, sizeof buf - at, "%s%s=%s", i ? " " : "", ax[i].name,
                               ax[i].value);
    return buf;
}

static void test_run_axes(void)
{
    OccRunAxis ax[8];
    CHECK_INT_EQ(PARSE("--dry-run"), OCC_EXIT_OK);
    CHECK_STR_EQ(axes_text(), "carveout=min schedule=dynamic size=auto waves=1"); /* copy, reduce, chase warp */
    CHECK_INT_EQ(PARSE("--kernel", "copy", "--size", "1G", "--waves", "4", "--schedule", "static",
                       "--carveout", "max"),
                 OCC_EXIT_OK);
    CHECK_STR_EQ(axes_text(), "carveout=max schedule=static size=1073741824 waves=4");
    CHECK_INT_EQ(PARSE("--kernel", "chase", "--size", "4K"), OCC_EXIT_OK);
    CHECK_STR_EQ(axes_text(), "carveout=min size=4096");
    CHECK_INT_EQ(PARSE("--kernel", "copy", "--carveout", "half"), OCC_EXIT_USAGE);
    /* The address chain: the chain by name, and no index width (it does not apply). */
    CHECK_INT_EQ(PARSE("--kernel", "chase", "--mode", "latency"), OCC_EXIT_OK);
    CHECK_STR_EQ(axes_text(), "stride=128 cold=0 chain=address");
    CHECK_INT_EQ(PARSE("--kernel", "chase", "--mode", "latency", "--chain", "index"), OCC_EXIT_OK);
    CHECK_STR_EQ(axes_text(), "stride=128 cold=0 chain=index index-bytes=4");
    CHECK_INT_EQ(PARSE("--kernel", "chase", "--mode", "latency", "--cold", "--stride", "4096",
                       "--chain", "index", "--index-bytes", "8"),
                 OCC_EXIT_OK);
    CHECK_STR_EQ(axes_text(), "stride=4096 cold=1 chain=index index-bytes=8");
    /* max bounds what is written, not the count. */
    strcpy(ax[1].value, "untouched");
    CHECK_INT_EQ(occ_options_run_axes(&opt, ax, 1), 4);
    CHECK_STR_EQ(ax[0].name, "stride");
    CHECK_STR_EQ(ax[1].value, "untouched");
    CHECK_INT_EQ(occ_options_run_axes(&opt, NULL, 0), 4);
}

static void test_enum_names(void)
{
    CHECK_STR_EQ(occ_lever_name(OCC_LEVER_AUTO), "auto");
    CHECK_STR_EQ(occ_lever_name(OCC_LEVER_PAD), "pad");
    CHECK_STR_EQ(occ_lever_name(OCC_LEVER_BOUNDS), "bounds");
    CHECK_STR_EQ(occ_lever_name(OCC_LEVER_BOTH), "both");
    CHECK_STR_EQ(occ_lever_name((OccLever)9), "unknown");
    CHECK_STR_EQ(occ_chain_name(OCC_CHAIN_ADDRESS), "address");
    CHECK_STR_EQ(occ_chain_name(OCC_CHAIN_INDEX), "index");
    CHECK_STR_EQ(occ_chain_name((OccChain)2), "unknown");
}

/* The calculator's options: only with --calc, which needs --regs and defaults to the largest
 * carveout unless --carveout is given. */
static void test_calc_options(void)
{
    char entry[1024];
    CHECK_INT_EQ(PARSE("--quiet"), OCC_EXIT_OK);
    CHECK(opt.calc == 0 && opt.regs_per_thread == 0 && opt.smem_bytes == 0);
    CHECK(opt.target_occ_pct == 0 && opt.target_blocks == 0);
    CHECK_INT_EQ(opt.carveout, OCC_CARVEOUT_MIN);
    CHECK_INT_EQ(PARSE("--calc", "--arch", "sm_90", "--regs", "40", "--smem", "16K",
                       "--target-occ", "62.5", "--target-blocks", "4"),
                 OCC_EXIT_OK);
    CHECK(opt.calc == 1 && opt.regs_per_thread == 40 && opt.smem_bytes == 16384);
    CHECK(opt.target_occ_pct == 62.5 && opt.target_blocks == 4);
    CHECK_STR_EQ(opt.arch, "sm_90");
    CHECK_INT_EQ(opt.carveout, OCC_CARVEOUT_MAX);
    CHECK_INT_EQ(PARSE("--carveout", "min", "--calc", "--regs", "40"), OCC_EXIT_OK);
    CHECK_INT_EQ(opt.carveout, OCC_CARVEOUT_MIN);
    BAD("--calc needs --regs N", "", "--calc", "--arch", "sm_90");
    BAD("--regs applies only with --calc", "", "--regs", "32");
    BAD("--smem applies only with --calc", "", "--dry-run", "--smem", "1K");
    BAD("--target-occ: '101' is out of range", "", "--calc", "--regs", "1", "--target-occ", "101");
    BAD("--target-blocks: '0' is out of range", "", "--calc", "--regs", "1", "--target-blocks",
        "0");
    /* 0 bytes of shared memory is the common case of --smem; --size stays positive */
    CHECK_INT_EQ(PARSE("--calc", "--arch", "sm_90", "--regs", "1", "--smem", "0"), OCC_EXIT_OK);
    CHECK_INT_EQ(opt.smem_bytes, 0);
    CHECK_INT_EQ(PARSE("--calc", "--arch", "sm_90", "--regs", "1", "--smem", "0K"), OCC_EXIT_OK);
    CHECK_INT_EQ(opt.smem_bytes, 0);
    BAD("--smem: '0X' has an unknown unit", "zero or positive byte count", "--calc", "--regs", "1",
        "--smem", "0X");
    BAD("--size: '0' is not positive", "a positive byte count", "--size", "0");
    BAD("'sm_90'", "needs --dry-run or --calc", "--arch", "sm_90");
    help_entry("regs", entry, sizeof entry);
    CHECK_CONTAINS(entry, "only with --calc accepted: 1..255; default: none (--calc needs it)");
    help_entry("smem", entry, sizeof entry);
    CHECK_CONTAINS(entry, "only with --calc accepted: a zero or positive byte count");
    CHECK_CONTAINS(entry, "; default: none");
}

/* Hardening: a step too fine for the planner, and a control byte in a quoted value. */
/* The values read the same when the caller has set a locale whose decimal point is ','. */
static void test_locale_independent(void)
{
    if (setlocale(LC_NUMERIC, "de_DE.UTF-8") == NULL &&
        setlocale(LC_NUMERIC, "de_DE.utf8") == NULL) {
        printf("note: no de_DE locale; numbers under LC_NUMERIC=de_DE not checked\n");
        return;
    }
    CHECK(strcmp(localeconv()->decimal_point, ",") == 0);
    CHECK_INT_EQ(PARSE("--occ", "12.5,50"), OCC_EXIT_OK);
    CHECK_INT_EQ(opt.occ.n_pct, 2);
    CHECK(opt.occ.pct[0] == 12.5);
    CHECK_INT_EQ(PARSE("--occ", "6.25..100:6.25"), OCC_EXIT_OK);
    CHECK(opt.occ.lo_pct == 6.25 && opt.occ.step_pct == 6.25);
    BAD("'12,5'", "decimal comma", "--occ", "12,5");
    setlocale(LC_NUMERIC, "C");
}

static void test_hardening(void)
{
    BAD("--occ", "step too small", "--occ", "1..100:0.001");
    CHECK_INT_EQ(PARSE("--occ", "1..100:0.01"), OCC_EXIT_OK); /* 9900 levels: still fine */
    BAD("--block", "'1?2'", "--block", "1\n2");
    CHECK(strchr(err, '\n') == NULL);
    CHECK_INT_EQ(PARSE("--resume", "a.csv", "--out", "b.csv"), OCC_EXIT_USAGE);
    CHECK_CONTAINS(err, "drop --out");
    CHECK_INT_EQ(PARSE("--resume", "a.csv"), OCC_EXIT_OK);
    CHECK_STR_EQ(opt.resume_path, "a.csv");
}

int main(void)
{
    test_defaults();
    test_hardening();
    test_mission_command();
    test_lists_and_kernels();
    test_occ_forms();
    test_scalars_and_flags();
    test_bad_flags_and_lists();
    test_bad_occ();
    test_bad_scalars();
    test_size_helper();
    test_int_list_helper();
    test_reparse_and_argv_order();
    test_never_prints();
    test_help_text();
    test_calc_options();
    test_help_examples();
    test_help_agrees_with_parser();
    test_help_scopes();
    test_applicability();
    test_run_axes();
    test_enum_names();
    test_locale_independent();
    return check_done();
}
