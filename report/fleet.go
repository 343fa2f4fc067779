package report

import (
	"fmt"
	"slices"
	"strings"

	"github.com/cryptocost/cryptocost/result"
)

// Fleet is the device × algorithm × operation matrix of a shared results
// store (store.Matrix), for the report's fleet section.
type Fleet struct {
	// Source names the store and selection it was read from, without a
	// password ("postgres://lab@db.lab/cryptocost, runs since …").
	Source string
	Cells  []FleetCell
}

// FleetCell has store.MatrixCell's fields, so the command converts one to
// the other (FleetCell(c)) and the report needs no store.
type FleetCell struct {
	Device     string
	Scheme     string
	Operation  string
	InputBytes int
	Quantity   string
	Unit       string
	Label      result.Label
	Median     float64
	Run        string
	Runs       int
	Lo         float64
	Hi         float64
	Others     []result.Label
}

// The fleet section's template data: one table per quantity, a row per
// scheme, operation and size, a column per device.
type (
	fleetData struct {
		Source string
		Tables []fleetTable
	}
	fleetTable struct {
		Quantity string
		Devices  []string
		Rows     []fleetRow
	}
	fleetRow struct {
		Scheme, Operation, Size string
		Cells                   []fleetCellData
	}
	fleetCellData struct {
		Value, Label, Detail string
		NotMeasured, Empty   bool
	}
)

var quantityTitles = map[string]string{
	"time":   "Time per operation on each device",
	"energy": "Energy per operation on each device",
}

func fleetSection(f *Fleet) *fleetData {
	if f == nil {
		return nil
	}
	out := &fleetData{Source: f.Source}
	for _, q := range []string{"time", "energy"} {
		var cells []FleetCell
		for _, c := range f.Cells {
			if c.Quantity == q {
				cells = append(cells, c)
			}
		}
		if len(cells) == 0 {
			continue
		}
		t := fleetTable{Quantity: quantityTitles[q]}
		for _, c := range cells {
			if !slices.Contains(t.Devices, c.Device) {
				t.Devices = append(t.Devices, c.Device)
			}
		}
		slices.Sort(t.Devices)
		col := map[string]int{}
		for i, d := range t.Devices {
			col[d] = i
		}
		rowOf := map[string]int{}
		for _, c := range cells {
			key := fmt.Sprintf("%s\x00%s\x00%d", c.Scheme, c.Operation, c.InputBytes)
			i, ok := rowOf[key]
			if !ok {
				i = len(t.Rows)
				rowOf[key] = i
				r := fleetRow{Scheme: c.Scheme, Operation: c.Operation, Cells: make([]fleetCellData, len(t.Devices))}
				if c.InputBytes > 0 {
					r.Size = sizeLabel(float64(c.InputBytes))
				}
				for j := range r.Cells {
					r.Cells[j].Empty = true
				}
				t.Rows = append(t.Rows, r)
			}
			t.Rows[i].Cells[col[c.Device]] = fleetCell(c)
		}
		out.Tables = append(out.Tables, t)
	}
	return out
}

func fleetCell(c FleetCell) fleetCellData {
	d := fleetCellData{Value: result.Display(c.Median, c.Unit), Label: string(c.Label), NotMeasured: c.Label != result.Measured}
	var detail []string
	if c.Runs > 1 {
		detail = append(detail, fmt.Sprintf("%d runs, %s–%s", c.Runs, result.Display(c.Lo, c.Unit), result.Display(c.Hi, c.Unit)))
	}
	if len(c.Others) > 0 {
		others := make([]string, len(c.Others))
		for i, l := range c.Others {
			others[i] = string(l)
		}
		detail = append(detail, "also "+strings.Join(others, ", "))
	}
	detail = append(detail, "latest run "+c.Run)
	d.Detail = strings.Join(detail, "; ")
	return d
}
