// Package mpi is the toolkit's message passing: a communicator interface
// ([Comm]) with the few collective operations the distributed partitioner
// needs, backed by MPI (OpenMPI through cgo, build tag mpi) or, for tests and
// for builds without MPI, by goroutines of one process ([Local]).
//
// A [Comm] is a fixed group of processes (ranks 0 to Size()-1) that call the
// same collective operations in the same order. Every operation here is
// collective: all ranks call it, and it returns on every rank with the same
// outcome. The data of a collective is plain bytes; the generic helpers
// ([Alltoall], [Allgather], [Bcast], [Sum], [Max], [Exscan]) move slices of
// fixed-size values without pointers (integers, floats, structs of them), in
// the machine's byte order: every rank of one job runs on the same
// architecture.
//
// # Errors across ranks
//
// A rank that fails while the others carry on would leave them waiting in
// their next collective forever. [Agree] is the protocol that prevents it:
// after each step that can fail locally, every rank calls Agree with its own
// error, and all of them get the same answer, nil when every rank
// succeeded, otherwise an error naming each failed rank and its message.
//
// # MPI
//
// [Init] starts MPI once per process (MPI_Init_thread, asking for
// MPI_THREAD_MULTIPLE, since goroutines move between threads and PT-Scotch
// may run threads of its own) and [World] is MPI_COMM_WORLD; [Finalize]
// ends it and must be called before the process exits, or mpirun reports
// the job as failed. Without the mpi build tag, [Init] returns [ErrNoMPI],
// which says how to get an MPI build.
//
// OpenMPI traps SIGSEGV, SIGBUS, SIGFPE and SIGILL to print stack traces
// (its MCA parameter opal_signal); in a Go process those handlers would
// replace Go's, which turns Go's nil-pointer panics into crashes. Init
// therefore sets OMPI_MCA_opal_signal to empty when it is not set already.
// A SIGINT or SIGTERM forwarded by mpirun reaches Go's handlers as usual.
//
// A rank waiting in a collective polls; OpenMPI's default poll never
// yields the core, and with more ranks than cores (as on a two-core CI
// machine) the waiting ranks then starve the working ones: PT-Scotch took
// 17.7 s instead of 1.9 s on two ranks of two cores. Init sets
// OMPI_MCA_mpi_yield_when_idle to 1 (yield while polling) unless it is set.
//
// Init also gives each rank its share of the machine's cores: GOMAXPROCS
// becomes the number of cores over the ranks on the machine
// (OMPI_COMM_WORLD_LOCAL_SIZE), unless GOMAXPROCS is set.
//
// A message larger than MPI's int counts (2 GiB) is sent in rounds, so
// that no count overflows; see Comm.Exchange.
package mpi
