package model

import (
	"context"
	"fmt"
	"math"
	"os"
	"path"
	"sort"
	"strings"

	"github.com/cryptocost/cryptocost/catalog"
	"github.com/cryptocost/cryptocost/result"
)

// ReadRuns reads a cryptocost run JSON file (one run or an array).
func ReadRuns(file string) ([]*result.Run, error) {
	f, err := os.Open(file)
	if err != nil {
		if os.IsNotExist(err) {
			return nil, fmt.Errorf("%s: no such file (give a run written with --format json or -o run.json)", file)
		}
		return nil, err
	}
	defer f.Close()
	runs, err := result.ReadJSON(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	return runs, nil
}

// found is a metric a selector picked.
type found struct {
	run    *result.Run
	res    *result.Result
	metric *result.Metric
}

func (f found) describe() string {
	return fmt.Sprintf("run %s, subject %s, metric %s", f.run.ID, f.res.Subject.Name, f.metric.Name)
}

// String prints the selector as in the model file.
func (s Selector) String() string {
	var parts []string
	if s.Kind != "" {
		parts = append(parts, "kind "+s.Kind)
	}
	if s.Subject != "" {
		parts = append(parts, "subject "+s.Subject)
	}
	var keys []string
	for k := range s.Params {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		parts = append(parts, k+"="+s.Params[k])
	}
	return strings.Join(parts, ", ") + ", metric " + s.Metric
}

// substitute replaces {variant} and {PARAM} in s.
func substitute(s string, vars map[string]string) string {
	if !strings.Contains(s, "{") {
		return s
	}
	for k, v := range vars {
		s = strings.ReplaceAll(s, "{"+k+"}", v)
	}
	return s
}

// find returns the results of runs the selector picks, after substitution.
func (s Selector) find(runs []*result.Run, vars map[string]string) []found {
	subject := substitute(s.Subject, vars)
	var out []found
	for _, run := range runs {
		for i := range run.Results {
			r := &run.Results[i]
			if r.Error != "" {
				continue
			}
			if s.Kind != "" && !strings.EqualFold(s.Kind, r.Subject.Kind) {
				continue
			}
			if subject != "" {
				if ok, _ := path.Match(subject, r.Subject.Name); !ok {
					continue
				}
			}
			match := true
			for k, glob := range s.Params {
				if ok, _ := path.Match(substitute(glob, vars), r.Subject.Params[k]); !ok {
					match = false
					break
				}
			}
			if !match {
				continue
			}
			if m := r.Metric(s.Metric); m != nil {
				out = append(out, found{run, r, m})
			}
		}
	}
	return out
}

// metricValue is a metric's median in unit: "ns/op" is read as ns, "B" as
// bytes; units the catalog does not know must match exactly.
func metricValue(m *result.Metric, unit string) (float64, error) {
	from := strings.TrimSuffix(m.Unit, "/op")
	to := strings.TrimSuffix(unit, "/op")
	if from == to || to == "" {
		return m.Summary.Median, nil
	}
	v, err := catalog.Q(m.Summary.Median, from, "").In(to)
	if err != nil {
		return 0, fmt.Errorf("metric %s in %s cannot be compared with %s: %v", m.Name, m.Unit, unit, err)
	}
	return v, nil
}

// ReadInputs reads the measured values of the model's parameters that
// declare a from: selector (TLS lab byte counts) from runs. It returns
// what it found by parameter name, and notes on what it did not find.
func ReadInputs(m *Model, runs []*result.Run) (map[string]Input, []string, error) {
	inputs := map[string]Input{}
	var notes, wanted []string
	for _, p := range m.Params {
		if p.From == nil {
			continue
		}
		wanted = append(wanted, fmt.Sprintf("%s ← %s", p.Name, p.From))
		fs := p.From.find(runs, map[string]string{})
		switch len(fs) {
		case 0:
			notes = append(notes, fmt.Sprintf("%s: no result matches %s; the default %s %s is used", p.Name, p.From, formatNumber(p.Default), p.Unit))
			continue
		case 1:
		default:
			var names []string
			for _, f := range fs {
				names = append(names, f.res.Subject.Name)
			}
			return nil, nil, fmt.Errorf("parameter %s: %d results match %s (%s): give a run with one, or narrow the model's from: selector", p.Name, len(fs), p.From, strings.Join(names, ", "))
		}
		v, err := metricValue(fs[0].metric, p.Unit)
		if err != nil {
			return nil, nil, fmt.Errorf("parameter %s: %v", p.Name, err)
		}
		inputs[p.Name] = Input{Value: v, Source: fmt.Sprintf("%s (%s)", fs[0].describe(), fs[0].metric.Label)}
	}
	if len(wanted) == 0 {
		return nil, nil, fmt.Errorf("model %s reads no measured inputs (no parameter has a from: selector)", m.Name)
	}
	if len(inputs) == 0 {
		return nil, nil, fmt.Errorf("the run has none of the measurements model %s reads: %s", m.Name, strings.Join(wanted, "; "))
	}
	return inputs, notes, nil
}

// MeasuredRow is one model output beside the measurement it is compared
// with.
type MeasuredRow struct {
	Subject  string // the model point
	Output   string
	Unit     string
	Modelled float64
	Measured float64
	// MeasuredLabel says how the measurement was obtained (measured here,
	// imported from a paper).
	MeasuredLabel result.Label
	MeasuredFrom  string
	// ErrorPct is (modelled − measured) / measured × 100: −99 % means the
	// model predicts 1 % of what was measured.
	ErrorPct float64
	Note     string
}

// CompareMeasured evaluates every point of the plan and sets each output
// the model binds (measured: in the model file) beside the matching
// measurement of runs. It is an error when nothing matches.
func (p *Plan) CompareMeasured(ctx context.Context, runs []*result.Run) ([]MeasuredRow, error) {
	m := p.Model
	if len(m.Measured) == 0 {
		return nil, fmt.Errorf("model %s binds no outputs to measurements (add a measured: section, docs/model.md)", m.Name)
	}
	var rows []MeasuredRow
	err := p.Run(ctx, func(pt *Point, out *Outputs) error {
		vars := map[string]string{}
		if pt.Variant != nil {
			vars["variant"] = pt.Variant.Name
		}
		for i, par := range m.Params {
			vars[par.Name] = formatNumber(pt.Values[i])
		}
		for _, b := range m.Measured {
			if b.Variant != "" && (pt.Variant == nil || !strings.EqualFold(pt.Variant.Name, b.Variant)) {
				continue
			}
			fs := b.Selector.find(runs, vars)
			if len(fs) == 0 {
				continue
			}
			if len(fs) > 1 {
				return fmt.Errorf("%s: %d results match %s: compare with one run at a time", p.SubjectName(pt), len(fs), b.Selector)
			}
			o := outputByName(b.Output)
			mv := o.Value(out)
			meas, err := metricValue(fs[0].metric, o.Unit)
			if err != nil {
				return err
			}
			row := MeasuredRow{Subject: p.SubjectName(pt), Output: o.Name, Unit: o.Unit, Modelled: mv, Measured: meas,
				MeasuredLabel: fs[0].metric.Label, MeasuredFrom: fs[0].describe(), Note: b.Note, ErrorPct: math.NaN()}
			if meas != 0 {
				row.ErrorPct = (mv - meas) / meas * 100
			}
			rows = append(rows, row)
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if len(rows) == 0 {
		var want []string
		for _, b := range m.Measured {
			want = append(want, b.Output+" ← "+b.Selector.String())
		}
		return nil, fmt.Errorf("no measurement in the run matches model %s: it looks for %s ({variant} is the variant's name)", m.Name, strings.Join(want, "; "))
	}
	return rows, nil
}
