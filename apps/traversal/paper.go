package traversal

// The strategies of kernels/adaptive.cu: Verstraaten et al.'s
// implementations and do-beamer, on the engine's arrays and level loop;
// the module is loaded on first use, so an engine that never runs them
// loads only traversal.cu's. See the package documentation, section
// "Per-level adaptive BFS".

import (
	_ "embed"
	"errors"
	"fmt"
	"math"

	"github.com/spac-gpu/spac/apps/traversal/adaptive"
	"github.com/spac-gpu/spac/gpu"
)

// adaptivePTX is kernels/adaptive.ptx, made from adaptive.cu by 'make ptx'.
//
//go:embed kernels/adaptive.ptx
var adaptivePTX string

// AdaptiveModule holds the kernels of the paper's implementations,
// do-beamer, the counter steps and the sweep's copies.
var AdaptiveModule = gpu.PTXModule{Name: "adaptive", PTX: adaptivePTX, Entries: adaptiveEntries()}

func adaptiveEntries() []string {
	out := []string{"do_push", "do_finish", "queue_counters", "frontier_rebuild", "abegin", "copy_words", "ctl_copy", "level_check", "ring_clear", "ad_level", "ad_persist", "ad_heavy", "ad_begin", "ad_set"}
	for _, s := range Strategies() {
		if s.Paper() {
			out = append(out, paperEntry(s))
		}
	}
	return out
}

// Beamer's defaults for do-beamer (Options.Alpha and Beta).
const (
	beamerAlpha = 15
	beamerBeta  = 18
)

// cNPull is adaptive.cu's C_NPULL: the levels do-beamer pulled in the
// search (the tests read it).
const cNPull = 14

// The counters' ring (adaptive.cu's RING_SLOTS and RING_WORDS): a slot per
// level, the slot of level L at L % ringSlots; more than the levels two
// captured graphs of maxLevelsK levels hold, the most a host reads behind.
const (
	ringSlots = 4096
	ringWords = 4
)

// paperEntry is the kernel of one of the paper's implementations.
func paperEntry(s Strategy) string {
	switch s {
	case EdgeListAtomic:
		return "el_atomic"
	case EdgeListWarp:
		return "el_warp"
	case EdgeListBlock:
		return "el_block"
	case RevEdgeListAtomic:
		return "rel_atomic"
	case RevEdgeListWarp:
		return "rel_warp"
	case RevEdgeListBlock:
		return "rel_block"
	case VertexPushAtomic:
		return "vpush_atomic"
	case VertexPushWarp:
		return "vpush_warp"
	case VertexPushBlock:
		return "vpush_block"
	case VertexPullAtomic:
		return "vpull_atomic"
	case VertexPullWarp:
		return "vpull_warp"
	case VertexPullBlock:
		return "vpull_block"
	case VWPush2, VWPush4, VWPush8, VWPush16, VWPush32:
		return fmt.Sprintf("vw%d_warp", vwWidth(s))
	}
	return ""
}

// vwWidth is a virtual-warp push's lanes per vertex (0 for the others).
func vwWidth(s Strategy) int {
	if s < VWPush2 || s > VWPush32 {
		return 0
	}
	return 2 << (s - VWPush2)
}

// adaptState is what the adaptive strategies, the counted loops and the
// sweep add to an Engine, made on first use.
type adaptState struct {
	mod   *gpu.Module
	ring  *gpu.Mapped // the counters' ring (counted plans)
	isrc  *gpu.Buffer // the in-arcs' COO destinations (e.src on an undirected graph)
	big   *gpu.Buffer // do-beamer's big list: a top-down level's vertices of many arcs
	epoch uint32      // counted searches begun: the ring's tags
	perSM int         // ad_level's and ad_persist's blocks an SM (adLevelLaunch): 0 until asked
	sweep *sweepState

	dev       deviceState         // the device-decided search's tree and log (ondevice.go)
	gstats    adaptive.GraphStats // the graph's features (stats)
	haveStats bool
}

func (a *adaptState) close() {
	if a == nil {
		return
	}
	if a.ring != nil {
		a.ring.Close()
		a.ring = nil
	}
	a.sweep.close()
	// the buffers are in Engine.bufs
}

// needAdaptive loads adaptive.cu's module (once).
func (e *Engine) needAdaptive() error {
	if e.ad == nil {
		e.ad = &adaptState{}
	}
	if e.ad.mod != nil {
		return nil
	}
	m, err := e.d.LoadModule(AdaptiveModule)
	if err != nil {
		return err
	}
	e.ad.mod = m
	return nil
}

// needRing allocates the counters' ring (once).
func (e *Engine) needRing() error {
	if err := e.needAdaptive(); err != nil {
		return err
	}
	if e.ad.ring != nil {
		return nil
	}
	r, err := e.d.NewMapped(ringSlots * ringWords)
	if err != nil {
		return err
	}
	e.ad.ring = r
	return nil
}

// inArcCount is the number of in-arcs: m on an undirected graph.
func (e *Engine) inArcCount() int64 {
	if !e.g.Directed {
		return e.m
	}
	return int64(len(e.g.InAdj))
}

// needInCOO makes the in-arcs' COO destinations (once): the reverse edge
// list's. An undirected graph's are its COO sources.
func (e *Engine) needInCOO() error {
	if err := e.needAdaptive(); err != nil {
		return err
	}
	if e.ad.isrc != nil {
		return nil
	}
	if err := e.needInArcs(); err != nil {
		return err
	}
	if !e.g.Directed {
		if err := e.needCOO(); err != nil {
			return err
		}
		e.ad.isrc = e.src
		return nil
	}
	mi := e.inArcCount()
	var b *gpu.Buffer
	if err := e.alloc(&b, 4*mi, "the in-arcs' COO destinations"); err != nil {
		return err
	}
	l, err := e.mod.Launch("coo_sources", e.grid(e.n), threads, 0, gpu.Ptr(e.ioff), gpu.Int(int(e.n)), gpu.Ptr(b))
	if err != nil {
		return err
	}
	if err := l.Run(); err != nil {
		return err
	}
	e.ad.isrc = b
	return nil
}

// adaptiveBegin sets adaptive.cu's control words for a search from root
// (after traversal.cu's init), with a new epoch for the ring's tags.
func (e *Engine) adaptiveBegin(root int32) error {
	if err := e.needAdaptive(); err != nil {
		return err
	}
	e.ad.epoch++
	l, err := e.ad.mod.Launch("abegin", 1, 1, 0, gpu.Ptr(e.ctl), uint64(e.ad.epoch), uint64(e.g.Degree(root)))
	if err != nil {
		return err
	}
	return l.Run()
}

// paperLevel is a level of one of the paper's implementations or of
// do-beamer: one kernel, which closes the level. With counted, it also
// counts the next frontier's arcs and posts its counters to the ring.
func (e *Engine) paperLevel(s Strategy, counted bool) ([]func() error, error) {
	if err := e.needAdaptive(); err != nil {
		return nil, err
	}
	ring := uint64(0)
	if counted {
		if err := e.needRing(); err != nil {
			return nil, err
		}
		ring = e.ad.ring.Arg()
	}
	if s == DOBeamer {
		if err := e.needInArcs(); err != nil {
			return nil, err
		}
		if err := e.alloc(&e.ad.big, 4*e.n, "do-beamer's big list"); err != nil {
			return nil, err
		}
		grid := e.grid(max(e.n, 1))
		alpha, beta := uint64(math.Float32bits(float32(e.opt.Alpha))), uint64(math.Float32bits(float32(e.opt.Beta)))
		push, err := e.ad.mod.Launch("do_push", grid, threads, 0, gpu.Ptr(e.off), gpu.Ptr(e.adj), gpu.Int(int(e.n)), uint64(e.m),
			gpu.Ptr(e.depth), gpu.Ptr(e.parent), gpu.Ptr(e.mark), gpu.Ptr(e.ctl), gpu.Ptr(e.q0), gpu.Ptr(e.q1),
			gpu.Ptr(e.ad.big), gpu.Int(e.opt.TWCWarp), alpha, beta)
		if err != nil {
			return nil, err
		}
		finish, err := e.ad.mod.Launch("do_finish", grid, threads, 0, gpu.Ptr(e.off), gpu.Ptr(e.adj), gpu.Ptr(e.ioff),
			gpu.Ptr(e.iadj), gpu.Int(int(e.n)), uint64(e.m), gpu.Ptr(e.depth), gpu.Ptr(e.parent), gpu.Ptr(e.mark),
			gpu.Ptr(e.ctl), gpu.Ptr(e.q0), gpu.Ptr(e.q1), gpu.Ptr(e.ad.big), alpha, beta, ring)
		if err != nil {
			return nil, err
		}
		return []func() error{push.Run, finish.Run}, nil
	}
	if !s.Paper() {
		return nil, fmt.Errorf("traversal: %s is not one of the paper's implementations", s)
	}
	var src, ioff, iadj, isrc uint64
	work := e.n
	switch s {
	case EdgeListAtomic, EdgeListWarp, EdgeListBlock:
		if err := e.needCOO(); err != nil {
			return nil, err
		}
		src, work = gpu.Ptr(e.src), e.m
	case RevEdgeListAtomic, RevEdgeListWarp, RevEdgeListBlock:
		if err := e.needInCOO(); err != nil {
			return nil, err
		}
		ioff, iadj, isrc, work = gpu.Ptr(e.ioff), gpu.Ptr(e.iadj), gpu.Ptr(e.ad.isrc), e.inArcCount()
	case VertexPullAtomic, VertexPullWarp, VertexPullBlock:
		if err := e.needInArcs(); err != nil {
			return nil, err
		}
		ioff, iadj = gpu.Ptr(e.ioff), gpu.Ptr(e.iadj)
	default:
		work = e.n * int64(max(vwWidth(s), 1))
	}
	count := 0
	if counted {
		count = 1
	}
	l, err := e.ad.mod.Launch(paperEntry(s), e.grid(max(work, 1)), threads, 0, gpu.Ptr(e.off), gpu.Ptr(e.adj), src, ioff, iadj, isrc,
		gpu.Int(int(e.n)), uint64(e.m), uint64(e.inArcCount()), gpu.Ptr(e.depth), gpu.Ptr(e.parent), gpu.Ptr(e.mark), gpu.Ptr(e.ctl),
		gpu.Int(count), ring)
	if err != nil {
		return nil, err
	}
	return []func() error{l.Run}, nil
}

// errNotPerLevel is what the counted loops answer for a strategy that
// cannot run one level at a time.
var errNotPerLevel = errors.New("cannot run one level at a time")
