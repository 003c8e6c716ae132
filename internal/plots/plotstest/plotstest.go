// Package plotstest checks figures written by package plots without golden
// files: the SVG must be well-formed XML with an svg root whose texts hold
// the wanted labels, and the PNG must decode at the size the SVG states
// (points at plots.DPI). The report tests of apps/spmv and cmd/spac run it
// on the files a report wrote.
package plotstest

import (
	"bytes"
	"encoding/xml"
	"errors"
	"image/png"
	"io"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/spac-gpu/spac/internal/plots"
)

// Check reports on t every way in which svg and pngData are not the same
// figure holding the wanted texts, and returns the PNG's size in pixels.
func Check(t testing.TB, svg, pngData []byte, want ...string) (w, h int) {
	t.Helper()
	texts, wPt, hPt, err := SVGText(svg)
	if err != nil {
		t.Fatalf("SVG: %v", err)
	}
	for _, s := range want {
		if !strings.Contains(texts, s) {
			t.Errorf("the SVG has no text %q; its texts:\n%s", s, texts)
		}
	}
	img, err := png.Decode(bytes.NewReader(pngData))
	if err != nil {
		t.Fatalf("PNG: %v", err)
	}
	w, h = img.Bounds().Dx(), img.Bounds().Dy()
	if ww, wh := int(math.Round(wPt/72*plots.DPI)), int(math.Round(hPt/72*plots.DPI)); w != ww || h != wh {
		t.Errorf("the PNG is %dx%d pixels, want %dx%d (the SVG's %gx%g pt at %d dpi)", w, h, ww, wh, wPt, hPt, plots.DPI)
	}
	return w, h
}

// SVGText parses an SVG and returns the content of its text elements, one
// per line, and its width and height in points.
func SVGText(svg []byte) (texts string, w, h float64, err error) {
	d := xml.NewDecoder(bytes.NewReader(svg))
	var lines []string
	root, inText := false, false
	for {
		tok, err := d.Token()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return "", 0, 0, err
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			if !root {
				if tok.Name.Local != "svg" {
					return "", 0, 0, errors.New("the root element is " + tok.Name.Local + ", not svg")
				}
				root = true
				for _, a := range tok.Attr {
					switch a.Name.Local {
					case "width":
						w, err = points(a.Value)
					case "height":
						h, err = points(a.Value)
					}
					if err != nil {
						return "", 0, 0, err
					}
				}
			}
			inText = tok.Name.Local == "text"
		case xml.EndElement:
			inText = false
		case xml.CharData:
			if inText {
				lines = append(lines, string(tok))
			}
		}
	}
	if !root {
		return "", 0, 0, errors.New("no svg element")
	}
	return strings.Join(lines, "\n"), w, h, nil
}

// points reads an SVG length in points ("360pt").
func points(s string) (float64, error) {
	v, err := strconv.ParseFloat(strings.TrimSuffix(s, "pt"), 64)
	if err != nil || !strings.HasSuffix(s, "pt") {
		return 0, errors.New("size " + strconv.Quote(s) + " is not in points")
	}
	return v, nil
}
