// Package cg solves A x = b for symmetric positive definite A with the
// conjugate gradient method (Hestenes-Stiefel), on the CPU (the reference)
// and on the GPU with package gpu's SpMV kernels, cuSPARSE's included, plus
// the dot, axpy and xpay kernels of kernels/cg.cu. It also implements
// SPAC-adapt, the paper's overhead control: the solver starts at once with
// the default kernel while a goroutine partitions the matrix and builds the
// SPAC schedule, switches at the first iteration boundary after the
// schedule is on the device, and cancels the partitioner when it converges
// first.
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
// precision. The GPU keeps the scalars on the device (kernels compute alpha
// and beta from them), so the host reads p.Ap and r.r once per iteration
// and never writes them back. Only the summation order differs between
// the engines (sequential on the CPU, a fixed tree on the GPU), so they
// agree to rounding and their iteration counts agree within a few.
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
// kept. So SPAC takes over where it is faster and is dropped after a few
// iterations where it is not, and a cuSPARSE baseline in Ops keeps the
// start as fast as the library. The schedule comes from a goroutine
// (background.go) that runs Options.Schedule and then Engine.Prepare,
// which on the GPU uploads on a stream of its own; the solver checks for it
// without blocking at the end of every iteration. When the solver stops
// first it cancels the goroutine's context and does not wait for the
// partitioner (METIS cannot be interrupted: an abandoned run finishes in
// the background and is dropped); it waits only for an upload already
// under way, whose device memory it must free.
//
// Engines implement Engine: CPUEngine (CSR and the schedule executor,
// package schedule's SpMV, which has the GPU kernels' semantics) and
// GPUEngine. The tests drive the overlap through the CPU engine, so every
// path of it runs in CI without a GPU.
package cg
