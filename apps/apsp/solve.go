package apsp

import (
	"context"
	"fmt"

	"github.com/spac-gpu/spac/apps/traversal/graph"
	"github.com/spac-gpu/spac/internal/enum"
)

// Method is an all-pairs algorithm.
type Method uint8

const (
	Auto      Method = iota // Choose picks one from the graph's size and density
	FW                      // Floyd-Warshall, a step per k over the whole matrix (the naive kernel)
	FWBlocked               // blocked Floyd-Warshall, three phases per round of Tile values of k
	SSSPAll                 // shortest paths from every source: Dijkstra on the CPU, batched label-correcting searches on the GPU
)

var methodNames = enum.New("method",
	enum.Name[Method]{Value: Auto, Name: "auto"},
	enum.Name[Method]{Value: FW, Name: "fw", Aliases: []string{"naive"}},
	enum.Name[Method]{Value: FWBlocked, Name: "fw-blocked", Aliases: []string{"blocked"}},
	enum.Name[Method]{Value: SSSPAll, Name: "sssp-all"},
)

func (m Method) String() string { return methodNames.String(m) }

// ParseMethod reads auto, fw, fw-blocked or sssp-all.
func ParseMethod(s string) (Method, error) { return methodNames.Parse(s) }

// MethodNames lists the methods' names, for help texts.
func MethodNames() []string { return methodNames.Names() }

// Options says how Solve and SolveGPU work; the zero value is Auto,
// without next hops, with DefaultTile and DefaultBatch.
type Options struct {
	Method Method
	Paths  bool // also compute the next-hop matrix
	Tile   int  // FWBlocked's tile: one of Tiles (0: DefaultTile)
	// Batch is SSSPAll's sources per batch on the GPU: a multiple of 32
	// up to MaxBatch (0: DefaultBatch); fewer when the device memory is
	// short or the graph smaller. The CPU ignores it.
	Batch int
}

func (o Options) tile() int {
	if o.Tile == 0 {
		return DefaultTile
	}
	return o.Tile
}

// Solve computes g's all-pairs shortest paths on the CPU with opt's
// method and returns them with the method that ran (Auto resolved).
func Solve[T Weight](ctx context.Context, g *graph.Graph, opt Options) (*Matrix[T], Method, error) {
	method := opt.Method
	if method == Auto {
		method = Choose(g, false)
	}
	if method == SSSPAll {
		m, err := AllSources[T](ctx, g, opt.Paths)
		return m, method, err
	}
	if method == FWBlocked {
		if err := checkTile(opt.tile()); err != nil {
			return nil, method, err
		}
	}
	m, err := Dense[T](g, opt.Paths)
	if err != nil {
		return nil, method, err
	}
	switch method {
	case FW:
		err = FloydWarshall(ctx, m)
	case FWBlocked:
		err = FloydWarshallBlocked(ctx, m, opt.tile())
	default:
		err = fmt.Errorf("apsp: unknown method %v", method)
	}
	if err != nil {
		return nil, method, err
	}
	return m, method, nil
}
