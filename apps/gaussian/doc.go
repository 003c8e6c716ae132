// Package gaussian is Rodinia's gaussian benchmark (dense Gaussian
// elimination without pivoting) on the CPU and the GPU: the original
// kernels, the same kernels on the RCM-renumbered system (the fair
// baseline), and a SPAC-scheduled update kernel.
//
// # The benchmark
//
// Rodinia reads a system A x = b (ReadSystem: the size n, the n x n matrix
// row by row, then b) or generates one (gaussian -s n; Generate: A[i][j] =
// 10 exp(-0.01 |i-j|), b = 1), eliminates forward on the GPU and
// back-substitutes on the host. Each pivot step t launches Fan1, a thread
// per row below the pivot computing its multiplier m[r][t] = a[r][t] /
// a[t][t], then Fan2, a 2D grid covering the whole matrix whose threads
// update a[r][c] -= m[r][t] a[t][c] for r > t, c >= t (and b[r] -= m[r][t]
// b[t] in the pivot column). Fan2's threadIdx.x runs down rows, so a warp
// touches a column: every load and store of a falls in another row, and
// the multiplier and pivot-row value every thread reads are read again by
// the other threads of its row and column.
//
// Forward is that elimination on the CPU, with the GPU's arithmetic: a
// correctly rounded division and one fused multiply-add per update (exact
// in fp64 with math.FMA, and in fp32 by rounding to odd). Every value is
// updated once per step, so the order of the updates does not matter: the
// GPU's eliminated matrix, b and x (back-substituted on the host by the
// same code) equal the CPU's bit for bit, for every schedule. Compare
// counts the values that differ; the check is exact.
//
// # Locality graph and schedule
//
// Tasks are Fan2's threads: the update of a[r][c] at step t reads the
// multiplier of row r and the pivot-row value of column c, and writes its
// own element. The locality graph of a step is bipartite, a vertex per
// active row (its multiplier) and per active column (its pivot value), an
// edge per task: the complete bipartite graph of the active square. Its
// balanced edge partitions are periodic: a part is a set of tasks whose
// rows and columns the block loads once. So SPAC partitions one W x W
// window (Window, WindowFor: 64 or 128 wide, 16 to 128 parts) through the
// shared pipeline (pipeline.Schedule, schedule.Build: the job-swapping
// array, the per-block unique rows and columns and every task's local
// addresses), and the kernel repeats that template over every window of
// the active square at every step (Template). A SPAC block stages its rows'
// multipliers and columns' pivot values in shared memory and runs its
// tasks sorted by (row, column): one load and one store of a per task,
// neighbouring threads on neighbouring columns. Fan1 is unchanged.
// Template.Run runs the template on the CPU; Template.Loads counts the
// values each Fan2 reads at its largest step.
//
// The RCM baseline renumbers the unknowns by reverse Cuthill-McKee of the
// matrix's graph (package order) and runs the original kernels on
// P A P^T, P b. A dense matrix has no band to narrow: every ordering is
// as good, and the baseline measures exactly that. Its x, mapped back, is
// checked exactly against the CPU's elimination of the same permuted
// system, and against the original's x within Tolerance (another pivot
// order rounds differently).
//
// # On the GPU
//
// kernels/gaussian.cu holds the kernels in fp32 and fp64
// (gaussian_<kernel>_<f32|f64>), compiled to PTX by 'make ptx' and
// embedded (Module); GPU.Eliminate runs them on package gpu's runtime,
// which without the cuda build tag returns gpu.ErrNoCUDA. The n-1 steps
// (2(n-1) launches) are recorded as one CUDA graph, so that the host's
// launch cost, the same for every variant, does not hide the kernels' time
// (Rodinia synchronizes after every launch); times are CUDA events around
// the graph, the median of repeated runs after a warm-up. The original
// Fan2 block for B threads is bx x by, bx the largest power of two whose
// square is at most B (Fan2Shape).
//
// # JSON report
//
// 'spac gaussian --format json' writes the schema documented in package
// apps/btree, with "app": "gaussian", "kernel": "elimination", the
// precision set, "sizes": {"n": N}, and per run: time_ms the whole
// elimination, blocks over all steps, loads the values Fan2 reads from
// global memory at step 0, mismatches the values of A, b and x not bit for
// bit the CPU's, max_rel_diff the largest |x - x_ref| / max |x_ref| against
// the CPU's solution of the unpermuted system.
package gaussian
