/* SPDX-License-Identifier: Apache-2.0 */
/* tests/gpu/gpu_test.h: shared by the GPU tests: skip (77) without a usable GPU, unless
 * OCC_REQUIRE_GPU=1 makes that a failure (on the GPU machine, so a broken driver cannot pass as
 * a skip); and a CUDA check that fails the test with file:line and the error name. */
#ifndef OCC_GPU_TEST_H
#define OCC_GPU_TEST_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cuda_runtime_api.h>

#include "check.h"
#include "driver_msg.h"
#include "exitcodes.h"

static inline void gpu_test_require_device(void)
{
    int n = 0;
    cudaError_t e = cudaGetDeviceCount(&n);
    if (e == cudaSuccess && n > 0) return;
    const char *req = getenv("OCC_REQUIRE_GPU");
    if (e == cudaSuccess) {
        fprintf(stderr, "no usable GPU (0 devices)\n");
    } else {
        int driver = 0, runtime = 0;
        if (cudaDriverGetVersion(&driver) != cudaSuccess) driver = 0;
        if (cudaRuntimeGetVersion(&runtime) != cudaSuccess) runtime = 0;
        char why[400];
        occ_no_device_message("no usable GPU", cudaGetErrorName(e), cudaGetErrorString(e),
                              occ_driver_present(), driver, runtime, why, sizeof why);
        fprintf(stderr, "%s\n", why);
    }
    exit(req && strcmp(req, "1") == 0 ? 1 : OCC_EXIT_SKIP);
}

#define GPU_OK(expr)                                                                               \
    do {                                                                                           \
        cudaError_t e_ = (expr);                                                                   \
        if (e_ != cudaSuccess) {                                                                   \
            fprintf(stderr, "%s:%d: %s: %s: %s\n", __FILE__, __LINE__, #expr,                      \
                    cudaGetErrorName(e_), cudaGetErrorString(e_));                                 \
            exit(1);                                                                               \
        }                                                                                          \
    } while (0)

#endif
