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
//     object) and PT-Scotch cuts it into one group of tasks per rank; the
//     tasks move to their group's rank; the shares are made to fit whole
//     parts of the cap, moving the few tasks beyond (fewer than a part per
//     rank) to ranks where their data objects already are; each rank runs
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
// grouping (tens of seconds for millions of tasks) and, below SmallTasks
// tasks, the second pass. Memory per rank follows its share: the read
// entries (8 bytes each, kept for the output), the contracted graph's share
// (up to 36 bytes a task, while it lives) and the single-machine SPAC on
// about m/P tasks. The limits of this build are PT-Scotch's 32-bit numbers
// (2^31 - 1 tasks in all) and the int32 indices of the single-machine code
// inside a share.
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
