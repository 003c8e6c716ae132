// Package plots draws the figures of spac's reports with gonum.org/v1/plot:
// a grouped bar chart (spac spmv --report's speedup.svg) and a grid of line
// panels (spac cfd report's fig14.svg). Callers pass plain data (category
// names, series of values, reference lines); this package owns the layout,
// the palette and the file formats, so that every report looks alike.
//
// # Figures
//
// A figure is a title, a legend row under it (one entry per series, in the
// order given, with the same colour in every panel), and one plot or a grid
// of aligned plots below. A missing value is NaN: its bar or point is left
// out, and a line goes on to the next value.
//
// # Formats
//
// Write renders a figure as SVG (vector; text stays text, so a browser or a
// test can read the labels; fonts are not embedded, the viewer substitutes a
// sans-serif face) or PNG at DPI dots per inch on a white background. The
// output depends only on the figure: the same data give the same bytes.
package plots

import (
	"fmt"
	"image/color"
	"io"
	"math"
	"strconv"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
	"gonum.org/v1/plot/text"
	"gonum.org/v1/plot/vg"
	"gonum.org/v1/plot/vg/draw"
	"gonum.org/v1/plot/vg/vgimg"
	"gonum.org/v1/plot/vg/vgsvg"

	"github.com/spac-gpu/spac/internal/output"
)

// Format is a figure's file format.
type Format string

const (
	SVG Format = "svg"
	PNG Format = "png"
)

// Formats are the formats every report writes, in the order it lists them.
var Formats = []Format{SVG, PNG}

// DPI is the resolution of PNG output.
const DPI = 144

// Series is a named row of values, one per category (NaN: none).
type Series struct {
	Name   string
	Values []float64
}

// Ref is a horizontal reference line across a plot, named in the legend.
type Ref struct {
	Value  float64
	Name   string
	Dashed bool
}

// Figure is a laid-out figure, ready to be written in any Format.
type Figure struct {
	width, height vg.Length
	title         string
	legend        []legendEntry
	grid          [][]*plot.Plot // rows of plots; nil cells stay empty
}

type legendEntry struct {
	name  string
	thumb plot.Thumbnailer
}

// Size is the figure's size in points (1/72 inch).
func (f *Figure) Size() (w, h float64) { return f.width.Points(), f.height.Points() }

// Pixels is the size of the figure's PNG.
func (f *Figure) Pixels() (w, h int) {
	return int(math.Round(float64(f.width/vg.Inch) * DPI)), int(math.Round(float64(f.height/vg.Inch) * DPI))
}

// Write renders the figure to w in the format.
func (f *Figure) Write(w io.Writer, format Format) error {
	var c vg.CanvasWriterTo
	switch format {
	case SVG:
		c = vgsvg.New(f.width, f.height)
	case PNG:
		c = vgimg.PngCanvas{Canvas: vgimg.NewWith(vgimg.UseWH(f.width, f.height), vgimg.UseDPI(DPI))}
	default:
		return fmt.Errorf("plots: unknown format %q (svg or png)", format)
	}
	f.draw(draw.New(c))
	_, err := c.WriteTo(w)
	return err
}

// Files are the figure's files for output.WriteFiles, one per format
// (NAME.svg, NAME.png), in the order of Formats.
func (f *Figure) Files(name string) []output.File {
	var files []output.File
	for _, format := range Formats {
		files = append(files, output.File{Name: name + "." + string(format), Fill: func(w io.Writer) error { return f.Write(w, format) }})
	}
	return files
}

var (
	// palette is Paul Tol's bright scheme, readable by the colour-blind.
	palette = []color.Color{
		color.RGBA{0x44, 0x77, 0xaa, 0xff},
		color.RGBA{0xee, 0x66, 0x77, 0xff},
		color.RGBA{0x22, 0x88, 0x33, 0xff},
		color.RGBA{0xcc, 0xbb, 0x44, 0xff},
		color.RGBA{0x66, 0xcc, 0xee, 0xff},
		color.RGBA{0xaa, 0x33, 0x77, 0xff},
	}
	grey = color.Gray{0xdd}
)

func colour(i int) color.Color { return palette[i%len(palette)] }

// face is the typeface of every text: plot's default is a serif.
const face = "Sans"

func textStyle(size vg.Length) text.Style {
	s := plot.New().Legend.TextStyle
	s.Font.Size, s.Font.Variant = size, face
	return s
}

// niceTicks labels about five round steps (1, 2 or 5 times a power of
// ten) from min to max, all with the step's decimals, with a minor tick
// between two labels.
func niceTicks(lo, hi float64) []plot.Tick {
	if !(hi > lo) {
		return []plot.Tick{{Value: lo, Label: strconv.FormatFloat(lo, 'g', -1, 64)}}
	}
	raw := (hi - lo) / 5
	step := math.Pow(10, math.Floor(math.Log10(raw)))
	for _, f := range []float64{1, 2, 5, 10} {
		if f*step >= raw {
			step *= f
			break
		}
	}
	decimals := max(0, int(-math.Floor(math.Log10(step)+1e-9)))
	var ticks []plot.Tick
	for i := math.Ceil(lo / step * 2); i/2*step <= hi*(1+1e-9); i++ {
		v := i / 2 * step
		if math.Mod(i, 2) == 0 {
			ticks = append(ticks, plot.Tick{Value: v, Label: strconv.FormatFloat(v, 'f', decimals, 64)})
		} else {
			ticks = append(ticks, plot.Tick{Value: v})
		}
	}
	return ticks
}

const (
	margin     = 4 * vg.Millimeter
	titleSize  = 13
	legendSize = 10
)

// draw paints the background, the header and the plots.
func (f *Figure) draw(c draw.Canvas) {
	c.FillPolygon(color.White, []vg.Point{c.Min, {X: c.Max.X, Y: c.Min.Y}, c.Max, {X: c.Min.X, Y: c.Max.Y}})
	c = draw.Crop(c, margin, -margin, margin, -margin)
	ts := textStyle(titleSize)
	ts.YAlign = draw.YTop
	c.FillText(ts, vg.Point{X: c.Min.X, Y: c.Max.Y}, f.title)
	top := c.Max.Y - ts.Height(f.title) - margin/2

	// The legend: entries side by side, a thumbnail then the name.
	ls := textStyle(legendSize)
	ls.YAlign = draw.YCenter
	thumbW, rowH := 6*vg.Millimeter, ls.Height("Xy")*1.4
	x, y := c.Min.X, top-rowH/2
	for _, e := range f.legend {
		w := thumbW + margin/2 + ls.Width(e.name) + 2*margin
		if x > c.Min.X && x+w > c.Max.X {
			x, y = c.Min.X, y-rowH
		}
		tc := draw.Canvas{Canvas: c.Canvas, Rectangle: vg.Rectangle{
			Min: vg.Point{X: x, Y: y - rowH/3}, Max: vg.Point{X: x + thumbW, Y: y + rowH/3}}}
		e.thumb.Thumbnail(&tc)
		c.FillText(ls, vg.Point{X: x + thumbW + margin/2, Y: y}, e.name)
		x += w
	}
	if len(f.legend) > 0 {
		top = y - rowH/2 - margin/2
	}
	body := draw.Crop(c, 0, 0, 0, top-c.Max.Y)
	cols := 0
	for _, row := range f.grid {
		cols = max(cols, len(row))
	}
	tiles := draw.Tiles{Rows: len(f.grid), Cols: cols, PadX: 2 * margin, PadY: margin}
	canvases := plot.Align(f.grid, tiles, body)
	for i, row := range f.grid {
		for j, p := range row {
			if p != nil {
				p.Draw(canvases[i][j])
			}
		}
	}
}

// newPlot is a plot in the house style: a light grid, no legend of its
// own (the figure's header has it), categories on x.
func newPlot(title, xlabel, ylabel string, categories []string) *plot.Plot {
	p := plot.New()
	p.Title.Text = title
	p.Title.TextStyle.Font.Size = 11
	for _, ts := range []*text.Style{&p.Title.TextStyle, &p.X.Label.TextStyle, &p.Y.Label.TextStyle, &p.X.Tick.Label, &p.Y.Tick.Label} {
		ts.Font.Variant = face
	}
	p.Y.Tick.Marker = plot.TickerFunc(niceTicks)
	p.X.Label.Text, p.Y.Label.Text = xlabel, ylabel
	p.Add(&plotter.Grid{Horizontal: draw.LineStyle{Color: grey, Width: vg.Points(0.5)}})
	if len(categories) > 0 {
		p.NominalX(categories...)
	}
	p.X.Padding = 0
	p.Y.Min = 0
	return p
}

// addRefs draws the reference lines across x in [-0.5, n-0.5] and names
// them in the legend.
func (f *Figure) addRefs(p *plot.Plot, refs []Ref, n int) error {
	for _, r := range refs {
		l, err := plotter.NewLine(plotter.XYs{{X: -0.5, Y: r.Value}, {X: float64(n) - 0.5, Y: r.Value}})
		if err != nil {
			return err
		}
		l.Color, l.Width = color.Black, vg.Points(1)
		if r.Dashed {
			l.Dashes = []vg.Length{vg.Points(4), vg.Points(3)}
		}
		p.Add(l)
		f.legend = append(f.legend, legendEntry{r.Name, l})
	}
	return nil
}

// maxValue is the largest finite value of the series and refs (0 if none).
func maxValue(series []Series, refs []Ref) float64 {
	m := 0.0
	for _, s := range series {
		for _, v := range s.Values {
			if !math.IsNaN(v) && !math.IsInf(v, 0) {
				m = math.Max(m, v)
			}
		}
	}
	for _, r := range refs {
		m = math.Max(m, r.Value)
	}
	return m
}

// Bars is a grouped bar chart: a group per category, a bar per series.
type Bars struct {
	Title, XLabel, YLabel string
	Categories            []string
	Series                []Series
	Refs                  []Ref
	// ValueFormat, when set, prints each bar's value above it (e.g. "%.2f").
	ValueFormat string
}

// NewBars lays out a grouped bar chart. Its width grows with the number
// of categories; category names are written slanted under their group.
func NewBars(b Bars) (*Figure, error) {
	n := len(b.Categories)
	groupW := vg.Points(22) * vg.Length(max(len(b.Series), 2)) // room for a value label per bar
	f := &Figure{title: b.Title, width: max(5*vg.Inch, vg.Length(n)*(groupW+vg.Points(16))+vg.Inch), height: 4.5 * vg.Inch}
	p := newPlot("", b.XLabel, b.YLabel, b.Categories)
	p.X.Tick.Label.Rotation = math.Pi / 6
	p.X.Tick.Label.XAlign, p.X.Tick.Label.YAlign = draw.XRight, draw.YTop
	barW := groupW / vg.Length(max(len(b.Series), 1))
	for i, s := range b.Series {
		if len(s.Values) != n {
			return nil, fmt.Errorf("plots: series %q has %d values for %d categories", s.Name, len(s.Values), n)
		}
		vals := make(plotter.Values, n)
		for j, v := range s.Values {
			if !math.IsNaN(v) {
				vals[j] = v
			}
		}
		bc, err := plotter.NewBarChart(vals, barW*0.9)
		if err != nil {
			return nil, err
		}
		bc.Color, bc.LineStyle.Width = colour(i), 0
		bc.Offset = barW * (vg.Length(i) - vg.Length(len(b.Series)-1)/2)
		p.Add(bc)
		f.legend = append(f.legend, legendEntry{s.Name, bc})
		if b.ValueFormat != "" {
			if err := addValueLabels(p, s.Values, b.ValueFormat, bc.Offset); err != nil {
				return nil, err
			}
		}
	}
	if err := f.addRefs(p, b.Refs, n); err != nil {
		return nil, err
	}
	// Room above the tallest bar for its label.
	top := maxValue(b.Series, b.Refs) * 1.12
	if top == 0 {
		top = 1
	}
	p.Y.Max = top
	f.grid = [][]*plot.Plot{{p}}
	return f, nil
}

// addValueLabels writes each value above its bar (offset from the
// category's centre).
func addValueLabels(p *plot.Plot, values []float64, format string, offset vg.Length) error {
	var xys plotter.XYs
	var labels []string
	for j, v := range values {
		if math.IsNaN(v) {
			continue
		}
		xys = append(xys, plotter.XY{X: float64(j), Y: v})
		labels = append(labels, fmt.Sprintf(format, v))
	}
	if len(xys) == 0 {
		return nil
	}
	l, err := plotter.NewLabels(plotter.XYLabels{XYs: xys, Labels: labels})
	if err != nil {
		return err
	}
	for i := range l.TextStyle {
		l.TextStyle[i].Font.Size, l.TextStyle[i].Font.Variant = 8, face
		l.TextStyle[i].XAlign = draw.XCenter
	}
	l.Offset = vg.Point{X: offset, Y: vg.Points(2)}
	p.Add(l)
	return nil
}

// Panel is one plot of a Lines figure: a line per series over categories.
type Panel struct {
	Title      string
	Categories []string
	Series     []Series // a name shared by panels keeps its colour
}

// Lines is a grid of line plots with the same axes' meaning.
type Lines struct {
	Title, XLabel, YLabel string
	Panels                []Panel
	Cols                  int // panels per row; 0: 2
}

// NewLines lays out the panels, Cols to a row, each with its own y range
// from 0. A series is drawn as a line with a dot at each value.
func NewLines(l Lines) (*Figure, error) {
	cols := l.Cols
	if cols <= 0 {
		cols = 2
	}
	cols = max(min(cols, len(l.Panels)), 1)
	rows := (len(l.Panels) + cols - 1) / cols
	f := &Figure{title: l.Title, width: vg.Length(cols)*4.2*vg.Inch + vg.Points(20), height: vg.Length(max(rows, 1))*3.2*vg.Inch + vg.Inch}
	colours := map[string]int{}   // series name -> its colour
	inLegend := map[string]bool{} // series names the legend has
	f.grid = make([][]*plot.Plot, rows)
	for i := range f.grid {
		f.grid[i] = make([]*plot.Plot, cols)
	}
	for pi, pan := range l.Panels {
		p := newPlot(pan.Title, l.XLabel, l.YLabel, pan.Categories)
		p.X.Padding = vg.Points(8)
		for _, s := range pan.Series {
			if len(s.Values) != len(pan.Categories) {
				return nil, fmt.Errorf("plots: series %q of %q has %d values for %d categories", s.Name, pan.Title, len(s.Values), len(pan.Categories))
			}
			ci, ok := colours[s.Name]
			if !ok {
				ci = len(colours)
				colours[s.Name] = ci
			}
			var xys plotter.XYs
			for j, v := range s.Values {
				if !math.IsNaN(v) {
					xys = append(xys, plotter.XY{X: float64(j), Y: v})
				}
			}
			if len(xys) == 0 {
				continue
			}
			line, points, err := plotter.NewLinePoints(xys)
			if err != nil {
				return nil, err
			}
			line.Color, line.Width = colour(ci), vg.Points(1.5)
			points.Color, points.Shape, points.Radius = colour(ci), draw.CircleGlyph{}, vg.Points(2.5)
			p.Add(line, points)
			if !inLegend[s.Name] {
				inLegend[s.Name] = true
				f.legend = append(f.legend, legendEntry{s.Name, lineThumb{line, points}})
			}
		}
		p.Y.Max = maxValue(pan.Series, nil) * 1.1
		if p.Y.Max == 0 {
			p.Y.Max = 1
		}
		f.grid[pi/cols][pi%cols] = p
	}
	return f, nil
}

// lineThumb shows a line and its dot in the legend.
type lineThumb struct {
	line   *plotter.Line
	points *plotter.Scatter
}

func (t lineThumb) Thumbnail(c *draw.Canvas) {
	t.line.Thumbnail(c)
	t.points.Thumbnail(c)
}
