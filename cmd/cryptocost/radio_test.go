package main

import (
	"bytes"
	"math"
	"net"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/cryptocost/cryptocost/result"
	"github.com/gopacket/gopacket"
	"github.com/gopacket/gopacket/layers"
	"github.com/gopacket/gopacket/pcapgo"
	"github.com/rogpeppe/go-internal/testscript"
)

func init() {
	scriptCmds["radiopcap"] = radioPcap
	scriptCmds["radiometric"] = radioMetric
	scriptCmds["radioreplace"] = radioReplace
}

// radiopcap FILE [LINKTYPE]: write a capture of a TLS connection from
// 10.0.0.2 to 93.184.216.34:443 (pcapng for .pcapng, else pcap; Ethernet
// unless LINKTYPE gives a number): TCP handshake, ClientHello (300 B), the
// server's flight (1448 + 1052 B), Finished (80 B), a response (1000 B).
func radioPcap(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) < 1 {
		ts.Fatalf("usage: radiopcap FILE [LINKTYPE]")
	}
	link := layers.LinkTypeEthernet
	if len(args) > 1 {
		n, err := strconv.Atoi(args[1])
		ts.Check(err)
		link = layers.LinkType(n)
	}
	c, s := net.IPv4(10, 0, 0, 2).To4(), net.IPv4(93, 184, 216, 34).To4()
	type seg struct {
		ms        float64
		fromPhone bool
		syn, ack  bool
		payload   int
	}
	segs := []seg{{0, true, true, false, 0}, {20, false, true, true, 0}, {20.1, true, false, true, 0}, {20.2, true, false, true, 300},
		{40, false, false, true, 1448}, {40.5, false, false, true, 1052}, {41, true, false, true, 80}, {60, false, false, true, 1000}}
	var out bytes.Buffer
	var write func(gopacket.CaptureInfo, []byte) error
	flush := func() error { return nil }
	if strings.HasSuffix(args[0], ".pcapng") {
		w, err := pcapgo.NewNgWriter(&out, link)
		ts.Check(err)
		write, flush = w.WritePacket, w.Flush
	} else {
		w := pcapgo.NewWriter(&out)
		ts.Check(w.WriteFileHeader(65535, link))
		write = w.WritePacket
	}
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for _, sg := range segs {
		ip := &layers.IPv4{Version: 4, TTL: 64, SrcIP: c, DstIP: s, Protocol: layers.IPProtocolTCP}
		tcp := &layers.TCP{SrcPort: 40000, DstPort: 443, SYN: sg.syn, ACK: sg.ack, Window: 65535}
		if !sg.fromPhone {
			ip.SrcIP, ip.DstIP = s, c
			tcp.SrcPort, tcp.DstPort = 443, 40000
		}
		ts.Check(tcp.SetNetworkLayerForChecksum(ip))
		buf := gopacket.NewSerializeBuffer()
		ls := []gopacket.SerializableLayer{ip, tcp, gopacket.Payload(make([]byte, sg.payload))}
		if link == layers.LinkTypeEthernet {
			ls = append([]gopacket.SerializableLayer{&layers.Ethernet{SrcMAC: net.HardwareAddr{2, 0, 0, 0, 0, 1},
				DstMAC: net.HardwareAddr{2, 0, 0, 0, 0, 2}, EthernetType: layers.EthernetTypeIPv4}}, ls...)
		}
		ts.Check(gopacket.SerializeLayers(buf, gopacket.SerializeOptions{FixLengths: true, ComputeChecksums: true}, ls...))
		data := buf.Bytes()
		ts.Check(write(gopacket.CaptureInfo{Timestamp: t0.Add(time.Duration(sg.ms * 1e6)), CaptureLength: len(data), Length: len(data)}, data))
	}
	ts.Check(flush())
	ts.Check(os.WriteFile(ts.MkAbs(args[0]), out.Bytes(), 0o644))
}

// radiometric FILE SUBJECT METRIC WANT [TOLERANCE]: the run in FILE has a
// result SUBJECT whose METRIC's value is WANT within TOLERANCE (relative,
// default 1e-3); WANT ">0" checks the sign.
func radioMetric(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) < 4 {
		ts.Fatalf("usage: radiometric FILE SUBJECT METRIC WANT [TOLERANCE]")
	}
	runs, err := result.ReadJSON(strings.NewReader(ts.ReadFile(args[0])))
	ts.Check(err)
	var got *result.Metric
	for _, run := range runs {
		for i := range run.Results {
			if run.Results[i].Subject.Name == args[1] {
				got = run.Results[i].Metric(args[2])
			}
		}
	}
	if got == nil {
		ts.Fatalf("%s: no metric %s of %s", args[0], args[2], args[1])
	}
	v := got.Summary.Median
	ok := false
	if args[3] == ">0" {
		ok = v > 0
	} else {
		want, err := strconv.ParseFloat(args[3], 64)
		ts.Check(err)
		tol := 1e-3
		if len(args) > 4 {
			tol, err = strconv.ParseFloat(args[4], 64)
			ts.Check(err)
		}
		ok = math.Abs(v-want) <= tol*math.Abs(want)+1e-12
	}
	if ok == neg {
		ts.Fatalf("%s %s = %.6g (%s), want %s", args[1], args[2], v, got.Label, args[3])
	}
	if got.Label != result.Modelled {
		ts.Fatalf("%s %s is labelled %s, want modelled", args[1], args[2], got.Label)
	}
}

// radioreplace FILE OLD NEW: replace the first OLD in FILE with NEW.
func radioReplace(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 3 {
		ts.Fatalf("usage: radioreplace FILE OLD NEW")
	}
	data := ts.ReadFile(args[0])
	if !strings.Contains(data, args[1]) {
		ts.Fatalf("%s has no %q", args[0], args[1])
	}
	ts.Check(os.WriteFile(ts.MkAbs(args[0]), []byte(strings.Replace(data, args[1], args[2], 1)), 0o644))
}
