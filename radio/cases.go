package radio

import (
	"fmt"
	"strings"
	"time"

	"github.com/cryptocost/cryptocost/result"
)

// WhatIfs are the questions `cryptocost radio simulate` asks of each input
// trace beside pricing it as it is (docs/radio.md): a second connection
// After the first (the same trace, or Then), the handshake replaced by a
// Resumed one, and Batch readings every Every on their own connections
// against one connection carrying them all.
type WhatIfs struct {
	After    time.Duration
	HasAfter bool
	Then     *result.Trace // with HasAfter: the second connection (nil: the same trace)
	ThenName string
	// Resumed replaces the first Handshake packets of each trace.
	Resumed     *result.Trace
	ResumedName string
	Handshake   int
	// Batch > 0: Batch readings, Every apart.
	Batch int
	Every time.Duration
}

// Case is one trace to price: an input or a what-if built from it.
type Case struct {
	Name, Source string
	Trace        *result.Trace
	Until        time.Duration
	Params       map[string]string
	Readings     int              // > 0: the result adds the energy per reading
	Pair         [2]*result.Trace // a sequence: priced alone too, for what sharing saved
}

// Cases returns the traces to price: each input, then the what-ifs built
// from it.
func (w WhatIfs) Cases(inputs []Input) ([]Case, error) {
	var out []Case
	for _, in := range inputs {
		out = append(out, Case{Name: in.Name, Source: in.Source, Trace: in.Trace})
		if w.HasAfter {
			second, what := in.Trace, "the same trace"
			if w.Then != nil {
				second, what = w.Then, w.ThenName
			}
			t, err := Sequence(in.Trace, second, w.After)
			if err != nil {
				return nil, fmt.Errorf("--after: %s: %w", in.Name, err)
			}
			out = append(out, Case{Name: in.Name + "/then-after-" + w.After.String(), Source: in.Source, Trace: t,
				Params: map[string]string{"what_if": fmt.Sprintf("a second connection (%s) %v after the first ends", what, w.After)},
				Pair:   [2]*result.Trace{in.Trace, second}})
		}
		if w.Resumed != nil {
			t, err := ReplacePrefix(in.Trace, w.Handshake, w.Resumed)
			if err != nil {
				return nil, fmt.Errorf("--resumed: %s: %w", in.Name, err)
			}
			out = append(out, Case{Name: in.Name + "/resumed", Source: in.Source + " + " + w.ResumedName, Trace: t,
				Params: map[string]string{"what_if": fmt.Sprintf("the first %d packets replaced by %s", w.Handshake, w.ResumedName)}})
		}
		if w.Batch > 0 {
			cs, err := w.batchCases(in)
			if err != nil {
				return nil, err
			}
			out = append(out, cs...)
		}
	}
	return out, nil
}

func (w WhatIfs) batchCases(in Input) ([]Case, error) {
	window := time.Duration(w.Batch) * w.Every
	sep, err := Repeat(in.Trace, w.Batch, w.Every)
	if err != nil {
		return nil, fmt.Errorf("--batch: %s: %w", in.Name, err)
	}
	bat, err := Batch(in.Trace, w.Handshake, w.Batch)
	if err != nil {
		return nil, fmt.Errorf("--batch: %s: %w", in.Name, err)
	}
	return []Case{
		{Name: fmt.Sprintf("%s/%dx-every-%v", in.Name, w.Batch, w.Every), Source: in.Source, Trace: sep, Until: window, Readings: w.Batch,
			Params: map[string]string{"what_if": fmt.Sprintf("%d readings, each on its own connection, every %v; priced over %v", w.Batch, w.Every, window)}},
		{Name: fmt.Sprintf("%s/%dx-batched", in.Name, w.Batch), Source: in.Source, Trace: bat, Until: window, Readings: w.Batch,
			Params: map[string]string{"what_if": fmt.Sprintf("%d readings in one connection (handshake: the first %d packets, sent once); priced over %v", w.Batch, w.Handshake, window)}},
	}, nil
}

// Price simulates the case on p (opt.Until at least the case's own) and
// returns its result — with the energy per reading for a batch, and what
// sharing saved for a sequence — and the breakdown.
func (c Case) Price(p *Profile, opt Options) (result.Result, *Breakdown, error) {
	opt.Until = max(opt.Until, c.Until)
	b, err := p.Simulate(c.Trace, opt)
	if err != nil {
		return result.Result{}, nil, fmt.Errorf("%s on %s: %w", c.Name, p.Name, err)
	}
	r := b.Result(p, c.Name, c.Source, c.Params)
	if c.Readings > 0 {
		m := result.NewScalar("energy-per-reading", "J", result.Lower, result.Modelled, b.Total()/float64(c.Readings))
		m.Method = p.Method()
		r.Metrics = append(r.Metrics, m)
	}
	if c.Pair[0] != nil {
		if err := addSharing(&r, p, b, c.Pair, opt); err != nil {
			return r, b, err
		}
	}
	return r, b, nil
}

// addSharing prices the two connections of a sequence alone and adds what
// pricing them together saved, and whether the second shared the first
// one's tail (it needed fewer promotions).
func addSharing(r *result.Result, p *Profile, together *Breakdown, pair [2]*result.Trace, opt Options) error {
	opt.Until = 0
	var alone float64
	promotions := 0
	for _, t := range pair {
		b, err := p.Simulate(t, opt)
		if err != nil {
			return err
		}
		alone += b.Total()
		promotions += b.Promotions
	}
	m := result.NewScalar("energy-saved", "J", result.Higher, result.Modelled, alone-together.Total())
	m.Method = "the two connections priced alone, minus priced together; " + p.Method()
	r.Metrics = append(r.Metrics, m)
	switch {
	case promotions == 0:
		r.Subject.Params["shares_tail"] = "no promotions on this radio"
	case together.Promotions < promotions:
		r.Subject.Params["shares_tail"] = "yes"
	default:
		r.Subject.Params["shares_tail"] = "no"
	}
	return nil
}

// ReadOne reads the one trace of file (a what-if's second file); a file
// holding several says which.
func ReadOne(flag, file string, opt ReadOptions) (*result.Trace, error) {
	in, err := ReadFile(file, opt)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", flag, err)
	}
	if len(in) != 1 {
		var names []string
		for _, i := range in {
			names = append(names, i.Name)
		}
		return nil, fmt.Errorf("%s %s holds %d traces (%s): save the one you mean alone", flag, file, len(in), strings.Join(names, ", "))
	}
	return in[0].Trace, nil
}
