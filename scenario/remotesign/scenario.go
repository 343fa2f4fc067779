package remotesign

import (
	"context"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/cryptocost/cryptocost/measure"
	"github.com/cryptocost/cryptocost/result"
	"github.com/cryptocost/cryptocost/scenario"
	"github.com/cryptocost/cryptocost/scheme"
	"github.com/spf13/pflag"
)

func init() { scenario.Register(&Scenario{}) }

// DefaultSchemes are S001's signature schemes (SHA256withRSA, RSA-PSS,
// SHA256withDSA, SHA256withECDSA at 128/192/256-bit security) and Ed25519.
var DefaultSchemes = []string{
	"RSA-2048-PKCS1v15-SHA256", "RSA-2048-PSS-SHA256",
	"RSA-3072-PKCS1v15-SHA256", "RSA-3072-PSS-SHA256",
	"DSA-2048-256-SHA256", "DSA-3072-256-SHA256",
	"ECDSA-P256-SHA256", "ECDSA-P384-SHA384", "ECDSA-P521-SHA512",
	"Ed25519",
}

// Defaults: S001 signed five documents of different sizes 20 times each.
// Its digest does not give the sizes; these span a short text to a
// quarter-megabyte PDF.
var (
	DefaultDocs    = []string{"1k", "4k", "16k", "64k", "256k"}
	DefaultRepeats = 20
	quickDocs      = []string{"1k", "64k"}
	quickRepeats   = 3
)

// Scenario is `cryptocost scenario remote-sign`.
type Scenario struct {
	schemes, docs, modes []string
	repeats              int
	speed                float64
	onDevice             bool
	calibrations         string
	signer               string
	fs                   *pflag.FlagSet
	// afterRequest is the tests' hook into every connection (Config).
	afterRequest func(step RequestStep, n int)

	// Resolved by Validate.
	signSchemes []scheme.SignScheme
	docSizes    []int
	tlsModes    []bool
}

func (*Scenario) Name() string { return "remote-sign" }
func (*Scenario) Summary() string {
	return "S001: a phone as a signing token — signatures over a length-prefixed protocol, plain and TLS; latency split, bytes, joules per signature"
}

// Examples are the command's usage examples (scenario.Exampler).
func (*Scenario) Examples() string {
	return `  cryptocost scenario remote-sign --quick
  cryptocost scenario remote-sign --schemes ECDSA-P256-SHA256,Ed25519 --docs 1k,64k --mode tls -o run.json
  cryptocost scenario remote-sign --link Bluetooth-BR/EDR --device s001-phone --signer-speed 5
  cryptocost scenario remote-sign --signer process --schemes RSA-2048-PSS-SHA256 --quick   # the signer's own memory`
}

func (s *Scenario) Flags(fs *pflag.FlagSet) {
	s.fs = fs
	fs.StringSliceVar(&s.schemes, "schemes", DefaultSchemes, "signature schemes the signer holds (registry names, cryptocost list --family sign)")
	fs.StringSliceVar(&s.docs, "docs", DefaultDocs, "document sizes, S001's K documents (--quick: "+strings.Join(quickDocs, ",")+")")
	fs.IntVar(&s.repeats, "repeats", DefaultRepeats, fmt.Sprintf("signatures per document, S001's R (--quick: %d)", quickRepeats))
	fs.StringSliceVar(&s.modes, "mode", []string{"plain", "tls"}, "channel: plain TCP, TLS 1.3 (the signer is the TLS server), or both")
	fs.Float64Var(&s.speed, "signer-speed", 0, "assume the signer's device takes this many times this machine's time to hash and sign (energy per signature, labelled estimated)")
	fs.BoolVar(&s.onDevice, "on-device", false, "this run executes on the signer's device itself: its times are the device's (measured)")
	fs.StringVar(&s.calibrations, "calibrations", "", "directory of device calibrations (default: cryptocost calibrate's)")
	fs.StringVar(&s.signer, "signer", "inprocess", "where the signer runs: inprocess (its memory is the Go heap) or process (this binary re-run as the signer: its memory is its own resident set)")
}

// maxRepeats and maxDoc bound a run before it starts.
const (
	maxRepeats = 10000
	maxDoc     = DefaultMaxFrame - SignRequestFixedBytes - 255
)

func (s *Scenario) Validate() error {
	s.signSchemes, s.docSizes, s.tlsModes = nil, nil, nil
	if len(s.schemes) == 0 {
		return fmt.Errorf("--schemes: give at least one signature scheme, such as ECDSA-P256-SHA256")
	}
	seen := map[string]bool{}
	for _, name := range s.schemes {
		sc, err := scheme.Lookup(strings.TrimSpace(name))
		if err != nil {
			return fmt.Errorf("--schemes: %w", err)
		}
		ss, ok := sc.(scheme.SignScheme)
		if !ok {
			return fmt.Errorf("--schemes: %s is a %s scheme, not a signature: want one of cryptocost list --family sign", sc.Info().Name, sc.Info().Family)
		}
		if !supported(ss) {
			return fmt.Errorf("--schemes: %s: remote-sign splits hashing from signing for RSA, DSA, ECDSA and Ed25519 keys only", sc.Info().Name)
		}
		if !seen[ss.Info().Name] {
			seen[ss.Info().Name] = true
			s.signSchemes = append(s.signSchemes, ss)
		}
	}
	docs := s.docs
	if len(docs) == 0 {
		return fmt.Errorf("--docs: give at least one document size, such as 1k,64k")
	}
	for _, d := range docs {
		n, err := scheme.ParseSize(d)
		if err != nil {
			return fmt.Errorf("--docs: %w", err)
		}
		if n < 1 {
			return fmt.Errorf("--docs %s: want documents of at least 1 byte, such as 1k,64k", d)
		}
		if n > maxDoc {
			return fmt.Errorf("--docs %s: the signer accepts documents of at most %s", d, scheme.FormatSize(maxDoc))
		}
		s.docSizes = append(s.docSizes, n)
	}
	if s.repeats < 1 || s.repeats > maxRepeats {
		return fmt.Errorf("--repeats %d: want 1 to %d", s.repeats, maxRepeats)
	}
	for _, m := range s.modes {
		switch strings.ToLower(strings.TrimSpace(m)) {
		case "plain", "tcp":
			s.tlsModes = append(s.tlsModes, false)
		case "tls":
			s.tlsModes = append(s.tlsModes, true)
		default:
			return fmt.Errorf("--mode %q: want plain, tls or plain,tls", m)
		}
	}
	if len(s.tlsModes) == 0 {
		return fmt.Errorf("--mode: want plain, tls or plain,tls")
	}
	switch strings.ToLower(strings.TrimSpace(s.signer)) {
	case "inprocess", "in-process", "":
		s.signer = "inprocess"
	case "process":
		s.signer = "process"
	default:
		return fmt.Errorf("--signer %q: want inprocess (the signer shares this process) or process (the signer runs as its own process, so its resident set is measured)", s.signer)
	}
	if s.speed < 0 || s.speed > 1e6 {
		return fmt.Errorf("--signer-speed %g: want a positive factor such as 5 (the device takes 5× this machine's time)", s.speed)
	}
	return nil
}

// supported says NewKey can split the scheme's signing: its key type is
// RSA, DSA, ECDSA or Ed25519 (the registry names say which).
func supported(s scheme.SignScheme) bool {
	n := s.Info().Name
	for _, p := range []string{"RSA-", "DSA-", "ECDSA-", "Ed25519"} {
		if strings.HasPrefix(n, p) {
			return true
		}
	}
	return false
}

// NewRun starts a run of kind "scenario" with this machine's environment.
func NewRun() *result.Run {
	run := measure.NewRun("scenario")
	run.Tags = []string{"remote-sign"}
	return run
}

func (s *Scenario) Run(ctx context.Context, env scenario.Env) (*result.Run, error) {
	log := env.Log
	if log == nil {
		log = io.Discard
	}
	docs, repeats := s.docSizes, s.repeats
	changed := func(name string) bool { return s.fs != nil && s.fs.Changed(name) }
	if env.Quick && !changed("docs") {
		docs = nil
		for _, d := range quickDocs {
			n, _ := scheme.ParseSize(d)
			docs = append(docs, n)
		}
	}
	if env.Quick && !changed("repeats") {
		repeats = quickRepeats
	}
	linkName := "loopback"
	if env.Link != nil {
		if _, err := env.Link.Params(); err != nil {
			return nil, fmt.Errorf("--link: %w", err)
		}
		linkName = env.Link.Name
	}
	if env.Link != nil {
		if est := estimate(env, s.signSchemes, s.tlsModes, docs, repeats); est > 10*time.Second {
			fmt.Fprintf(log, "remote-sign: the link alone needs about %v for %d documents × %d repeats × %d schemes × %d modes (use --docs, --repeats or --quick for less)\n",
				est.Round(time.Second), len(docs), repeats, len(s.signSchemes), len(s.tlsModes))
		}
	}
	run := NewRun()
	// Correct before fast: a scheme whose known-answer test fails is not
	// measured.
	var passed []scheme.SignScheme
	for _, sc := range s.signSchemes {
		if err := sc.KAT(); err != nil {
			run.Errors = append(run.Errors, fmt.Sprintf("%s: known-answer test failed, not measured: %v", sc.Info().Name, err))
			continue
		}
		passed = append(passed, sc)
	}
	start := StartSession
	where := "in this process"
	if s.signer == "process" {
		start, where = StartProcessSession, "in its own process"
	}
	fmt.Fprintf(log, "remote-sign: generating keys for %d schemes (the signer runs %s)\n", len(passed), where)
	sess, err := start(passed)
	if err != nil {
		return nil, err
	}
	defer sess.Close()
	infos := map[string]*scheme.Info{}
	for _, sc := range s.signSchemes {
		infos[sc.Info().Name] = sc.Info()
	}
	cfg := Config{Schemes: passed, TLS: s.tlsModes, Docs: docs, Repeats: repeats, Link: env.Link, Log: log, afterRequest: s.afterRequest}
	sess.Run(ctx, cfg, func(c *Conn) {
		if errors.Is(c.Err, ErrInterrupted) && len(c.Requests) == 0 {
			return // cut short before any request: nothing measured
		}
		run.Results = append(run.Results, Result(c, infos[c.Scheme], linkName, repeats))
	})
	run.Finished = time.Now().UTC()
	for _, r := range run.Results {
		if r.Error != "" {
			run.Status = result.Failed
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

// DefaultDevice is the signer's device profile when none is named: S001's
// phone (3000 mAh, idle 139.7 mA, its signing currents per algorithm).
const DefaultDevice = "s001-phone"

// Pricing says how the run is priced (scenario.Priced): on S001's phone
// unless --device names another, with --on-device, --signer-speed and
// --calibrations as given, and the phone's signing currents shown beside.
func (s *Scenario) Pricing() scenario.Pricing {
	return scenario.Pricing{DefaultDevice: DefaultDevice, OnDevice: s.onDevice, Speed: s.speed, Calibrations: s.calibrations, References: "sign"}
}

// estimate is the time the link alone takes to carry the run's documents:
// a warning before a long run starts.
func estimate(env scenario.Env, schemes []scheme.SignScheme, modes []bool, docs []int, repeats int) time.Duration {
	p, err := env.Link.Params()
	if err != nil || p.RateUp <= 0 {
		return 0
	}
	total := 0
	for _, d := range docs {
		total += d
	}
	perRequest := 2 * p.Latency
	bits := float64(total*repeats*len(schemes)*len(modes)) * 8
	return time.Duration(bits/p.RateUp*1e9) + perRequest*time.Duration(len(docs)*repeats*len(schemes)*len(modes))
}
