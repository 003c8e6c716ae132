// Package particlefilter is Rodinia's particlefilter benchmark (tracking a
// disk through a synthetic noisy video with a
// sampling-importance-resampling particle filter) on the CPU and the GPU:
// Rodinia's two programs, the original on RCM-ordered threads (the fair baseline), and
// a likelihood scheduled by SPAC.
//
// # The benchmark
//
// NewVideo makes Rodinia's video of Spec.Frames frames of X x Y bytes
// (-x, -y, -z): a disk of radius 5 (intensity 228) moving in a straight
// line over a background of 100, plus 5 N(0,1) noise, stored with frames
// innermost. Every particle owns a 32-bit linear congruential generator
// (GCC's constants, seeded Seed*i as Rodinia seeds time(0)*i); Box-Muller
// turns its draws into normal ones. The filter starts every particle at
// the frame's centre and, for frames 1 to Frames-1: moves each particle
// (x + 1 + 5 N, y - 2 + 2 N); computes its likelihood, the mean over the
// 69 pixels of a disk around its (truncated) position of
// ((I-100)^2 - (I-228)^2)/50, and its weight exp(likelihood)/n;
// normalizes the weights; builds their cumulative sum; and resamples
// systematically: particle i draws the position of the first particle
// whose cumulative weight reaches u1 + i/n, u1 drawn from particle 0's
// generator (find-index). Rodinia's quirks are kept and documented where
// they act (NewVideo, sampleIndex, randu).
//
// Reference runs it on the CPU, Rodinia's arithmetic in Rodinia's order,
// and records the Trajectory: every particle's pixel cell after the motion
// model of every frame. Both of Rodinia's programs are double precision
// (particlefilter_float too, despite its name); so is everything here. In single precision the weights exp(+-330) overflow and
// underflow, so there is no fp32 variant.
//
// # The variants
//
//   - Original: Rodinia's particlefilter_float, every step on the GPU:
//     likelihood (a thread per particle: motion, the 69 sample pixels
//     written to an index array and read back, the weight, a block's sum
//     of weights in shared memory), sum (one thread over the block sums;
//     launched as one warp, where Rodinia launches a full grid of which
//     one thread works),
//     normalize, cumulative sum (one thread), find-index (a thread per
//     particle searching linearly: O(n^2) a frame). Rodinia's normalize
//     kernel computes the cumulative sum in one thread while other blocks
//     may still be normalizing; here the cumulative sum is a kernel of its
//     own, launched after.
//   - Naive: Rodinia's particlefilter_naive: the host runs everything but
//     find-index (the CPU reference's code), copying positions, cumulative
//     weights and points over and the drawn positions back every frame.
//   - RCM: the original kernels, the likelihood's threads running the
//     particles in the reverse Cuthill-McKee order (package order) of the
//     frame's locality graph: particles reading the same pixels on
//     neighbouring threads.
//   - SPAC: the likelihood by samples instead of particles. The frame's
//     likelihood sums are A g, A the sample matrix (FrameMatrix: row i a
//     particle, a column per pixel, an entry per sample) and g the pixels'
//     ratios: the paper's SpMV model, a task (thread) per sample joining
//     its particle and its pixel. Its SPAC edge partition into parts of
//     at most one thread block becomes a package schedule Schedule; a
//     block stages its pixels' ratios in shared memory, adds each sample
//     into its particle's shared sum and writes the sums out (atomically
//     for particles other blocks share). Three kernels replace the
//     likelihood: motion, sample terms, weights; the rest is the
//     original's.
//
// The sums of ratios are integers (256 I - 41984 each, over 50); SPAC adds
// them exactly and divides once, the original divides each by 50 and adds
// in sample order, so the likelihoods differ in their last bits.
// Compare and its tolerances state what agreement is expected and why;
// the resampling draws the same particles unless a point falls within
// rounding of a cumulative weight, which Compare counts (Diff.Moved).
//
// # The inspector
//
// The particles move every frame, and so does the locality graph: a
// frame's schedule (RCM's order, SPAC's partition) is built from that
// frame's cells, which the CPU reference knows before the GPU runs
// (PlanRCM, PlanSPAC; frames are ordered or partitioned in parallel, and
// Plan.Prep sums their times). A program without a reference would have to
// partition between motion and likelihood every frame; Plan.Prep is what
// that would cost. The SPAC motion kernel checks every particle's cell
// against the schedule's and the run fails if one moved (it never
// silently uses another frame's pixels). Simulate runs the RCM and SPAC
// variants on the CPU the way their kernels do, which checks the
// schedules without a GPU.
//
// # On the GPU
//
// kernels/particlefilter.cu holds the kernels, compiled to PTX by 'make
// ptx' and embedded (Module); GPU.Run runs a Plan on package gpu's
// runtime, which without the cuda build tag returns gpu.ErrNoCUDA. A run
// goes once as a warm-up, starts again from the same state, and is timed
// between CUDA events around all frames (the naive variant, whose frames
// alternate host and device work, by the wall clock). Block sizes are any
// multiple of 32 up to 1024; BlockSizes are the paper's sweep.
package particlefilter
