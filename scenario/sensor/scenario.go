package sensor

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	"github.com/cryptocost/cryptocost/link"
	"github.com/cryptocost/cryptocost/measure"
	"github.com/cryptocost/cryptocost/radio"
	"github.com/cryptocost/cryptocost/result"
	"github.com/cryptocost/cryptocost/scenario"
	"github.com/spf13/pflag"
)

func init() { scenario.Register(&Scenario{}) }

// Scenario is `cryptocost scenario sensor`.
type Scenario struct {
	protections, algs, cids []string
	edhocMethods, edhocCred []string
	readings                int
	interval                time.Duration
	senml                   string
	attacks                 bool

	// Resolved by Validate.
	plan []Variant
	enc  *Encoding
}

// Name implements scenario.Scenario.
func (*Scenario) Name() string { return "sensor" }

// Summary implements scenario.Scenario.
func (*Scenario) Summary() string {
	return "S004: sensors post signed SenML readings through a CoAP mirror proxy — COSE/JWS objects vs DTLS, per reading and amortised"
}

// Examples are the command's usage examples (scenario.Exampler).
func (*Scenario) Examples() string {
	return `  cryptocost scenario sensor --quick
  cryptocost scenario sensor --protection cose,dtls-psk --link 802.15.4 --device telosb
  cryptocost scenario sensor --protection edhoc-oscore --edhoc-method static-dh --readings 50 -o run.json
  cryptocost scenario sensor --attacks --quick`
}

// Default and quick readings per session.
const (
	defaultReadings = 20
	quickReadings   = 5
	maxReadings     = 10000
)

// Flags implements scenario.Scenario.
func (s *Scenario) Flags(fs *pflag.FlagSet) {
	var prot []string
	for _, p := range Protections {
		prot = append(prot, p.Name)
	}
	fs.StringSliceVar(&s.protections, "protection", prot, "how readings are protected: "+strings.Join(prot, ", ")+" (cose, jose, psk, ecdhe also work)")
	fs.StringSliceVar(&s.algs, "alg", []string{"ES256"}, "the sensor's signature algorithm(s): ES256, EdDSA")
	fs.StringSliceVar(&s.cids, "cid", []string{"off", "on"}, "DTLS Connection ID (RFC 9146): off, on, or both")
	fs.StringSliceVar(&s.edhocMethods, "edhoc-method", []string{"static-dh", "sig"}, "EDHOC methods for edhoc-oscore (RFC 9528 §3.2): static-dh (3) and/or sig (0)")
	fs.StringSliceVar(&s.edhocCred, "edhoc-cred", []string{"kccs"}, "how the sensor's EDHOC message_3 names its credential: kccs (the CCS by value) and/or kid (by reference: the installer provisioned it at the proxy)")
	fs.IntVar(&s.readings, "readings", 0, fmt.Sprintf("readings per session, over which the DTLS handshake is amortised (default %d; %d with --quick)", defaultReadings, quickReadings))
	fs.DurationVar(&s.interval, "interval", 10*time.Minute, "time between readings, for battery life (and the readings' SenML times)")
	fs.StringVar(&s.senml, "senml", "cbor", "SenML encoding of a reading: cbor (RFC 8428 §6) or json")
	fs.BoolVar(&s.attacks, "attacks", false, "also run the attack fixtures (tampered, replayed, forged, unregistered readings; a compromised proxy) and report each defence")
}

// Validate implements scenario.Scenario: every name resolves and every
// number is in range before any socket opens.
func (s *Scenario) Validate() error {
	var err error
	if s.enc, err = LookupEncoding(s.senml); err != nil {
		return fmt.Errorf("--senml: %w", err)
	}
	if s.readings < 0 || s.readings > maxReadings {
		return fmt.Errorf("--readings %d: want 1 to %d readings per session", s.readings, maxReadings)
	}
	if s.interval < time.Second || s.interval%time.Second != 0 {
		return fmt.Errorf("--interval %v: want whole seconds, at least 1s, such as 10m", s.interval)
	}
	var algs []*Alg
	for _, a := range s.algs {
		alg, err := LookupAlg(a)
		if err != nil {
			return fmt.Errorf("--alg: %w", err)
		}
		if !slices.Contains(algs, alg) {
			algs = append(algs, alg)
		}
	}
	if len(algs) == 0 {
		return fmt.Errorf("--alg: name at least one of ES256, EdDSA")
	}
	var cids []bool
	for _, c := range s.cids {
		var on bool
		switch strings.ToLower(strings.TrimSpace(c)) {
		case "off", "no", "false":
		case "on", "yes", "true":
			on = true
		case "both":
			cids = append(cids, false)
			on = true
		default:
			return fmt.Errorf("--cid %q: want off, on or both", c)
		}
		if !slices.Contains(cids, on) {
			cids = append(cids, on)
		}
	}
	if len(cids) == 0 {
		return fmt.Errorf("--cid: want off, on or both")
	}
	var methods []*EDHOCOSCORE
	for _, name := range s.edhocMethods {
		m, err := LookupEDHOCMethod(name)
		if err != nil {
			return fmt.Errorf("--edhoc-method: %w", err)
		}
		if !slices.Contains(methods, m) {
			methods = append(methods, m)
		}
	}
	var creds []*EDHOCCred
	for _, name := range s.edhocCred {
		cr, err := LookupEDHOCCred(name)
		if err != nil {
			return fmt.Errorf("--edhoc-cred: %w", err)
		}
		if !slices.Contains(creds, cr) {
			creds = append(creds, cr)
		}
	}
	if len(creds) == 0 {
		return fmt.Errorf("--edhoc-cred: name kccs, kid or both")
	}
	s.plan = nil
	seen := map[string]bool{}
	for _, name := range s.protections {
		p, err := LookupProtection(name)
		if err != nil {
			return fmt.Errorf("--protection: %w", err)
		}
		var vs []Variant
		switch {
		case p.Object != nil:
			for _, a := range algs {
				vs = append(vs, Variant{Protection: p, Alg: a})
			}
		case p.OSCORE:
			if len(methods) == 0 {
				return fmt.Errorf("--edhoc-method: name static-dh, sig or both")
			}
			for _, a := range algs {
				for _, m := range methods {
					for _, cr := range creds {
						vs = append(vs, Variant{Protection: p, Alg: a, EDHOC: m, EDHOCCred: cr})
					}
				}
			}
		case p.Transport.Kind == "psk":
			for _, c := range cids {
				vs = append(vs, Variant{Protection: p, CID: c})
			}
		default:
			for _, a := range algs {
				for _, c := range cids {
					vs = append(vs, Variant{Protection: p, Alg: a, CID: c})
				}
			}
		}
		for _, v := range vs {
			if !seen[v.Name()] {
				seen[v.Name()] = true
				s.plan = append(s.plan, v)
			}
		}
	}
	if len(s.plan) == 0 {
		return fmt.Errorf("--protection: name at least one of %s", protectionNames())
	}
	return nil
}

func protectionNames() string {
	var n []string
	for _, p := range Protections {
		n = append(n, p.Name)
	}
	return strings.Join(n, ", ")
}

// Plan returns the variants Validate resolved, in run order.
func (s *Scenario) Plan() []Variant { return slices.Clone(s.plan) }

// Run implements scenario.Scenario.
func (s *Scenario) Run(ctx context.Context, env scenario.Env) (*result.Run, error) {
	if s.plan == nil {
		if err := s.Validate(); err != nil {
			return nil, err
		}
	}
	log := env.Log
	if log == nil {
		log = io.Discard
	}
	readings := s.readings
	if readings == 0 {
		readings = defaultReadings
		if env.Quick {
			readings = quickReadings
		}
	}
	var params link.Params
	linkName := ""
	if env.Link != nil {
		var err error
		if params, err = env.Link.Params(); err != nil {
			return nil, fmt.Errorf("--link: %w", err)
		}
		linkName = env.Link.Name
	}
	air, airNote, err := airModel(env.Link)
	if err != nil {
		return nil, err
	}
	run := newRun()
	if airNote != "" {
		run.Environment.Notes = append(run.Environment.Notes, airNote)
	}
	c := Costing{Env: run.Environment, Link: linkName, Air: air, Interval: s.interval, Reps: 20}
	if env.Quick {
		c.Reps = 5
	}
	for _, v := range s.plan {
		if ctx.Err() != nil {
			run.Status = result.Interrupted
			break
		}
		fmt.Fprintf(log, "%s: %d readings\n", v.Name(), readings)
		sess, err := MeasureSession(ctx, v, s.enc, params, readings, s.interval, log)
		if err != nil {
			if ctx.Err() != nil {
				run.Status = result.Interrupted
				break
			}
			run.Results = append(run.Results, result.Result{Subject: result.Subject{Kind: "scenario", Name: v.Name()}, Error: err.Error()})
			run.Errors = append(run.Errors, err.Error())
			run.Status = result.Failed
			continue
		}
		// Pricing and the model are computation on what was measured:
		// they finish even when the measuring was interrupted.
		r := sess.Result(context.WithoutCancel(ctx), c)
		if r.Error != "" {
			run.Errors = append(run.Errors, v.Name()+": "+r.Error)
			run.Status = result.Failed
		}
		run.Results = append(run.Results, r)
		if sess.Interrupted {
			run.Status = result.Interrupted
			break
		}
	}
	if s.attacks && run.Status != result.Interrupted {
		for _, v := range s.plan {
			if ctx.Err() != nil {
				run.Status = result.Interrupted
				break
			}
			fmt.Fprintf(log, "%s: attack fixtures\n", v.Name())
			outs, err := RunAttacks(ctx, v, s.enc, params)
			for _, o := range outs {
				r := o.Result(v)
				if r.Error != "" {
					run.Errors = append(run.Errors, r.Subject.Name+": "+r.Error)
					run.Status = result.Failed
				}
				run.Results = append(run.Results, r)
			}
			if err != nil {
				if ctx.Err() != nil {
					run.Status = result.Interrupted
					break
				}
				run.Errors = append(run.Errors, err.Error())
				run.Status = result.Failed
			}
		}
	}
	run.Finished = time.Now().UTC()
	return run, nil
}

// airModel is the frame model for air bytes: the radio's, when it is an
// 802.15.4 profile, else the TelosB's 6LoWPAN profile, with a note.
// airModel frames the traffic as the link's radio does: the air bytes and
// frames are the link's (802.15.4 frames, LoRaWAN's SCHC), whatever
// device is priced; links that do not frame IP this way are counted with
// the 802.15.4 model, and a note says so.
func airModel(l *link.Profile) (*AirModel, string, error) {
	var rp *radio.Profile
	if l != nil && l.Radio != "" {
		if p, err := radio.Lookup(l.Radio); err == nil {
			rp = p
			if a, err := NewAirModel(rp); err == nil {
				return a, "", nil
			}
		}
	}
	p, err := radio.Lookup(DefaultAirProfile)
	if err != nil {
		return nil, "", err
	}
	a, err := NewAirModel(p)
	if err != nil {
		return nil, "", err
	}
	note := "802.15.4 air bytes and frames are counted with radio profile " + p.Name
	if rp != nil {
		note += " (the run's radio, " + rp.Name + ", is " + rp.Technology + ", which does not frame IP this way)"
	}
	return a, note, nil
}

// newRun starts the scenario's run with this machine's environment.
func newRun() *result.Run {
	return measure.NewRun("scenario")
}

// Result is the attack's result: subject VARIANT/attack/NAME, metrics
// attempts and rejected, an error when a defence the design promises did
// not hold.
func (o Outcome) Result(v Variant) result.Result {
	rej := 0.0
	if o.Rejected {
		rej = 1
	}
	r := result.Result{
		Subject: result.Subject{Kind: "scenario", Name: v.Name() + "/attack/" + o.Attack, Operation: "attack",
			Params: map[string]string{"scenario": "sensor", "attack": o.Attack, "protection": v.Protection.Name, "outcome": o.How,
				"expected": map[bool]string{true: "rejected", false: "not detectable with this protection"}[o.Expected]}},
		Metrics: []result.Metric{
			result.NewScalar("attempts", "attacks", result.Lower, result.Measured, 1),
			result.NewScalar("rejected", "attacks", result.Higher, result.Measured, rej),
		},
		Provenance: result.Provenance{Label: result.Measured, Source: "cryptocost scenario sensor --attacks",
			Method: result.Method{Name: "attack fixture", Samples: 1, Stop: "fixed"}},
	}
	for _, a := range Attacks {
		if a.Name == o.Attack {
			r.Subject.Params["attack_summary"] = a.Summary
		}
	}
	if o.Expected && !o.Rejected {
		r.Error = "the defence failed: " + o.How
	}
	if !o.Expected {
		r.Warnings = append(r.Warnings, "not detected, as the protection's design implies: "+o.How)
	}
	return r
}
