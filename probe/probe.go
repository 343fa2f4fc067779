// Package probe profiles a TLS service as a battery-powered client sees it:
// which protocol versions and cipher suites it accepts and in which order,
// what a typical mobile client gets, its key exchange (TLS 1.3 groups
// including hybrid ML-KEM, TLS 1.2 curves, DHE prime sizes), its
// certificate chain and OCSP stapling, how often it resumes sessions, and
// what a full and a resumed handshake cost in bytes each way, round trips
// and time — S000's service table, for any TLS service, with today's
// protocol features.
//
// Two kinds of connection establish the findings. The probe's own
// ClientHellos (wire.go, built on cryptobyte) ask one question each and
// read the server's answer up to its ServerHelloDone: they can offer what
// no real client does (DHE, export suites, SSL 3.0, one group at a time,
// an empty key_share). Real clients — Go's crypto/tls, and zmap/zcrypto for
// DHE — complete handshakes to measure costs, read TLS 1.3's encrypted
// certificate chain (decrypted from the probe's tap with crypto/tls's key
// log) and test resumption. Every finding carries its Evidence: which
// ClientHello, which response.
//
// A server cannot hang the probe or exhaust its memory: each connection
// has a deadline, every read a size cap (Limits), connections run a few at
// a time, and the whole probe has a time limit.
package probe

import (
	"context"
	"errors"
	"fmt"
	"net"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/cryptocost/cryptocost/measure"
	"github.com/cryptocost/cryptocost/result"
)

// Options say what to probe and how hard.
type Options struct {
	// SNI is the server name to send (default: the target's host, unless
	// it is an IP address).
	SNI string
	// Tries is how many times each resumption mechanism is tried (default
	// 5, as sslyze does); it is also the number of measured full and
	// resumed handshakes.
	Tries int
	// Limits bound each connection (default DefaultLimits()).
	Limits Limits
	// Concurrency is how many connections may be open at once (default 5).
	Concurrency int
	// TimeLimit bounds the whole probe (default 2 minutes); when reached,
	// the report keeps what was found, with status interrupted.
	TimeLimit time.Duration
	// Suites restricts the suites offered (nil: every suite known); tests
	// use it to keep scans short.
	Suites []uint16
	// Versions restricts the versions tested (nil: all five).
	Versions []Version
	// TicketWait is how long to wait for a TLS 1.3 server's tickets after
	// a handshake (default 1 s).
	TicketWait time.Duration
	// Now is the clock certificates are checked against (default
	// time.Now).
	Now func() time.Time
}

// Validate checks the options before any connection is made, filling
// defaults.
func (o *Options) Validate() error {
	if o.Tries == 0 {
		o.Tries = 5
	}
	if o.Tries < 1 || o.Tries > 100 {
		return fmt.Errorf("tries %d: want 1 to 100 (5 is sslyze's default)", o.Tries)
	}
	if o.Limits == (Limits{}) {
		o.Limits = DefaultLimits()
	}
	def := DefaultLimits()
	if o.Limits.Timeout <= 0 {
		return fmt.Errorf("timeout %v: want a positive duration such as 10s", o.Limits.Timeout)
	}
	if o.Limits.MaxRecord == 0 {
		o.Limits.MaxRecord = def.MaxRecord
	}
	if o.Limits.MaxMessage == 0 {
		o.Limits.MaxMessage = def.MaxMessage
	}
	if o.Limits.MaxConnBytes == 0 {
		o.Limits.MaxConnBytes = def.MaxConnBytes
	}
	if o.Limits.MaxUseless == 0 {
		o.Limits.MaxUseless = def.MaxUseless
	}
	if o.Concurrency == 0 {
		o.Concurrency = 5
	}
	if o.Concurrency < 1 || o.Concurrency > 64 {
		return fmt.Errorf("concurrency %d: want 1 to 64", o.Concurrency)
	}
	if o.TimeLimit == 0 {
		o.TimeLimit = 2 * time.Minute
	}
	if o.TimeLimit < 0 {
		return fmt.Errorf("time limit %v: want a positive duration such as 2m", o.TimeLimit)
	}
	if o.TicketWait == 0 {
		o.TicketWait = time.Second
	}
	if o.Now == nil {
		o.Now = time.Now
	}
	return nil
}

// ParseTarget checks a HOST:PORT before any work.
func ParseTarget(target string) (host, port string, err error) {
	host, port, err = net.SplitHostPort(target)
	if err != nil {
		return "", "", fmt.Errorf("target %q: want HOST:PORT, such as example.com:443 or [::1]:8443", target)
	}
	if host == "" {
		return "", "", fmt.Errorf("target %q: no host: want HOST:PORT, such as example.com:443", target)
	}
	if _, err := net.LookupPort("tcp", port); err != nil {
		return "", "", fmt.Errorf("target %q: bad port %q: want a number such as 443", target, port)
	}
	return host, port, nil
}

// prober is one probe of one target.
type prober struct {
	target string
	host   string
	opts   Options
	limits Limits
	dialer *dialer
	report *Report

	mu       sync.Mutex
	errs     []string
	accepted map[Version]bool
	suiteSet map[Version][]uint16 // accepted suites per version, in the order found
	// share13 is the group a TLS 1.3 server asked for in a
	// HelloRetryRequest (0: it took X25519 at once).
	share13 uint16
	// the answers of the first TLS ≤ 1.2 suite hellos that read up to ServerHelloDone
	flights map[Version]*answer
}

// Probe profiles the TLS service at target (HOST:PORT). The error is for
// bad input only; what the server does — including not answering — is in
// the report (Status failed when it could not be reached at all).
func Probe(ctx context.Context, target string, opts Options) (*Report, error) {
	host, port, err := ParseTarget(target)
	if err != nil {
		return nil, err
	}
	if err := opts.Validate(); err != nil {
		return nil, err
	}
	if opts.SNI == "" && net.ParseIP(host) == nil {
		opts.SNI = host
	}
	p := &prober{target: target, host: host, opts: opts, limits: opts.Limits,
		accepted: map[Version]bool{}, suiteSet: map[Version][]uint16{}, flights: map[Version]*answer{}}
	p.report = &Report{Schema: ReportSchema, Target: target, SNI: opts.SNI, Status: result.Complete,
		Started: time.Now().UTC(), Settings: Settings{Tries: opts.Tries, TimeoutNs: opts.Limits.Timeout.Nanoseconds(),
			TimeLimitNs: opts.TimeLimit.Nanoseconds(), Concurrency: opts.Concurrency, MaxConnBytes: opts.Limits.MaxConnBytes}}
	for _, s := range opts.Suites {
		p.report.Settings.Suites = append(p.report.Settings.Suites, SuiteName(s))
	}
	for _, v := range opts.Versions {
		p.report.Settings.Versions = append(p.report.Settings.Versions, v.String())
	}
	run := measure.NewRun("probe")
	run.Started, run.ID = p.report.Started, result.NewID(p.report.Started)
	p.report.Run = run

	ctx, cancel := context.WithTimeoutCause(ctx, opts.TimeLimit, errTimeLimit)
	defer cancel()
	if addrs, err := net.DefaultResolver.LookupHost(ctx, host); err != nil {
		p.fail(fmt.Errorf("cannot resolve %s: %w", host, err))
	} else {
		// Every connection goes to the same address, so a name that
		// resolves to several servers does not mix their answers.
		p.report.Address = pickAddress(ctx, addrs, port, opts.Limits.Timeout)
		p.dialer = newDialer(p.report.Address, opts.Limits, opts.Concurrency)
		p.run(ctx)
	}
	p.finish(ctx)
	return p.report, nil
}

var errTimeLimit = errors.New("the probe's time limit was reached")

// pickAddress returns the first of a name's addresses that accepts a TCP
// connection ("localhost" may resolve to ::1 first while the server
// listens on 127.0.0.1 only), or the first address if none does: its
// connection errors then say why.
func pickAddress(ctx context.Context, addrs []string, port string, timeout time.Duration) string {
	var d net.Dialer
	for _, a := range addrs {
		addr := net.JoinHostPort(a, port)
		dctx, cancel := context.WithTimeout(ctx, timeout)
		c, err := d.DialContext(dctx, "tcp", addr)
		cancel()
		if err == nil {
			c.Close()
			return addr
		}
	}
	return net.JoinHostPort(addrs[0], port)
}

func (p *prober) run(ctx context.Context) {
	p.versions(ctx)
	if !p.anyAccepted() {
		if len(p.errs) == 0 {
			p.fail(fmt.Errorf("the server accepted none of the versions tried: %s", p.versionAnswers()))
		}
		return
	}
	parallel(
		func() { p.suites(ctx) },
		func() { p.groups13(ctx) },
		func() { p.s000Client(ctx) },
	)
	parallel(
		func() { p.curves12(ctx) },
		func() { p.dhe(ctx) },
		func() { p.rsaExport(ctx) },
		func() { p.costs(ctx) },
	)
	p.chainFromFlight()
}

// parallel runs fs at once and waits for all.
func parallel(fs ...func()) {
	var wg sync.WaitGroup
	for _, f := range fs {
		wg.Go(f)
	}
	wg.Wait()
}

func (p *prober) finish(ctx context.Context) {
	p.report.Finished = time.Now().UTC()
	if p.dialer != nil {
		p.report.Connections, p.report.MostBytesRead = p.dialer.count, p.dialer.most
	}
	p.report.Errors = p.errs
	// A connection deadline set to the time limit can fire a moment before
	// the context's own timer: past the deadline is the time limit too.
	dl, _ := ctx.Deadline()
	if cause := context.Cause(ctx); ctx.Err() != nil || !time.Now().Before(dl) {
		switch {
		case errors.Is(cause, errTimeLimit), cause == nil:
			p.report.Status = result.Interrupted
			p.report.Errors = append(p.report.Errors, fmt.Sprintf("stopped at the %v time limit: the findings so far are kept", p.opts.TimeLimit))
		case errors.Is(cause, context.Canceled):
			p.report.Status = result.Interrupted
			p.report.Errors = append(p.report.Errors, "interrupted: the findings so far are kept")
		}
	}
	run := p.report.Run
	run.Finished = p.report.Finished
	run.Status = p.report.Status
	if p.report.Status == result.Failed {
		run.Errors = p.errs
	}
}

// versionAnswers says what the version hellos got: one answer when they
// all got the same (a reset, a close, a timeout, an alert), else each.
func (p *prober) versionAnswers() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	var parts, distinct []string
	for _, f := range p.report.Versions {
		if !f.Tested {
			continue
		}
		parts = append(parts, f.Version.String()+": "+f.Evidence.Response)
		if !slices.Contains(distinct, f.Evidence.Response) {
			distinct = append(distinct, f.Evidence.Response)
		}
	}
	switch {
	case len(parts) == 0:
		return "no version was tested"
	case len(distinct) == 1 && len(parts) > 1:
		return "every hello got " + distinct[0]
	}
	return strings.Join(parts, "; ")
}

func (p *prober) fail(err error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.errs = append(p.errs, err.Error())
	p.report.Status = result.Failed
}

func (p *prober) note(format string, args ...any) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.errs = append(p.errs, fmt.Sprintf(format, args...))
}

func (p *prober) serverName() string { return p.opts.SNI }

func (p *prober) anyAccepted() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return len(p.accepted) > 0
}

// highest12 is the highest accepted version from TLS 1.0 to 1.2 (0:
// none). SSL 3.0 is detected and its suites listed, but nothing else is
// asked or measured in it: no client should use it (RFC 7568).
func (p *prober) highest12() Version {
	p.mu.Lock()
	defer p.mu.Unlock()
	best := Version(0)
	for v := range p.accepted {
		if v < TLS13 && v > best && v >= TLS10 {
			best = v
		}
	}
	return best
}

func (p *prober) isAccepted(v Version) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.accepted[v]
}

func (p *prober) acceptedSuites(v Version) []uint16 {
	p.mu.Lock()
	defer p.mu.Unlock()
	return slices.Clone(p.suiteSet[v])
}

// offerable is the suites the probe may offer in v, honouring
// Options.Suites.
func (p *prober) offerable(v Version) []uint16 {
	var ids []uint16
	for _, s := range suites {
		if s.Usable(v) && (p.opts.Suites == nil || slices.Contains(p.opts.Suites, s.ID)) {
			ids = append(ids, s.ID)
		}
	}
	return ids
}

func (p *prober) tested(v Version) bool {
	return p.opts.Versions == nil || slices.Contains(p.opts.Versions, v)
}
