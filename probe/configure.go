package probe

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"
)

// Configure reads what a command line chose into o and checks it before
// any connection: the targets (HOST:PORT), the suites (IANA names or
// code points) and versions offered, the tries and concurrency (where the
// library reads 0 as its default, a command line's 0 is a mistake), and
// each connection's timeout.
func (o *Options) Configure(targets, suites, versions []string, timeout time.Duration) error {
	for _, a := range targets {
		if _, _, err := ParseTarget(a); err != nil {
			return err
		}
	}
	if o.SNI != "" && len(targets) > 1 {
		return errors.New("--sni names one server: use it with one target, not --compare")
	}
	for _, s := range suites {
		suite, err := LookupSuite(s)
		if err != nil {
			return err
		}
		o.Suites = append(o.Suites, suite.ID)
	}
	for _, s := range versions {
		v, err := ParseVersion(s)
		if err != nil {
			return err
		}
		o.Versions = append(o.Versions, v)
	}
	if o.Tries < 1 || o.Tries > 100 {
		return fmt.Errorf("--tries %d: want 1 to 100 (5 is sslyze's default)", o.Tries)
	}
	if o.Concurrency < 1 || o.Concurrency > 64 {
		return fmt.Errorf("--concurrency %d: want 1 to 64 connections open at once (default 5)", o.Concurrency)
	}
	o.Limits = DefaultLimits()
	o.Limits.Timeout = timeout
	return o.Validate()
}

// ProbeAll probes every target at once (each within o's limits), in the
// targets' order.
func ProbeAll(ctx context.Context, targets []string, o Options) ([]*Report, error) {
	reports := make([]*Report, len(targets))
	errs := make([]error, len(targets))
	var wg sync.WaitGroup
	for i, target := range targets {
		wg.Go(func() { reports[i], errs[i] = Probe(ctx, target, o) })
	}
	wg.Wait()
	return reports, errors.Join(errs...)
}
