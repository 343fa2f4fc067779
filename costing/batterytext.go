package costing

import (
	"fmt"
	"io"
)

// WriteBatteryText is energy battery's text: each answer's sentence,
// then how it was computed.
func WriteBatteryText(w io.Writer, answers []*BatteryAnswer) {
	for i, a := range answers {
		if i > 0 {
			fmt.Fprintln(w)
		}
		fmt.Fprintln(w, a.Sentence())
		for _, l := range a.Details() {
			fmt.Fprintln(w, "  "+l)
		}
	}
}

// WriteBatteryMarkdown is energy battery's Markdown table, one row per
// answer.
func WriteBatteryMarkdown(w io.Writer, answers []*BatteryAnswer) {
	fmt.Fprintln(w, "| device | operation | every | time per op | current | energy per op | average current | lifetime | op share | label |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|---|---|---|")
	for _, a := range answers {
		e := a.Energy
		t, cur := "—", "—"
		if s := e.Cost.Seconds; s != nil {
			t = fmt.Sprintf("%s (%s)", secondsString(s.V), e.Cost.Label)
		}
		if e.Power != nil {
			cur = FormatAmps(e.Power.Amps.V)
		}
		fmt.Fprintf(w, "| %s | %s | %s | %s | %s | %.4g mJ | %s | %s | %.3g %% | %s |\n",
			a.Query.Device.Name, a.Name, FormatPeriod(a.Query.Period), t, cur, e.Gross.V*1e3,
			FormatAmps(a.Life.AverageAmps.V), FormatLifetime(a.Life.Seconds.V), 100*a.Life.EventShare.V, a.Label)
	}
}

// secondsString is a time per operation in s, ms or µs.
func secondsString(s float64) string {
	switch {
	case s >= 1:
		return fmt.Sprintf("%.3g s", s)
	case s >= 1e-3:
		return fmt.Sprintf("%.3g ms", s*1e3)
	}
	return fmt.Sprintf("%.3g µs", s*1e6)
}
