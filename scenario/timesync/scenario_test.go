package timesync

import (
	"bytes"
	"context"
	"math"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/cryptocost/cryptocost/internal/testtier"
	"github.com/cryptocost/cryptocost/link"
	"github.com/cryptocost/cryptocost/model"
	"github.com/cryptocost/cryptocost/result"
	"github.com/cryptocost/cryptocost/scenario"
	"github.com/spf13/pflag"
)

func metric(t *testing.T, r result.Result, name string) float64 {
	t.Helper()
	m := r.Metric(name)
	if m == nil {
		t.Fatalf("%s has no %s (warnings %v, error %q)", r.Subject.Name, name, r.Warnings, r.Error)
	}
	return m.Summary.Median
}

// steppedClock is a run's clock that moves only when the source waits for
// its next interval (timesync.Config.Time): the run is lock-step, so what
// each interval holds is the same on a quiet and on a loaded host.
type steppedClock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *steppedClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *steppedClock) SleepUntil(ctx context.Context, t time.Time) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if t.After(c.now) {
		c.now = t
	}
	return ctx.Err() == nil
}

// The attack fixtures end to end over UDP on loopback, lock-step on a
// stepped clock: forged messages are never accepted and cost at most one
// verification per interval, replays cost none, and the genuine messages
// still set the clocks. Fast tier (a second of real time).
func TestAttackFixtures(t *testing.T) {
	su, _ := LookupSuite("ECDSA-P256")
	const nodes, syncs, flood = 3, 4, 3
	for _, tc := range []struct {
		attack                                      Attack
		accepted, forged, skipped, replayed, verifs int
	}{
		{NoAttack, nodes * syncs, 0, 0, 0, nodes * syncs},
		// Intervals 1 and 3 are flooded: one failed verification each,
		// the other forgeries and the genuine message dropped unverified.
		{Flood, nodes * 2, nodes * 2, nodes * 2 * flood, 0, nodes * syncs},
		// Each message is resent at once, and again before the next one.
		{Replay, nodes * syncs, 0, 0, nodes * (syncs + syncs - 1), nodes * syncs},
	} {
		t.Run(string(tc.attack), func(t *testing.T) {
			clock := &steppedClock{now: time.Unix(3_000_000, 0)}
			r := Run(context.Background(), Config{Suite: su, Receivers: nodes, Syncs: syncs, Interval: 200 * time.Millisecond,
				Attack: tc.attack, FloodSize: flood, SourceID: 1, Seed: 9, Time: clock})
			if r.Err != nil {
				t.Fatal(r.Err)
			}
			res := ResultOf(r, "loopback")
			if res.Error != "" {
				t.Fatal(res.Error)
			}
			for name, want := range map[string]int{MetricAccepted: tc.accepted, MetricForged: tc.forged,
				MetricSkipped: tc.skipped, MetricReplayed: tc.replayed} {
				if got := metric(t, res, name); got != float64(want) {
					t.Errorf("%s = %v, want %d", name, got, want)
				}
			}
			verifs := 0
			for _, n := range r.Nodes {
				verifs += len(n.Verifications)
				if len(n.Deviations) == 0 {
					t.Errorf("node %d never synchronised", n.ID)
				}
			}
			if verifs != tc.verifs || metric(t, res, MetricMaxPerInterval) != 1 {
				t.Errorf("%d verifications (want %d), at most %v in an interval (want 1)", verifs, tc.verifs, metric(t, res, MetricMaxPerInterval))
			}
			if got, want := metric(t, res, MetricMaxForged), float64(min(tc.forged, 1)); got != want {
				t.Errorf("at most %v forged messages verified in an interval, want %v", got, want)
			}
			// After sync a clock is off by the message's delay: none on a
			// clock that stood still from stamping to arrival (the ±500 ms
			// offsets and the drift are gone).
			if d := metric(t, res, MetricDeviation); d != 0 {
				t.Errorf("deviation after sync %v ns, want 0", d)
			}
			if metric(t, res, MetricInitial) == 0 {
				t.Error("no clock offset before the first sync")
			}
			// The bytes a node received are the messages sent to it.
			sent := (r.SentBytes[0]) / syncs
			if got := metric(t, res, MetricPayload); got != float64(sent) && tc.attack == NoAttack {
				t.Errorf("payload per interval %v, sent %d", got, sent)
			}
			r.SentBytes[0]++
			if r.Account() == nil {
				t.Error("the accounting misses a byte")
			}
		})
	}
}

// The scenario over an emulated IEEE 802.15.4 link priced on the TelosB,
// beside the secsywise model: the payload a receiver gets per interval is
// the model's exactly for RSA (ID, timestamp, counter, signature), 2 B
// more for ECDSA-160, whose 161-bit order needs 21-byte r and s.
//
// Full tier: real time over an emulated link, RSA-2048 keys.
func TestSecSyWiSe(t *testing.T) {
	testtier.Slow(t, "real-time run over an emulated 802.15.4 link")
	s := &Scenario{}
	fs := pflag.NewFlagSet("timesync", pflag.ContinueOnError)
	s.Flags(fs)
	if err := fs.Parse([]string{"--schemes", "RSA-1024,RSA-2048,ECDSA-160", "--receivers", "2", "--syncs", "3", "--interval", "150ms"}); err != nil {
		t.Fatal(err)
	}
	if err := s.Validate(); err != nil {
		t.Fatal(err)
	}
	lp, _ := link.Lookup("802.15.4")
	run, err := s.Run(context.Background(), scenario.Env{Link: &lp})
	if err != nil {
		t.Fatal(err)
	}
	if run.Status != result.Complete || run.Validate() != nil {
		t.Fatalf("%s: %v", run.Status, run.Errors)
	}
	for _, r := range run.Results {
		if r.Trace == nil || len(r.Trace.Packets) != 3 {
			t.Errorf("%s: trace %v", r.Subject.Name, r.Trace)
		}
		// The work the costing stage prices (costing's tests price it on
		// the TelosB): one verification per node and interval, and each
		// node's received trace.
		if len(r.Work) != 1 || r.Work[0].Operation != "verify" || math.Abs(r.Work[0].Count-1) > 1e-9 {
			t.Errorf("%s: work %+v, want one verification per interval", r.Subject.Name, r.Work)
		}
		if len(r.TraceParts) != 1 || len(r.TraceParts[0].Traces) != 2 || r.TraceParts[0].Spans != 3 {
			t.Errorf("%s: trace parts %+v, want the 2 nodes' traces over 3 intervals", r.Subject.Name, r.TraceParts)
		}
		// S003's framing: TinyOS frames of at most 102 B of payload.
		if got, want := metric(t, r, MetricFrames), map[string]float64{"timesync/RSA-1024": 2, "timesync/RSA-2048": 3, "timesync/ECDSA-160": 1}[r.Subject.Name]; got != want {
			t.Errorf("%s: %v 802.15.4 frames per message, want %v (102-byte payloads)", r.Subject.Name, got, want)
		}
	}

	m, err := model.Open("secsywise") // its measured: section binds this scenario's results
	if err != nil {
		t.Fatal(err)
	}
	tab, err := model.OpenCosts("telosb")
	if err != nil {
		t.Fatal(err)
	}
	plan, err := model.NewPlan(m, tab.Costs(), model.Options{})
	if err != nil {
		t.Fatal(err)
	}
	rows, err := plan.CompareMeasured(context.Background(), []*result.Run{run})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]float64{
		"secsywise/RSA-1024 payload-bytes-received":  138,
		"secsywise/RSA-2048 payload-bytes-received":  266,
		"secsywise/ECDSA-160 payload-bytes-received": 52,
	}
	for _, row := range rows {
		key := row.Subject + " " + row.Output
		if w, ok := want[key]; ok {
			if row.Measured != w {
				t.Errorf("%s measured %v, want %v", key, row.Measured, w)
			}
			if strings.HasPrefix(row.Subject, "secsywise/RSA") && row.ErrorPct != 0 {
				t.Errorf("%s: the model's %v B differ from the run's %v", key, row.Modelled, row.Measured)
			}
			delete(want, key)
		}
	}
	if len(want) > 0 {
		t.Errorf("rows missing: %v (got %d rows)", want, len(rows))
	}
	var table bytes.Buffer
	if err := WriteTable(&table, run); err != nil {
		t.Fatal(err)
	}
	for _, wantText := range []string{"timesync (S003)", "RSA-1024", "ECDSA-160", "INSECURE", "secsywise", "802.15.4 FRAMES"} {
		if !strings.Contains(table.String(), wantText) {
			t.Errorf("the table lacks %q:\n%s", wantText, table.String())
		}
	}
}

// Bad flags and links are refused before any work.
func TestValidateRejects(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--schemes", "ECDSA-224"}, "unknown signature \"ECDSA-224\""},
		{[]string{"--attack", "dos"}, "--attack \"dos\""},
		{[]string{"--receivers", "0"}, "--receivers 0"},
		{[]string{"--syncs", "0"}, "--syncs 0"},
		{[]string{"--interval", "1ms"}, "--interval 1ms"},
		{[]string{"--flood-size", "0"}, "--flood-size 0"},
	} {
		s := &Scenario{}
		fs := pflag.NewFlagSet("x", pflag.ContinueOnError)
		s.Flags(fs)
		if err := fs.Parse(tc.args); err != nil {
			t.Fatal(err)
		}
		if err := s.Validate(); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%v: got %v, want %q", tc.args, err, tc.want)
		}
	}
	su, _ := LookupSuite("RSA-2048")
	lp, _ := link.Lookup("802.15.4")
	p, _ := lp.Params()
	if err := linkRoom(p, 100*time.Millisecond, su, 6); err == nil || !strings.Contains(err.Error(), "too short") {
		t.Errorf("a flood of RSA-2048 messages over 802.15.4 in 100 ms: %v", err)
	}
}
