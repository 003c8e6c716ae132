package plots_test

import (
	"bytes"
	"io"
	"math"
	"os"
	"path/filepath"
	"testing"

	"github.com/spac-gpu/spac/internal/plots"
	"github.com/spac-gpu/spac/internal/plots/plotstest"
)

// checkFigure writes the figure in both formats and checks them with
// plotstest (XML, texts, plots.PNG size), and the plots.PNG's size against Pixels.
// With $SPAC_PLOTS_DIR set it keeps the files there, to look at.
func checkFigure(t *testing.T, name string, f *plots.Figure, want ...string) {
	t.Helper()
	var svg, pngData bytes.Buffer
	if err := f.Write(&svg, plots.SVG); err != nil {
		t.Fatal(err)
	}
	if err := f.Write(&pngData, plots.PNG); err != nil {
		t.Fatal(err)
	}
	if dir := os.Getenv("SPAC_PLOTS_DIR"); dir != "" {
		os.WriteFile(filepath.Join(dir, name+".svg"), svg.Bytes(), 0o644)
		os.WriteFile(filepath.Join(dir, name+".png"), pngData.Bytes(), 0o644)
	}
	w, h := plotstest.Check(t, svg.Bytes(), pngData.Bytes(), want...)
	if pw, ph := f.Pixels(); w != pw || h != ph {
		t.Errorf("the plots.PNG is %dx%d pixels, Pixels says %dx%d", w, h, pw, ph)
	}
	var again bytes.Buffer
	if err := f.Write(&again, plots.PNG); err != nil || !bytes.Equal(again.Bytes(), pngData.Bytes()) {
		t.Errorf("a second plots.PNG differs from the first (err %v)", err)
	}
}

func TestBars(t *testing.T) {
	nan := math.NaN()
	f, err := plots.NewBars(plots.Bars{
		Title:       "Best SPAC kernel over cuSPARSE & co (higher is better)",
		YLabel:      "speedup",
		Categories:  []string{"scircuit", "in-2004", "cant <stand-in>"},
		Series:      []plots.Series{{"fp32", []float64{1.25, 0.8, nan}}, {"fp64", []float64{1.1, nan, 0.97}}},
		Refs:        []plots.Ref{{Value: 1, Name: "1x (circuit, power-law goal)"}, {Value: 0.95, Name: "0.95x (mesh goal)", Dashed: true}},
		ValueFormat: "%.2f",
	})
	if err != nil {
		t.Fatal(err)
	}
	checkFigure(t, "bars", f, "fp32", "fp64", "scircuit", "cant <stand-in>", "1.25", "0.97", "mesh goal", "speedup", "cuSPARSE & co")
}

func TestLines(t *testing.T) {
	blocks := []string{"128", "256", "512", "1024"}
	var panels []plots.Panel
	for i, mesh := range []string{"fvcorr-097k", "fvcorr-193k", "missile-0.2m"} {
		s := float64(i + 1)
		panels = append(panels, plots.Panel{Title: mesh + ", fp32", Categories: blocks, Series: []plots.Series{
			{"original", []float64{100 * s, 80 * s, 90 * s, 120 * s}},
			{"spac", []float64{70 * s, 50 * s, math.NaN(), 40 * s}},
		}})
	}
	panels[0].Series[1].Values = []float64{math.NaN(), math.NaN(), math.NaN(), math.NaN()} // spac: in the legend all the same
	panels[2].Series = panels[2].Series[1:]                                                // spac only: keeps its colour
	f, err := plots.NewLines(plots.Lines{Title: "cfd: time per iteration", XLabel: "block size", YLabel: "us per iteration", Panels: panels})
	if err != nil {
		t.Fatal(err)
	}
	checkFigure(t, "lines", f, "original", "spac", "fvcorr-193k, fp32", "missile-0.2m, fp32", "1024", "block size", "us per iteration")
}

func TestEmpty(t *testing.T) {
	b, err := plots.NewBars(plots.Bars{Title: "nothing", Refs: []plots.Ref{{Value: 1, Name: "1x"}}})
	if err != nil {
		t.Fatal(err)
	}
	checkFigure(t, "empty-bars", b, "nothing", "1x")
	l, err := plots.NewLines(plots.Lines{Title: "nothing"})
	if err != nil {
		t.Fatal(err)
	}
	checkFigure(t, "empty-lines", l, "nothing")
}

func TestErrors(t *testing.T) {
	if _, err := plots.NewBars(plots.Bars{Categories: []string{"a"}, Series: []plots.Series{{"s", nil}}}); err == nil {
		t.Error("NewBars: a series shorter than the categories was accepted")
	}
	if _, err := plots.NewLines(plots.Lines{Panels: []plots.Panel{{Categories: []string{"a"}, Series: []plots.Series{{"s", []float64{1, 2}}}}}}); err == nil {
		t.Error("NewLines: a series longer than the categories was accepted")
	}
	f, _ := plots.NewBars(plots.Bars{})
	if err := f.Write(io.Discard, "pdf"); err == nil {
		t.Error("Write: an unknown format was accepted")
	}
}

func TestLevels(t *testing.T) {
	nan := math.NaN()
	f, err := plots.NewLevels(plots.Levels{
		Title:  "kron-s10: time per BFS level, root 3",
		XLabel: "level",
		YLabel: "us",
		Series: []plots.Series{
			{"lb-cull", []float64{9, 14, 80, 40, 10}},
			{"do-beamer", []float64{7, 12, 30, 22, 8}},
			{"pull-warp", []float64{nan, 300, 45, 25, 9}},
			{"a", []float64{5, 5, 5, 5, 5}}, {"b", []float64{6, 6, 6, 6, 6}}, {"c", []float64{7, 7, 7, 7, 7}},
			{"seventh <cycles>", []float64{8, 8, 8, 8, 0}},
		},
		Marks: []plots.Series{{"oracle (fastest)", []float64{5, 5, 5, 5, 5}}, {"model's pick", []float64{9, 12, nan, 22, 8}}},
	})
	if err != nil {
		t.Fatal(err)
	}
	checkFigure(t, "levels", f, "lb-cull", "do-beamer", "oracle (fastest)", "model's pick", "seventh <cycles>", "level", "100")
	if _, err := plots.NewLevels(plots.Levels{Title: "empty"}); err == nil {
		t.Error("a chart without values accepted")
	}
	if _, err := plots.NewLevels(plots.Levels{Title: "zeros", Series: []plots.Series{{"z", []float64{0, nan}}}}); err == nil {
		t.Error("a chart without a positive value accepted")
	}
}
