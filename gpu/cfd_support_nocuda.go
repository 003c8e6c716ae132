//go:build !cuda

package gpu

// Stand-ins for cfd_support_cuda.go in builds without the cuda tag.

// LaunchOptIn fails without CUDA support.
func (m *Module) LaunchOptIn(name string, grid, block, shared int, args ...uint64) (*Launch, error) {
	return nil, ErrNoCUDA
}
