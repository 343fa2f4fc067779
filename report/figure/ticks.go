package figure

import (
	"math"
	"strconv"

	"gonum.org/v1/plot"
)

// LogTicks label a log axis at 1, 2 and 5 × 10ⁿ when it spans few
// decades, at powers of ten otherwise; gonum's LogTicks labels only
// powers of ten, leaving a narrow range with one label or none.
type LogTicks struct{}

func (LogTicks) Ticks(lo, hi float64) []plot.Tick {
	if lo <= 0 || hi <= 0 || math.IsInf(lo, 0) || math.IsInf(hi, 0) {
		return nil
	}
	decades := math.Log10(hi) - math.Log10(lo)
	var ticks []plot.Tick
	for e := math.Floor(math.Log10(lo)); e <= math.Ceil(math.Log10(hi)); e++ {
		base := math.Pow(10, e)
		for m := 1; m < 10; m++ {
			v := base * float64(m)
			if v < lo*(1-1e-9) || v > hi*(1+1e-9) {
				continue
			}
			t := plot.Tick{Value: v}
			if m == 1 || (decades <= 3 && (m == 2 || m == 5)) {
				t.Label = TickLabel(v)
			}
			ticks = append(ticks, t)
		}
	}
	labelled := 0
	for _, t := range ticks {
		if t.Label != "" {
			labelled++
		}
	}
	if labelled < 2 {
		// Less than one decade shown with no 1-2-5 value inside: label
		// the ends.
		return append(ticks, plot.Tick{Value: lo, Label: TickLabel(lo)}, plot.Tick{Value: hi, Label: TickLabel(hi)})
	}
	return ticks
}

// TickLabel prints a tick value plainly: 2500, 0.05, 1e+06.
func TickLabel(v float64) string {
	switch {
	case v >= 1e6 || (v != 0 && math.Abs(v) < 1e-3):
		return strconv.FormatFloat(v, 'g', 3, 64)
	}
	return strconv.FormatFloat(v, 'f', -1, 64)
}

// PlainTicks are gonum's default linear ticks with plain number labels
// (2500, not 2500.00).
type PlainTicks struct{}

func (PlainTicks) Ticks(lo, hi float64) []plot.Tick {
	ticks := plot.DefaultTicks{}.Ticks(lo, hi)
	for i := range ticks {
		if ticks[i].Label != "" {
			ticks[i].Label = strconv.FormatFloat(ticks[i].Value, 'f', -1, 64)
		}
	}
	return ticks
}
