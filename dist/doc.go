// Package dist is SPAC over MPI: several processes read, partition and
// write one input together, each holding a share of it, so that an input
// too large for one machine's memory can be partitioned, with the same
// answer format and the same metrics as the single-machine path (package
// pipeline).
//
// The steps, all collective over an mpi.Comm:
//
//   - [Read]: each rank reads the lines that start in its byte range of a
//     Matrix Market file, edge list or METIS graph, and the ranks agree on
//     what needs the whole file (entry counts, an edge list's header line,
//     id base and repeated pairs). Entry e of the input lands on one rank,
//     in the single-machine reader's order.
//   - [Partition]: the contracted split-and-connect graph of the whole
//     input is built distributed (a vertex per task; each data object's
//     chain, in transform.Walk's order, built by the rank that owns the
//     object) and PT-Scotch cuts it into one group of tasks per rank; from
//     SmallTasks tasks the graph cut is the cluster graph instead (a
//     vertex per cluster of tasks: a task's row for the spmv model, its
//     endpoint of fewer tasks for the graph model; weighted by its tasks;
//     the chains' links between clusters its edges), and every task takes
//     its cluster's group; the tasks move to their group's rank; the
//     shares are made to fit whole parts of the cap, moving the few tasks
//     beyond (fewer than a part per rank) to ranks where their data
//     objects already are; each rank runs
//     the single-machine SPAC (package spac: its starts, cap pass, polish
//     and refinement) on its share; a second pass (by default below
//     SmallTasks tasks) regroups the parts, as units, between the ranks by
//     PT-Scotch on the graph of the parts, partitions the new shares again
//     and keeps the better partition; the metrics of the whole partition
//     are computed distributed, exactly (a data object's copies are its
//     parts on every rank, added up, less one); every task's part goes back
//     to the rank that read it.
//   - [WriteAssignment]: every rank writes its entries' lines at their
//     offset in one file (MPI-IO), the same bytes as 'spac partition
//     --assignment' writes.
//
// One rank runs exactly the single-machine SPAC on the whole graph (the
// same partition, the same copies).
//
// # Quality, time and memory
//
// The cut between the ranks' shares is a P-way cut of the contracted graph,
// a small part of the K-way one, and inside a share SPAC runs with all its
// starts and refinements: on the shared inputs and generated families the
// copies on 2 and 4 ranks were within 10% of the single-machine SPAC's but
// for inputs with few parts per rank (docs/scale-out). The price is PT-Scotch's
// grouping and, below SmallTasks tasks, the second pass. A grouping of the
// tasks one by one takes tens of seconds for millions of tasks; from
// SmallTasks the clusters are grouped instead, a graph the size of the
// rows: on R-MAT scale 18 (3.9M tasks, 2 cores) the grouping took 2.7 s
// instead of 8.9 s on 2 processes and 4.6 s instead of 21.9 s on 4, at
// 1.005 and 1.024 times the single machine's copies (the tasks one by one:
// 1.010 and 0.993), and the peak memory by the end of the grouping fell
// from 716 to 294 MiB a process on 2 (552 to 218 on 4). Memory per rank
// follows its share: the read entries (8 bytes each, kept for the output),
// the contracted graph's share (up to 36 bytes a task, while it lives) or
// the cluster graph's records and links (8 bytes each, while it is built)
// and the single-machine SPAC on about m/P tasks. The limits of this build
// are PT-Scotch's 32-bit numbers (2^31 - 1 tasks in all) and the int32
// indices of the single-machine code inside a share.
//
// # Determinism
//
// For one input, options and number of processes the result is the same
// on every run: PT-Scotch is seeded and run deterministically (package
// ptscotch), every exchange keeps a fixed order, and SPAC is deterministic.
// Different numbers of processes give different (equally valid)
// partitions.
//
// # Errors and cancellation
//
// A failure on any rank is agreed on (mpi.Agree) before the next
// collective, so every rank returns an error instead of waiting forever.
// The context is checked between steps; PT-Scotch itself cannot be
// interrupted. mpirun forwards SIGINT and SIGTERM to every rank.
package dist
