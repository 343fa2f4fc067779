package costing

import (
	"fmt"
	"strings"

	"github.com/cryptocost/cryptocost/device"
	"github.com/cryptocost/cryptocost/result"
)

// CurrentReferences are a device's literature figures for an operation
// that give a current and no time (S001's signing currents per algorithm),
// as results labelled imported, with what follows from them by arithmetic
// alone (labelled modelled): the current above idle, the seconds of the
// operation a battery pays for above idle, and — where the source claims
// a count per battery — the longest time per operation the claim allows.
// Nil for a device without such figures.
func CurrentReferences(d *device.Device, operation string) []result.Result {
	idle, idleHow, err := stateCurrent(d, "idle")
	if err != nil {
		return nil
	}
	usable, usableHow, uerr := UsableCharge(d.Battery)
	var out []result.Result
	for _, o := range d.Operations {
		if !strings.EqualFold(o.Operation, operation) || !o.Current.Known() || o.Time.Known() {
			continue
		}
		name := o.Family
		if o.Bits > 0 {
			name = fmt.Sprintf("%s-%d", o.Family, o.Bits)
		}
		amps := valueInterval(o.Current, "A")
		r := result.Result{
			Subject: result.Subject{Kind: "imported", Name: d.Name + "/" + operation + "/" + name, Family: o.Family, Operation: operation,
				Params: map[string]string{"device": d.Name, "family": o.Family, "what": o.Name}},
			Provenance: result.Provenance{Label: result.Imported, Source: d.Source(), Method: result.Method{Name: "imported", Stop: "fixed"}},
		}
		add := func(m result.Metric) { m.Source = o.Name; r.Metrics = append(r.Metrics, m) }
		add(amps.metric("current-"+verbing(operation), "A", result.Imported, o.Current.String(), "the source's range"))
		over := amps.Sub(idle).Div(idle).Scale(100)
		add(over.metric("current-over-idle", "%", result.Modelled, fmt.Sprintf("(I − I_idle) / I_idle = (%s − %s) / %s", o.Current, idleHow, idleHow), "the source's ranges"))
		if uerr == nil && amps.V > idle.V {
			secs := usable.Div(amps.Sub(idle))
			add(secs.metric(verbing(operation)+"-time-per-battery", "s", result.Modelled,
				fmt.Sprintf("Q / (I − I_idle) = %s / (%s − %s)", usableHow, o.Current, idleHow), "the inputs' bounds"))
			if o.PerBattery.Known() {
				n := o.PerBattery.MustIn("")
				add(Exact(n).metric("ops-per-battery", "ops", result.Imported, "the source's claim, a lower bound: "+o.PerBattery.String(), ""))
				add(secs.Scale(1/n).metric("max-time-per-op", "s", result.Modelled,
					fmt.Sprintf("the claim holds only if one %s takes at most %s-time-per-battery / %g", operation, verbing(operation), n), "the inputs' bounds"))
			}
		}
		out = append(out, r)
	}
	return out
}

// verbing is an operation's gerund for metric names: "signing".
func verbing(op string) string {
	switch op {
	case "sign":
		return "signing"
	case "verify":
		return "verifying"
	}
	return op
}
