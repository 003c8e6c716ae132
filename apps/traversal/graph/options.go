package graph

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/spac-gpu/spac/internal/enum"
)

// Relabel is how Build renumbers the vertices.
type Relabel uint8

const (
	RelabelNone   Relabel = iota // keep the input's ids
	RelabelDegree                // by decreasing degree (arcs), ties by input id
	RelabelRandom                // a uniformly random permutation drawn from Options.Seed
)

var relabelNames = enum.New("relabelling",
	enum.Name[Relabel]{Value: RelabelNone, Name: "none", Aliases: []string{""}},
	enum.Name[Relabel]{Value: RelabelDegree, Name: "degree"},
	enum.Name[Relabel]{Value: RelabelRandom, Name: "random"},
)

func (r Relabel) String() string { return relabelNames.String(r) }

// ParseRelabel reads a relabelling as the command line spells it ("" is
// none).
func ParseRelabel(s string) (Relabel, error) { return relabelNames.Parse(s) }

// WeightKind is where the weights come from.
type WeightKind uint8

const (
	NoWeights    WeightKind = iota // an unweighted graph (BFS only)
	FileWeights                    // the input's values (Edges.Val)
	UniformInt                     // uniform integers 1..Max
	UniformFloat                   // uniform j/2^24, j = 1..2^24: (0, 1]
)

// Weights says how Build weights the edges.
type Weights struct {
	Kind WeightKind
	Max  int32 // for UniformInt: weights are 1..Max, Max in [1, 2^24]
}

func (w Weights) String() string {
	switch w.Kind {
	case NoWeights:
		return "none"
	case FileWeights:
		return "file"
	case UniformInt:
		return "uniform-int:" + strconv.Itoa(int(w.Max))
	case UniformFloat:
		return "uniform-float"
	}
	return fmt.Sprintf("Weights(%d)", uint8(w.Kind))
}

// ParseWeights reads "none", "file", "uniform-int:W" or "uniform-float".
func ParseWeights(s string) (Weights, error) {
	low := strings.ToLower(strings.TrimSpace(s))
	switch low {
	case "", "none":
		return Weights{}, nil
	case "file":
		return Weights{Kind: FileWeights}, nil
	case "uniform-float":
		return Weights{Kind: UniformFloat}, nil
	}
	if rest, ok := strings.CutPrefix(low, "uniform-int:"); ok {
		w, err := strconv.ParseInt(rest, 10, 32)
		if err != nil || w < 1 || w > 1<<24 {
			return Weights{}, fmt.Errorf("weights %q: W must be an integer in [1, 16777216] (exact in float32)", s)
		}
		return Weights{Kind: UniformInt, Max: int32(w)}, nil
	}
	return Weights{}, fmt.Errorf("unknown weights %q (want none, file, uniform-int:W or uniform-float)", s)
}

// Options says how Build turns input edges into a Graph. The zero value
// keeps the input's directedness, duplicates, self-loops and ids, without
// weights or transpose.
type Options struct {
	Undirected    bool    // treat every input edge as undirected
	Dedupe        bool    // keep one arc per (source, target): the lightest
	DropSelfLoops bool    // store no arc v->v
	Relabel       Relabel // renumber the vertices
	Weights       Weights
	Seed          uint64 // for generated weights and RelabelRandom
	Transpose     bool   // also build the in-arcs of a directed graph
}
