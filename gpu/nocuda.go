//go:build !cuda

package gpu

// The backend of builds without the cuda tag: no device opens, and nothing
// else is reachable without one.

const built = false

var impl backend = noCUDA{}

var _ backend = noCUDA{}

// noCUDA answers every call with ErrNoCUDA.
type noCUDA struct{}

func (noCUDA) open(int) (driver, DeviceInfo, int, error) { return nil, DeviceInfo{}, 0, ErrNoCUDA }
