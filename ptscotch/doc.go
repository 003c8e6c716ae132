// Package ptscotch is a cgo binding to PT-Scotch's distributed graph
// partitioner (SCOTCH_dgraphPart, libptscotch 7), linked with the MPI build
// (build tag mpi) against Debian's libptscotch-dev: 32-bit SCOTCH_Num, the
// default of that package and the one Zoltan links too. Without the tag,
// [Part] returns mpi.ErrNoMPI.
//
// A [Graph] is one rank's share of a distributed graph: the vertices of
// rank r are a contiguous range of global numbers, after those of the ranks
// before it, each with its adjacency in CSR form naming neighbours by their
// global numbers. [Part] partitions the whole graph into parts of about
// equal vertex weight with few cut edges and returns the part of each local
// vertex. It is collective over the communicator, which must be MPI's.
//
// # Determinism
//
// Part runs Scotch in a context of its own (SCOTCH_contextInit) with the
// deterministic option set (SCOTCH_OPTIONNUMDETERMINISTIC) and the random
// generator seeded with Options.Seed, so that a run is repeatable for the
// same graph, seed and number of processes even though Scotch runs threads
// of its own (without the option, two runs of one job differed). The
// partition does depend on the number of processes: the distributed
// coarsening matches vertices within and across the ranks' shares.
//
// # Threads
//
// Scotch 7 starts threads of its own (SCOTCH_PTHREAD_NUMBER, by default a
// thread per core), which wait by spinning; with several ranks on one
// machine they compete with the ranks for the cores (two ranks on two
// cores: a bipartition took 7.8 s instead of 0.3 s). Part runs Scotch
// with one thread per rank (SCOTCH_contextThreadSpawn): the parallelism is
// the ranks'.
//
// # Errors
//
// Scotch reports errors through SCOTCH_errorPrint, which libptscotcherr
// prints to standard error. This package defines SCOTCH_errorPrint and
// SCOTCH_errorPrintW itself (the executable's definitions take precedence
// over the library's, as package metis does for rand), keeping the last
// message, which the Go error then carries. Part checks its input in one
// pass (lengths, ranges, self loops, weights) before Scotch sees it, since
// Scotch trusts its arrays; the symmetry of the distributed adjacency is
// Scotch's own check (SCOTCH_dgraphCheck), run when Options.Check is set.
//
// # Memory
//
// Scotch keeps pointers to the arrays it is given until the graph is
// freed; the whole build, partition and free happen inside one C call, so
// that no Go memory is held by C after a call returns (cgo's rule).
package ptscotch
