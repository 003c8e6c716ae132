//go:build !cuda

package cusparse

import "github.com/spac-gpu/spac/gpu"

var impl library = noCUDA{}

var _ library = noCUDA{}

// noCUDA answers every call with gpu.ErrNoCUDA.
type noCUDA struct{}

func (noCUDA) open() (shim, string, error) { return nil, "", gpu.ErrNoCUDA }
