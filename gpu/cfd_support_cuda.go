//go:build cuda

package gpu

// What apps/cfd needs beyond Module.Launch: kernels whose dynamic shared
// memory exceeds the 48 KiB a block gets by default. A SPAC flux block
// stages every element its part touches, and at block size 1024 in fp64
// that is about 70 KiB; Hopper gives a block up to 227 KiB once the kernel
// opts in. Nothing here changes how the rest of the package behaves.

/*
#cgo LDFLAGS: -lcuda
#include <cuda.h>
*/
import "C"

import (
	"fmt"
	"unsafe"

	"gorgonia.org/cu"
)

// LaunchOptIn is Launch for a kernel that may need more dynamic shared
// memory than a block gets without opting in: it raises the kernel's limit
// (CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES) to shared first, which
// the device allows up to CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN.
func (m *Module) LaunchOptIn(name string, grid, block, shared int, args ...uint64) (*Launch, error) {
	if shared <= m.d.info.SharedPerBlock {
		return m.Launch(name, grid, block, shared, args...)
	}
	fn, err := m.function(name)
	if err != nil {
		return nil, err
	}
	unbind, err := m.d.bind()
	if err != nil {
		return nil, err
	}
	defer unbind()
	// gorgonia.org/cu v0.9.6 does not name the opt-in attribute.
	limit, err := m.d.dev.Attribute(cu.DeviceAttribute(C.CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK_OPTIN))
	if err != nil {
		return nil, fmt.Errorf("gpu: reading the opt-in shared memory per block: %w", err)
	}
	if shared > limit {
		return nil, fmt.Errorf("gpu: %s needs %d bytes of shared memory per block, the device gives at most %d", name, shared, limit)
	}
	// Nor does it wrap cuFuncSetAttribute; its Function is a struct holding
	// just the CUfunction handle.
	h := *(*C.CUfunction)(unsafe.Pointer(&fn))
	if r := C.cuFuncSetAttribute(h, C.CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, C.int(shared)); r != C.CUDA_SUCCESS {
		return nil, fmt.Errorf("gpu: letting %s use %d bytes of shared memory: %s", name, shared, resultString(r))
	}
	return m.prepare(fn, name, grid, block, shared, limit, args)
}

// resultString is the driver's description of a CUresult.
func resultString(r C.CUresult) string {
	var msg *C.char
	if C.cuGetErrorString(r, &msg) != C.CUDA_SUCCESS || msg == nil {
		return fmt.Sprintf("CUresult %d", int(r))
	}
	return C.GoString(msg)
}
