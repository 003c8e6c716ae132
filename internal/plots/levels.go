package plots

import (
	"fmt"
	"image/color"
	"math"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
)

// Levels is a chart of a value per step of a process (a time per BFS
// level, say) for several series: a line per series over the step index,
// on a logarithmic y axis (a value <= 0 or NaN is left out), and mark
// series drawn over the lines as rings and squares (the per-level
// oracle's choice, a model's pick), each named in the legend. Series
// beyond the palette's six colours cycle through it with dashes.
type Levels struct {
	Title, XLabel, YLabel string
	Series                []Series // Values[i] is step i
	Marks                 []Series // the same indexing
}

// dashes are the line patterns of the palette's successive rounds.
var dashes = [][]vg.Length{nil, {vg.Points(5), vg.Points(3)}, {vg.Points(1.5), vg.Points(2)}, {vg.Points(7), vg.Points(2), vg.Points(1.5), vg.Points(2)}}

// markGlyphs are the mark series' shapes, in order.
var markGlyphs = []draw.GlyphDrawer{draw.RingGlyph{}, draw.SquareGlyph{}, draw.TriangleGlyph{}, draw.CrossGlyph{}}

// NewLevels lays out a Levels chart: 7.5 inches wide, taller for a long
// legend. A series with many steps (more than 60) is drawn without a dot
// per value.
func NewLevels(l Levels) (*Figure, error) {
	steps := 0
	for _, s := range append(append([]Series(nil), l.Series...), l.Marks...) {
		steps = max(steps, len(s.Values))
	}
	if steps == 0 {
		return nil, fmt.Errorf("plots: %q has no values", l.Title)
	}
	f := &Figure{title: l.Title, width: 7.5 * vg.Inch}
	p := newPlot("", l.XLabel, l.YLabel, nil)
	p.X.Padding = vg.Points(4)
	lo, hi := math.Inf(1), 0.0
	points := func(values []float64) plotter.XYs {
		var xys plotter.XYs
		for i, v := range values {
			if v > 0 && !math.IsInf(v, 1) {
				xys = append(xys, plotter.XY{X: float64(i), Y: v})
				lo, hi = min(lo, v), max(hi, v)
			}
		}
		return xys
	}
	for i, s := range l.Series {
		xys := points(s.Values)
		if len(xys) == 0 {
			continue
		}
		line, err := plotter.NewLine(xys)
		if err != nil {
			return nil, err
		}
		line.Color, line.Width = colour(i), vg.Points(1.2)
		line.Dashes = dashes[(i/len(palette))%len(dashes)]
		p.Add(line)
		var thumb plot.Thumbnailer = line
		if steps <= 60 {
			sc, err := plotter.NewScatter(xys)
			if err != nil {
				return nil, err
			}
			sc.Color, sc.Shape, sc.Radius = colour(i), draw.CircleGlyph{}, vg.Points(1.8)
			p.Add(sc)
			thumb = lineThumb{line, sc}
		}
		f.legend = append(f.legend, legendEntry{s.Name, thumb})
	}
	for i, m := range l.Marks {
		xys := points(m.Values)
		if len(xys) == 0 {
			continue
		}
		sc, err := plotter.NewScatter(xys)
		if err != nil {
			return nil, err
		}
		sc.Color, sc.Shape, sc.Radius = color.Black, markGlyphs[i%len(markGlyphs)], vg.Points(4)
		p.Add(sc)
		f.legend = append(f.legend, legendEntry{m.Name, sc})
	}
	if hi == 0 {
		return nil, fmt.Errorf("plots: %q has no positive value", l.Title)
	}
	p.Y.Scale, p.Y.Tick.Marker = plot.LogScale{}, ticks125{}
	p.Y.Min, p.Y.Max = lo/1.25, hi*1.25
	p.X.Min, p.X.Max = 0, float64(max(steps-1, 1))
	f.grid = [][]*plot.Plot{{p}}
	f.height = 4.5*vg.Inch + legendHeight(f.legend, f.width)
	return f, nil
}

// legendHeight is the height the legend's rows take in a figure of the
// given width, as draw lays them out.
func legendHeight(entries []legendEntry, width vg.Length) vg.Length {
	ls := textStyle(legendSize)
	rowH := ls.Height("Xy") * 1.4
	avail := width - 2*margin
	rows, x := 1, vg.Length(0)
	for _, e := range entries {
		w := 6*vg.Millimeter + margin/2 + ls.Width(e.name) + 2*margin
		if x > 0 && x+w > avail {
			rows, x = rows+1, 0
		}
		x += w
	}
	return vg.Length(rows) * rowH
}

// ticks125 labels a logarithmic axis at 1, 2 and 5 times the powers of
// ten in range, with unlabelled ticks at the other integers times them.
type ticks125 struct{}

func (ticks125) Ticks(lo, hi float64) []plot.Tick {
	var ticks []plot.Tick
	if !(lo > 0) || !(hi >= lo) {
		return ticks
	}
	for e := math.Floor(math.Log10(lo)); math.Pow(10, e) <= hi; e++ {
		base := math.Pow(10, e)
		for i := 1; i < 10; i++ {
			v := float64(i) * base
			if v < lo || v > hi {
				continue
			}
			t := plot.Tick{Value: v}
			if i == 1 || i == 2 || i == 5 {
				t.Label = strconv.FormatFloat(v, 'g', -1, 64)
			}
			ticks = append(ticks, t)
		}
	}
	return ticks
}
