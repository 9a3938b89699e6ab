/* tests/test_options.c: occ_options_parse and its helpers, accepted forms and every bad class. */
#define _POSIX_C_SOURCE 200809L /* dup, dup2, fileno: to catch getopt printing */

#include "check.h"
#include "exitcodes.h"
#include "options.h"

#include <limits.h>
#include <stdlib.h>
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
    CHECK_INT_EQ(opt.kernels, OCC_KERNEL_ALL);
    CHECK_INTS(opt.unroll, opt.n_unroll, 1, 2, 4, 8);
    CHECK_INTS(opt.vec_bytes, opt.n_vec, 4, 8, 16);
    CHECK_INT_EQ(opt.occ.is_list, 0);
    CHECK_INT_EQ(opt.occ.n_pct, 0);
    CHECK_NEAR(opt.occ.lo_pct, 6.25, 0);
    CHECK_NEAR(opt.occ.hi_pct, 100, 0);
    CHECK_NEAR(opt.occ.step_pct, 0, 0);
    CHECK_INT_EQ(opt.block_threads, 128);
    CHECK_INT_EQ(opt.lever, OCC_LEVER_AUTO);
    CHECK_INT_EQ(opt.size_bytes, 0);
    CHECK_NEAR(opt.max_noise_pct, 0.5, 0);
    CHECK_NEAR(opt.max_time_s, 0.5, 0);
    CHECK_INT_EQ(opt.min_samples, 10);
    CHECK(opt.out_path == NULL);
    CHECK(opt.arch == NULL);
    CHECK_INT_EQ(opt.plot + opt.force + opt.dry_run + opt.list + opt.quiet, 0);
    CHECK_INT_EQ(opt.help + opt.version + opt.device, 0);
    CHECK_INT_EQ(opt.chase_mode, OCC_CHASE_WARP);
    CHECK_INT_EQ(opt.footprint_lo_bytes + opt.footprint_hi_bytes, 0);

    memset(&opt, 0x5a, sizeof opt);
    strcpy(err, "stale");
    CHECK_INT_EQ(parse_v(only_prog), OCC_EXIT_OK);
    CHECK_STR_EQ(err, "");
    CHECK_INT_EQ(opt.block_threads, 128);
    CHECK_INTS(opt.unroll, opt.n_unroll, 1, 2, 4, 8);
}

static void test_mission_command(void)
{
    CHECK_INT_EQ(PARSE("--kernel", "reduce", "--unroll", "1,2,4", "--occ", "25..100"), OCC_EXIT_OK);
    CHECK_INT_EQ(opt.kernels, OCC_KERNEL_REDUCE);
    CHECK_INTS(opt.unroll, opt.n_unroll, 1, 2, 4);
    CHECK_INTS(opt.vec_bytes, opt.n_vec, 4, 8, 16);
    CHECK_INT_EQ(opt.occ.is_list, 0);
    CHECK_NEAR(opt.occ.lo_pct, 25, 0);
    CHECK_NEAR(opt.occ.hi_pct, 100, 0);
    CHECK_NEAR(opt.occ.step_pct, 0, 0);
    CHECK_INT_EQ(opt.block_threads, 128);
}

static void test_lists_and_kernels(void)
{
    CHECK_INT_EQ(PARSE("--kernel", "copy,reduce"), OCC_EXIT_OK);
    CHECK_INT_EQ(opt.kernels, OCC_KERNEL_COPY | OCC_KERNEL_REDUCE);
    CHECK_INT_EQ(PARSE("--kernel", "chase"), OCC_EXIT_OK);
    CHECK_INT_EQ(opt.kernels, OCC_KERNEL_CHASE);
    CHECK_INT_EQ(PARSE("--kernel=all"), OCC_EXIT_OK);
    CHECK_INT_EQ(opt.kernels, OCC_KERNEL_ALL);
    CHECK_INT_EQ(PARSE("--kernel", "copy", "--kernel", "chase,copy"), OCC_EXIT_OK);
    CHECK_INT_EQ(opt.kernels, OCC_KERNEL_CHASE | OCC_KERNEL_COPY);

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
    CHECK_INT_EQ(opt.block_threads, 32);
    CHECK_INT_EQ(PARSE("--block", "1024"), OCC_EXIT_OK);
    CHECK_INT_EQ(opt.block_threads, 1024);
    CHECK_INT_EQ(PARSE("--lever", "pad"), OCC_EXIT_OK);
    CHECK_INT_EQ(opt.lever, OCC_LEVER_PAD);
    CHECK_INT_EQ(PARSE("--lever", "bounds"), OCC_EXIT_OK);
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
    CHECK_INT_EQ(PARSE("--out", "x.csv", "--force", "--plot", "--quiet", "--list"), OCC_EXIT_OK);
    CHECK_STR_EQ(opt.out_path, "x.csv");
    CHECK_INT_EQ(opt.force + opt.plot + opt.quiet + opt.list, 4);
    CHECK_INT_EQ(PARSE("--dry-run", "--arch", "sm_90"), OCC_EXIT_OK);
    CHECK_INT_EQ(opt.dry_run, 1);
    CHECK_STR_EQ(opt.arch, "sm_90");
    CHECK_INT_EQ(PARSE("--arch", "sm_100a", "--dry-run"), OCC_EXIT_OK); /* order is free */
    CHECK_STR_EQ(opt.arch, "sm_100a");
    CHECK_INT_EQ(PARSE("--kernel", "chase", "--mode", "thread"), OCC_EXIT_OK);
    CHECK_INT_EQ(opt.chase_mode, OCC_CHASE_THREAD);
    CHECK_INT_EQ(PARSE("--footprint", "4K..1G", "--mode", "latency"), OCC_EXIT_OK);
    CHECK_INT_EQ(opt.chase_mode, OCC_CHASE_LATENCY);
    CHECK_INT_EQ(opt.footprint_lo_bytes, 4096);
    CHECK_INT_EQ(opt.footprint_hi_bytes, 1LL << 30);
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
    BAD("--kernel: 'fma' is not a kernel", "copy, reduce, chase, all", "--kernel", "fma");
    BAD("'copy,,reduce'", "empty", "--kernel", "copy,,reduce");
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
    BAD("--unroll: '3' is not a power of two (accepted: 1, 2, 4, 8 or a range like 1..8)", "",
        "--unroll", "3");
    BAD("'6'", "power of two", "--unroll", "1,6");
    BAD("'0'", "not positive", "--unroll", "0");
    BAD("'-2'", "not positive", "--unroll", "-2");
    BAD("'16'", "not a compiled unroll", "--unroll", "1..16");
    BAD("'5..7'", "without a power of two", "--unroll", "5..7");
    BAD("'2'", "accepted: 4, 8, 16", "--vec", "2");
    BAD("'32'", "not a compiled vector width", "--vec", "4,32");
    BAD("'12'", "not a power of two", "--vec", "12");
    BAD("'0'", "not positive", "--vec", "0");
    BAD("'-4'", "not positive", "--vec", "-4");
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
    CHECK_INT_EQ(PARSE("--occ", "1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,16"), OCC_EXIT_OK);
    CHECK_INT_EQ(opt.occ.n_pct, 16);
}

static void test_bad_scalars(void)
{
    BAD("--block: '48'", "multiple of 32", "--block", "48");
    BAD("'0'", "out of range", "--block", "0");
    BAD("'2048'", "out of range", "--block", "2048");
    BAD("'-32'", "out of range", "--block", "-32");
    BAD("'128x'", "not an integer", "--block", "128x");
    BAD("'1e3'", "not an integer", "--block", "1e3");
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
    BAD("'90'", "sm_NN", "--dry-run", "--arch", "90");
    BAD("'sm_9'", "not an architecture", "--dry-run", "--arch", "sm_9");
    BAD("'sm_90x'", "not an architecture", "--dry-run", "--arch", "sm_90x");
    BAD("'compute_90'", "not an architecture", "--dry-run", "--arch", "compute_90");
    BAD("'sm_90'", "needs --dry-run", "--arch", "sm_90");
    BAD("'fast'", "warp, thread, latency", "--mode", "fast");
    BAD("'latency'", "needs the chase kernel", "--kernel", "copy", "--mode", "latency");
    BAD("'4K..1G'", "needs --mode latency", "--footprint", "4K..1G");
    BAD("'1G..4K'", "reversed", "--mode", "latency", "--footprint", "1G..4K");
    BAD("'4K'", "not a range", "--mode", "latency", "--footprint", "4K");
    BAD("'4K..'", "incomplete range", "--mode", "latency", "--footprint", "4K..");
    BAD("'0'", "not positive", "--mode", "latency", "--footprint", "0..4K");
    BAD("'4Q'", "unknown unit", "--mode", "latency", "--footprint", "1K..4Q");
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
    CHECK_INT_EQ(opt.block_threads, 256);
    CHECK_INT_EQ(opt.plot, 1);
    CHECK_INTS(opt.unroll, opt.n_unroll, 1, 2, 4, 8);
    CHECK_INT_EQ(PARSE("--bogus"), OCC_EXIT_USAGE);
    CHECK_INT_EQ(PARSE("--block", "64"), OCC_EXIT_OK);
    CHECK_INT_EQ(opt.block_threads, 64);
    CHECK_INT_EQ(opt.plot, 0); /* every parse starts from the defaults */
    CHECK_INT_EQ(PARSE("--unroll"), OCC_EXIT_USAGE);
    CHECK_INT_EQ(PARSE("--unroll", "2"), OCC_EXIT_OK);
    CHECK_INTS(opt.unroll, opt.n_unroll, 2);
    /* an error inside a short-option cluster leaves getopt pointing at the 'V': no leftovers */
    CHECK_INT_EQ(PARSE("-xV"), OCC_EXIT_USAGE);
    CHECK_INT_EQ(PARSE("--block", "64"), OCC_EXIT_OK);
    CHECK_INT_EQ(opt.version, 0);
    CHECK_INT_EQ(opt.block_threads, 64);

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
    if (sink == NULL || saved_out < 0 || saved_err < 0)
        return;
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

static void test_help_and_names(void)
{
    static const char *const every_flag[] = {
        "--kernel", "--unroll", "--vec",   "--occ",     "--block", "--lever",
        "--size",   "--mode",   "--footprint", "--max-noise", "--max-time", "--min-samples",
        "--device", "--out",    "--force", "--plot",    "--quiet", "--dry-run",
        "--arch",   "--list",   "-h, --help", "-V, --version"};
    char text[8192];
    size_t len;
    FILE *f = tmpfile();
    CHECK(f != NULL);
    if (f == NULL)
        return;
    occ_options_print_help(f, "./run_sweep");
    rewind(f);
    len = fread(text, 1, sizeof text - 1, f);
    text[len] = '\0';
    fclose(f);
    CHECK(len > 1000);
    CHECK_CONTAINS(text, "Usage: ./run_sweep [OPTIONS]");
    CHECK_CONTAINS(text, "./run_sweep --kernel reduce --unroll 1,2,4 --occ 25..100\n");
    CHECK_CONTAINS(text, "./run_sweep --dry-run --arch sm_90\n");
    CHECK_CONTAINS(text, "Exit codes:");
    CHECK_CONTAINS(text, "\n  0  ");
    CHECK_CONTAINS(text, "\n  1  ");
    CHECK_CONTAINS(text, "\n  2  bad command line");
    CHECK_CONTAINS(text, "\n  3  no usable CUDA device");
    for (size_t i = 0; i < sizeof every_flag / sizeof every_flag[0]; i++)
        CHECK_CONTAINS(text, every_flag[i]);
    CHECK_STR_EQ(occ_lever_name(OCC_LEVER_AUTO), "auto");
    CHECK_STR_EQ(occ_lever_name(OCC_LEVER_PAD), "pad");
    CHECK_STR_EQ(occ_lever_name(OCC_LEVER_BOUNDS), "bounds");
    CHECK_STR_EQ(occ_lever_name(OCC_LEVER_BOTH), "both");
    CHECK_STR_EQ(occ_lever_name((OccLever)9), "unknown");
    CHECK_STR_EQ(occ_chase_mode_name(OCC_CHASE_WARP), "warp");
    CHECK_STR_EQ(occ_chase_mode_name(OCC_CHASE_THREAD), "thread");
    CHECK_STR_EQ(occ_chase_mode_name(OCC_CHASE_LATENCY), "latency");
    CHECK_STR_EQ(occ_chase_mode_name((OccChaseMode)-1), "unknown");
}

/* Hardening: a step too fine for the planner, and a control byte in a quoted value. */
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
    test_help_and_names();
    return check_done();
}
