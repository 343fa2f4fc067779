package store

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/cryptocost/cryptocost/result"
)

// Fleet views: what a store shared by many machines knows across them.
//
// A run's device, for the fleet, is the device profile it was made for
// (environment.device: `--device`, an MCU) when it names one, else the
// machine that made it (its host name): a board that benchmarked itself is
// its own device. A machine is told apart by its machine ID where the run
// recorded one (boards often share a host name), else by host name.

// deviceKey is the fleet device of a run, in SQL over the runs table
// (alias r).
const deviceKey = `CASE WHEN r.device <> '' THEN r.device ELSE r.hostname END`

// machineKey tells machines apart.
const machineKey = `CASE WHEN r.machine_id <> '' THEN r.machine_id ELSE r.hostname END`

// DeviceSummary is one device of the fleet: how many runs were made for
// it, on how many machines, of which kinds, on which platforms, when.
type DeviceSummary struct {
	Device    string    `json:"device"`
	Runs      int       `json:"runs"`
	Machines  int       `json:"machines"`
	Hosts     []string  `json:"hosts"`
	Kinds     []string  `json:"kinds"`
	Platforms []string  `json:"platforms"`
	First     time.Time `json:"first"`
	Last      time.Time `json:"last"`
}

// ByDevice groups the runs matching f by device, devices in name order.
func (s *Store) ByDevice(ctx context.Context, f Filter) ([]DeviceSummary, error) {
	where, args := f.where("r")
	rows, err := s.query(ctx, `SELECT `+deviceKey+` AS dev, count(*), count(DISTINCT `+machineKey+`),
		min(r.started), max(r.started) FROM runs r`+where+` GROUP BY dev ORDER BY dev`, args...)
	if err != nil {
		return nil, err
	}
	var out []DeviceSummary
	index := map[string]int{}
	for rows.Next() {
		var d DeviceSummary
		var first, last string
		if err := rows.Scan(&d.Device, &d.Runs, &d.Machines, &first, &last); err != nil {
			rows.Close()
			return nil, err
		}
		d.First, d.Last = parseTime(first), parseTime(last)
		index[d.Device] = len(out)
		out = append(out, d)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, err
	}
	// The distinct host names, kinds and platforms of each device: a
	// second, small query rather than per-dialect string aggregation.
	rows, err = s.query(ctx, `SELECT DISTINCT `+deviceKey+`, r.hostname, r.kind, r.goos, r.goarch FROM runs r`+where, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var dev, host, kind, goos, goarch string
		if err := rows.Scan(&dev, &host, &kind, &goos, &goarch); err != nil {
			return nil, err
		}
		d := &out[index[dev]]
		d.Hosts = addSorted(d.Hosts, host)
		d.Kinds = addSorted(d.Kinds, kind)
		d.Platforms = addSorted(d.Platforms, goos+"/"+goarch)
	}
	return out, rows.Err()
}

func addSorted(list []string, v string) []string {
	if v == "" || v == "/" {
		return list
	}
	i, found := slices.BinarySearch(list, v)
	if found {
		return list
	}
	return slices.Insert(list, i, v)
}

// Quantities of the fleet matrix.
const (
	// QuantityTime is the time of one operation on the device: measured
	// there ("time" of a run made on it), or priced for it ("device-time"
	// of a run made elsewhere, labelled estimated or modelled).
	QuantityTime = "time"
	// QuantityEnergy is the energy of one operation on the device
	// ("energy": metered, or modelled from a profile).
	QuantityEnergy = "energy"
)

// MatrixCell is one device × algorithm × operation figure of the fleet:
// the latest run's median with its label (how it was obtained), and the
// range of the medians of every run that has it.
type MatrixCell struct {
	Device     string       `json:"device"`
	Scheme     string       `json:"scheme"`
	Operation  string       `json:"operation"`
	InputBytes int          `json:"input_bytes,omitempty"`
	Quantity   string       `json:"quantity"` // QuantityTime, QuantityEnergy
	Unit       string       `json:"unit"`     // the vocabulary's base unit: s, J
	Label      result.Label `json:"label"`
	Median     float64      `json:"median"` // the latest run's
	Run        string       `json:"run"`    // the latest run
	Runs       int          `json:"runs"`   // runs with a figure of this label
	Lo         float64      `json:"lo"`     // the least and greatest of their medians
	Hi         float64      `json:"hi"`
	// Others are the labels of figures the cell also has but does not
	// show, because a better-obtained one exists (measured over
	// estimated).
	Others []result.Label `json:"others,omitempty"`
}

// matrixSQL selects, for every primitive subject of the runs matching the
// filter, its time and energy on its device, and keeps per device, scheme,
// operation, size, quantity and label the latest run's median, the count
// and the range. A "time" measured on a machine pricing the subject for
// another device (the subject also has "device-time") belongs to that
// machine; the "device-time" to the device.
const matrixSQL = `
WITH cells AS (
	SELECT
		CASE WHEN m.name = 'time' AND dt.run_id IS NOT NULL THEN r.hostname ELSE ` + deviceKey + ` END AS dev,
		CASE WHEN m.name = 'energy' THEN 'energy' ELSE 'time' END AS quantity,
		s.scheme, s.operation, s.input_bytes, m.unit, m.label, m.median, r.started, r.id AS run_id
	FROM metrics m
	JOIN results s ON s.run_id = m.run_id AND s.subject = m.subject
	JOIN runs r ON r.id = m.run_id
	LEFT JOIN metrics dt ON m.name = 'time' AND dt.run_id = m.run_id AND dt.subject = m.subject AND dt.name = 'device-time'
	WHERE m.name IN ('time', 'device-time', 'energy') AND s.scheme <> '' AND s.error = '' AND m.median IS NOT NULL %s
), ranked AS (
	SELECT dev, quantity, scheme, operation, input_bytes, unit, label, median, run_id,
		row_number() OVER (PARTITION BY dev, scheme, operation, input_bytes, quantity, label ORDER BY started DESC, run_id DESC) AS rn,
		count(*) OVER (PARTITION BY dev, scheme, operation, input_bytes, quantity, label) AS n,
		min(median) OVER (PARTITION BY dev, scheme, operation, input_bytes, quantity, label) AS lo,
		max(median) OVER (PARTITION BY dev, scheme, operation, input_bytes, quantity, label) AS hi
	FROM cells
)
SELECT dev, quantity, scheme, operation, input_bytes, unit, label, median, run_id, n, lo, hi
FROM ranked WHERE rn = 1`

// labelRank orders labels from the best-obtained: a figure measured on the
// device beats one simulated for it, which beats one imported, modelled or
// estimated (principle 1: an estimate never stands where a measurement
// exists).
var labelRank = map[result.Label]int{result.Measured: 0, result.Simulated: 1, result.Imported: 2, result.Modelled: 3, result.Estimated: 4}

// Matrix is the fleet's device × algorithm × operation table over the runs
// matching f: for each device, scheme, operation and input size, the time
// and the energy of one operation, measured where measured, else priced
// and labelled. Cells are ordered by scheme, operation, size, device and
// quantity.
func (s *Store) Matrix(ctx context.Context, f Filter) ([]MatrixCell, error) {
	where, args := f.where("r")
	if where != "" {
		where = " AND " + strings.TrimPrefix(where, " WHERE ")
	}
	rows, err := s.query(ctx, fmt.Sprintf(matrixSQL, where), args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	type key struct {
		dev, quantity, scheme, op string
		size                      int
	}
	best := map[key]*MatrixCell{}
	var order []key
	for rows.Next() {
		var c MatrixCell
		var label string
		if err := rows.Scan(&c.Device, &c.Quantity, &c.Scheme, &c.Operation, &c.InputBytes, &c.Unit, &label,
			&c.Median, &c.Run, &c.Runs, &c.Lo, &c.Hi); err != nil {
			return nil, err
		}
		c.Label = result.Label(label)
		k := key{c.Device, c.Quantity, c.Scheme, c.Operation, c.InputBytes}
		have, ok := best[k]
		switch {
		case !ok:
			best[k] = &c
			order = append(order, k)
		case rank(c.Label) < rank(have.Label):
			c.Others = append(have.Others, have.Label)
			best[k] = &c
		default:
			have.Others = append(have.Others, c.Label)
		}
	}
	if err := rows.Err(); err != nil {
		return nil, err
	}
	out := make([]MatrixCell, 0, len(order))
	for _, k := range order {
		c := best[k]
		slices.SortFunc(c.Others, func(a, b result.Label) int { return rank(a) - rank(b) })
		out = append(out, *c)
	}
	slices.SortFunc(out, func(a, b MatrixCell) int {
		if c := strings.Compare(a.Scheme, b.Scheme); c != 0 {
			return c
		}
		if c := strings.Compare(a.Operation, b.Operation); c != 0 {
			return c
		}
		if a.InputBytes != b.InputBytes {
			return a.InputBytes - b.InputBytes
		}
		if c := strings.Compare(a.Device, b.Device); c != 0 {
			return c
		}
		return strings.Compare(a.Quantity, b.Quantity)
	})
	return out, nil
}

func rank(l result.Label) int {
	if r, ok := labelRank[l]; ok {
		return r
	}
	return len(labelRank)
}

// ReadMatrix opens the store at path (never creating one: OpenExisting)
// and reads its Matrix over the runs since since (ParseWhen; "" all of
// them), with the source the cells come from: the store's path and the
// window ("…, runs since 30d").
func ReadMatrix(ctx context.Context, path, since string) ([]MatrixCell, string, error) {
	t, err := ParseWhen(since, time.Now(), false)
	if err != nil {
		return nil, "", fmt.Errorf("--since: %w", err)
	}
	st, err := OpenExisting(ctx, path)
	if err != nil {
		return nil, "", err
	}
	defer st.Close()
	cells, err := st.Matrix(ctx, Filter{Since: t})
	source := st.Path()
	if since != "" {
		source += ", runs since " + since
	}
	return cells, source, err
}
