package remotesign

import (
	"crypto/tls"
	"errors"
	"fmt"
	"strconv"

	"github.com/cryptocost/cryptocost/result"
	"github.com/cryptocost/cryptocost/scheme"
)

// SubjectKind is the result kind of every scenario.
const SubjectKind = "scenario"

// Metric names (docs/scenario-remote-sign.md lists them with their units
// and methods). Byte and packet counts are per request, from the signer's
// point of view (received = the request), named like the analytic model's
// outputs so `model compare remote-sign --measured` binds them.
const (
	MetricLatency          = "latency"                // ns, client round trip
	MetricHash             = "hash-time"              // ns, signer
	MetricSign             = "sign-time"              // ns, signer
	MetricSigner           = "signer-time"            // ns, hash + sign
	MetricSignerCPU        = "signer-cpu"             // ns, thread CPU of hash + sign
	MetricServer           = "server-time"            // ns, request read → response built
	MetricSignerOther      = "signer-other-time"      // ns, server-time − hash − sign
	MetricTransfer         = "transfer-time"          // ns, latency − server-time
	MetricHandshake        = "tls-handshake-time"     // ns, client
	MetricHandshakeSigner  = "tls-handshake-signer"   // ns, signer wall
	MetricHandshakeCPU     = "tls-handshake-cpu"      // ns, signer thread CPU
	MetricRequestBytes     = "request-bytes"          // B, the SignRequest frame
	MetricResponseBytes    = "response-bytes"         // B, the SignResponse frame
	MetricSignatureBytes   = "signature-bytes"        // B
	MetricRequestOverhead  = "request-overhead-bytes" // B, frame − document
	MetricResponseOverhead = "response-overhead-bytes"
	MetricPayloadReceived  = "payload-bytes-received" // B, stream bytes (TLS records or frame)
	MetricPayloadSent      = "payload-bytes-sent"
	MetricRecordOverheadRx = "tls-overhead-received" // B, records − frame
	MetricRecordOverheadTx = "tls-overhead-sent"
	MetricWireReceived     = "bytes-received" // B, with 52 B TCP/IPv4 per segment (modelled headers)
	MetricWireSent         = "bytes-sent"
	MetricPacketsReceived  = "packets-received" // data segments
	MetricPacketsSent      = "packets-sent"
	MetricHandshakeBytesRx = "tls-handshake-bytes-received" // B per connection
	MetricHandshakeBytesTx = "tls-handshake-bytes-sent"
	MetricConnWireUp       = "connection-wire-bytes-received" // B per connection, modelled TCP/IPv4 incl. SYN, ACKs, FIN
	MetricConnWireDown     = "connection-wire-bytes-sent"

	// The signer's memory per connection (memory.go): resident set of a
	// signer process, Go heap in either mode.
	MetricSignerRSSListening  = "signer-rss-listening"  // B
	MetricSignerRSSSigning    = "signer-rss-signing"    // B, peak over the connection
	MetricSignerHeapListening = "signer-heap-listening" // B
	MetricSignerHeapSigning   = "signer-heap-signing"   // B
)

// Name is the stable subject name: remote-sign/SCHEME/MODE/doc=SIZE.
func Name(schemeName string, secure bool, doc int) string {
	return fmt.Sprintf("remote-sign/%s/%s/doc=%s", schemeName, modeName(secure), scheme.FormatSize(doc))
}

// Subject describes a connection's configuration.
func Subject(info *scheme.Info, secure bool, doc, repeats int, linkName string) result.Subject {
	p := map[string]string{"scenario": "remote-sign", "scheme": info.Name, "mode": modeName(secure),
		"tls": "0", "doc_bytes": strconv.Itoa(doc), "repetitions": strconv.Itoa(repeats), "link": linkName}
	if secure {
		p["tls"] = "1"
	}
	for _, kv := range info.Params {
		if _, taken := p[kv.Key]; !taken {
			p[kv.Key] = kv.Value
		}
	}
	return result.Subject{Kind: SubjectKind, Name: Name(info.Name, secure, doc), Scheme: info.Name,
		Provider: string(info.Provider), Family: "sign", Operation: "sign", InputBytes: doc, Params: p}
}

// Result turns a measured connection into the shared result model, with
// its packet trace at the signer, its energy on the pricing's device and
// radio (pricing may be nil) and the checked byte accounting. A
// connection that failed, or whose bytes do not add up, is an error
// result: no number without its check.
func Result(c *Conn, info *scheme.Info, linkName string, repeats int) result.Result {
	r := result.Result{Subject: Subject(info, c.TLS, c.Doc, repeats, linkName)}
	r.Provenance = result.Provenance{Label: result.Measured,
		Verified: "every signature verified with " + info.Name + "'s Verify (its known-answer test: " + info.Standard + ")",
		Method: result.Method{Name: "remote-sign", Timer: "monotonic wall clock (time.Now) at the client and at the signer; the signer's thread CPU clock",
			Samples: len(c.Requests), Repetitions: repeats, Stop: "fixed"}}
	if c.TLS && c.Signer != nil {
		r.Subject.Params["tls_version"] = tls.VersionName(c.Signer.Version)
		r.Subject.Params["cipher_suite"] = tls.CipherSuiteName(c.Signer.CipherSuite)
	}
	r.Subject.Params["signer"] = "inprocess"
	if c.SignerProcess {
		r.Subject.Params["signer"] = "process"
	}
	// A connection the interrupt cut short keeps the requests it measured
	// (status interrupted, a warning naming the interrupt); any other
	// failure is an error result.
	partial := errors.Is(c.Err, ErrInterrupted) && len(c.Requests) > 0
	if c.Err != nil && !partial {
		r.Error = c.Err.Error()
		return r
	}
	if partial {
		r.Warnings = append(r.Warnings, c.Err.Error()+": the requests measured before it are kept")
	}
	acct, err := c.Account()
	if err != nil && !partial {
		r.Error = "byte accounting: " + err.Error()
		return r
	}
	if err != nil {
		r.Warnings = append(r.Warnings, "byte counts not reported: the interrupt cut the connection mid-request, so its bytes are not all attributed ("+err.Error()+")")
		acct = nil
	}
	var lat, hash, sign, signer, cpu, server, other, transfer, reqB, respB, sigB, reqO, respO []float64
	for _, q := range c.Requests {
		lat = append(lat, float64(q.Latency))
		hash = append(hash, float64(q.Hash))
		sign = append(sign, float64(q.Sign))
		signer = append(signer, float64(q.Hash+q.Sign))
		cpu = append(cpu, float64(q.CPU))
		server = append(server, float64(q.Server))
		other = append(other, float64(q.SignerOther()))
		transfer = append(transfer, float64(q.Transfer()))
		reqB = append(reqB, float64(q.RequestBytes))
		respB = append(respB, float64(q.ResponseBytes))
		sigB = append(sigB, float64(q.Signature))
		reqO = append(reqO, float64(q.RequestBytes-c.Doc))
		respO = append(respO, float64(q.ResponseBytes-q.Signature))
	}
	add := func(name, unit string, better result.Better, label result.Label, method string, vs []float64) {
		m := result.NewSampled(name, unit, better, label, vs)
		m.Method = method
		r.Metrics = append(r.Metrics, m)
	}
	ints := func(vs []int) []float64 {
		out := make([]float64, len(vs))
		for i, v := range vs {
			out[i] = float64(v)
		}
		return out
	}
	M, L := result.Measured, result.Lower
	add(MetricLatency, "ns", L, M, "client's round trip: request written → response's last byte read; for every request latency = hash-time + sign-time + signer-other-time + transfer-time (samples in request order)", lat)
	add(MetricHash, "ns", L, M, "signer's wall time hashing the document (0 for Ed25519, which hashes inside signing)", hash)
	add(MetricSign, "ns", L, M, "signer's wall time of the private-key operation on the digest", sign)
	add(MetricSigner, "ns", L, M, "hash-time + sign-time", signer)
	if c.Requests[0].CPU > 0 {
		add(MetricSignerCPU, "ns", L, M, "signer's thread CPU time (CLOCK_THREAD_CPUTIME_ID, goroutine locked to its thread) for hashing and signing", cpu)
	}
	add(MetricServer, "ns", L, M, "signer's wall time from the request's last byte read to the response built", server)
	add(MetricSignerOther, "ns", L, M, "server-time − hash-time − sign-time: the signer parsing the request and building the response", other)
	add(MetricTransfer, "ns", L, M, "latency − server-time: the link both ways, both stacks, TLS record protection", transfer)
	if c.TLS {
		hs := result.NewScalar(MetricHandshake, "ns", L, M, float64(c.Handshake))
		hs.Method = "client: TLS handshake from the first byte it could send (after the link's modelled TCP handshake) to Handshake's return; once per connection"
		r.Metrics = append(r.Metrics, hs)
		if c.Signer != nil {
			m := result.NewScalar(MetricHandshakeSigner, "ns", L, M, float64(c.Signer.Handshake))
			m.Method = "signer's wall time in tls.Conn.Handshake"
			r.Metrics = append(r.Metrics, m)
			if c.Signer.CPUKnown {
				m := result.NewScalar(MetricHandshakeCPU, "ns", L, M, float64(c.Signer.HandshakeCPU))
				m.Method = "signer's thread CPU time in tls.Conn.Handshake"
				r.Metrics = append(r.Metrics, m)
			}
		}
	}
	add(MetricRequestBytes, "B", L, M, "SignRequest frame: 14 B + scheme name + document", reqB)
	add(MetricResponseBytes, "B", L, M, "SignResponse frame: 44 B + signature", respB)
	add(MetricSignatureBytes, "B", L, M, "signature as the scheme encodes it (DER for DSA and ECDSA)", sigB)
	add(MetricRequestOverhead, "B", L, M, "packaging: request-bytes − document", reqO)
	add(MetricResponseOverhead, "B", L, M, "packaging: response-bytes − signature", respO)
	if acct != nil {
		stream := "the link's data segments in the request's round trip (checked: plain, they are the frames byte for byte)"
		if c.TLS {
			stream = "the TLS records the link carried in the request's round trip (checked: the decrypted application data is the frames)"
		}
		add(MetricPayloadReceived, "B", L, M, "signer receives: "+stream, ints(acct.StreamReceived))
		add(MetricPayloadSent, "B", L, M, "signer sends: "+stream, ints(acct.StreamSent))
		if c.TLS {
			var rx, tx []float64
			for i, q := range c.Requests {
				rx = append(rx, float64(acct.StreamReceived[i]-q.RequestBytes))
				tx = append(tx, float64(acct.StreamSent[i]-q.ResponseBytes))
			}
			add(MetricRecordOverheadRx, "B", L, M, "TLS record header, tag and inner type on the request: payload-bytes-received − request-bytes", rx)
			add(MetricRecordOverheadTx, "B", L, M, "the same on the response", tx)
			hsRx := result.NewScalar(MetricHandshakeBytesRx, "B", L, M, float64(acct.HandshakeUp))
			hsRx.Method = "TLS handshake records client → signer, per connection (TLS lab tap, decrypted with the logged secrets)"
			hsTx := result.NewScalar(MetricHandshakeBytesTx, "B", L, M, float64(acct.HandshakeDown))
			hsTx.Method = "TLS handshake records signer → client per connection, NewSessionTicket included"
			r.Metrics = append(r.Metrics, hsRx, hsTx)
		}
		wire := "the link's data segments in the round trip, each with the link model's 52 B of TCP/IPv4 headers; pure ACKs not counted"
		add(MetricWireReceived, "B", L, result.Modelled, wire, ints(acct.WireReceived))
		add(MetricWireSent, "B", L, result.Modelled, wire, ints(acct.WireSent))
		add(MetricPacketsReceived, "packets", L, M, "data segments the link carried to the signer in the round trip (MSS = MTU − 52)", ints(acct.SegmentsReceived))
		add(MetricPacketsSent, "packets", L, M, "data segments from the signer in the round trip", ints(acct.SegmentsSent))
	}
	signerMemory(&r, c)
	r.Trace = c.SignerTrace(linkName)
	if acct != nil {
		up, down, _, _ := r.Trace.Totals()
		cu := result.NewScalar(MetricConnWireUp, "B", L, result.Modelled, float64(down))
		cu.Method = "whole connection at the signer: " + r.Trace.HeaderModel
		cd := result.NewScalar(MetricConnWireDown, "B", L, result.Modelled, float64(up))
		cd.Method = cu.Method
		r.Metrics = append(r.Metrics, cu, cd)
	}
	// What the costing stage prices on the signer's device: one hash and
	// signature of the document per request (the registry's sign hashes
	// inside), timed here, and each request's share of the connection's
	// radio traffic at the signer.
	if len(signer) > 0 {
		r.Work = []result.Work{{Party: "signer", Component: "sign", Scheme: r.Subject.Scheme, Provider: r.Subject.Provider,
			Operation: "sign", InputBytes: c.Doc, Count: 1, CountLabel: result.Measured, CountMethod: "one signature per request",
			HostNs: signer, HostLabel: result.Measured, HostMethod: "the signer's wall time hashing and signing the document, per request"}}
	}
	if r.Trace != nil && len(c.Requests) > 0 {
		r.TraceParts = []result.TracePart{{Traces: []*result.Trace{r.Trace}, Spans: float64(len(c.Requests)),
			Method: fmt.Sprintf("the signer's radio for the whole connection (TCP and TLS setup, the requests, close), shared by its %d requests", len(c.Requests))}}
	}
	return r
}

// signerMemory adds the signer's memory listening and while signing
// (memory.go says how each is read): the resident set of a signer process,
// and the Go heap in either case, labelled with whose heap it is.
func signerMemory(r *result.Result, c *Conn) {
	st := c.Signer
	if st == nil {
		return
	}
	add := func(name, method string, v uint64) {
		m := result.NewScalar(name, "B", result.Lower, result.Measured, float64(v))
		m.Method = method
		r.Metrics = append(r.Metrics, m)
	}
	heapOf := "the Go heap of the whole process (signer, client and harness share it)"
	if c.SignerProcess {
		heapOf = "the signer process's Go heap"
		if st.MemoryErr != "" {
			r.Warnings = append(r.Warnings, "the signer's resident set was not measured: "+st.MemoryErr)
		} else {
			add(MetricSignerRSSListening, "the signer process's VmRSS (/proc/self/status) when it accepted the connection, keys loaded", st.RSSListening)
			add(MetricSignerRSSSigning, "the signer process's peak VmRSS over the connection (VmHWM, reset at accept through /proc/self/clear_refs)", st.RSSSigning)
		}
	}
	add(MetricSignerHeapListening, heapOf+": heap object bytes (runtime/metrics "+heapObjectsMetric+") at accept, after a collection", st.HeapListening)
	add(MetricSignerHeapSigning, heapOf+": the most heap object bytes read after any response of the connection, garbage not yet collected included", st.HeapSigning)
}
