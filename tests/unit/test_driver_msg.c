/* SPDX-License-Identifier: Apache-2.0 */
/* tests/unit/test_driver_msg.c: occ_no_device_message tells a machine without a driver from a
 * driver older than the runtime, and from a driver without devices. */
#include <string.h>

#include "check.h"
#include "driver_msg.h"

#define WHAT "no usable CUDA device (cudaGetDeviceCount)"
#define INSUFF "cudaErrorInsufficientDriver"
#define INSUFF_TEXT "CUDA driver version is insufficient for CUDA runtime version"

static char msg[512];

static void test_no_driver(void)
{
    /* No driver loaded: the runtime says "insufficient driver", but no driver is the truth. */
    occ_no_device_message(WHAT, INSUFF, INSUFF_TEXT, 0, 0, 13000, msg, sizeof msg);
    CHECK(strncmp(msg, WHAT ": ", strlen(WHAT) + 2) == 0);
    CHECK_CONTAINS(msg, "no NVIDIA driver is loaded");
    CHECK_CONTAINS(msg, INSUFF);
    CHECK(strstr(msg, "older") == NULL);
    occ_no_device_message(WHAT, "cudaErrorNoDevice", "no CUDA-capable device is detected", 0, 0,
                          13000, msg, sizeof msg);
    CHECK_CONTAINS(msg, "no NVIDIA driver is loaded");
    CHECK(strchr(msg, '\n') == NULL);
}

static void test_old_driver(void)
{
    occ_no_device_message(WHAT, INSUFF, INSUFF_TEXT, 1, 12040, 13000, msg, sizeof msg);
    CHECK_CONTAINS(msg, "the NVIDIA driver (supports CUDA 12.4) is older than this binary's CUDA "
                        "runtime (13.0; " INSUFF ")");
    CHECK_CONTAINS(msg, "update the driver");
    /* A driver present whose version cannot be read. */
    occ_no_device_message(WHAT, INSUFF, INSUFF_TEXT, 1, 0, 13020, msg, sizeof msg);
    CHECK_CONTAINS(msg, "runtime (13.2) cannot use it");
    CHECK_CONTAINS(msg, INSUFF_TEXT);
}

static void test_other(void)
{
    occ_no_device_message(WHAT, "cudaErrorNoDevice", "no CUDA-capable device is detected", 1,
                          13000, 13000, msg, sizeof msg);
    CHECK_CONTAINS(msg, "loaded but lists no CUDA device (cudaErrorNoDevice)");
    occ_no_device_message(WHAT, "cudaErrorUnknown", "unknown error", 1, 13000, 13000, msg,
                          sizeof msg);
    CHECK_STR_EQ(msg, WHAT ": cudaErrorUnknown: unknown error");
    occ_no_device_message(WHAT, "cudaErrorUnknown", "unknown error", 0, 0, 0, msg, sizeof msg);
    CHECK_STR_EQ(msg, WHAT ": cudaErrorUnknown: unknown error");
    char v[32];
    occ_cuda_version_name(12080, v, sizeof v);
    CHECK_STR_EQ(v, "CUDA 12.8");
    occ_cuda_version_name(0, v, sizeof v);
    CHECK_STR_EQ(v, "no CUDA driver");
    /* A short buffer is cut, never overrun. */
    char small[16];
    occ_no_device_message(WHAT, INSUFF, INSUFF_TEXT, 1, 12040, 13000, small, sizeof small);
    CHECK_INT_EQ((int)strlen(small), 15);
}

int main(void)
{
    test_no_driver();
    test_old_driver();
    test_other();
    return check_done();
}
