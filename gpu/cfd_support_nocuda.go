//go:build !cuda

package gpu

// Stand-ins for cfd_support_cuda.go in builds without the cuda tag.

// SharedOptIn fails without CUDA support.
func (d *Device) SharedOptIn() (int, error) { return 0, ErrNoCUDA }

// LaunchOptIn fails without CUDA support.
func (m *Module) LaunchOptIn(name string, grid, block, shared int, args ...uint64) (*Launch, error) {
	return nil, ErrNoCUDA
}
