package report

import (
	"fmt"
	"math"
	"strconv"

	"github.com/cryptocost/cryptocost/stats"
)

// Table is the numbers behind a chart, shown under it in the report.
type Table struct {
	Header []string
	Rows   [][]string
}

// num prints a value with four significant figures.
func num(v float64) string {
	if math.IsInf(v, 0) || math.IsNaN(v) {
		return "n/a"
	}
	return strconv.FormatFloat(v, 'g', 4, 64)
}

// ciText prints a summary's 95 % CI of the median, scaled by 1/div,
// or says why there is none.
func ciText(s stats.Summary, div float64) string {
	switch {
	case s.N <= 1:
		return "exact"
	case s.N < stats.MinSamplesForCI || (s.CILow == 0 && s.CIHigh == 0):
		return fmt.Sprintf("n/a (n=%d < %d)", s.N, stats.MinSamplesForCI)
	}
	return fmt.Sprintf("%s – %s", num(s.CILow/div), num(s.CIHigh/div))
}

// durationText prints seconds in a readable unit.
func durationText(s float64) string {
	div, unit := timeScale(s)
	return strconv.FormatFloat(s/div, 'g', 3, 64) + " " + unit
}
