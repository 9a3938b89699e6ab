/* SPDX-License-Identifier: Apache-2.0 */
/* tests/lib/check.h: a minimal assertion header for occsweep's test programs.
 *
 * Each CHECK counts; a failing one prints file:line and the values, and the test goes on so that
 * one run shows every failure. A test's main ends with `return check_done();`, which prints a
 * summary line and returns 0 (all passed) or 1 (any failed); meson's test() reads that status,
 * and 77 (OCC_EXIT_SKIP) means "skipped". Header-only: every test is one translation unit. */
#ifndef OCC_CHECK_H
#define OCC_CHECK_H

#include <math.h>
#include <stdio.h>
#include <string.h>

static int check_count_ = 0;
static int check_failed_ = 0;

static inline void check_fail_(const char *file, int line, const char *what)
{
    check_failed_++;
    fprintf(stderr, "%s:%d: CHECK failed: %s\n", file, line, what);
}

#define CHECK(cond)                                                                                \
    do {                                                                                           \
        check_count_++;                                                                            \
        if (!(cond)) check_fail_(__FILE__, __LINE__, #cond);                                       \
    } while (0)

#define CHECK_INT_EQ(got, want)                                                                    \
    do {                                                                                           \
        long long g_ = (long long)(got), w_ = (long long)(want);                                   \
        check_count_++;                                                                            \
        if (g_ != w_) {                                                                            \
            check_fail_(__FILE__, __LINE__, #got " == " #want);                                    \
            fprintf(stderr, "    got %lld, want %lld\n", g_, w_);                                  \
        }                                                                                          \
    } while (0)

#define CHECK_NEAR(got, want, abs_tol)                                                             \
    do {                                                                                           \
        double g_ = (double)(got), w_ = (double)(want);                                            \
        check_count_++;                                                                            \
        if (!(fabs(g_ - w_) <= (double)(abs_tol))) {                                               \
            check_fail_(__FILE__, __LINE__, #got " ~= " #want);                                    \
            fprintf(stderr, "    got %.9g, want %.9g (tol %.3g)\n", g_, w_, (double)(abs_tol));    \
        }                                                                                          \
    } while (0)

#define CHECK_STR_EQ(got, want)                                                                    \
    do {                                                                                           \
        const char *g_ = (got), *w_ = (want);                                                      \
        check_count_++;                                                                            \
        if (g_ == NULL || w_ == NULL || strcmp(g_, w_) != 0) {                                     \
            check_fail_(__FILE__, __LINE__, #got " == " #want);                                    \
            fprintf(stderr, "    got \"%s\", want \"%s\"\n", g_ ? g_ : "(null)",                   \
                    w_ ? w_ : "(null)");                                                           \
        }                                                                                          \
    } while (0)

/* True when `hay` contains `needle`; for checking error messages. */
#define CHECK_CONTAINS(hay, needle)                                                                \
    do {                                                                                           \
        const char *h_ = (hay), *n_ = (needle);                                                    \
        check_count_++;                                                                            \
        if (h_ == NULL || strstr(h_, n_) == NULL) {                                                \
            check_fail_(__FILE__, __LINE__, #hay " contains " #needle);                            \
            fprintf(stderr, "    \"%s\" lacks \"%s\"\n", h_ ? h_ : "(null)", n_);                  \
        }                                                                                          \
    } while (0)

static inline int check_done(void)
{
    printf("%d checks, %d failed\n", check_count_, check_failed_);
    if (check_count_ == 0) {
        fprintf(stderr, "no check ran: a test that asserts nothing is a failure\n");
        return 1;
    }
    return check_failed_ ? 1 : 0;
}

#endif
