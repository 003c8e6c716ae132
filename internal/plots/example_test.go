package plots_test

import (
	"fmt"
	"strings"

	"github.com/spac-gpu/spac/internal/plots"
)

// A bar per precision and input, with the goal as a reference line; a
// report writes it in every format with Files.
func ExampleNewBars() {
	fig, err := plots.NewBars(plots.Bars{
		Title:       "SPAC over cuSPARSE",
		YLabel:      "speedup",
		Categories:  []string{"cant", "scircuit"},
		Series:      []plots.Series{{Name: "fp32", Values: []float64{1.12, 0.97}}, {Name: "fp64", Values: []float64{1.09, 1.07}}},
		Refs:        []plots.Ref{{Value: 1, Name: "goal"}},
		ValueFormat: "%.2f",
	})
	if err != nil {
		fmt.Println(err)
		return
	}
	w, h := fig.Pixels()
	fmt.Printf("PNG: %dx%d pixels\n", w, h)
	for _, f := range fig.Files("speedup") {
		fmt.Println(f.Name)
	}
	var svg strings.Builder
	if err := fig.Write(&svg, plots.SVG); err != nil {
		fmt.Println(err)
	}
	fmt.Println(strings.Contains(svg.String(), "scircuit"))
	// Output:
	// PNG: 720x648 pixels
	// speedup.svg
	// speedup.png
	// true
}
