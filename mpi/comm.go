package mpi

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"unsafe"
)

// Comm is a group of processes that run collective operations together.
// Every method but Rank, Size and Handle is collective: every rank calls it,
// in the same order.
type Comm interface {
	// Rank is this process's number in [0, Size()).
	Rank() int
	// Size is the number of processes.
	Size() int
	// Exchange is an all-to-all exchange: send holds the bytes for every
	// rank one after the other, sendCounts[q] of them for rank q; recv
	// holds what every rank sent to this one, recvCounts[q] bytes from
	// rank q, in rank order.
	Exchange(send []byte, sendCounts []int64) (recv []byte, recvCounts []int64, err error)
	// Allreduce combines x element by element over the ranks with op and
	// leaves the result in x on every rank. Every rank passes the same
	// length.
	Allreduce(x []int64, op Op) error
	// Create opens path for writing on every rank, empty (created or
	// truncated); each rank writes its own byte ranges of it.
	Create(path string) (SharedFile, error)
	// Handle is the MPI communicator as its Fortran handle (MPI_Comm_c2f),
	// for libraries that take an MPI_Comm (PT-Scotch, Zoltan); ok is false
	// for a communicator that is not MPI's.
	Handle() (handle int64, ok bool)
}

// SharedFile is a file that every rank of a communicator writes.
type SharedFile interface {
	// WriteAt writes b at offset off; collective: every rank calls it
	// once per round, with its own data (possibly empty).
	WriteAt(b []byte, off int64) error
	// Close flushes the file to stable storage and closes it; collective.
	Close() error
}

// Op is a reduction.
type Op uint8

const (
	OpSum Op = iota
	OpMax
	OpMin
)

func (op Op) String() string {
	switch op {
	case OpSum:
		return "sum"
	case OpMax:
		return "max"
	case OpMin:
		return "min"
	}
	return fmt.Sprintf("Op(%d)", uint8(op))
}

// reduce combines b into a with op.
func (op Op) reduce(a, b []int64) {
	for i := range a {
		switch op {
		case OpSum:
			a[i] += b[i]
		case OpMax:
			a[i] = max(a[i], b[i])
		case OpMin:
			a[i] = min(a[i], b[i])
		}
	}
}

// ErrNoMPI is returned by Init in a build without MPI.
var ErrNoMPI = errors.New("built without MPI: build with 'make mpi' (installs OpenMPI, PT-Scotch and Zoltan from Debian's packages, builds bin/mpi/spac) and start it under mpirun")

// asBytes views a slice of fixed-size values as bytes.
func asBytes[T any](s []T) []byte {
	if len(s) == 0 {
		return nil
	}
	var zero T
	return unsafe.Slice((*byte)(unsafe.Pointer(&s[0])), len(s)*int(unsafe.Sizeof(zero)))
}

// fromBytes views bytes as a slice of fixed-size values; len(b) is a
// multiple of the size of T and b is aligned for T (buffers from make are).
func fromBytes[T any](b []byte) []T {
	var zero T
	size := int(unsafe.Sizeof(zero))
	if len(b) == 0 || size == 0 {
		return nil
	}
	if uintptr(unsafe.Pointer(&b[0]))%unsafe.Alignof(zero) != 0 {
		out := make([]T, len(b)/size)
		copy(asBytes(out), b)
		return out
	}
	return unsafe.Slice((*T)(unsafe.Pointer(&b[0])), len(b)/size)
}

// Alltoall sends send[q] to rank q and returns, for every rank q, what q
// sent to this one. T must be a fixed-size type without pointers.
func Alltoall[T any](c Comm, send [][]T) ([][]T, error) {
	p := c.Size()
	if len(send) != p {
		return nil, fmt.Errorf("mpi: alltoall with %d lists for %d ranks", len(send), p)
	}
	total := 0
	for _, s := range send {
		total += len(s)
	}
	flat := make([]T, 0, total)
	counts := make([]int, p)
	for q, s := range send {
		flat = append(flat, s...)
		counts[q] = len(s)
	}
	recv, rcounts, err := AlltoallFlat(c, flat, counts)
	if err != nil {
		return nil, err
	}
	out := make([][]T, p)
	at := 0
	for q, n := range rcounts {
		out[q] = recv[at : at+n : at+n]
		at += n
	}
	return out, nil
}

// AlltoallFlat is Alltoall on one buffer: data holds counts[q] values for
// rank q, one rank after the other; the result likewise, rcounts[q] values
// from rank q. It copies nothing on the way out.
func AlltoallFlat[T any](c Comm, data []T, counts []int) (recv []T, rcounts []int, err error) {
	var zero T
	size := int64(unsafe.Sizeof(zero))
	p := c.Size()
	if len(counts) != p {
		return nil, nil, fmt.Errorf("mpi: alltoall with %d counts for %d ranks", len(counts), p)
	}
	bc := make([]int64, p)
	sum := 0
	for q, n := range counts {
		bc[q] = int64(n) * size
		sum += n
	}
	if sum != len(data) {
		return nil, nil, fmt.Errorf("mpi: alltoall counts add up to %d, the buffer holds %d", sum, len(data))
	}
	rb, rbc, err := c.Exchange(asBytes(data), bc)
	if err != nil {
		return nil, nil, err
	}
	rcounts = make([]int, p)
	for q, n := range rbc {
		rcounts[q] = int(n / size)
	}
	return fromBytes[T](rb), rcounts, nil
}

// Allgather returns every rank's x, by rank.
func Allgather[T any](c Comm, x []T) ([][]T, error) {
	send := make([][]T, c.Size())
	for q := range send {
		send[q] = x
	}
	return Alltoall(c, send)
}

// Bcast returns root's x on every rank.
func Bcast[T any](c Comm, x []T, root int) ([]T, error) {
	send := make([][]T, c.Size())
	if c.Rank() == root {
		for q := range send {
			send[q] = x
		}
	}
	recv, err := Alltoall(c, send)
	if err != nil {
		return nil, err
	}
	return recv[root], nil
}

// Sum is the sum of x over the ranks.
func Sum(c Comm, x int64) (int64, error) { return reduce1(c, x, OpSum) }

// Max is the largest x over the ranks.
func Max(c Comm, x int64) (int64, error) { return reduce1(c, x, OpMax) }

// Min is the smallest x over the ranks.
func Min(c Comm, x int64) (int64, error) { return reduce1(c, x, OpMin) }

func reduce1(c Comm, x int64, op Op) (int64, error) {
	v := []int64{x}
	err := c.Allreduce(v, op)
	return v[0], err
}

// Exscan returns the sum of x over the ranks before this one (0 on rank 0)
// and the total over all ranks.
func Exscan(c Comm, x int64) (before, total int64, err error) {
	all, err := Allgather(c, []int64{x})
	if err != nil {
		return 0, 0, err
	}
	for q, v := range all {
		if q < c.Rank() {
			before += v[0]
		}
		total += v[0]
	}
	return before, total, nil
}

// Barrier returns once every rank has called it.
func Barrier(c Comm) error { return c.Allreduce([]int64{0}, OpSum) }

// RankError is the error Agree returns: the ranks that failed and what each
// reported.
type RankError struct {
	Ranks []int
	Errs  []string
}

func (e *RankError) Error() string {
	if len(e.Ranks) == 1 {
		return fmt.Sprintf("rank %d: %s", e.Ranks[0], e.Errs[0])
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%d ranks failed: ", len(e.Ranks))
	for i, r := range e.Ranks {
		if i > 0 {
			b.WriteString("; ")
		}
		fmt.Fprintf(&b, "rank %d: %s", r, e.Errs[i])
	}
	return b.String()
}

// Agree tells every rank whether any rank failed: nil when err is nil on
// every rank, else, on every rank, a *RankError with each failed rank's
// message (a rank's own error is kept as it is when it alone failed, so
// that errors.Is and errors.As still see it). Call it after each step that
// can fail on some ranks and not on others, before the next collective.
func Agree(c Comm, err error) error {
	failed := int64(0)
	if err != nil {
		failed = 1
	}
	n, cerr := Sum(c, failed)
	if cerr != nil {
		return cerr
	}
	if n == 0 {
		return nil
	}
	var msg []byte
	if err != nil {
		msg = []byte(err.Error())
	}
	all, cerr := Allgather(c, msg)
	if cerr != nil {
		return cerr
	}
	if err != nil && (n == 1 || (n == int64(c.Size()) && allSame(all))) {
		return err // its own error alone, or one every rank agreed on already
	}
	re := &RankError{}
	for q, m := range all {
		if len(m) > 0 {
			re.Ranks = append(re.Ranks, q)
			re.Errs = append(re.Errs, string(m))
		}
	}
	if len(re.Ranks) == 0 { // ranks that failed with an empty message
		re.Ranks, re.Errs = []int{-1}, []string{"failed without a message"}
	}
	re.Ranks = slices.Clip(re.Ranks)
	return re
}

func allSame(msgs [][]byte) bool {
	for _, m := range msgs[1:] {
		if string(m) != string(msgs[0]) {
			return false
		}
	}
	return true
}
