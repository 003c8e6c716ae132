package gpu

import (
	"errors"
	"fmt"
)

// Graph is device work recorded once (Capture) and queued again and again
// by one driver call: a solver's iterations, which take the host a few
// microseconds per kernel launch, cost it one launch per graph.
type Graph struct {
	d    *Device
	exec uintptr
}

// Capture records, instead of running it, the work f queues on the launch
// stream: Launch.Run, Buffer.Zero, Fill32 and CopyFrom, and the calls of
// libraries that queue on Device.Stream (gpu/cusparse). f must queue
// nothing else (no host copies, events or waits): those go to the default
// stream, outside the graph. A kernel's arguments are those of the launch
// when it was recorded.
func (d *Device) Capture(f func() error) (*Graph, error) {
	unbind, err := d.bind()
	if err != nil {
		return nil, err
	}
	defer unbind()
	if d.stream != 0 {
		return nil, errors.New("gpu: Capture within a capture")
	}
	if d.capture == 0 {
		// Non-blocking: it must not join the legacy default stream, which
		// a capture may not.
		if d.capture, err = d.drv.newStream(); err != nil {
			return nil, fmt.Errorf("gpu: creating the capture stream: %w", err)
		}
	}
	if err := d.drv.beginCapture(d.capture); err != nil {
		return nil, fmt.Errorf("gpu: starting a capture: %w", err)
	}
	d.stream = d.capture
	ferr := f()
	d.stream = 0
	g, err := d.drv.endCapture(d.capture)
	if g != 0 {
		defer d.drv.destroyGraph(g)
	}
	switch {
	case ferr != nil:
		return nil, fmt.Errorf("gpu: capturing a graph: %w", ferr)
	case err != nil:
		return nil, fmt.Errorf("gpu: capturing a graph: %w (work the capture does not allow)", err)
	}
	gr := &Graph{d: d}
	if gr.exec, err = d.drv.instantiate(g); err != nil {
		return nil, fmt.Errorf("gpu: instantiating a captured graph: %w", err)
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
	if err := g.d.drv.launchGraph(g.exec); err != nil {
		return fmt.Errorf("gpu: launching a graph: %w", err)
	}
	return nil
}

// Close frees the graph (a launch still running completes first).
func (g *Graph) Close() {
	if g == nil || g.exec == 0 {
		return
	}
	if unbind, err := g.d.bind(); err == nil {
		g.d.drv.destroyExec(g.exec)
		g.exec = 0
		unbind()
	}
}
