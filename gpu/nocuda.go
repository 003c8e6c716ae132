//go:build !cuda

package gpu

// This file stands in for the CUDA layer in builds without the cuda tag:
// the same API, every entry point returning ErrNoCUDA.

import (
	"errors"
)

// Built reports whether this binary has CUDA support.
const Built = false

// ErrNoCuSPARSE wraps the reason cuSPARSE could not be opened.
var ErrNoCuSPARSE = errors.New("cuSPARSE is not available")

// Device is an open GPU; without CUDA support there is none.
type Device struct{}

// Open always fails without CUDA support.
func Open(ordinal int) (*Device, error) { return nil, ErrNoCUDA }

func (d *Device) Info() DeviceInfo  { return DeviceInfo{} }
func (d *Device) PTXSource() string { return "" }
func (d *Device) Close() error      { return nil }
func (d *Device) CopyBandwidth(bytes int64, reps int) (Timing, float64, error) {
	return Timing{}, 0, ErrNoCUDA
}
func (d *Device) NewSpMV(m *Matrix, p Precision) (*SpMV, error) { return nil, ErrNoCUDA }

// CuSPARSEVersion fails without CUDA support.
func CuSPARSEVersion() (path, version string, err error) { return "", "", ErrNoCUDA }

// SpMV is a matrix on the device.
type SpMV struct{}

// DeviceSchedule is a schedule on the device.
type DeviceSchedule struct{}

// Op is one ready-to-run product.
type Op struct {
	Kernel    Kernel
	BlockSize int
	Threads   int
	Shared    int
	Blocks    int
}

func (ds *DeviceSchedule) Arrays() *ScheduleArrays                             { return nil }
func (s *SpMV) SetX(x []float64) error                                         { return ErrNoCUDA }
func (s *SpMV) Y() ([]float64, error)                                          { return nil, ErrNoCUDA }
func (s *SpMV) Upload(a *ScheduleArrays) (*DeviceSchedule, error)              { return nil, ErrNoCUDA }
func (s *SpMV) Op(k Kernel, blockSize int, sched *DeviceSchedule) (*Op, error) { return nil, ErrNoCUDA }
func (s *SpMV) Product(op *Op) ([]float64, error)                              { return nil, ErrNoCUDA }
func (s *SpMV) Time(op *Op, warmup, reps int) (Timing, error)                  { return Timing{}, ErrNoCUDA }
func (s *SpMV) Close() error                                                   { return nil }
func (s *SpMV) Drop(ds *DeviceSchedule) error                                  { return ErrNoCUDA }

// Module is a loaded kernel module; without CUDA support there is none.
type Module struct{}

// Launch is a prepared kernel launch.
type Launch struct{}

// Buffer is device memory.
type Buffer struct{}

func (d *Device) LoadModule(m PTXModule) (*Module, error) { return nil, ErrNoCUDA }
func (m *Module) Source() string                          { return "" }
func (m *Module) Launch(name string, grid, block, shared int, args ...uint64) (*Launch, error) {
	return nil, ErrNoCUDA
}
func (l *Launch) Run() error                                       { return ErrNoCUDA }
func Ptr(b *Buffer) uint64                                         { return 0 }
func (d *Device) Alloc(bytes int64, what string) (*Buffer, error)  { return nil, ErrNoCUDA }
func Upload[T any](d *Device, s []T, what string) (*Buffer, error) { return nil, ErrNoCUDA }
func Download[T any](b *Buffer, s []T, what string) error          { return ErrNoCUDA }
func (b *Buffer) Bytes() int64                                     { return 0 }
func (b *Buffer) Zero() error                                      { return ErrNoCUDA }
func (b *Buffer) CopyFrom(src *Buffer) error                       { return ErrNoCUDA }
func (b *Buffer) Free()                                            {}
func (d *Device) Sync(what string) error                           { return ErrNoCUDA }
func (d *Device) Time(op func() error, w, reps int, what string) (Timing, error) {
	return Timing{}, ErrNoCUDA
}
