/* SPDX-License-Identifier: Apache-2.0 */
/* tests/unit/nvml/test_nvml.c: occ_nvml_reading against the fake NVML that LD_LIBRARY_PATH puts
 * first (tests/unit/nvml/fake_nvml.c): the clocks-event-reasons mask where the library has that
 * call, else the deprecated throttle-reasons mask. Usage: test_nvml EXPECTED_MASK (e.g. 0x4). */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "nvml.h"

int main(int argc, char **argv)
{
    char buf[160], want[160];
    CHECK(argc == 2);
    if (argc != 2) return check_done();
    snprintf(want, sizeof want, "temp 41 C, sm clock 1980 MHz, power 120 W, throttle reasons %s",
             argv[1]);
    CHECK_INT_EQ(occ_nvml_reading("0000:01:00.0", buf, sizeof buf), 0);
    CHECK_STR_EQ(buf, want);
    CHECK_INT_EQ(occ_nvml_reading("0000:02:00.0", buf, sizeof buf), -1);
    CHECK_STR_EQ(buf, "NVML could not read device 0000:02:00.0");
    return check_done();
}
