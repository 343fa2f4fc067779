package tlslab

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/cryptocost/cryptocost/link"
	"github.com/cryptocost/cryptocost/measure"
	"github.com/cryptocost/cryptocost/result"
)

// Metric names the lab emits (docs/tls.md lists them with their units;
// the energy, radio, model and report packages read them by these names).
const (
	MetricHandshakeTime      = "handshake-time"        // ns, SYN → both Finished, client's view (tap)
	MetricHandshakeClient    = "handshake-time-client" // ns, the Go client's own clock: dial → Handshake returned
	MetricConnectionTime     = "connection-time"       // ns, SYN → last payload byte received (or handshake done)
	MetricThroughput         = "throughput"            // MB/s, payload / connection-time (S000's definition)
	MetricTransferThroughput = "transfer-throughput"   // MB/s, payload / (connection-time − handshake-time)
	MetricCPUClient          = "cpu-time-client"       // ns
	MetricCPUServer          = "cpu-time-server"       // ns
	MetricCPUShareClient     = "cpu-share-client"      // %, CPU time / connection wall time
	MetricCPUShareServer     = "cpu-share-server"      // %
	MetricBytesUp            = "bytes-up"              // B, all TLS records client → server (plain TCP: payload)
	MetricBytesDown          = "bytes-down"            // B
	MetricHandshakeBytesUp   = "handshake-bytes-up"    // B, handshake and ChangeCipherSpec records
	MetricHandshakeBytesDown = "handshake-bytes-down"  // B
	MetricRecordsUp          = "records-up"            // count
	MetricRecordsDown        = "records-down"          // count
	MetricPayload            = "payload-bytes"         // B, application data moved
	MetricOverheadBytes      = "overhead-bytes"        // B, bytes-up + bytes-down − payload (S000)
	MetricOverhead           = "overhead"              // %, overhead-bytes / payload
	MetricFlights            = "flights"               // count
	MetricRoundTrips         = "round-trips"           // count, server flights before the client could send data
	MetricWireBytesUp        = "wire-bytes-up"         // B, modelled: with TCP/IPv4 headers, SYN…FIN
	MetricWireBytesDown      = "wire-bytes-down"       // B, modelled
	MetricPacketsUp          = "packets-up"            // count, modelled
	MetricPacketsDown        = "packets-down"          // count, modelled
	MetricWireOverheadBytes  = "wire-overhead-bytes"   // B, modelled: wire bytes − payload
	MetricWireOverhead       = "wire-overhead"         // %, modelled
	MetricKeyShareUp         = "key-share-bytes-up"    // B, TLS 1.3: the first ClientHello's key_share extension
	MetricKeyShareDown       = "key-share-bytes-down"  // B, TLS 1.3: the ServerHello's key_share extension
	// Per message: "bytes-up/ClientHello", "bytes-down/Certificate", ...
	// and the client's view of each step: "t-sent/ClientHello",
	// "t-received/ServerHello" (ns from SYN; a repeated name gets "#2").
	PrefixBytesUp    = "bytes-up/"
	PrefixBytesDown  = "bytes-down/"
	PrefixTimeSent   = "t-sent/"
	PrefixTimeRecvd  = "t-received/"
	MetricEnergy     = "energy" // J, priced: "energy/asymmetric", "energy/radio", ...
	SubjectKindTLS   = "tls"
	timeMethodTapped = "client's view from the wire tap at the emulated link: time from the client's SYN; " +
		"the link emulator delays each segment by serialisation and latency"
)

// NewRun starts a result.Run of kind "tls" with the environment captured.
func NewRun() *result.Run {
	return measure.NewRun("tls")
}

// sampler collects one value per connection under a metric name.
type sampler struct {
	order  []string
	values map[string][]float64
	meta   map[string]result.Metric
}

func newSampler() *sampler {
	return &sampler{values: map[string][]float64{}, meta: map[string]result.Metric{}}
}

func (s *sampler) add(name, unit string, better result.Better, label result.Label, method string, v float64) {
	if _, ok := s.meta[name]; !ok {
		s.order = append(s.order, name)
		s.meta[name] = result.Metric{Name: name, Unit: unit, Better: better, Label: label, Method: method}
	}
	s.values[name] = append(s.values[name], v)
}

func (s *sampler) metrics() []result.Metric {
	var out []result.Metric
	for _, name := range s.order {
		m := s.meta[name]
		vs := s.values[name]
		full := result.NewSampled(m.Name, m.Unit, m.Better, m.Label, vs)
		full.Method = m.Method
		if allEqual(vs) {
			// An exact count (bytes, flights): one value, no spread.
			full = result.NewScalar(m.Name, m.Unit, m.Better, m.Label, vs[0])
			full.Method = m.Method
			full.Samples = vs
			full.Summary.N = len(vs)
		}
		out = append(out, full)
	}
	return out
}

func allEqual(vs []float64) bool {
	for _, v := range vs {
		if v != vs[0] {
			return false
		}
	}
	return len(vs) > 0
}

// Result converts a cell's run into a result (Subject kind "tls"), with
// the first measured connection's packet trace attached, the client's CPU
// split on this machine, and what the costing stage prices on a device:
// the client's work by component (ClientWork) and every connection's
// packet trace (one connection each).
func (l *Lab) Result(run *CellRun) result.Result {
	c := run.Cell
	r := result.Result{Subject: subject(c, l.LinkName())}
	r.Provenance = result.Provenance{Label: result.Measured, Method: result.Method{
		Name: "tls-lab", Timer: "monotonic wall clock (time.Now) through the link emulator; CPU clocks per side",
		Samples: len(run.Conns), Stop: "fixed"}}
	if run.Err != nil {
		r.Error = run.Err.Error()
		if len(run.Conns) == 0 {
			return r
		}
		r.Warnings = append(r.Warnings, fmt.Sprintf("only %d connections measured before the error", len(run.Conns)))
	}
	if len(run.Conns) == 0 {
		r.Error = "no connection measured"
		return r
	}
	s := newSampler()
	for _, conn := range run.Conns {
		l.sample(s, c, conn)
	}
	r.Metrics = s.metrics()
	if len(run.Conns) < 6 {
		r.Warnings = append(r.Warnings, fmt.Sprintf("fewer than 6 connections (%d): times have no confidence interval (--repeat)", len(run.Conns)))
	}
	first := run.Conns[0]
	r.Trace = link.TraceOf(first.Packets, l.LinkName(), packetLabeler(first))
	if a := first.Analysis; a != nil {
		for _, n := range a.Notes {
			r.Warnings = append(r.Warnings, "wire tap: "+n)
		}
	}
	if l.passive {
		r.Warnings = append(r.Warnings, "loopback without link emulation: times are this machine's, with no network delay")
	}
	r.Metrics = append(r.Metrics, hostSplitMetrics(run)...)
	r.Work = ClientWork(c, first)
	tp := result.TracePart{Method: "each connection's trace priced alone, the mean per connection"}
	for _, conn := range run.Conns {
		tp.Traces = append(tp.Traces, traceOf(l, conn))
	}
	r.TraceParts = []result.TracePart{tp}
	r.Error = strings.TrimSpace(r.Error)
	return r
}

func subject(c Cell, linkName string) result.Subject {
	s := result.Subject{Kind: SubjectKindTLS, Name: c.Name(), Params: c.Params()}
	s.Params["link"] = linkName
	if c.Plain {
		s.Scheme, s.Provider, s.Family = "TCP", "go", "tcp"
	} else {
		suite, _ := c.Suite()
		s.Scheme, s.Provider, s.Family = suite.Name, c.Server+"/"+c.Client, "tls"
	}
	s.Operation = "handshake"
	if c.Transfer > 0 {
		s.Operation = "transfer-" + string(c.Direction)
	}
	return s
}

// sample adds one connection's values.
func (l *Lab) sample(s *sampler, c Cell, conn *Conn) {
	const exact = "counted from the wire tap's byte streams (equal to the kernel's TCP_INFO counters, checked per connection)"
	ms := func(d time.Duration) float64 { return float64(d) }
	wall := conn.Wall
	hsDone := time.Duration(0)
	if a := conn.Analysis; a != nil {
		hsDone = a.HandshakeDone
		s.add(MetricHandshakeTime, "ns", result.Lower, result.Measured, timeMethodTapped, ms(a.HandshakeDone))
	} else if c.Plain {
		hsDone = conn.Link.Handshake
	}
	if conn.Client.HandshakeWall > 0 {
		s.add(MetricHandshakeClient, "ns", result.Lower, result.Measured, "the Go client's clock from dial to Handshake's return", ms(conn.Client.HandshakeWall))
	}
	end := hsDone
	if conn.Payload > 0 {
		end = conn.PayloadDone
	}
	s.add(MetricConnectionTime, "ns", result.Lower, result.Measured, timeMethodTapped, ms(end))
	if conn.Payload > 0 && end > 0 {
		s.add(MetricThroughput, "MB/s", result.Higher, result.Measured, "payload / connection-time (S000: size × connections / total time), MB = 10⁶ B",
			float64(conn.Payload)/end.Seconds()/1e6)
		if end > hsDone {
			s.add(MetricTransferThroughput, "MB/s", result.Higher, result.Measured, "payload / (connection-time − handshake-time)",
				float64(conn.Payload)/(end-hsDone).Seconds()/1e6)
		}
	}
	s.add(MetricCPUClient, "ns", result.Lower, result.Measured, conn.Client.CPUMethod, ms(conn.Client.CPU))
	s.add(MetricCPUServer, "ns", result.Lower, result.Measured, conn.Server.CPUMethod, ms(conn.Server.CPU))
	if wall > 0 {
		s.add(MetricCPUShareClient, "%", result.Lower, result.Measured, "cpu-time-client / the connection's wall time at the relay", 100*conn.Client.CPU.Seconds()/wall.Seconds())
		s.add(MetricCPUShareServer, "%", result.Lower, result.Measured, "cpu-time-server / the connection's wall time at the relay", 100*conn.Server.CPU.Seconds()/wall.Seconds())
	}
	up, down := conn.Capture.Streams()
	s.add(MetricBytesUp, "B", result.Lower, result.Measured, exact, float64(len(up)))
	s.add(MetricBytesDown, "B", result.Lower, result.Measured, exact, float64(len(down)))
	if a := conn.Analysis; a != nil {
		s.add(MetricHandshakeBytesUp, "B", result.Lower, result.Measured, exact, float64(a.Up.HandshakeBytes()))
		s.add(MetricHandshakeBytesDown, "B", result.Lower, result.Measured, exact, float64(a.Down.HandshakeBytes()))
		s.add(MetricRecordsUp, "count", result.Lower, result.Measured, exact, float64(a.Up.Records))
		s.add(MetricRecordsDown, "count", result.Lower, result.Measured, exact, float64(a.Down.Records))
		s.add(MetricFlights, "count", result.Lower, result.Measured, "maximal runs of TLS messages in one direction", float64(a.Flights))
		s.add(MetricRoundTrips, "count", result.Lower, result.Measured, "server flights before the client could send application data (TCP's handshake not included)", float64(a.RoundTrips))
		if a.Version == VersionTLS13 && a.ClientHelloInfo != nil && a.ServerHelloInfo != nil {
			// What the (EC)DHE costs on the wire: 0 in a psk_ke resumption.
			// (TLS ≤ 1.2 exchanges keys in Client/ServerKeyExchange.)
			const method = "the key_share extension's bytes (4-byte header included), read from the wire tap's hellos"
			s.add(MetricKeyShareUp, "B", result.Lower, result.Measured, method+": the first ClientHello's", float64(a.ClientHelloInfo.KeyShareBytes))
			s.add(MetricKeyShareDown, "B", result.Lower, result.Measured, method+": the ServerHello's", float64(a.ServerHelloInfo.KeyShareBytes))
		}
		per := map[string]int{}
		var names []string
		seen := map[string]int{}
		for _, m := range a.Messages {
			prefix, tprefix := PrefixBytesUp, PrefixTimeSent
			if m.Dir == result.Down {
				prefix, tprefix = PrefixBytesDown, PrefixTimeRecvd
			}
			key := prefix + m.Name
			if _, ok := per[key]; !ok {
				names = append(names, key)
			}
			per[key] += m.Bytes
			tkey := tprefix + m.Name
			seen[tkey]++
			if seen[tkey] > 1 {
				tkey += fmt.Sprintf("#%d", seen[tkey])
			}
			s.add(tkey, "ns", result.Lower, result.Measured, timeMethodTapped, ms(m.At))
		}
		for _, k := range names {
			s.add(k, "B", result.Lower, result.Measured, exact+"; a message's bytes include the header and protection overhead of the records it starts", float64(per[k]))
		}
	}
	total := len(up) + len(down)
	if conn.Payload > 0 {
		s.add(MetricPayload, "B", result.Higher, result.Measured, "application data the receiver counted", float64(conn.Payload))
		s.add(MetricOverheadBytes, "B", result.Lower, result.Measured, "bytes-up + bytes-down − payload", float64(total-conn.Payload))
		s.add(MetricOverhead, "%", result.Lower, result.Measured, "overhead-bytes / payload (S000's table)", 100*float64(total-conn.Payload)/float64(conn.Payload))
	}
	var wireUp, wireDown, pkUp, pkDown int
	for _, p := range conn.Packets {
		if p.Dir == result.Up {
			wireUp += p.WireBytes
			pkUp++
		} else {
			wireDown += p.WireBytes
			pkDown++
		}
	}
	s.add(MetricWireBytesUp, "B", result.Lower, result.Modelled, link.HeaderModel, float64(wireUp))
	s.add(MetricWireBytesDown, "B", result.Lower, result.Modelled, link.HeaderModel, float64(wireDown))
	s.add(MetricPacketsUp, "count", result.Lower, result.Modelled, link.HeaderModel, float64(pkUp))
	s.add(MetricPacketsDown, "count", result.Lower, result.Modelled, link.HeaderModel, float64(pkDown))
	if conn.Payload > 0 {
		s.add(MetricWireOverheadBytes, "B", result.Lower, result.Modelled, link.HeaderModel, float64(wireUp+wireDown-conn.Payload))
		s.add(MetricWireOverhead, "%", result.Lower, result.Modelled, link.HeaderModel, 100*float64(wireUp+wireDown-conn.Payload)/float64(conn.Payload))
	}
}

// packetLabeler names what each modelled packet carried: the TLS messages
// its payload overlaps, or its TCP role.
func packetLabeler(conn *Conn) func(link.Packet) string {
	return func(p link.Packet) string {
		if p.Len == 0 || conn.Analysis == nil {
			return link.FlagsLabel(p)
		}
		var names []string
		for _, m := range conn.Analysis.Messages {
			if m.Dir != p.Dir {
				continue
			}
			if int64(m.Offset) < p.Offset+int64(p.Len) && p.Offset < int64(m.Offset+m.endOffsetDelta) {
				if !slices.Contains(names, m.Name) {
					names = append(names, m.Name)
				}
			}
		}
		if len(names) > 4 {
			names = append(names[:4], "…")
		}
		label := strings.Join(names, "+")
		if p.Retransmission {
			label += " (retransmission)"
		}
		return label
	}
}

// RunMatrix runs cells in order and returns the run; progress (may be
// nil) is told after each cell. Interrupted runs keep what they measured.
func (l *Lab) RunMatrix(ctx context.Context, cells []Cell, progress func(done, total int, c Cell)) (*result.Run, []*CellRun) {
	run := NewRun()
	var runs []*CellRun
	for i, c := range cells {
		if ctx.Err() != nil {
			run.Status = result.Interrupted
			break
		}
		cr := l.Run(ctx, c)
		if ctx.Err() != nil && len(cr.Conns) == 0 {
			run.Status = result.Interrupted
			break
		}
		runs = append(runs, cr)
		res := l.Result(cr)
		if res.Error != "" {
			run.Errors = append(run.Errors, res.Error)
			if run.Status == result.Complete {
				run.Status = result.Failed
			}
		}
		run.Results = append(run.Results, res)
		if progress != nil {
			progress(i+1, len(cells), c)
		}
	}
	if ctx.Err() != nil {
		run.Status = result.Interrupted
	}
	// An OpenSSL peer's version is part of what produced the numbers (its
	// ClientHello, its record sizes, its CPU time).
	for _, c := range cells[:len(runs)] {
		if c.Server == "openssl" || c.Client == "openssl" {
			v, err := opensslVersion()
			if err != nil {
				v.text = "unknown: " + err.Error()
			}
			run.Environment.AddTool("openssl", v.text)
			break
		}
	}
	run.Finished = time.Now().UTC()
	return run, runs
}

// traceOf is a connection's packet trace.
func traceOf(l *Lab, conn *Conn) *result.Trace {
	return link.TraceOf(conn.Packets, l.LinkName(), packetLabeler(conn))
}
