package matrices

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// PresetInfo describes a named synthetic matrix. For the stand-ins of the
// SPAC paper's SuiteSparse matrices, Rows and NNZ are the real matrix's, NNZ
// counting stored entries (one triangle for Symmetric ones, as the paper
// does); for the generic presets they are the nominal sizes at scale 1.
type PresetInfo struct {
	Name        string
	Description string
	Rows        int
	NNZ         int
	Symmetric   bool // the preset returns Symmetric storage (lower triangle)
	// build makes the preset with the given number of rows (square).
	build func(rows int, seed int64) (*COO, error)
}

// presetMinRows keeps tiny scales meaningful: below this, bands, hosts and
// dense rows have nothing to work with.
const presetMinRows = 64

var presetTable = []PresetInfo{
	{
		Name: "cant", Rows: 62451, NNZ: 2034917, Symmetric: true,
		Description: "FEM cantilever (SuiteSparse Williams/cant): banded, dense 3x3 blocks near the diagonal, ~64 entries per full row, SPD",
		build: func(rows int, seed int64) (*COO, error) {
			return presetFEM(rows, 3, 62451, 2034917, 144, 0.2, 0, seed), nil
		},
	},
	{
		Name: "circuit5M", Rows: 5558326, NNZ: 59524291,
		Description: "large circuit simulation (SuiteSparse Freescale/circuit5M): ~10.7 entries per row, local structurally symmetric pattern, a few rows/columns touching up to ~23% of all nodes",
		build: func(rows int, seed int64) (*COO, error) {
			return genCircuit(circuitOpts{n: rows, avgDeg: 59524291.0 / 5558326, dense: 6, maxFrac: 0.23}, seed), nil
		},
	},
	{
		Name: "cop20k_A", Rows: 121192, NNZ: 2624331, Symmetric: true,
		Description: "FEM accelerator cavity (SuiteSparse Williams/cop20k_A): 2x2 blocks, irregular rows, wide band with a few far couplings, SPD",
		build: func(rows int, seed int64) (*COO, error) {
			return presetFEM(rows, 2, 121192, 2624331, 400, 0.5, 0.02, seed), nil
		},
	},
	{
		Name: "Ga41As41H72", Rows: 268096, NNZ: 18488476, Symmetric: true,
		Description: "quantum chemistry (SuiteSparse PARSEC/Ga41As41H72): ~137 entries per full row, 4x4 blocks in a wide band, very irregular rows, 10% couplings far off the band, SPD",
		build: func(rows int, seed int64) (*COO, error) {
			return presetFEM(rows, 4, 268096, 18488476, 1200, 1, 0.1, seed), nil
		},
	},
	{
		Name: "in-2004", Rows: 1382908, NNZ: 16917053,
		Description: "web crawl of .in (SuiteSparse LAW/in-2004): directed, ~12.2 links per page, power-law degrees, host blocks on the diagonal",
		build: func(rows int, seed int64) (*COO, error) {
			return WebGraph(rows, 16917053.0/1382908, seed)
		},
	},
	{
		Name: "mac_econ_fwd500", Rows: 206500, NNZ: 1273389,
		Description: "economic model (SuiteSparse Williams/mac_econ_fwd500): unsymmetric, ~6.2 entries per row of irregular length, blocks of 500 sectors",
		build: func(rows int, seed int64) (*COO, error) {
			return genEcon(rows, 1273389.0/206500, seed), nil
		},
	},
	{
		Name: "mc2depi", Rows: 525825, NNZ: 2100225,
		Description: "2D epidemiology Markov chain (SuiteSparse Williams/mc2depi): triangular state grid, <= 4 entries per row on 4 diagonals (exact at scale 1)",
		build: func(rows int, seed int64) (*COO, error) {
			k := max(1, int(math.Round(math.Sqrt(2*float64(rows)+0.25)-1.5)))
			return Epidemic2D(k)
		},
	},
	{
		Name: "scircuit", Rows: 170998, NNZ: 958936,
		Description: "circuit simulation (SuiteSparse Hamm/scircuit): ~5.6 entries per row, local structurally symmetric pattern, a few rows/columns of a few hundred entries",
		build: func(rows int, seed int64) (*COO, error) {
			return genCircuit(circuitOpts{n: rows, avgDeg: 958936.0 / 170998, dense: 4, maxFrac: 0.002}, seed), nil
		},
	},
	presetBA(8), presetBA(16), presetBA(32), presetBA(64),
	{
		Name: "er-100k-d16", Rows: 100000, NNZ: 1600000,
		Description: "Erdos-Renyi directed, 16 entries per row, no locality (a worst case for partitioning)",
		build: func(rows int, seed int64) (*COO, error) {
			return ErdosRenyi(rows, 16, seed)
		},
	},
	{
		Name: "rmat-18", Rows: 1 << 18, NNZ: 16 << 18,
		Description: "R-MAT scale 18, edge factor 16, Graph500 probabilities; duplicates removed (~20% fewer entries); scale rounds rows to a power of two",
		build: func(rows int, seed int64) (*COO, error) {
			s := max(1, int(math.Round(math.Log2(float64(rows)))))
			return RMAT(s, 16, 0.57, 0.19, 0.19, seed)
		},
	},
	{
		Name: "stencil2d-1000", Rows: 1000000, NNZ: 4996000,
		Description: "5-point Laplacian on a 1000 x 1000 grid, SPD, General storage; scale shrinks both sides",
		build: func(rows int, seed int64) (*COO, error) {
			s := max(1, int(math.Round(math.Sqrt(float64(rows)))))
			return Stencil2D(s, s, 5)
		},
	},
	{
		Name: "stencil3d-100", Rows: 1000000, NNZ: 6940000,
		Description: "7-point Laplacian on a 100^3 grid, SPD, General storage; scale shrinks all sides",
		build: func(rows int, seed int64) (*COO, error) {
			s := max(1, int(math.Round(math.Cbrt(float64(rows)))))
			return Stencil3D(s, s, s, 7)
		},
	},
}

// presetBA is the paper's Fig. 7 workload: BA graphs with 50k vertices and
// average degree d.
func presetBA(d int) PresetInfo {
	m := d / 2
	return PresetInfo{
		Name: fmt.Sprintf("ba-50k-d%d", d), Rows: 50000, NNZ: 50000*m - m*(m+1)/2, Symmetric: true,
		Description: fmt.Sprintf("Barabasi-Albert graph, 50k vertices, average degree %d (paper Fig. 7), one triangle stored", d),
		build: func(rows int, seed int64) (*COO, error) {
			return BarabasiAlbert(max(rows, m+1), m, seed)
		},
	}
}

// presetFEM builds a Symmetric FEM-like stand-in with the paper matrix's
// stored entries per row: a full matrix with the diagonal has 2*stored - rows
// entries.
func presetFEM(rows, block, paperRows, paperNNZ, bandwidth int, jitter, far float64, seed int64) *COO {
	rowNNZ := (2*float64(paperNNZ) - float64(paperRows)) / float64(paperRows)
	return genFEM(femOpts{n: rows, block: block, rowNNZ: rowNNZ, bandwidth: bandwidth, jitter: jitter, far: far}, seed)
}

// PresetNames lists the preset names in a stable order: the paper's
// matrices (alphabetically, as the paper's tables list them), then the
// generic ones.
func PresetNames() []string {
	names := make([]string, len(presetTable))
	for i, p := range presetTable {
		names[i] = p.Name
	}
	return names
}

// Presets describes every preset, in PresetNames order.
func Presets() []PresetInfo { return append([]PresetInfo(nil), presetTable...) }

// LookupPreset finds a preset by name, ignoring case.
func LookupPreset(name string) (PresetInfo, bool) {
	for _, p := range presetTable {
		if strings.EqualFold(p.Name, name) {
			return p, true
		}
	}
	return PresetInfo{}, false
}

// Preset generates the named preset with round(Rows*scale) rows (at least
// 64) and the real matrix's entries per row: scale 1 mimics the full
// matrix, 0.01 gives a 1% version for tests. Generic presets whose shape
// fixes the size (grids, R-MAT) round to the nearest size they can make.
// The same name, scale and seed always give the same matrix.
func Preset(name string, scale float64, seed int64) (*COO, error) {
	p, ok := LookupPreset(name)
	if !ok {
		return nil, fmt.Errorf("unknown preset %q (known: %s)", name, strings.Join(PresetNames(), ", "))
	}
	if !genFinite(scale) || scale <= 0 {
		return nil, fmt.Errorf("preset %s: scale %v must be a positive number", p.Name, scale)
	}
	rows := math.Round(float64(p.Rows) * scale)
	if rows > math.MaxInt32 || float64(p.NNZ)*scale > maxGenEntries {
		return nil, fmt.Errorf("preset %s: scale %v asks for %.3g rows and %.3g entries, beyond the generators' limits (%d rows, %d entries)",
			p.Name, scale, rows, float64(p.NNZ)*scale, math.MaxInt32, maxGenEntries)
	}
	m, err := p.build(max(presetMinRows, int(rows)), seed)
	if err != nil {
		return nil, fmt.Errorf("preset %s at scale %v: %w", p.Name, scale, err)
	}
	m.Name = fmt.Sprintf("%s(scale=%g,seed=%d)", p.Name, scale, seed)
	return m, nil
}

// GenSpec is a generator request as the command line spells it,
// "kind:key=value,key=value", e.g. "ba:n=50000,m=8". Params holds every
// key of the kind, defaults filled in. Build one with ParseGenSpec.
type GenSpec struct {
	Kind   string
	Params map[string]float64
}

type genParam struct {
	key     string
	integer bool
	def     float64 // NaN: required
	doc     string
}

type genKind struct {
	name, doc string
	params    []genParam
	check     func(p map[string]float64) error
	build     func(p map[string]float64, seed int64) (*COO, error)
}

var genRequired = math.NaN()

func genInt(p map[string]float64, k string) int { return int(p[k]) }

var genKinds = []genKind{
	{
		name: "er", doc: "Erdos-Renyi directed n x n, about n*deg entries",
		params: []genParam{{"n", true, genRequired, "rows"}, {"deg", false, genRequired, "mean entries per row"}},
		check:  func(p map[string]float64) error { return checkER(genInt(p, "n"), p["deg"]) },
		build: func(p map[string]float64, seed int64) (*COO, error) {
			return ErdosRenyi(genInt(p, "n"), p["deg"], seed)
		},
	},
	{
		name: "ba", doc: "Barabasi-Albert undirected, symmetric storage, average degree ~2m",
		params: []genParam{{"n", true, genRequired, "vertices"}, {"m", true, genRequired, "edges per new vertex"}},
		check:  func(p map[string]float64) error { return checkBA(genInt(p, "n"), genInt(p, "m")) },
		build: func(p map[string]float64, seed int64) (*COO, error) {
			return BarabasiAlbert(genInt(p, "n"), genInt(p, "m"), seed)
		},
	},
	{
		name: "rmat", doc: "R-MAT directed 2^scale x 2^scale, duplicates removed",
		params: []genParam{{"scale", true, genRequired, "log2 of rows"}, {"ef", true, 16, "edges drawn per row"},
			{"a", false, 0.57, "top-left probability"}, {"b", false, 0.19, "top-right probability"}, {"c", false, 0.19, "bottom-left probability"}},
		check: func(p map[string]float64) error {
			return checkRMAT(genInt(p, "scale"), genInt(p, "ef"), p["a"], p["b"], p["c"])
		},
		build: func(p map[string]float64, seed int64) (*COO, error) {
			return RMAT(genInt(p, "scale"), genInt(p, "ef"), p["a"], p["b"], p["c"], seed)
		},
	},
	{
		name: "stencil2d", doc: "2D Laplacian, SPD, general storage",
		params: []genParam{{"nx", true, genRequired, "grid width"}, {"ny", true, genRequired, "grid height"}, {"points", true, 5, "5 or 9"}},
		check: func(p map[string]float64) error {
			return checkStencil("stencil2d", []int{genInt(p, "nx"), genInt(p, "ny")}, genInt(p, "points"), 5, 9)
		},
		build: func(p map[string]float64, seed int64) (*COO, error) {
			return Stencil2D(genInt(p, "nx"), genInt(p, "ny"), genInt(p, "points"))
		},
	},
	{
		name: "stencil3d", doc: "3D Laplacian, SPD, general storage",
		params: []genParam{{"nx", true, genRequired, "grid width"}, {"ny", true, genRequired, "grid height"}, {"nz", true, genRequired, "grid depth"}, {"points", true, 7, "7 or 27"}},
		check: func(p map[string]float64) error {
			return checkStencil("stencil3d", []int{genInt(p, "nx"), genInt(p, "ny"), genInt(p, "nz")}, genInt(p, "points"), 7, 27)
		},
		build: func(p map[string]float64, seed int64) (*COO, error) {
			return Stencil3D(genInt(p, "nx"), genInt(p, "ny"), genInt(p, "nz"), genInt(p, "points"))
		},
	},
	{
		name: "circuit", doc: "circuit-simulation-like, general storage, a few dense rows/columns",
		params: []genParam{{"n", true, genRequired, "rows"}, {"deg", false, 5, "mean entries per row, diagonal included"}},
		check:  func(p map[string]float64) error { return checkCircuit(genInt(p, "n"), p["deg"]) },
		build: func(p map[string]float64, seed int64) (*COO, error) {
			return Circuit(genInt(p, "n"), p["deg"], seed)
		},
	},
	{
		name: "fem", doc: "FEM-like banded block matrix, SPD, symmetric storage",
		params: []genParam{{"n", true, genRequired, "rows"}, {"block", true, 3, "unknowns per node"},
			{"nnz", false, 64, "mean entries per full row"}, {"band", true, 0, "bandwidth in rows (0: 2*nnz)"}},
		check: func(p map[string]float64) error {
			return checkFEM(genInt(p, "n"), genInt(p, "block"), p["nnz"], femBand(p))
		},
		build: func(p map[string]float64, seed int64) (*COO, error) {
			return FEMBlock(genInt(p, "n"), genInt(p, "block"), p["nnz"], femBand(p), seed)
		},
	},
	{
		name: "web", doc: "web-crawl-like directed graph with host blocks and power-law degrees",
		params: []genParam{{"n", true, genRequired, "pages"}, {"deg", false, 12, "mean links per page"}},
		check:  func(p map[string]float64) error { return checkWeb(genInt(p, "n"), p["deg"]) },
		build: func(p map[string]float64, seed int64) (*COO, error) {
			return WebGraph(genInt(p, "n"), p["deg"], seed)
		},
	},
	{
		name: "road", doc: "road-network-like undirected graph on a grid (mean degree ~2.9, at most 6), symmetric storage",
		params: []genParam{{"nx", true, genRequired, "grid width"}, {"ny", true, genRequired, "grid height"},
			{"keep", false, 0.7, "probability of each grid edge"}, {"diag", false, 0.05, "probability of a cell's diagonal"}},
		check: func(p map[string]float64) error {
			return checkRoad(genInt(p, "nx"), genInt(p, "ny"), p["keep"], p["diag"])
		},
		build: func(p map[string]float64, seed int64) (*COO, error) {
			return Road(genInt(p, "nx"), genInt(p, "ny"), p["keep"], p["diag"], seed)
		},
	},
	{
		name: "community", doc: "social-network-like undirected graph with communities and power-law degrees, numbered at random, symmetric storage",
		params: []genParam{{"n", true, genRequired, "vertices"}, {"deg", false, 10, "mean degree"},
			{"mix", false, 0.15, "share of edges between communities"}},
		check: func(p map[string]float64) error { return checkCommunity(genInt(p, "n"), p["deg"], p["mix"]) },
		build: func(p map[string]float64, seed int64) (*COO, error) {
			return Community(genInt(p, "n"), p["deg"], p["mix"], seed)
		},
	},
	{
		name: "epidemic", doc: "2D epidemiology Markov chain on (k+1)(k+2)/2 states (mc2depi: k=1024)",
		params: []genParam{{"k", true, genRequired, "triangle side"}},
		check:  func(p map[string]float64) error { return checkEpidemic(genInt(p, "k")) },
		build:  func(p map[string]float64, seed int64) (*COO, error) { return Epidemic2D(genInt(p, "k")) },
	},
}

func femBand(p map[string]float64) int {
	if b := genInt(p, "band"); b > 0 {
		return b
	}
	return int(math.Ceil(2 * p["nnz"]))
}

func lookupGenKind(name string) (*genKind, error) {
	for i := range genKinds {
		if genKinds[i].name == name {
			return &genKinds[i], nil
		}
	}
	names := make([]string, len(genKinds))
	for i, k := range genKinds {
		names[i] = k.name
	}
	return nil, fmt.Errorf("unknown generator %q (known: %s)", name, strings.Join(names, ", "))
}

func (k *genKind) keys() string {
	ks := make([]string, len(k.params))
	for i, p := range k.params {
		ks[i] = p.key
	}
	return strings.Join(ks, ", ")
}

// GenSpecHelp describes the generator kinds and their keys, one kind a
// line, for command-line help.
func GenSpecHelp() string {
	var b strings.Builder
	for _, k := range genKinds {
		fmt.Fprintf(&b, "%s: %s;", k.name, k.doc)
		for _, p := range k.params {
			if math.IsNaN(p.def) {
				fmt.Fprintf(&b, " %s (%s, required)", p.key, p.doc)
			} else {
				fmt.Fprintf(&b, " %s (%s, default %g)", p.key, p.doc, p.def)
			}
		}
		b.WriteByte('\n')
	}
	return b.String()
}

// ParseGenSpec reads "kind:key=value,key=value" (spaces around items are
// ignored; the colon may be left out when every key has a default). It
// checks the kind, the keys, that integer keys are integers, and the ranges
// the generator would reject, so that a bad request fails before any work.
func ParseGenSpec(spec string) (GenSpec, error) {
	kindName, rest, _ := strings.Cut(strings.TrimSpace(spec), ":")
	kindName = strings.ToLower(strings.TrimSpace(kindName))
	if kindName == "" {
		return GenSpec{}, fmt.Errorf("generator spec %q: missing kind (want kind:key=value,...)", spec)
	}
	kind, err := lookupGenKind(kindName)
	if err != nil {
		return GenSpec{}, fmt.Errorf("generator spec %q: %w", spec, err)
	}
	given := make(map[string]float64, len(kind.params))
	if strings.TrimSpace(rest) != "" {
		for _, item := range strings.Split(rest, ",") {
			key, val, ok := strings.Cut(item, "=")
			key, val = strings.ToLower(strings.TrimSpace(key)), strings.TrimSpace(val)
			if !ok || key == "" || val == "" {
				return GenSpec{}, fmt.Errorf("generator spec %q: item %q is not key=value (keys of %s: %s)", spec, strings.TrimSpace(item), kind.name, kind.keys())
			}
			if _, dup := given[key]; dup {
				return GenSpec{}, fmt.Errorf("generator spec %q: key %s given twice", spec, key)
			}
			v, err := strconv.ParseFloat(val, 64)
			if err != nil || !genFinite(v) {
				return GenSpec{}, fmt.Errorf("generator spec %q: %s=%s is not a number", spec, key, val)
			}
			given[key] = v
		}
	}
	s := GenSpec{Kind: kind.name, Params: given}
	if err := s.check(kind); err != nil {
		return GenSpec{}, fmt.Errorf("generator spec %q: %w", spec, err)
	}
	return s, nil
}

// check validates Params against kind, filling in defaults.
func (s GenSpec) check(kind *genKind) error {
	for key := range s.Params {
		known := false
		for _, p := range kind.params {
			known = known || p.key == key
		}
		if !known {
			return fmt.Errorf("unknown key %q for %s (valid keys: %s)", key, kind.name, kind.keys())
		}
	}
	for _, p := range kind.params {
		v, ok := s.Params[p.key]
		if !ok {
			if math.IsNaN(p.def) {
				return fmt.Errorf("%s needs %s (%s; valid keys: %s)", kind.name, p.key, p.doc, kind.keys())
			}
			s.Params[p.key] = p.def
			continue
		}
		if p.integer && (v != math.Trunc(v) || math.Abs(v) > math.MaxInt32) {
			return fmt.Errorf("%s=%v must be an integer of at most %d", p.key, v, math.MaxInt32)
		}
	}
	return kind.check(s.Params)
}

// Generate runs the generator the spec names. A GenSpec built by hand is
// validated as ParseGenSpec would.
func (s GenSpec) Generate(seed int64) (*COO, error) {
	kind, err := lookupGenKind(s.Kind)
	if err != nil {
		return nil, err
	}
	p := make(map[string]float64, len(s.Params))
	for k, v := range s.Params {
		p[k] = v
	}
	spec := GenSpec{Kind: s.Kind, Params: p}
	if err := spec.check(kind); err != nil {
		return nil, fmt.Errorf("generator %s: %w", spec, err)
	}
	m, err := kind.build(p, seed)
	if err != nil {
		return nil, fmt.Errorf("generator %s: %w", spec, err)
	}
	m.Name = fmt.Sprintf("%s@seed=%d", spec, seed)
	return m, nil
}

// String spells the spec back in canonical form: keys in the kind's order.
func (s GenSpec) String() string {
	var b strings.Builder
	b.WriteString(s.Kind)
	sep := ":"
	if kind, err := lookupGenKind(s.Kind); err == nil {
		for _, p := range kind.params {
			if v, ok := s.Params[p.key]; ok {
				fmt.Fprintf(&b, "%s%s=%s", sep, p.key, strconv.FormatFloat(v, 'g', -1, 64))
				sep = ","
			}
		}
	}
	return b.String()
}
