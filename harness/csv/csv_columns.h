/* SPDX-License-Identifier: Apache-2.0 */
/* harness/csv/csv_columns.h: the CSV schema of a sweep, in its fixed column order.
 *
 * One X-macro is the single source of truth: it generates the OccRow struct (csv.h), the header
 * line, the writer and the reader, and results/README.md documents the same list. Each entry is
 * X(name, type, doc): type STR (const char *), INT (long long) or NUM (double, NaN = not
 * applicable, written as "NaN"). Names carry their unit. Columns that do not apply to a kernel
 * family hold NaN (numbers) or "-" (strings), so CSVs of every family and GPU concatenate. */
#ifndef OCC_CSV_COLUMNS_H
#define OCC_CSV_COLUMNS_H

#define OCC_CSV_COLUMNS(X)                                                                         \
    X(gpu_name, STR, "GPU name reported by the driver")                                            \
    X(cc, STR, "compute capability, major.minor")                                                  \
    X(sm_count, INT, "streaming multiprocessors on the GPU")                                       \
    X(kernel, STR, "kernel family: the .kernel of its descriptor (kernels/families/<name>.h)")       \
    X(mode, STR, "family mode: the .mode of a mode entry of its descriptor; chase latency-cold: the ladder with L2 flushed") \
    X(variant, STR, "compiled variant: a name of its descriptor's list, as --list prints it (<family>_u<U>_v<V>[_r<cap>] for the streams); loaded_<traffic>_w<W>_u<U>: a load level") \
    X(unroll, INT, "U: independent loads (copy/reduce/smem stream) or chains (chase, smem chase: per warp; fma: per thread; mma: accumulators per warp) in flight")    \
    X(vec_bytes, INT, "V: bytes per load instruction per thread (fma: bytes per element, 4 fp32, 8 fp64; mma: bytes per accumulator element)") \
    X(fma_per_element, INT, "A: dependent FMAs applied to each loaded float (mixed); 0 n/a")      \
    X(reg_cap_per_thread, INT, "register cap of an _r<N> twin (__maxnreg__(N)), registers per thread; 0 = natural") \
    X(lever, STR, "occupancy lever used: pad (smem padding) or bounds (register cap + padding)")  \
    X(block_threads, INT, "threads per block")                                                     \
    X(occ_target_pct, NUM, "occupancy asked for, % of max warps per SM")                           \
    X(blocks_per_sm, INT, "resident blocks per SM, from cudaOccupancyMaxActiveBlocksPerMultiprocessor") \
    X(occ_achieved_pct, NUM, "theoretical occupancy that ran: blocks_per_sm x warps/block / max warps") \
    X(limiter, STR, "what bounds blocks_per_sm: warps, blocks, regs or smem")                     \
    X(regs_per_thread, INT, "registers per thread (cudaFuncGetAttributes numRegs)")                \
    X(loads_in_flight_sass, INT, "loads the variant's steady-state loop issues before the first use, audited in the build's SASS for this arch; 0 n/a") \
    X(local_bytes_per_thread, INT, "local memory per thread: register spills + stack")             \
    X(dyn_smem_pad_bytes, INT, "dynamic shared memory per block used as padding")                  \
    X(grid_blocks, INT, "blocks launched: blocks_per_sm x sm_count (one full wave)")               \
    X(schedule, STR, "work sharing among blocks: dynamic (chunks claimed until none is left), static (one fixed share per block); - n/a") \
    X(chunk_bytes, INT, "bytes a block takes at a time: one claimed chunk (dynamic) or its whole share (static); 0 n/a") \
    X(buffer_bytes, INT, "bytes of each input/output buffer (chase: footprint; fma: the chains' stored results)") \
    X(bytes_per_launch, INT, "DRAM bytes one launch must move (copy: 2 x buffer; smem: the shared-memory bytes its loads and stores move; fma, mma: 0)")                \
    X(l2_resident, INT, "1 when the bytes one launch touches (copy: input + output; reduce: "     \
                        "input; chase and ladder: the footprint) are at most 2 x the L2 size, so " \
                        "part of them may be served from L2")                                      \
    X(bytes_in_flight_per_sm, INT, "warps x 32 x U x V (copy/reduce/mixed); chains x line bytes (chase); 0 fma") \
    X(dram_bytes_per_load_byte, NUM, "DRAM bytes gbps_median counts per byte of loads in flight (copy 2: load + store; reduce, chase 1); NaN: no Little's-law model (ladder)") \
    X(samples, INT, "timed samples kept")                                                          \
    X(samples_discarded_clock, INT, "samples dropped: SM clock below 90% of the point's median")  \
    X(sm_clock_mhz_median, NUM, "median SM clock after the samples (clock watch), MHz")           \
    X(launches_per_sample, INT, "kernel launches batched into one event-timed sample")             \
    X(time_ms_median, NUM, "median time of one launch, ms")                                        \
    X(time_ms_min, NUM, "fastest sample, per launch, ms")                                          \
    X(time_ms_mean, NUM, "mean per-launch time over samples, ms")                                  \
    X(time_ms_stddev, NUM, "standard deviation of per-launch time over samples, ms")               \
    X(noise_pct, NUM, "relative standard deviation, 100 x stddev / mean")                          \
    X(gbps_median, NUM, "bytes_per_launch / time_ms_median, GB/s (1e9 B/s)")                      \
    X(gbps_max, NUM, "bytes_per_launch / time_ms_min, GB/s")                                       \
    X(pct_of_memcpy, NUM, "gbps_median / cudaMemcpy device-to-device GB/s of this run, %")         \
    X(pct_of_dram_peak, NUM, "gbps_median / theoretical DRAM peak from device attributes, %")     \
    X(flops_per_launch, INT, "floating-point operations one launch performs, 2 per FMA (fma, mixed); 0 n/a") \
    X(gflops_median, NUM, "flops_per_launch / time_ms_median, GFLOP/s (1e9 FLOP/s)")              \
    X(flop_peak_gflops, NUM, "arithmetic peak of the row's type: SMs x FMA lanes per SM per clock (arch table) x 2 x sm_clock_mhz_median (mma: the arch's headline dense tensor FLOP per SM per clock of the input type instead), GFLOP/s") \
    X(pct_of_flop_peak, NUM, "gflops_median / flop_peak_gflops, %")                               \
    X(ns_per_hop_median, NUM, "chase, smem chase: ns per dependent load of one chain (warp/thread/smem: launch time / hops of a chain)")   \
    X(cycles_per_hop_median, NUM, "chase latency: SM cycles per dependent load, median segment")  \
    X(cycles_per_hop_p5, NUM, "chase latency: cycles per load, p5 over segments")                  \
    X(cycles_per_hop_p95, NUM, "chase latency: cycles per load, p95 over segments")                \
    X(sm_clock_mhz_measured, NUM, "SM clock in the kernel, clock64 / globaltimer (chase latency, fma, mma, mixed, wgmma)") \
    X(hops_per_s_median, NUM, "chase, smem chase: dependent loads completed per second, all chains")          \
    X(traffic, STR, "chase loaded: what the background does, read (adds up what it loads) or copy (also stores it); - n/a") \
    X(stream_warps_per_sm, INT, "chase loaded: background warps per SM (one block per SM beside the probe); 0 n/a") \
    X(latency_mean_ns, NUM, "chase loaded: mean hop latency of the probes' dependent loads, ns")   \
    X(latency_mean_cycles, NUM, "chase loaded: the same in SM cycles")                             \
    X(latency_p5_ns, NUM, "chase loaded: hop latency p5, ns (16-cycle histogram bin centre)")      \
    X(latency_p50_ns, NUM, "chase loaded: hop latency p50, ns")                                     \
    X(latency_p95_ns, NUM, "chase loaded: hop latency p95, ns")                                     \
    X(latency_p99_ns, NUM, "chase loaded: hop latency p99, ns")                                     \
    X(latency_max2_ns, NUM, "chase loaded: expected slowest of 2 independent hops, ns (the mean plus the histogram's expected maximum over its mean)") \
    X(latency_max4_ns, NUM, "chase loaded: expected slowest of 4 independent hops, ns")            \
    X(latency_max8_ns, NUM, "chase loaded: expected slowest of 8 independent hops, ns")            \
    X(latency_max16_ns, NUM, "chase loaded: expected slowest of 16 independent hops, ns")          \
    X(latency_max32_ns, NUM, "chase loaded: expected slowest of 32 independent hops, ns")          \
    X(latency_sm_min_ns, NUM, "chase loaded: lowest one probe's (one SM's) mean hop latency, ns")   \
    X(latency_sm_max_ns, NUM, "chase loaded: highest one probe's mean hop latency, ns")            \
    X(occ_measured_pct, NUM, "time-averaged resident warps per SM / max warps, from %smid+timers") \
    X(occ_measured_spread_pct, NUM, "max - min over SMs of the measured occupancy, points of %")   \
    X(gbps_predicted, NUM, "Little's law: min(roof, f x bytes_in_flight_per_sm x SMs / latency)") \
    X(measured_over_predicted, NUM, "gbps_median / gbps_predicted")                                \
    X(latency_loaded_ns, NUM, "f x bytes_in_flight_per_sm x SMs / gbps_median: loaded latency, ns") \
    X(verify_err, NUM, "reduce: |gpu - host| / sum|x|; copy/chase: mismatching elements")          \
    X(ncu_occ_achieved_pct, NUM, "--ncu: achieved occupancy, sm__warps_active.avg.pct_of_peak_sustained_active, %; NaN without --ncu") \
    X(ncu_dram_throughput_pct, NUM, "--ncu: DRAM throughput, dram__throughput.avg.pct_of_peak_sustained_elapsed, % of peak") \
    X(ncu_issue_active_pct, NUM, "--ncu: cycles with an instruction issued, smsp__issue_active.avg.pct_of_peak_sustained_active, %") \
    X(ncu_stall_long_scoreboard, NUM, "--ncu: warps stalled on L1TEX (memory) results per issued instruction, smsp__average_warps_issue_stalled_long_scoreboard_per_issue_active.ratio") \
    X(ncu_stall_not_selected, NUM, "--ncu: warps eligible but not selected per issued instruction (parallelism to spare), ..._not_selected_per_issue_active.ratio") \
    X(ncu_stall_wait, NUM, "--ncu: warps waiting on a fixed-latency dependency per issued instruction, ..._wait_per_issue_active.ratio") \
    X(ncu_stall_math_throttle, NUM, "--ncu: warps waiting for a math pipe per issued instruction, ..._math_pipe_throttle_per_issue_active.ratio") \
    X(status, STR, "ok, skip:<reason> or fail:<reason>")

#endif
