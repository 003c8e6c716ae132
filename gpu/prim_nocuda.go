//go:build !cuda

package gpu

// The primitives in builds without the cuda tag: the same API, every entry
// point returning ErrNoCUDA.

// Prims runs the device-wide primitives; without CUDA support there are none.
type Prims struct{}

func (d *Device) NewPrims(maxN int) (*Prims, error) { return nil, ErrNoCUDA }
func (p *Prims) MaxN() int                          { return 0 }
func (p *Prims) Close()                             {}
func (p *Prims) ExclusiveScan(dst, src *Buffer, n Len, in, out Elem, total *Buffer) error {
	return ErrNoCUDA
}
func (p *Prims) InclusiveScan(dst, src *Buffer, n Len, in, out Elem, total *Buffer) error {
	return ErrNoCUDA
}
func (p *Prims) Scan(dst, src *Buffer, n Len, in, out Elem, inclusive bool, total *Buffer) error {
	return ErrNoCUDA
}
func (p *Prims) Select(dst, values, flags *Buffer, n Len, flag Elem, count *Buffer) error {
	return ErrNoCUDA
}
func (p *Prims) Selected() (int, error)                                          { return 0, ErrNoCUDA }
func (p *Prims) Reduce(dst, src *Buffer, n Len, op ReduceOp, in, out Elem) error { return ErrNoCUDA }
func (p *Prims) Histogram(counts, values *Buffer, n Len, b Bins) error           { return ErrNoCUDA }
func (p *Prims) Sort(keys, values *Buffer, n Len, key Elem, nbits int) error     { return ErrNoCUDA }
