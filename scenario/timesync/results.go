package timesync

import (
	"fmt"
	"strconv"

	"github.com/cryptocost/cryptocost/radio"
	"github.com/cryptocost/cryptocost/result"
)

// SubjectKind is the result kind of every scenario.
const SubjectKind = "scenario"

// Metric names (docs/scenario-timesync.md). Per node and interval unless
// said otherwise; the byte, packet, time and energy names are the
// secsywise model's outputs, so model/models/secsywise.yaml's measured: section binds them.
const (
	MetricVerifyTime     = "verify-time"              // ns per verification, this machine
	MetricVerifyCPU      = "verify-cpu"               // ns per verification, thread CPU
	MetricVerifications  = "verifications"            // per node and interval
	MetricMaxPerInterval = "verifications-max"        // the most in any node's interval, genuine and forged
	MetricMaxForged      = "forged-verifications-max" // the most failed ones in any node's interval (the defence: ≤ 1)
	MetricSignTime       = "sign-time"                // ns, the source
	MetricMessageBytes   = "message-bytes"            // B, one message's encoding
	MetricPayload        = "payload-bytes-received"   // B: UDP payloads
	MetricWire           = "bytes-received"           // B: + IPv4/UDP headers per fragment (link model)
	MetricPackets        = "packets-received"         // IPv4 fragments
	MetricFrames         = "frames-per-message"       // IEEE 802.15.4 frames of S003's TinyOS framing (102-byte payloads)
	MetricDeviation      = "clock-deviation"          // ns, |local − source| after each accepted sync
	MetricInitial        = "clock-deviation-initial"  // ns, before the first sync
	MetricAccepted       = "syncs-accepted"           // messages, all nodes
	MetricReplayed       = "replays-rejected"         // messages, all nodes, unverified
	MetricForged         = "forgeries-rejected"       // messages, all nodes, verification failed
	MetricSkipped        = "skipped-unverified"       // messages, all nodes: the interval's verification was spent
)

// The costing stage's names for what a node's interval costs on a device
// (package costing prices the result's work and traces): the
// verifications, the radio receiving, their sum, and one verification.
const (
	MetricEnergyVerify = "energy/verify"
	MetricEnergyRadio  = "energy/radio"
	MetricEnergy       = "energy"
	MetricDeviceTime   = "device-time"
)

// OpMetric names the costing stage's figure for one verification of
// scheme: "op-energy/SCHEME/verify", "op-device-time/SCHEME/verify".
func OpMetric(what, scheme string) string { return what + "/" + scheme + "/verify" }

// Name is the stable subject name: timesync/SUITE[/attack=A].
func Name(suite string, a Attack) string {
	if a == NoAttack || a == "" {
		return "timesync/" + suite
	}
	return "timesync/" + suite + "/attack=" + string(a)
}

// Account checks every node's bytes: the datagrams its link carried are
// exactly the messages sent to it (each of the encoding's length), and
// what was not lost on the link is what the node handled.
func (r *Result) Account() error {
	for i, n := range r.Nodes {
		n.mu.Lock()
		carried, carriedBytes, lost, lostBytes := 0, 0, 0, 0
		for _, d := range n.Datagrams {
			if d.Bytes != r.MessageBytes {
				n.mu.Unlock()
				return fmt.Errorf("node %d: a %d-byte datagram; every message is %d B", n.ID, d.Bytes, r.MessageBytes)
			}
			carried++
			carriedBytes += d.Bytes
			if d.Lost {
				lost++
				lostBytes += d.Bytes
			}
		}
		received, bytes := n.Received, n.Bytes
		n.mu.Unlock()
		if carried != r.SentCount[i] || carriedBytes != r.SentBytes[i] {
			return fmt.Errorf("node %d: its link carried %d datagrams (%d B); %d (%d B) were sent to it", n.ID, carried, carriedBytes, r.SentCount[i], r.SentBytes[i])
		}
		if received != carried-lost || bytes != carriedBytes-lostBytes {
			return fmt.Errorf("node %d: handled %d datagrams (%d B); its link delivered %d (%d B)", n.ID, received, bytes, carried-lost, carriedBytes-lostBytes)
		}
	}
	return nil
}

// Trace is node i's packet trace: what its radio received, at the times
// its emulated link delivered it; Payload is the UDP payload, so an
// 802.15.4 profile prices it under its own (6LoWPAN) headers.
func (r *Result) Trace(i int, linkName string) *result.Trace {
	n := r.Nodes[i]
	n.mu.Lock()
	defer n.mu.Unlock()
	t := &result.Trace{Link: linkName, Transport: result.TransportUDP, HeaderModel: "modelled UDP/IPv4: 28 B per datagram, 20 B more per further IPv4 fragment (link.Fragments); lost datagrams left out"}
	for _, d := range n.Datagrams {
		if d.Lost {
			continue
		}
		t.Packets = append(t.Packets, result.Packet{TimeNs: int64(d.Arrive), Dir: result.Down, Bytes: d.WireBytes, Payload: d.Bytes, Label: "sync message"})
	}
	return t
}

// ResultOf turns a run into the shared result model: one result per suite
// (and attack), its metrics per node and interval over all receivers, and
// the work and traffic the costing stage prices on a device: each node's
// verifications per interval and each node's received trace (one
// interval's share).
// modelled are the suites the secsywise model has a variant for.
var modelled = map[string]bool{"ECDSA-160": true, "ECDSA-224": true, "RSA-1024": true, "RSA-2048": true}

func ResultOf(r *Result, linkName string) result.Result {
	s := r.Suite
	params := map[string]string{"scenario": "timesync", "variant": s.Name, "receivers": strconv.Itoa(r.Receivers),
		"syncs": strconv.Itoa(r.Syncs), "interval": r.Interval.String(), "link": linkName, "attack": string(r.Attack)}
	if r.Attack == Flood {
		params["flood_size"] = strconv.Itoa(r.FloodSize)
	}
	for k, v := range s.Params {
		params[k] = v
	}
	res := result.Result{
		Subject: result.Subject{Kind: SubjectKind, Name: Name(s.Name, r.Attack), Scheme: s.Scheme, Provider: "go",
			Family: "sign", Operation: "verify", InputBytes: HeaderBytes, Params: params},
		Provenance: result.Provenance{Label: result.Measured, Method: result.Method{Name: "timesync",
			Timer: "monotonic wall clock (time.Now) and the receivers' thread CPU clocks", Samples: r.Syncs, Repetitions: r.Receivers, Stop: "fixed"}},
	}
	if modelled[s.Name] {
		// The secsywise model at its default point, priced on the run's
		// device by the costing stage, beside the measured run.
		res.Model = &result.ModelPoint{Name: "secsywise", Variant: s.Name, Metric: "model/energy", TimeMetric: "model/time"}
	}
	res.Provenance.Verified = s.Verified
	if s.Verified == "" {
		res.Provenance.Verified = "signatures made and verified by " + s.Scheme + " (its known-answer test)"
	}
	if s.Insecure {
		res.Warnings = append(res.Warnings, "INSECURE: "+s.Name+" is a benchmarking-only ECDSA on "+s.Params["curve"]+", variable-time and too small for use; it is here to compare with S003")
	}
	if r.Err != nil {
		res.Error = r.Err.Error()
		return res
	}
	if err := r.Account(); err != nil {
		res.Error = "byte accounting: " + err.Error()
		return res
	}
	var vt, vc, perInterval, payload, wire, packets, dev, initial []float64
	maxPer, maxForged := 0, 0
	totals := map[Outcome]int{}
	syncs := float64(r.Syncs)
	for _, n := range r.Nodes {
		n.mu.Lock()
		perWindow, forgedPerWindow := map[int64]int{}, map[int64]int{}
		for _, v := range n.Verifications {
			vt = append(vt, float64(v.Wall))
			if v.CPUKnown {
				vc = append(vc, float64(v.CPU))
			}
			perWindow[v.Window]++
			maxPer = max(maxPer, perWindow[v.Window])
			if !v.OK {
				forgedPerWindow[v.Window]++
				maxForged = max(maxForged, forgedPerWindow[v.Window])
			}
		}
		perInterval = append(perInterval, float64(len(n.Verifications))/syncs)
		pb, wb, pk := 0, 0, 0
		for _, d := range n.Datagrams {
			if !d.Lost {
				pb += d.Bytes
				wb += d.WireBytes
				pk += d.Fragments
			}
		}
		payload = append(payload, float64(pb)/syncs)
		wire = append(wire, float64(wb)/syncs)
		packets = append(packets, float64(pk)/syncs)
		for _, d := range n.Deviations {
			dev = append(dev, float64(d))
		}
		initial = append(initial, float64(n.Initial))
		for o, c := range n.Outcomes {
			totals[Outcome(o)] += c
		}
		n.mu.Unlock()
	}
	var signs []float64
	for _, d := range r.SignTimes {
		signs = append(signs, float64(d))
	}
	M, L := result.Measured, result.Lower
	add := func(name, unit string, label result.Label, method string, vs []float64) {
		if len(vs) == 0 {
			return
		}
		m := result.NewSampled(name, unit, L, label, vs)
		m.Method = method
		res.Metrics = append(res.Metrics, m)
	}
	scalar := func(name, unit string, label result.Label, method string, v float64) {
		m := result.NewScalar(name, unit, L, label, v)
		m.Method = method
		res.Metrics = append(res.Metrics, m)
	}
	add(MetricVerifyTime, "ns", M, "wall time of one signature verification at a receiver, on this machine", vt)
	add(MetricVerifyCPU, "ns", M, "the receiver's thread CPU time (CLOCK_THREAD_CPUTIME_ID, goroutine locked to its thread) for one verification", vc)
	add(MetricVerifications, "verifications", M, "signature verifications per node and interval (one sample per node)", perInterval)
	scalar(MetricMaxPerInterval, "verifications", M, "the most verifications any node made in one interval of its timer, genuine and forged (genuine messages cost one each)", float64(maxPer))
	scalar(MetricMaxForged, "verifications", M, "the most verifications of forged messages any node made in one interval of its timer: the flood defence allows 1", float64(maxForged))
	add(MetricSignTime, "ns", M, "the source's signing time per message", signs)
	scalar(MetricMessageBytes, "B", M, fmt.Sprintf("one message: %d B ID + timestamp + counter, %d B signature", HeaderBytes, s.SigBytes), float64(r.MessageBytes))
	add(MetricPayload, "B", M, "UDP payload bytes a node received per interval, as its link carried them (checked: the messages' encodings)", payload)
	add(MetricWire, "B", result.Modelled, "the same with the link model's IPv4/UDP headers (28 B, +20 B per further IPv4 fragment)", wire)
	add(MetricPackets, "packets", result.Modelled, "IPv4 fragments per node and interval on the link (MTU "+strconv.Itoa(mtu(r))+" B)", packets)
	if frames, method, err := s003Frames(r.MessageBytes); err == nil {
		scalar(MetricFrames, "frames", result.Modelled, method, float64(frames))
	} else {
		res.Warnings = append(res.Warnings, "no 802.15.4 frame count: "+err.Error())
	}
	add(MetricDeviation, "ns", M, "|receiver's simulated clock − source's clock| right after each accepted sync: the source's signing, sending and the link's delay (the clock is set to the timestamp at the message's arrival)", dev)
	add(MetricInitial, "ns", M, fmt.Sprintf("|clock offset| before the first sync: drawn uniformly in ±%v (drift ±%g ppm)", MaxOffset, MaxDrift*1e6), initial)
	scalar(MetricAccepted, "messages", M, "messages that verified and set a clock, all nodes", float64(totals[Accepted]))
	scalar(MetricReplayed, "messages", M, "dropped unverified: counter not newer than the last accepted (replays), all nodes", float64(totals[Replayed]))
	scalar(MetricForged, "messages", M, "verification failed (forged or tampered), all nodes", float64(totals[Forged]))
	scalar(MetricSkipped, "messages", M, "dropped unverified: the node had spent its one verification of the interval, all nodes", float64(totals[Skipped]))
	if totals[Malformed]+totals[Foreign] > 0 {
		scalar("malformed", "messages", M, "wrong length or another source's ID, all nodes", float64(totals[Malformed]+totals[Foreign]))
	}
	res.Trace = r.Trace(0, linkName)
	var mean float64
	for _, v := range perInterval {
		mean += v / float64(len(perInterval))
	}
	res.Work = []result.Work{{Party: "node", Component: "verify", Scheme: s.Scheme, Provider: "go", Operation: "verify",
		InputBytes: HeaderBytes, Count: mean, CountLabel: M,
		CountMethod: fmt.Sprintf("verifications per node and interval, the mean over %d receivers", len(perInterval)),
		HostNs:      vt, HostLabel: M, HostMethod: "wall time of one verification at a receiver, on this machine"}}
	tp := result.TracePart{Spans: syncs, Method: fmt.Sprintf("each node's received trace priced alone, over its %d intervals", r.Syncs)}
	for i := range r.Nodes {
		tp.Traces = append(tp.Traces, r.Trace(i, linkName))
	}
	res.TraceParts = []result.TracePart{tp}
	return res
}

// S003Radio is the radio profile of S003's own framing: TinyOS active
// messages on the TelosB's IEEE 802.15.4 radio, at most 102 B of payload
// per frame (S003: "max payload 102 bytes per packet").
const S003Radio = "ieee802154-telosb-tinyos"

// s003Frames is the number of 802.15.4 frames one message of n bytes takes
// in S003's framing, counted by package radio's frame model of S003Radio
// (the one its radio energy uses), and how.
func s003Frames(n int) (int, string, error) {
	p, err := radio.Lookup(S003Radio)
	if err != nil {
		return 0, "", err
	}
	m, ok := p.Model.(*radio.IEEE802154)
	if !ok {
		return 0, "", fmt.Errorf("radio %s is not IEEE 802.15.4", S003Radio)
	}
	return len(m.Frames(n)), fmt.Sprintf("IEEE 802.15.4 frames per message as S003 sent it: TinyOS active messages of at most 102 B payload each (radio profile %s), whatever --link", S003Radio), nil
}

func mtu(r *Result) int {
	if r.Link.MTU > 0 {
		return r.Link.MTU
	}
	return 1500
}
