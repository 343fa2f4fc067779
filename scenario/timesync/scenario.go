package timesync

import (
	"context"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/cryptocost/cryptocost/link"
	"github.com/cryptocost/cryptocost/measure"
	"github.com/cryptocost/cryptocost/result"
	"github.com/cryptocost/cryptocost/scenario"
	"github.com/spf13/pflag"
)

func init() { scenario.Register(&Scenario{}) }

// Defaults. S003 compared RSA-1024 and RSA-2048 (small exponent) with
// ECDSA; ECDSA P-256 is today's curve. The SEC 2 curves S003 used run only
// when named (--schemes ECDSA-160,...): they are benchmarking-only.
var (
	DefaultSchemes   = []string{"RSA-1024", "RSA-2048", "ECDSA-P256"}
	DefaultReceivers = 5
	DefaultSyncs     = 10
	DefaultInterval  = 500 * time.Millisecond
	DefaultFloodSize = 5
	quickReceivers   = 3
	quickSyncs       = 4
	quickInterval    = 200 * time.Millisecond
)

// Limits that keep a run bounded before it starts.
const (
	maxReceivers = 200
	maxSyncs     = 100000
	maxFlood     = 1000
)

// Scenario is `cryptocost scenario timesync`.
type Scenario struct {
	schemes, attacks []string
	receivers, syncs int
	interval         time.Duration
	floodSize        int
	fs               *pflag.FlagSet

	suites    []Suite
	attackSet []Attack
}

func (*Scenario) Name() string { return "timesync" }
func (*Scenario) Summary() string {
	return "S003 (SecSyWiSe): signed broadcast time sync to N receivers; replay and flood defences; verification cost, bytes, clock deviation"
}

// Examples are the command's usage examples (scenario.Exampler).
func (*Scenario) Examples() string {
	return `  cryptocost scenario timesync --quick
  cryptocost scenario timesync --schemes RSA-1024,ECDSA-P256 --receivers 5 --link 802.15.4 --device telosb -o run.json
  cryptocost scenario timesync --attack flood,replay --quick
  cryptocost model compare secsywise --measured run.json   # beside the SecSyWiSe model`
}

func (s *Scenario) Flags(fs *pflag.FlagSet) {
	s.fs = fs
	fs.StringSliceVar(&s.schemes, "schemes", DefaultSchemes, "signatures: "+strings.Join(SuiteNames(), ", ")+" (ECDSA-128/160/192: benchmarking-only SEC 2 curves, INSECURE)")
	fs.IntVar(&s.receivers, "receivers", DefaultReceivers, fmt.Sprintf("receivers (sensor nodes) N (--quick: %d)", quickReceivers))
	fs.IntVar(&s.syncs, "syncs", DefaultSyncs, fmt.Sprintf("synchronisation intervals (--quick: %d)", quickSyncs))
	fs.DurationVar(&s.interval, "interval", DefaultInterval, "synchronisation interval: each receiver verifies at most one signature per interval (--quick: "+quickInterval.String()+")")
	fs.StringSliceVar(&s.attacks, "attack", []string{string(NoAttack)}, "fixtures to run: none, flood (forged messages before every second sync), replay (each message resent), or a list")
	fs.IntVar(&s.floodSize, "flood-size", DefaultFloodSize, "forged messages per flooded interval")
}

func (s *Scenario) Validate() error {
	s.suites, s.attackSet = nil, nil
	if len(s.schemes) == 0 {
		return fmt.Errorf("--schemes: give at least one of %s", strings.Join(SuiteNames(), ", "))
	}
	seen := map[string]bool{}
	for _, n := range s.schemes {
		su, err := LookupSuite(n)
		if err != nil {
			return fmt.Errorf("--schemes: %w", err)
		}
		if !seen[su.Name] {
			seen[su.Name] = true
			s.suites = append(s.suites, su)
		}
	}
	for _, a := range s.attacks {
		found := false
		for _, known := range Attacks {
			if strings.EqualFold(strings.TrimSpace(a), string(known)) {
				s.attackSet = append(s.attackSet, known)
				found = true
			}
		}
		if !found {
			return fmt.Errorf("--attack %q: want none, flood or replay (or a list such as none,flood,replay)", a)
		}
	}
	switch {
	case s.receivers < 1 || s.receivers > maxReceivers:
		return fmt.Errorf("--receivers %d: want 1 to %d", s.receivers, maxReceivers)
	case s.syncs < 1 || s.syncs > maxSyncs:
		return fmt.Errorf("--syncs %d: want 1 to %d", s.syncs, maxSyncs)
	case s.interval < 10*time.Millisecond || s.interval > time.Hour:
		return fmt.Errorf("--interval %v: want 10ms to 1h", s.interval)
	case s.floodSize < 1 || s.floodSize > maxFlood:
		return fmt.Errorf("--flood-size %d: want 1 to %d", s.floodSize, maxFlood)
	}
	return nil
}

// NewRun starts a run of kind "scenario" with this machine's environment.
func NewRun() *result.Run {
	run := measure.NewRun("scenario")
	run.Tags = []string{"timesync"}
	return run
}

// linkRoom checks that one interval's messages cross the link in well
// under the interval (at most 2/5 of it): the source sends a tenth into
// the interval, and the flood before it and the link's delay must stay
// inside the receivers' interval, or the one-verification-per-interval
// accounting would be about the link, not the defence.
func linkRoom(p link.Params, interval time.Duration, su Suite, perInterval int) error {
	if p.RateDown <= 0 && p.Latency == 0 {
		return nil
	}
	_, wire := link.Fragments(HeaderBytes+su.SigBytes, max(p.MTU, 1))
	need := p.Latency
	if p.RateDown > 0 {
		need += time.Duration(float64(perInterval*wire*8) / p.RateDown * 1e9)
	}
	if need > interval*2/5 {
		return fmt.Errorf("--interval %v is too short for %s on this link: the %d messages of an interval take %v to cross it; give --interval %v or more",
			interval, su.Name, perInterval, need.Round(time.Millisecond), (need * 5 / 2).Round(10*time.Millisecond))
	}
	return nil
}

func (s *Scenario) Run(ctx context.Context, env scenario.Env) (*result.Run, error) {
	log := env.Log
	if log == nil {
		log = io.Discard
	}
	changed := func(n string) bool { return s.fs != nil && s.fs.Changed(n) }
	receivers, syncs := s.receivers, s.syncs
	if env.Quick && !changed("receivers") {
		receivers = quickReceivers
	}
	if env.Quick && !changed("syncs") {
		syncs = quickSyncs
	}
	interval := s.interval
	if env.Quick && !changed("interval") {
		interval = quickInterval
	}
	var params link.Params
	linkName := "loopback"
	if env.Link != nil {
		var err error
		if params, err = env.Link.Params(); err != nil {
			return nil, fmt.Errorf("--link: %w", err)
		}
		linkName = env.Link.Name
	}
	perInterval := 1
	for _, a := range s.attackSet {
		switch a {
		case Flood:
			perInterval = max(perInterval, 1+s.floodSize)
		case Replay:
			perInterval = max(perInterval, 3)
		}
	}
	for _, su := range s.suites {
		if err := linkRoom(params, interval, su, perInterval); err != nil {
			return nil, err
		}
		if su.Insecure {
			fmt.Fprintf(log, "timesync: %s is a benchmarking-only, INSECURE ECDSA on %s (variable-time, too small a curve): here to compare with S003\n", su.Name, su.Params["curve"])
		}
	}
	run := NewRun()
	seed := uint64(1)
	if env.Progress != nil {
		env.Progress.Begin(len(s.attackSet) * len(s.suites) * syncs)
		defer env.Progress.End()
	}
	done := 0
	for _, a := range s.attackSet {
		for _, su := range s.suites {
			if ctx.Err() != nil {
				break
			}
			if err := su.KAT(); err != nil {
				run.Errors = append(run.Errors, fmt.Sprintf("%s: known-answer test failed, not measured: %v", su.Name, err))
				continue
			}
			cfg := Config{Suite: su, Receivers: receivers, Syncs: syncs, Interval: interval, Link: params,
				Attack: a, FloodSize: s.floodSize, SourceID: 0x0001, Seed: seed}
			if env.Progress != nil {
				name, before := Name(su.Name, a), done
				cfg.OnInterval = func(sent int) {
					env.Progress.Step(before+sent, fmt.Sprintf("%s: interval %d of %d", name, sent, syncs))
				}
			}
			done += syncs
			seed++
			r := Run(ctx, cfg)
			if r.Interrupted && r.Syncs == 0 {
				break // nothing measured
			}
			res := ResultOf(r, linkName)
			if r.Interrupted {
				res.Warnings = append(res.Warnings, fmt.Sprintf("interrupted: %d of %d intervals measured", r.Syncs, syncs))
			}
			status := "ok"
			if res.Error != "" {
				status = res.Error
			}
			fmt.Fprintf(log, "timesync: %s: %d receivers × %d intervals: %s\n", res.Subject.Name, receivers, r.Syncs, status)
			run.Results = append(run.Results, res)
		}
	}
	run.Finished = time.Now().UTC()
	for _, r := range run.Results {
		if r.Error != "" {
			run.Errors = append(run.Errors, r.Subject.Name+": "+r.Error)
		}
	}
	if len(run.Errors) > 0 {
		run.Status = result.Failed
	}
	if ctx.Err() != nil {
		run.Status = result.Interrupted
	}
	return run, nil
}
