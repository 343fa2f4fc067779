package timesync

import (
	"context"
	"crypto/rand"
	"fmt"
	mrand "math/rand/v2"
	"net"
	"sync"
	"time"

	"github.com/cryptocost/cryptocost/link"
)

// Attack is a fixture an attacker runs against the receivers.
type Attack string

const (
	// NoAttack: only the source sends.
	NoAttack Attack = "none"
	// Flood: in every second interval, just before the source's message,
	// the attacker sends FloodSize forged messages (the source's ID, a
	// fresh timestamp, newer counters, random signatures). A receiver
	// spends that interval's one verification on the first and drops the
	// rest — the genuine message included: the flood costs a sync, not
	// battery.
	Flood Attack = "flood"
	// Replay: the attacker resends each genuine message right after it
	// and again in the next interval before the new one. Receivers drop
	// both by counter, without verifying.
	Replay Attack = "replay"
)

// Attacks lists the fixtures.
var Attacks = []Attack{NoAttack, Flood, Replay}

// Config is one synchronisation run with one signature suite.
type Config struct {
	Suite     Suite
	Receivers int
	Syncs     int
	Interval  time.Duration
	// Link is each receiver's emulated downlink (zero Params: no delays;
	// the datagrams are still observed).
	Link      link.Params
	Attack    Attack
	FloodSize int
	// SourceID is the source's node ID (S003's base station).
	SourceID uint16
	// Seed makes the receivers' clock offsets and drifts reproducible.
	Seed uint64
	// Time, if set, replaces the real clock for the source's schedule and
	// the receivers' timers: tests give a clock that moves only when the
	// source waits for its next interval. The run is then lock-step: the
	// receivers handle each interval's datagrams before the clock moves
	// on, so what an interval holds does not depend on how busy the host
	// is. The emulated link keeps real time: give such a run no link
	// delays. nil: the real clock.
	Time TimeSource
	// OnInterval, if set, is called after each interval's messages are
	// sent, with the number of intervals sent so far (progress).
	OnInterval func(sent int)
}

// TimeSource is a run's clock (Config.Time).
type TimeSource interface {
	Now() time.Time
	// SleepUntil returns when the clock reads t, or false if ctx ends
	// first.
	SleepUntil(ctx context.Context, t time.Time) bool
}

// realTime is the wall clock.
type realTime struct{}

func (realTime) Now() time.Time { return time.Now() }

func (realTime) SleepUntil(ctx context.Context, t time.Time) bool {
	d := time.Until(t)
	if d <= 0 {
		return ctx.Err() == nil
	}
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-timer.C:
		return true
	case <-ctx.Done():
		return false
	}
}

// Clock errors of the receivers before synchronisation: offsets uniform
// in ±MaxOffset, drifts in ±MaxDrift. 50 ppm is the order of a watch
// crystal's tolerance over temperature (the TelosB's 32.768 kHz crystal;
// an assumption, not a figure of S003's), which moves a clock 10 µs per
// 200 ms interval, far below the delays the deviation measures.
const (
	MaxOffset = 500 * time.Millisecond
	MaxDrift  = 50e-6
)

// Result is what one run measured.
type Result struct {
	Config
	Nodes []*Node
	// SignTimes are the source's signing times, one per interval.
	SignTimes []time.Duration
	// MessageBytes is the encoding's length: HeaderBytes + SigBytes.
	MessageBytes int
	// SentCount and SentBytes are what the source and the attacker sent
	// to each node.
	SentCount, SentBytes []int
	Start                time.Time
	Err                  error
	// Interrupted says ctx ended the run early: Syncs is then the number
	// of intervals completed, and what they measured is kept.
	Interrupted bool
}

// Run runs the source, the receivers and the attacker, one interval after
// another, and waits for every receiver to have handled what was sent (or
// lost on its link). On ctx's end it stops and returns what it measured,
// with Err set.
func Run(ctx context.Context, cfg Config) *Result {
	res := &Result{Config: cfg, MessageBytes: HeaderBytes + cfg.Suite.SigBytes,
		SentCount: make([]int, cfg.Receivers), SentBytes: make([]int, cfg.Receivers)}
	key, err := cfg.Suite.NewKey()
	if err != nil {
		res.Err = fmt.Errorf("%s: key: %w", cfg.Suite.Name, err)
		return res
	}
	rng := mrand.New(mrand.NewPCG(cfg.Seed, 3))
	clock := cfg.Time
	if clock == nil {
		clock = realTime{}
	}
	res.Start = clock.Now()
	linkStart := res.Start
	if cfg.Time != nil {
		linkStart = time.Now() // the link emulator runs on real time
	}
	nctx, stop := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	var addrs []net.Addr
	defer func() {
		stop()
		for _, n := range res.Nodes {
			n.conn.Close()
		}
		wg.Wait()
	}()
	for i := range cfg.Receivers {
		pc, err := net.ListenPacket("udp4", "127.0.0.1:0")
		if err != nil {
			res.Err = fmt.Errorf("receiver %d: %w", i+1, err)
			return res
		}
		n := &Node{ID: i + 1, SourceID: cfg.SourceID, Suite: cfg.Suite, Key: key, Interval: cfg.Interval, Now: clock.Now,
			Clock: Clock{Start: res.Start,
				Offset: time.Duration((rng.Float64()*2 - 1) * float64(MaxOffset)),
				Drift:  (rng.Float64()*2 - 1) * MaxDrift}}
		n.Initial = absDur(n.Clock.Offset)
		n.conn = link.WrapPacket(pc, link.PacketConfig{Params: cfg.Link, Observer: n.observe, Seed: cfg.Seed + uint64(i), Start: linkStart})
		addrs = append(addrs, pc.LocalAddr())
		res.Nodes = append(res.Nodes, n)
		wg.Add(1)
		go func() { defer wg.Done(); n.Serve(nctx) }()
	}
	src, err := net.ListenPacket("udp4", "127.0.0.1:0")
	if err != nil {
		res.Err = err
		return res
	}
	defer src.Close()
	evil, err := net.ListenPacket("udp4", "127.0.0.1:0")
	if err != nil {
		res.Err = err
		return res
	}
	defer evil.Close()
	send := func(pc net.PacketConn, b []byte) {
		for i, a := range addrs {
			if _, err := pc.WriteTo(b, a); err == nil {
				res.SentCount[i]++
				res.SentBytes[i] += len(b)
			}
		}
	}
	var prev []byte
	for k := range cfg.Syncs {
		// The source sends a tenth into its interval, so the flood before
		// it, the link's delay and the scheduling jitter of a loaded
		// machine stay inside the receivers' interval (linkRoom checks
		// the link leaves room).
		at := res.Start.Add(time.Duration(k)*cfg.Interval + cfg.Interval/10)
		if cfg.Time != nil {
			res.wait(ctx) // lock-step: the last interval handled first
		}
		if !clock.SleepUntil(ctx, at) {
			res.Interrupted, res.Syncs = true, k
			break
		}
		counter := uint32(k + 1)
		switch {
		case cfg.Attack == Flood && k%2 == 1:
			for j := range cfg.FloodSize {
				forged := Message{NodeID: cfg.SourceID, Timestamp: uint32(clock.Now().Sub(res.Start).Microseconds()),
					Counter: counter + uint32(j), Signature: make([]byte, cfg.Suite.SigBytes)}
				rand.Read(forged.Signature)
				send(evil, forged.Marshal())
			}
		case cfg.Attack == Replay && prev != nil:
			send(evil, prev)
		}
		m := Message{NodeID: cfg.SourceID, Timestamp: uint32(clock.Now().Sub(res.Start).Microseconds()), Counter: counter}
		t0 := time.Now()
		sig, err := key.Sign(m.Signed())
		res.SignTimes = append(res.SignTimes, time.Since(t0))
		if err != nil {
			res.Err = fmt.Errorf("%s: signing: %w", cfg.Suite.Name, err)
			break
		}
		if len(sig) != cfg.Suite.SigBytes {
			res.Err = fmt.Errorf("%s: a %d-byte signature, the suite carries %d", cfg.Suite.Name, len(sig), cfg.Suite.SigBytes)
			break
		}
		m.Signature = sig
		b := m.Marshal()
		send(src, b)
		if cfg.Attack == Replay {
			send(evil, b)
		}
		prev = b
		if cfg.OnInterval != nil {
			cfg.OnInterval(k + 1)
		}
	}
	// Let the receivers handle what was sent, even after an interrupt
	// (bounded by wait's grace period).
	res.wait(context.Background())
	return res
}

// wait returns when every node has handled all that was sent to it and
// its link did not lose, or after a grace period. Handled means to the end
// (an outcome counted), so in a lock-step run no node still verifying sees
// the clock move.
func (r *Result) wait(ctx context.Context) {
	deadline := time.Now().Add(r.Interval + 5*time.Second)
	for time.Now().Before(deadline) && ctx.Err() == nil {
		done := true
		for i, n := range r.Nodes {
			_, outcomes := n.Snapshot()
			got := 0 // handled to the end, not only read
			for _, c := range outcomes {
				got += c
			}
			n.mu.Lock()
			lost := 0
			for _, d := range n.Datagrams {
				if d.Lost {
					lost++
				}
			}
			n.mu.Unlock()
			if got+lost < r.SentCount[i] {
				done = false
			}
		}
		if done {
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
}
