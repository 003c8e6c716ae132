//go:build mpi

package mpi

/*
#cgo pkg-config: mpi-c
#include <mpi.h>
#include <stdint.h>
#include <stdlib.h>

static int spac_mpi_init(int *provided) {
	int argc = 0;
	char **argv = NULL;
	return MPI_Init_thread(&argc, &argv, MPI_THREAD_MULTIPLE, provided);
}

static int spac_mpi_initialized(void) { int f = 0; MPI_Initialized(&f); return f; }
static int spac_mpi_finalized(void) { int f = 0; MPI_Finalized(&f); return f; }
static int spac_world_rank(void) { int r = 0; MPI_Comm_rank(MPI_COMM_WORLD, &r); return r; }
static int spac_world_size(void) { int s = 0; MPI_Comm_size(MPI_COMM_WORLD, &s); return s; }
static int64_t spac_world_f2c(void) { return (int64_t)MPI_Comm_c2f(MPI_COMM_WORLD); }

static int spac_alltoall_counts(int64_t *send, int64_t *recv) {
	return MPI_Alltoall(send, 1, MPI_INT64_T, recv, 1, MPI_INT64_T, MPI_COMM_WORLD);
}

static int spac_alltoallv(void *send, int *scounts, int *sdispls, void *recv, int *rcounts, int *rdispls) {
	return MPI_Alltoallv(send, scounts, sdispls, MPI_BYTE, recv, rcounts, rdispls, MPI_BYTE, MPI_COMM_WORLD);
}

static int spac_allreduce(int64_t *x, int n, int op) {
	MPI_Op o = op == 0 ? MPI_SUM : op == 1 ? MPI_MAX : MPI_MIN;
	return MPI_Allreduce(MPI_IN_PLACE, x, n, MPI_INT64_T, o, MPI_COMM_WORLD);
}

static int spac_file_open(const char *path, MPI_File *fh) {
	int rc = MPI_File_open(MPI_COMM_WORLD, path, MPI_MODE_CREATE | MPI_MODE_WRONLY, MPI_INFO_NULL, fh);
	if (rc != MPI_SUCCESS) return rc;
	return MPI_File_set_size(*fh, 0);
}

static int spac_file_write_at_all(MPI_File fh, int64_t off, void *buf, int n) {
	MPI_Status st;
	return MPI_File_write_at_all(fh, (MPI_Offset)off, buf, n, MPI_BYTE, &st);
}

static int spac_file_close(MPI_File *fh) {
	int rc = MPI_File_sync(*fh);
	int rc2 = MPI_File_close(fh);
	return rc != MPI_SUCCESS ? rc : rc2;
}

static void spac_error_string(int code, char *buf, int *len) { MPI_Error_string(code, buf, len); }
*/
import "C"

import (
	"fmt"
	"math"
	"os"
	"runtime"
	"strconv"
	"sync"
	"unsafe"
)

// Available reports whether this build has MPI.
func Available() bool { return true }

var initOnce struct {
	sync.Once
	err error
}

// Init starts MPI (once; later calls return the first call's result) and
// returns MPI_COMM_WORLD. It fails when the MPI library does not provide
// MPI_THREAD_MULTIPLE, which Go's goroutines need (a goroutine is not tied
// to a thread).
func Init() (Comm, error) {
	initOnce.Do(func() {
		if C.spac_mpi_initialized() != 0 {
			return
		}
		for k, v := range map[string]string{
			"OMPI_MCA_opal_signal":         "",  // keep Go's SIGSEGV handler: see the package comment
			"OMPI_MCA_mpi_yield_when_idle": "1", // a waiting rank yields its core: see the package comment
		} {
			if _, set := os.LookupEnv(k); !set {
				os.Setenv(k, v)
			}
		}
		var provided C.int
		if rc := C.spac_mpi_init(&provided); rc != C.MPI_SUCCESS {
			initOnce.err = fmt.Errorf("mpi: MPI_Init_thread: %s", errorString(rc))
			return
		}
		shareCores()
		if provided < C.MPI_THREAD_MULTIPLE {
			initOnce.err = fmt.Errorf("mpi: the MPI library provides thread level %d, below MPI_THREAD_MULTIPLE (%d) that a Go program needs: use an MPI built with thread support (Debian's OpenMPI is)", provided, C.MPI_THREAD_MULTIPLE)
		}
	})
	if initOnce.err != nil {
		return nil, initOnce.err
	}
	return world{}, nil
}

// shareCores divides the machine's cores between the ranks that run on
// it (OMPI_COMM_WORLD_LOCAL_SIZE), unless GOMAXPROCS is set: each rank's
// goroutines then run on its share, instead of every rank running a
// thread per core.
func shareCores() {
	if _, set := os.LookupEnv("GOMAXPROCS"); set {
		return
	}
	local, err := strconv.Atoi(os.Getenv("OMPI_COMM_WORLD_LOCAL_SIZE"))
	if err != nil || local <= 1 {
		return
	}
	runtime.GOMAXPROCS(max(1, runtime.NumCPU()/local))
}

// Finalize ends MPI if it was started and not ended yet.
func Finalize() error {
	if C.spac_mpi_initialized() == 0 || C.spac_mpi_finalized() != 0 {
		return nil
	}
	if rc := C.MPI_Finalize(); rc != C.MPI_SUCCESS {
		return fmt.Errorf("mpi: MPI_Finalize: %s", errorString(rc))
	}
	return nil
}

// Abort ends every process of the job with the given exit code
// (MPI_Abort); for a failure that the other ranks cannot be told about.
func Abort(code int) {
	if C.spac_mpi_initialized() != 0 && C.spac_mpi_finalized() == 0 {
		C.MPI_Abort(C.MPI_COMM_WORLD, C.int(code))
	}
	os.Exit(code)
}

func errorString(rc C.int) string {
	var buf [C.MPI_MAX_ERROR_STRING + 1]C.char
	var n C.int
	C.spac_error_string(rc, &buf[0], &n)
	return C.GoStringN(&buf[0], n)
}

func check(what string, rc C.int) error {
	if rc != C.MPI_SUCCESS {
		return fmt.Errorf("mpi: %s: %s", what, errorString(rc))
	}
	return nil
}

// world is MPI_COMM_WORLD.
type world struct{}

func (world) Rank() int { return int(C.spac_world_rank()) }
func (world) Size() int { return int(C.spac_world_size()) }
func (world) Handle() (int64, bool) {
	return int64(C.spac_world_f2c()), true
}

func (world) Allreduce(x []int64, op Op) error {
	if len(x) == 0 {
		return nil
	}
	if len(x) > math.MaxInt32 {
		return fmt.Errorf("mpi: allreduce of %d values", len(x))
	}
	return check("MPI_Allreduce", C.spac_allreduce((*C.int64_t)(unsafe.Pointer(&x[0])), C.int(len(x)), C.int(op)))
}

// roundBytes bounds what one rank sends to one other in a round of
// Exchange, so that every count and displacement of MPI_Alltoallv fits
// in an int.
const roundBytes = 1 << 30

func (w world) Exchange(send []byte, sendCounts []int64) ([]byte, []int64, error) {
	p := w.Size()
	if len(sendCounts) != p {
		return nil, nil, fmt.Errorf("mpi: exchange with %d counts for %d ranks", len(sendCounts), p)
	}
	recvCounts := make([]int64, p)
	if err := check("MPI_Alltoall", C.spac_alltoall_counts((*C.int64_t)(unsafe.Pointer(&sendCounts[0])), (*C.int64_t)(unsafe.Pointer(&recvCounts[0])))); err != nil {
		return nil, nil, err
	}
	var sendTotal, recvTotal int64
	for q := range p {
		sendTotal += sendCounts[q]
		recvTotal += recvCounts[q]
	}
	recv := make([]byte, recvTotal)
	// One call when every displacement fits in an int; rounds otherwise.
	fits := int64(0)
	if sendTotal <= math.MaxInt32 && recvTotal <= math.MaxInt32 {
		fits = 1
	}
	all, err := Min(w, fits)
	if err != nil {
		return nil, nil, err
	}
	if all == 1 {
		err := w.alltoallv(send, sendCounts, recv, recvCounts)
		return recv, recvCounts, err
	}
	// Rounds: in round r every pair moves bytes [r*chunk, (r+1)*chunk) of
	// its message, packed into buffers of at most p*chunk bytes.
	chunk := int64(min(roundBytes, math.MaxInt32/p))
	longest := int64(0)
	for q := range p {
		longest = max(longest, sendCounts[q], recvCounts[q])
	}
	if longest, err = Max(w, longest); err != nil {
		return nil, nil, err
	}
	sdispl, rdispl := offsets(sendCounts), offsets(recvCounts)
	sc, rc := make([]int64, p), make([]int64, p)
	var sbuf, rbuf []byte
	for lo := int64(0); lo < longest; lo += chunk {
		sbuf, rbuf = sbuf[:0], rbuf[:0]
		for q := range p {
			a, b := clampRange(lo, chunk, sendCounts[q])
			sbuf = append(sbuf, send[sdispl[q]+a:sdispl[q]+b]...)
			sc[q] = b - a
			a, b = clampRange(lo, chunk, recvCounts[q])
			rc[q] = b - a
		}
		rtot := int64(0)
		for _, n := range rc {
			rtot += n
		}
		rbuf = append(rbuf, make([]byte, rtot)...)
		if err := w.alltoallv(sbuf, sc, rbuf, rc); err != nil {
			return nil, nil, err
		}
		at := int64(0)
		for q := range p {
			a, _ := clampRange(lo, chunk, recvCounts[q])
			copy(recv[rdispl[q]+a:], rbuf[at:at+rc[q]])
			at += rc[q]
		}
	}
	return recv, recvCounts, nil
}

// clampRange is [lo, lo+chunk) within [0, n).
func clampRange(lo, chunk, n int64) (int64, int64) {
	a := min(lo, n)
	return a, min(lo+chunk, n)
}

func offsets(counts []int64) []int64 {
	off := make([]int64, len(counts))
	at := int64(0)
	for q, n := range counts {
		off[q] = at
		at += n
	}
	return off
}

// alltoallv is one MPI_Alltoallv of bytes whose counts and displacements
// fit in an int.
func (w world) alltoallv(send []byte, sendCounts []int64, recv []byte, recvCounts []int64) error {
	p := len(sendCounts)
	ints := make([]C.int, 4*p)
	sc, sd, rc, rd := ints[:p], ints[p:2*p], ints[2*p:3*p], ints[3*p:]
	var s, r int64
	for q := range p {
		sc[q], sd[q] = C.int(sendCounts[q]), C.int(s)
		rc[q], rd[q] = C.int(recvCounts[q]), C.int(r)
		s += sendCounts[q]
		r += recvCounts[q]
	}
	var one [1]byte // MPI wants a valid pointer even for nothing
	sp, rp := unsafe.Pointer(&one[0]), unsafe.Pointer(&one[0])
	if len(send) > 0 {
		sp = unsafe.Pointer(&send[0])
	}
	if len(recv) > 0 {
		rp = unsafe.Pointer(&recv[0])
	}
	return check("MPI_Alltoallv", C.spac_alltoallv(sp, &sc[0], &sd[0], rp, &rc[0], &rd[0]))
}

func (w world) Create(path string) (SharedFile, error) {
	cpath := C.CString(path)
	defer C.free(unsafe.Pointer(cpath))
	f := &worldFile{w: w, path: path}
	err := check("MPI_File_open "+path, C.spac_file_open(cpath, &f.fh))
	if err = Agree(w, err); err != nil {
		return nil, err
	}
	return f, nil
}

type worldFile struct {
	w    world
	path string
	fh   C.MPI_File
}

// WriteAt writes b at off with MPI_File_write_at_all, in rounds of at most
// 1 GiB per rank (every rank takes part in every round).
func (f *worldFile) WriteAt(b []byte, off int64) error {
	rounds := (int64(len(b)) + roundBytes - 1) / roundBytes
	rounds, err := Max(f.w, rounds)
	if err != nil {
		return err
	}
	// A rank whose write fails still takes part in the later rounds, with
	// nothing to write, so that no rank waits for it.
	var one [1]byte
	var first error
	for r := int64(0); r < max(rounds, 1); r++ {
		lo, hi := clampRange(r*roundBytes, roundBytes, int64(len(b)))
		if first != nil {
			lo = hi
		}
		p := unsafe.Pointer(&one[0])
		if hi > lo {
			p = unsafe.Pointer(&b[lo])
		}
		if err := check("MPI_File_write_at_all "+f.path, C.spac_file_write_at_all(f.fh, C.int64_t(off+lo), p, C.int(hi-lo))); err != nil && first == nil {
			first = err
		}
	}
	return Agree(f.w, first)
}

func (f *worldFile) Close() error {
	return Agree(f.w, check("closing "+f.path, C.spac_file_close(&f.fh)))
}
