//go:build cuda

package gpu

/*
#include <cuda.h>
// Relaxed: a capture on the solver's thread must not forbid what other
// threads do meanwhile (a schedule's upload allocates and copies).
static CUresult spac_begin_capture(CUstream s) { return cuStreamBeginCapture(s, CU_STREAM_CAPTURE_MODE_RELAXED); }
static CUresult spac_end_capture(CUstream s, CUgraph *g) { return cuStreamEndCapture(s, g); }
static CUresult spac_graph_instantiate(CUgraphExec *e, CUgraph g) { return cuGraphInstantiateWithFlags(e, g, 0); }
static CUresult spac_graph_destroy(CUgraph g) { return cuGraphDestroy(g); }
static CUresult spac_graph_launch(CUgraphExec e) { return cuGraphLaunch(e, 0); }
static CUresult spac_graph_exec_destroy(CUgraphExec e) { return cuGraphExecDestroy(e); }
*/
import "C"

import (
	"errors"
	"fmt"
	"unsafe"

	"gorgonia.org/cu"
)

// Graph is device work recorded once (Capture) and queued again and again
// by one driver call: a solver's iterations, which take the host a few
// microseconds per kernel launch, cost it one launch per graph.
type Graph struct {
	d    *Device
	exec C.CUgraphExec
}

// Capture records, instead of running it, the work f queues: kernels of
// Launch.Run and Op runs of SpMV.Run (their memsets and cuSPARSE's calls
// included). f must queue nothing else (no copies, events or waits): those
// go to the default stream, outside the graph. A kernel's arguments are
// those of the launch when it was recorded.
func (d *Device) Capture(f func() error) (*Graph, error) {
	unbind, err := d.bind()
	if err != nil {
		return nil, err
	}
	defer unbind()
	if d.stream != (cu.Stream{}) {
		return nil, errors.New("gpu: Capture within a capture")
	}
	if d.capture == (cu.Stream{}) {
		// Non-blocking: it must not join the legacy default stream, which
		// a capture may not.
		if d.capture, err = cu.MakeStream(cu.NonBlocking); err != nil {
			return nil, fmt.Errorf("gpu: creating the capture stream: %w", err)
		}
	}
	cs := C.CUstream(unsafe.Pointer(d.capture.C()))
	if r := C.spac_begin_capture(cs); r != C.CUDA_SUCCESS {
		return nil, fmt.Errorf("gpu: starting a capture: CUresult %d", int(r))
	}
	d.stream = d.capture
	ferr := f()
	d.stream = cu.Stream{}
	var g C.CUgraph
	r := C.spac_end_capture(cs, &g)
	if g != nil {
		defer C.spac_graph_destroy(g)
	}
	switch {
	case ferr != nil:
		return nil, fmt.Errorf("gpu: capturing a graph: %w", ferr)
	case r != C.CUDA_SUCCESS:
		return nil, fmt.Errorf("gpu: capturing a graph: CUresult %d (work the capture does not allow)", int(r))
	}
	gr := &Graph{d: d}
	if r := C.spac_graph_instantiate(&gr.exec, g); r != C.CUDA_SUCCESS {
		return nil, fmt.Errorf("gpu: instantiating a captured graph: CUresult %d", int(r))
	}
	return gr, nil
}

// Launch queues the graph's work on the default stream, after what is
// queued there; errors of its kernels show at the next synchronization.
func (g *Graph) Launch() error {
	unbind, err := g.d.bind()
	if err != nil {
		return err
	}
	defer unbind()
	if r := C.spac_graph_launch(g.exec); r != C.CUDA_SUCCESS {
		return fmt.Errorf("gpu: launching a graph: CUresult %d", int(r))
	}
	return nil
}

// Close frees the graph (a launch still running completes first).
func (g *Graph) Close() {
	if g == nil || g.exec == nil {
		return
	}
	if unbind, err := g.d.bind(); err == nil {
		C.spac_graph_exec_destroy(g.exec)
		g.exec = nil
		unbind()
	}
}
