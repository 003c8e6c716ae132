package apsp

import (
	"context"
	"fmt"
	"math/bits"

	"github.com/spac-gpu/spac/apps/traversal/graph"
	"github.com/spac-gpu/spac/internal/enum"
)

// Method is an all-pairs algorithm.
type Method uint8

const (
	Auto      Method = iota // Choose picks one from the graph's size and density
	FW                      // Floyd-Warshall, a step per k over the whole matrix (the naive kernel)
	FWBlocked               // blocked Floyd-Warshall, three phases per round of Tile values of k
	SSSPAll                 // Dijkstra from every source (CPU only for now)
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
// without next hops, with DefaultTile.
type Options struct {
	Method Method
	Paths  bool // also compute the next-hop matrix
	Tile   int  // FWBlocked's tile: one of Tiles (0: DefaultTile)
}

func (o Options) tile() int {
	if o.Tile == 0 {
		return DefaultTile
	}
	return o.Tile
}

// Choose is Auto's pick for g on the CPU: Dijkstra from every source when
// the graph is sparse enough that N searches of O((N + M) log N) heap work beat
// Floyd-Warshall's N^3 relaxations, counting a heap step as 32
// relaxations (a relaxation is a vectorizable add and min, a heap step a
// few dependent cache misses): M log2 N * 32 < N^2; else FW, which beats
// the blocked order on the CPU (n = 1024, 2 cores: 0.34 s against 0.70;
// Dijkstra from every source 0.26 s on a Kronecker graph of 16 arcs per
// vertex). A provisional rule:
// issue 18 asks for one measured on the GPU, where the constant differs.
// On the GPU (onGPU) Auto is always FWBlocked: SSSPAll runs on the CPU
// only.
func Choose(g *graph.Graph, onGPU bool) Method {
	n := int64(g.NumVertices)
	if onGPU {
		return FWBlocked
	}
	if n < 2 {
		return FW
	}
	if g.NumArcs()*int64(bits.Len64(uint64(n)))*32 < n*n {
		return SSSPAll
	}
	return FW
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
