// Package zoltan is a cgo binding to Zoltan's parallel hypergraph
// partitioner PHG (Trilinos 13's libtrilinos_zoltan, Debian's
// libtrilinos-zoltan-dev), linked with the MPI build (build tag mpi).
// Without the tag, [Partition] returns mpi.ErrNoMPI.
//
// A [Hypergraph] is one rank's share, in Zoltan's compressed-vertex form:
// the vertices (Zoltan's objects) this rank holds, each with the nets it
// belongs to (its pins), all named by global ids. [Partition] splits the
// vertices into Options.Parts parts of about equal count, minimising the
// connectivity-1 metric (PHG_CUT_OBJECTIVE CONNECTIVITY: the sum over the
// nets of the parts they touch, less one), and returns the part of every
// local vertex. It is collective over the communicator, which must be
// MPI's.
//
// Every net is kept, however large: PHG drops nets with more pins than
// PHG_EDGE_SIZE_THRESHOLD (a quarter of the vertices by default) from the
// partitioning, which would let it ignore a hub's copies; the package sets
// the threshold to 1.
//
// # Determinism
//
// PHG draws from Zoltan's own generator, whose state otherwise carries
// over from one call to the next (two calls in one process differed);
// Partition sets Zoltan's SEED parameter to Options.Seed at every call, so
// that a call is repeatable for the same input, seed and number of
// processes (tested). The result depends on the number of processes.
//
// # Memory
//
// Zoltan asks for the hypergraph through query callbacks during
// Zoltan_LB_Partition; the callbacks read the Go arrays, which are passed
// to one C call that creates the Zoltan structure, partitions and destroys
// it, so that no Go memory is held by C after the call returns (cgo's
// rule).
package zoltan
