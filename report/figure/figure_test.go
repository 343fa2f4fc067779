package figure

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/plotter"
)

// Fast tier: figures are drawn in memory.

func line(t *testing.T, f *Figure, name string, xs, ys []float64) {
	t.Helper()
	xy := make(plotter.XYs, len(xs))
	for i := range xs {
		xy[i] = plotter.XY{X: xs[i], Y: ys[i]}
	}
	l, err := plotter.NewLine(xy)
	if err != nil {
		t.Fatal(err)
	}
	f.Plot.Add(l)
	f.Drew(X, xs...)
	f.Drew(Y, ys...)
	f.AddLegend(name, l)
}

// TestCheck: each rule fails the figure that breaks it, and only that one.
func TestCheck(t *testing.T) {
	for _, c := range []struct {
		name  string
		build func(f *Figure)
		want  string // "" = readable
	}{
		{"readable", func(f *Figure) { line(t, f, "a", []float64{1, 2}, []float64{10, 900}) }, ""},
		{"three decades, linear", func(f *Figure) { line(t, f, "a", []float64{1, 2}, []float64{1, 5000}) },
			"y axis: values span 3.7 decades (1 to 5e+03) on a linear axis"},
		{"three decades, log", func(f *Figure) {
			line(t, f, "a", []float64{1, 2}, []float64{1, 5000})
			f.Plot.Y.Scale = plot.LogScale{}
		}, ""},
		{"three decades, Finish", func(f *Figure) {
			line(t, f, "a", []float64{1, 2}, []float64{1, 5000})
			f.Finish()
		}, ""},
		{"13 legend entries", func(f *Figure) {
			for i := range 13 {
				line(t, f, fmt.Sprint("s", i), []float64{1, 2}, []float64{1, 2})
			}
		}, "legend: 13 entries, more than 12"},
		{"same legend twice", func(f *Figure) {
			line(t, f, "AES", []float64{1, 2}, []float64{1, 2})
			line(t, f, "AES", []float64{1, 2}, []float64{3, 4})
		}, `legend: "AES" twice`},
		{"same row label twice", func(f *Figure) {
			f.Plot.Add(NewBars([]float64{1, 2, 3}, Color(0)))
			f.Categories("ECDSA-P256-SHA256", "Ed25519", "ECDSA-P256-SHA256")
		}, `categories: "ECDSA-P256-SHA256" labels two rows`},
		{"two series drawn alike", func(f *Figure) {
			a := NewBars([]float64{1}, Color(0))
			b := StackOn(a, []float64{2}, Color(len(palette)))
			f.Plot.Add(a, b)
			f.AddLegend("ClientHello", a)
			f.AddLegend("DTLS ClientHello", b)
		}, `"ClientHello" and "DTLS ClientHello" are drawn alike`},
		{"clipped title", func(f *Figure) {
			f.Plot.Title.Text = strings.Repeat("Handshake bytes by message ", 8)
		}, "title"},
	} {
		f := New("A figure", "x", "y")
		c.build(f)
		err := f.Check()
		switch {
		case c.want == "" && err != nil:
			t.Errorf("%s: %v", c.name, err)
		case c.want != "" && (err == nil || !strings.Contains(err.Error(), c.want)):
			t.Errorf("%s: Check() = %v, want an error with %q", c.name, err, c.want)
		}
	}
}

// TestFinishLeavesNonPositive: an axis with a zero stays linear (a log
// axis cannot show it) and Check says it spans too much.
func TestFinishLeavesNonPositive(t *testing.T) {
	f := New("t", "x", "y")
	line(t, f, "a", []float64{1, 2, 3}, []float64{0, 1, 5000})
	f.Finish()
	if _, isLog := f.Plot.Y.Scale.(plot.LogScale); isLog {
		t.Fatal("an axis through zero put on a log scale")
	}
	if err := f.Check(); err == nil {
		t.Error("Check passed a linear axis spanning 3.7 decades of positive values")
	}
}

// TestStandaloneSVGEmbedsFont: a lone SVG carries Liberation Sans, so its
// text lays out the same without the font installed; inline SVG leaves
// it to the page.
func TestStandaloneSVGEmbedsFont(t *testing.T) {
	f := New("Throughput", "input size", "MB/s")
	line(t, f, "AES-128-GCM", []float64{16, 1024}, []float64{100, 2000})
	f.Finish()
	var lone, inline bytes.Buffer
	if err := f.Render(&lone, "svg"); err != nil {
		t.Fatal(err)
	}
	if err := f.RenderInline(&inline); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(lone.String(), "@font-face") || !strings.Contains(lone.String(), "data:font/ttf") {
		t.Error("standalone SVG without its font")
	}
	if strings.Contains(inline.String(), "@font-face") {
		t.Error("inline SVG embeds the font the page already has")
	}
	for _, svg := range []string{lone.String(), inline.String()} {
		if !strings.Contains(svg, "font-family:'Liberation Sans',Arial,Helvetica,sans-serif;") {
			t.Error("no metric-compatible fallback fonts named")
		}
	}
	var png bytes.Buffer
	if err := f.Render(&png, "png"); err != nil || !bytes.HasPrefix(png.Bytes(), []byte("\x89PNG")) {
		t.Errorf("png: %v", err)
	}
	if err := f.Render(&png, "gif"); err == nil {
		t.Error("gif accepted")
	}
}

// TestBarsOnLogAxis: bars from zero draw on a log axis from its minimum
// (gonum's BarChart panics there).
func TestBarsOnLogAxis(t *testing.T) {
	f := New("t", "bytes", "")
	below := NewBars([]float64{100, 10}, Color(0))
	f.Plot.Add(below, StackOn(below, []float64{50000, 5}, Color(1)))
	f.Drew(X, 100050, 15)
	f.Categories("full", "resumed")
	f.Plot.X.Min = 0
	f.Finish()
	if _, isLog := f.Plot.X.Scale.(plot.LogScale); !isLog || f.Plot.X.Min <= 0 {
		t.Fatalf("x scale %T from %v", f.Plot.X.Scale, f.Plot.X.Min)
	}
	var buf bytes.Buffer
	if err := f.Render(&buf, "svg"); err != nil {
		t.Fatal(err)
	}
	if err := f.Check(); err != nil {
		t.Error(err)
	}
}
