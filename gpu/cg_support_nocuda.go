//go:build !cuda

package gpu

// Stand-ins for cg_support_cuda.go in builds without the cuda tag.

import "time"

// VectorArgs returns the device addresses of x and y; there are none.
func (s *SpMV) VectorArgs() (x, y uint64) { return 0, 0 }

// Run enqueues a product; without CUDA support it fails.
func (s *SpMV) Run(op *Op) error { return ErrNoCUDA }

// Interval times work between two CUDA events.
type Interval struct{}

// NewInterval fails without CUDA support.
func (d *Device) NewInterval() (*Interval, error) { return nil, ErrNoCUDA }
func (iv *Interval) Start() error                 { return ErrNoCUDA }
func (iv *Interval) Stop() error                  { return ErrNoCUDA }
func (iv *Interval) Elapsed() (time.Duration, error) {
	return 0, ErrNoCUDA
}
func (iv *Interval) Close() {}

// PendingSchedule is a schedule being uploaded.
type PendingSchedule struct{}

// UploadAsync fails without CUDA support.
func (s *SpMV) UploadAsync(a *ScheduleArrays) (*PendingSchedule, error) { return nil, ErrNoCUDA }
func (ps *PendingSchedule) Ready() (bool, error)                        { return false, ErrNoCUDA }
func (ps *PendingSchedule) Adopt() (*DeviceSchedule, error)             { return nil, ErrNoCUDA }
func (ps *PendingSchedule) Discard()                                    {}

// ReadBack fails without CUDA support.
func ReadBack[T any](b *Buffer, s []T, what string) error { return ErrNoCUDA }

// UploadValues fails without CUDA support.
func UploadValues(d *Device, v []float64, p Precision, what string) (*Buffer, error) {
	return nil, ErrNoCUDA
}

// Mapped is host memory the device writes.
type Mapped struct{}

// NewMapped fails without CUDA support.
func (d *Device) NewMapped(words int) (*Mapped, error)   { return nil, ErrNoCUDA }
func (m *Mapped) Arg() uint64                            { return 0 }
func (m *Mapped) Await(i int, want uint64) error         { return ErrNoCUDA }
func (m *Mapped) Float64s(from int, out []float64) error { return ErrNoCUDA }
func (m *Mapped) Close()                                 {}

// Graph is device work recorded once; see the CUDA build.
type Graph struct{}

func (d *Device) Capture(f func() error) (*Graph, error) { return nil, ErrNoCUDA }
func (g *Graph) Launch() error                           { return ErrNoCUDA }
func (g *Graph) Close()                                  {}
