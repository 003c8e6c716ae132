// Package cg solves A x = b for symmetric positive definite A with the
// conjugate gradient method (Hestenes-Stiefel), on the CPU (the reference)
// and on the GPU with package spmv's kernels (apps/spmv), cuSPARSE's included, plus
// the dot, axpy and xpay kernels of kernels/cg.cu. It also implements
// SPAC-adapt, the paper's overhead control: the solver starts at once
// with a kernel that needs no schedule while the matrix is partitioned and
// the SPAC schedule built in the background, tries the SPAC kernel at the
// first iteration boundary after the schedule is on the device, and
// cancels the partitioner when it converges first. The paper starts from
// the default schedule; spac cg starts from cuSPARSE's CSR SpMV where
// cuSPARSE is available (--adapt-start default restores the paper's
// start), because that is what a user would otherwise run and it is known
// to be fast without a trial.
//
// # Arithmetic
//
// Both engines run the same iteration from x0 = 0 (r = p = b):
//
//	q = A p;  pq = p.q;  alpha = rr / pq
//	x += alpha p;  r -= alpha q;  rr' = r.r
//	stop when sqrt(rr') / ||b|| <= tol
//	p = r + (rr' / rr) p
//
// Vectors and matrix values are in the chosen precision (fp32 or fp64) and
// updated with fused multiply-adds; dot products accumulate in float64 in
// both precisions, and alpha and beta are float64 rounded to the
// precision. Only the summation order differs between the engines
// (sequential on the CPU, a fixed tree on the GPU), so they agree to
// rounding and their iteration counts agree within a few.
//
// The engine applies the stop rule itself (stopPQ, stopRR): on the GPU the
// scalars stay on the device, kernels compute alpha and beta from them,
// and once an iteration stops every vector kernel returns at once. So the
// solver need not wait for an iteration's scalars before queuing the next:
// the GPU engine keeps iterations queued (Engine.Depth), and its kernels
// post each iteration's p.Ap and r.r into page-locked host memory that the
// host reads while the device runs the next. An iteration is the product
// and three launches (the dot products end in their last block, not in
// launches of their own). On the GPU machine a launch costs the host about
// 4 us, more than a small matrix's vector kernels take, so the engine
// launches a solve's first iterations one by one (three launched at most)
// and, once the solve has run 128 k of them, k at a time as a captured
// CUDA graph (k = 4, 8, 16; gpu.Device.Capture): the host makes one launch
// per k iterations, the device runs them back to back, and a partitioner
// running beside the solve has little left to slow (docs/cg-h100: 14 us
// per iteration on bcsstk13, down from 21 launched one by one). The answer
// is the one-at-a-time solve's bit for bit; the iterations launched after
// the stop run empty and cost a product each, at most 2 k, under 1/64 of
// the iterations run (those started and not launched are dropped).
//
// A matrix that is not SPD shows as p.Ap <= 0 (a breakdown): the update is
// skipped, x keeps the last good iterate, and the result says why it
// stopped. Solve refuses up front what cannot be SPD at all: a matrix that
// is not square or not symmetric, or has a diagonal entry <= 0 (Check).
//
// # SPAC-adapt
//
// The solver picks the kernel of every iteration through a small tuner
// (tuner.go): it starts with Options.Ops[0]; further ops, and the SPAC op
// once its schedule is on the device, each run 1 + Options.Probe
// iterations (the first, which pays one-time loading, is not scored), and
// the one with the lowest median product time (CUDA events on the GPU) is
// kept; the SPAC op arriving mid-solve is compared with the current op
// timed again right after it, not with that op's samples from the start.
// So SPAC takes over where it is faster and is dropped after a few
// iterations where it is not. Products are timed only while the tuner
// needs them (its probes) unless Options.TimeAll: on the GPU the events
// cost host time, and a timed iteration is the last one queued until its
// time is read; the untimed products count at their kernel's median. The schedule comes from a goroutine
// (background.go) that runs Options.Schedule and then Engine.Prepare,
// which on the GPU uploads on a stream of its own, from
// Options.ScheduleDelay into the solve on (solves shorter than that never
// pay for starting the partitioner); the solver checks for it
// without blocking after every iteration it reads, and the next
// iteration it queues runs the new op. When the solver stops
// first it cancels the goroutine's context and does not wait for the
// partitioner (METIS cannot be interrupted: an abandoned run finishes in
// the background and is dropped); it waits only for an upload already
// under way, whose device memory it must free. ChildProcess (process.go)
// is a ScheduleSource that partitions in a child process at a low
// priority, killed on cancellation: in the solver's process the
// partitioner's garbage collection and goroutines slowed the launch-bound
// host thread by about 10% on the H100 machine (docs/cg-h100).
//
// Engines implement Engine: CPUEngine (CSR and the schedule executor,
// package schedule's SpMV, which has the GPU kernels' semantics) and
// GPUEngine. The tests drive the overlap through the CPU engine, so every
// path of it runs in CI without a GPU.
package cg
