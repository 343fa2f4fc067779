package model

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/cryptocost/cryptocost/catalog"
	"github.com/cryptocost/cryptocost/result"
)

// RunCosts prices operations with what a cryptocost bench run measured:
// the median "time" (ns/op) of each primitive, and its "energy" when the
// run carries one (an energy metric added by a device profile). An
// operation is known by its subject name ("Ed25519@go/sign/32") and, when
// the run has a single result for it, by SCHEME/OPERATION ("Ed25519/sign")
// as in cost tables.
type RunCosts struct {
	name  string
	ops   map[string]OpCost
	order []string
}

// NewRunCosts reads the primitive results of runs.
func NewRunCosts(file string, runs []*result.Run) (*RunCosts, error) {
	rc := &RunCosts{ops: map[string]OpCost{}}
	var ids []string
	short := map[string][]OpCost{}
	var shortOrder []string
	for _, run := range runs {
		ids = append(ids, run.ID)
		for i := range run.Results {
			r := &run.Results[i]
			t := r.Metric("time")
			if r.Error != "" || t == nil || r.Subject.Kind != "primitive" {
				continue
			}
			ns, err := metricValue(t, "ns")
			if err != nil {
				return nil, fmt.Errorf("%s: %s: %v", file, r.Subject.Name, err)
			}
			oc := OpCost{TimeSeconds: ns * 1e-9, EnergyJoules: math.NaN(), Label: t.Label,
				Source: fmt.Sprintf("%s: run %s, %s, median time %s", file, run.ID, r.Subject.Name, secondsString(ns*1e-9))}
			if run.Environment.CPUModel != "" {
				oc.Source += " on " + run.Environment.CPUModel
			}
			if e := r.Metric("energy"); e != nil {
				if j, err := energyJoules(e); err == nil {
					oc.EnergyJoules = j
					oc.Source += fmt.Sprintf(", energy %s (%s)", joulesString(j), e.Label)
					if e.Label != result.Measured {
						oc.Label = e.Label
					}
				}
			}
			rc.add(r.Subject.Name, oc)
			if r.Subject.Scheme != "" && r.Subject.Operation != "" {
				k := r.Subject.Scheme + "/" + r.Subject.Operation
				if short[k] == nil {
					shortOrder = append(shortOrder, k)
				}
				short[k] = append(short[k], oc)
			}
		}
	}
	for _, k := range shortOrder {
		if len(short[k]) == 1 {
			if _, taken := rc.ops[k]; !taken {
				rc.add(k, short[k][0])
			}
		}
	}
	if len(rc.ops) == 0 {
		return nil, fmt.Errorf("%s: no primitive results with a time: give a run written by cryptocost bench -o run.json", file)
	}
	rc.name = fmt.Sprintf("bench run %s (%s)", strings.Join(ids, ", "), file)
	return rc, nil
}

func (rc *RunCosts) add(name string, oc OpCost) {
	if _, dup := rc.ops[name]; !dup {
		rc.order = append(rc.order, name)
	}
	rc.ops[name] = oc
}

// energyJoules reads an energy metric per operation in joules.
func energyJoules(m *result.Metric) (float64, error) {
	unit := strings.TrimSuffix(m.Unit, "/op")
	return catalog.Q(m.Summary.Median, unit, "").In("J")
}

// Describe implements OpCostSource.
func (rc *RunCosts) Describe() string { return rc.name }

// OpCost implements OpCostSource; names match without regard to case.
func (rc *RunCosts) OpCost(op string) (OpCost, bool) {
	if oc, ok := rc.ops[op]; ok {
		return oc, true
	}
	for name, oc := range rc.ops {
		if strings.EqualFold(name, op) {
			return oc, true
		}
	}
	return OpCost{}, false
}

// OpNames implements OpCostSource.
func (rc *RunCosts) OpNames() []string {
	out := append([]string(nil), rc.order...)
	sort.Strings(out)
	return out
}
