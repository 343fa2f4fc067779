package figure

import (
	"errors"
	"fmt"
	"math"
	"strings"

	"gonum.org/v1/plot"
	"gonum.org/v1/plot/font"
	"gonum.org/v1/plot/plotter"
)

// The readability rules (Check).
const (
	// MaxLegend is the most legend entries a reader can match to lines;
	// past it a builder splits the chart or groups the rest as "other".
	MaxLegend = 12
	// MaxLinearDecades is the widest span of values, in decades, a linear
	// axis may show: beyond it the small values are slivers or sit on the
	// axis, so the axis must be logarithmic.
	MaxLinearDecades = 2
)

// decades is log10(max/min) of the positive values, and whether all
// values were positive and at least two were given (else the span is not
// a question for a log axis).
func decades(vals []float64) (float64, bool) {
	if len(vals) < 2 {
		return 0, false
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, v := range vals {
		if !(v > 0) || math.IsInf(v, 0) {
			return 0, false
		}
		lo, hi = min(lo, v), max(hi, v)
	}
	return math.Log10(hi / lo), true
}

// span is log10(max/min) over the positive values only.
func span(vals []float64) (d, lo, hi float64) {
	lo, hi = math.Inf(1), math.Inf(-1)
	for _, v := range vals {
		if v > 0 && !math.IsInf(v, 0) {
			lo, hi = min(lo, v), max(hi, v)
		}
	}
	if hi <= lo {
		return 0, lo, hi
	}
	return math.Log10(hi / lo), lo, hi
}

func minPositive(vals []float64) float64 {
	lo := math.Inf(1)
	for _, v := range vals {
		if v > 0 {
			lo = min(lo, v)
		}
	}
	if math.IsInf(lo, 1) {
		return 1
	}
	return lo
}

// Check applies the readability rules and returns every rule the figure
// breaks (nil when it breaks none):
//
//   - a value axis whose drawn values span more than MaxLinearDecades
//     decades is logarithmic;
//   - the legend has at most MaxLegend entries, each named, no two alike;
//   - category labels are unique, so every row can be told apart;
//   - the title and axis labels fit the figure (gonum clips them).
func (f *Figure) Check() error {
	var errs []error
	width, height := f.size()
	for a, axis := range []*plot.Axis{&f.Plot.X, &f.Plot.Y} {
		d, lo, hi := span(f.drawn[a])
		_, isLog := axis.Scale.(plot.LogScale)
		if d > MaxLinearDecades && !isLog {
			errs = append(errs, fmt.Errorf("%s axis: values span %.1f decades (%.3g to %.3g) on a linear axis: small values are unreadable; use a log axis",
				Axis(a), d, lo, hi))
		}
	}
	if n := len(f.Legend); n > MaxLegend {
		errs = append(errs, fmt.Errorf("legend: %d entries, more than %d: split the chart or group the smallest as other", n, MaxLegend))
	}
	seen := map[string]bool{}
	for _, e := range f.Legend {
		switch {
		case e.Name == "":
			errs = append(errs, errors.New("legend: an entry without a name"))
		case seen[e.Name]:
			errs = append(errs, fmt.Errorf("legend: %q twice: series must be told apart", e.Name))
		}
		seen[e.Name] = true
	}
	swatches := map[string]string{}
	for _, e := range f.Legend {
		k := swatch(e.Thumbs)
		if prev, ok := swatches[k]; ok && k != "" {
			errs = append(errs, fmt.Errorf("legend: %q and %q are drawn alike: give each series its own colour or glyph", prev, e.Name))
		}
		swatches[k] = e.Name
	}
	seen = map[string]bool{}
	for _, c := range f.categories {
		if seen[c] {
			errs = append(errs, fmt.Errorf("categories: %q labels two rows: each row needs its own label", c))
		}
		seen[c] = true
	}
	fits := func(what, text string, size float64, room float64) {
		if text == "" {
			return
		}
		w := textWidth(text, size)
		if w > room {
			errs = append(errs, fmt.Errorf("%s %q is %.0f pt wide, the figure %.0f pt: it would be clipped; shorten it", what, text, w, room))
		}
	}
	fits("title", f.Plot.Title.Text, TitleSize, width.Points())
	fits("x label", f.Plot.X.Label.Text, LabelSize, width.Points())
	fits("y label", f.Plot.Y.Label.Text, LabelSize, height.Points())
	return errors.Join(errs...)
}

// textWidth is the width in points of text in Liberation Sans at size.
// A text of several lines is as wide as its widest.
func textWidth(text string, size float64) float64 {
	face := plot.DefaultTextHandler.Cache().Lookup(font.From(Sans, font.Length(size)), font.Length(size))
	w := 0.0
	for _, line := range strings.Split(text, "\n") {
		w = max(w, face.Width(line).Points())
	}
	return w
}

// swatch describes how a legend entry is drawn — colours and glyph
// shapes of its thumbnails — so two entries drawn alike can be found.
func swatch(thumbs []plot.Thumbnailer) string {
	var parts []string
	for _, t := range thumbs {
		switch t := t.(type) {
		case *Bars:
			parts = append(parts, fmt.Sprint("bar", t.Color))
		case *plotter.Line:
			parts = append(parts, fmt.Sprint("line", t.LineStyle.Color, t.LineStyle.Dashes))
		case *plotter.Scatter:
			parts = append(parts, fmt.Sprintf("glyph%v%T", t.GlyphStyle.Color, t.GlyphStyle.Shape))
		case *plotter.Polygon:
			parts = append(parts, fmt.Sprint("area", t.Color))
		default:
			return "" // not one this check knows: not compared
		}
	}
	return strings.Join(parts, " ")
}
