// Package cusparse binds cuSPARSE's generic SpMV (y = A x with a CSR, COO,
// sliced ELL or BSR matrix) for the applications' device memory: the library behind the
// baseline that apps/spmv measures its kernels against, and that apps/cg
// solves with.
//
// cuSPARSE is not linked: a small C shim (shim.c) opens it at run time
// (libcusparse.so.12, then .so.11, then .so, also under
// /usr/local/cuda/lib64; SPAC_CUSPARSE names a file), so one binary serves
// CUDA 11, 12 and 13, and a machine without cuSPARSE still runs everything
// else and is told why cuSPARSE is missing (ErrUnavailable). The shim
// declares the few types and enum values it needs, so no cuSPARSE header
// is needed either.
//
// # Streams and graphs
//
// A Handle queues on the stream its device's launches queue on
// (gpu.Device.Stream), telling cuSPARSE whenever that changes: inside
// gpu.Device.Capture, an SpMV's Run is recorded into the graph with the
// kernels around it.
//
// # Builds
//
// Like package gpu, the binding sits behind the build tag cuda; the API
// here is the same in both builds. Without the tag Version returns
// gpu.ErrNoCUDA, and nothing else is reachable (New needs an open device).
package cusparse

import (
	"errors"
	"fmt"

	"github.com/spac-gpu/spac/gpu"
)

// ErrUnavailable wraps the reason cuSPARSE could not be opened.
var ErrUnavailable = errors.New("cuSPARSE is not available")

// library is what a build provides: the dlopen shim (cusparse_cuda.go) or
// nothing (nocuda.go).
type library interface {
	// open loads cuSPARSE once and returns its file, or an error wrapping
	// ErrUnavailable.
	open() (shim, string, error)
}

// shim is the opened library: cuSPARSE's calls, with handles and
// descriptors as uintptr and device memory by address. Errors carry
// cuSPARSE's status.
type shim interface {
	version() (major, minor, patch int, err error)
	create() (uintptr, error)
	destroy(handle uintptr)
	setStream(handle, stream uintptr) error
	csr(rows, cols, nnz int64, rowptr, col, val uint64, vt ValueType) (uintptr, error)
	coo(rows, cols, nnz int64, row, col, val uint64, vt ValueType) (uintptr, error)
	// sell and bsr return an error wrapping ErrUnavailable where the
	// library lacks the format.
	sell(rows, cols, nnz, valuesSize, sliceSize int64, offsets, col, val uint64, vt ValueType) (uintptr, error)
	bsr(brows, bcols, bnnz, blockDim int64, rowptr, col, val uint64, vt ValueType) (uintptr, error)
	destroyMat(mat uintptr)
	dnvec(n int64, val uint64, vt ValueType) (uintptr, error)
	destroyVec(vec uintptr)
	bufferSize(handle, mat, x, y uintptr, vt ValueType, alg Alg) (int64, error)
	// preprocess does nothing where the library has no
	// cusparseSpMV_preprocess (before CUDA 12.4).
	preprocess(handle, mat, x, y uintptr, vt ValueType, alg Alg, buf uint64) error
	spmv(handle, mat, x, y uintptr, vt ValueType, alg Alg, buf uint64) error
}

// ValueType is the type of a matrix's values and vectors (cudaDataType).
type ValueType int

const (
	R32F ValueType = 0 // CUDA_R_32F
	R64F ValueType = 1 // CUDA_R_64F
)

// Alg is a cusparseSpMVAlg_t.
type Alg int

const (
	AlgDefault Alg = 0 // CUSPARSE_SPMV_ALG_DEFAULT
	CSRAlg2    Alg = 3 // CUSPARSE_SPMV_CSR_ALG2
)

// Version opens cuSPARSE and reports its file and version.
func Version() (path, version string, err error) {
	lib, path, err := impl.open()
	if err != nil {
		return "", "", err
	}
	major, minor, patch, err := lib.version()
	if err != nil {
		return path, "", fmt.Errorf("cusparse: cusparseGetProperty: %w", err)
	}
	return path, fmt.Sprintf("%d.%d.%d", major, minor, patch), nil
}

// Handle is a cuSPARSE handle on a device.
type Handle struct {
	d      *gpu.Device
	lib    shim
	h      uintptr
	stream uintptr // the stream h queues on
}

// New opens cuSPARSE (an error wrapping ErrUnavailable where it cannot)
// and creates a handle on d.
func New(d *gpu.Device) (*Handle, error) {
	lib, _, err := impl.open()
	if err != nil {
		return nil, err
	}
	h := &Handle{d: d, lib: lib}
	err = d.Do(func() (err error) {
		h.h, err = lib.create()
		return err
	})
	if err != nil {
		return nil, fmt.Errorf("cusparse: cusparseCreate: %w", err)
	}
	return h, nil
}

// Close destroys the handle; its SpMVs must be closed first.
func (h *Handle) Close() {
	if h == nil || h.h == 0 {
		return
	}
	_ = h.d.Do(func() error {
		h.lib.destroy(h.h)
		return nil
	})
	h.h = 0
}

// Format is a sparse matrix layout.
type Format int

const (
	CSR  Format = iota // RowPtr, Col, Val
	COO                // Row, Col, Val
	SELL               // sliced ELL (CUDA 12.1 on): RowPtr the slice offsets, Col (-1 for padding) and Val of ValuesSize slots
	BSR                // blocks of BlockDim x BlockDim, row-major: RowPtr per block row, Col per block, Val BlockDim^2 per block
)

// Matrix is a sparse matrix in device memory with int32 indices, zero-based.
type Matrix struct {
	Format          Format
	Rows, Cols, NNZ int
	RowPtr, Row     *gpu.Buffer // RowPtr (Rows+1 offsets) for CSR, Row for COO
	// SELL: slots in all (nonzeros and padding) and rows per slice; BSR:
	// the block size (Rows and Cols are multiples of it) and the number of
	// blocks stored.
	ValuesSize, SliceSize int
	BlockDim, Blocks      int
	Col, Val              *gpu.Buffer
	Type                  ValueType
}

// SpMV is one y = A x configuration: its own matrix descriptor
// (preprocessing is tied to one), dense vectors, algorithm and buffer.
type SpMV struct {
	h    *Handle
	mat  uintptr
	x, y uintptr
	vt   ValueType
	alg  Alg
	buf  *gpu.Buffer
}

// NewSpMV prepares y = A x (x of a.Cols values, y of a.Rows, both of
// a.Type) with algorithm alg: the descriptors, the buffer, and where the
// library has it (CUDA 12.4 on) cusparseSpMV_preprocess, which speeds up
// every later call.
func (h *Handle) NewSpMV(a Matrix, x, y *gpu.Buffer, alg Alg) (*SpMV, error) {
	s := &SpMV{h: h, vt: a.Type, alg: alg}
	err := h.d.Do(func() error {
		var err error
		switch a.Format {
		case CSR:
			s.mat, err = h.lib.csr(int64(a.Rows), int64(a.Cols), int64(a.NNZ), gpu.Ptr(a.RowPtr), gpu.Ptr(a.Col), gpu.Ptr(a.Val), a.Type)
		case COO:
			s.mat, err = h.lib.coo(int64(a.Rows), int64(a.Cols), int64(a.NNZ), gpu.Ptr(a.Row), gpu.Ptr(a.Col), gpu.Ptr(a.Val), a.Type)
		case SELL:
			s.mat, err = h.lib.sell(int64(a.Rows), int64(a.Cols), int64(a.NNZ), int64(a.ValuesSize), int64(a.SliceSize), gpu.Ptr(a.RowPtr), gpu.Ptr(a.Col), gpu.Ptr(a.Val), a.Type)
		case BSR:
			if a.BlockDim < 1 || a.Rows%a.BlockDim != 0 || a.Cols%a.BlockDim != 0 {
				return fmt.Errorf("cusparse: BSR blocks of %d for a %d x %d matrix", a.BlockDim, a.Rows, a.Cols)
			}
			s.mat, err = h.lib.bsr(int64(a.Rows/a.BlockDim), int64(a.Cols/a.BlockDim), int64(a.Blocks), int64(a.BlockDim), gpu.Ptr(a.RowPtr), gpu.Ptr(a.Col), gpu.Ptr(a.Val), a.Type)
		default:
			return fmt.Errorf("cusparse: format %d", a.Format)
		}
		if err != nil {
			return fmt.Errorf("cusparse: creating the matrix descriptor: %w", err)
		}
		if s.x, err = h.lib.dnvec(int64(a.Cols), gpu.Ptr(x), a.Type); err != nil {
			return fmt.Errorf("cusparse: creating the x descriptor: %w", err)
		}
		if s.y, err = h.lib.dnvec(int64(a.Rows), gpu.Ptr(y), a.Type); err != nil {
			return fmt.Errorf("cusparse: creating the y descriptor: %w", err)
		}
		size, err := h.lib.bufferSize(h.h, s.mat, s.x, s.y, a.Type, alg)
		if err != nil {
			return fmt.Errorf("cusparse: cusparseSpMV_bufferSize: %w", err)
		}
		if s.buf, err = h.d.Alloc(size, "the cuSPARSE buffer"); err != nil {
			return err
		}
		// From CUDA 12.4 on, preprocessing once speeds up every later call;
		// it is the library's best, so a comparison gets it.
		if err := h.lib.preprocess(h.h, s.mat, s.x, s.y, a.Type, alg, gpu.Ptr(s.buf)); err != nil {
			return fmt.Errorf("cusparse: cusparseSpMV_preprocess: %w", err)
		}
		return nil
	})
	if err != nil {
		s.Close()
		return nil, err
	}
	return s, nil
}

// Run queues y = A x on the device's launch stream (gpu.Device.Stream:
// the default stream, or a capture's).
func (s *SpMV) Run() error {
	h := s.h
	return h.d.Do(func() error {
		// The handle queues on the stream it was last given.
		if st := h.d.Stream(); st != h.stream {
			if err := h.lib.setStream(h.h, st); err != nil {
				return fmt.Errorf("cusparse: cusparseSetStream: %w", err)
			}
			h.stream = st
		}
		if err := h.lib.spmv(h.h, s.mat, s.x, s.y, s.vt, s.alg, gpu.Ptr(s.buf)); err != nil {
			return fmt.Errorf("cusparse: cusparseSpMV: %w", err)
		}
		return nil
	})
}

// Close frees the descriptors and the buffer.
func (s *SpMV) Close() {
	lib := s.h.lib
	_ = s.h.d.Do(func() error {
		if s.mat != 0 {
			lib.destroyMat(s.mat)
			s.mat = 0
		}
		for _, v := range []*uintptr{&s.x, &s.y} {
			if *v != 0 {
				lib.destroyVec(*v)
				*v = 0
			}
		}
		return nil
	})
	s.buf.Free()
}
