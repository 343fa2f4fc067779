package radio

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"encoding/json"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/cryptocost/cryptocost/result"
	"github.com/gopacket/gopacket"
	"github.com/gopacket/gopacket/layers"
	"github.com/gopacket/gopacket/pcapgo"
)

// flow is one packet of a test capture.
type flow struct {
	ms                  float64
	src, dst            string
	sport, dport        uint16
	syn, ack            bool
	payload             int
	udp                 bool
	wantDir             result.Direction
	wantBytes, wantData int
}

// tlsFlow is a TLS connection from a phone (10.0.0.2) to a server: TCP
// handshake, ClientHello, the server's flight in two segments, the
// client's Finished, a response. IPv4 and TCP headers are 20 B each.
func tlsFlow(client, server string) []flow {
	c, s := client, server
	return []flow{
		{0, c, s, 40000, 443, true, false, 0, false, up, 40, 0},
		{20, s, c, 443, 40000, true, true, 0, false, down, 40, 0},
		{20.1, c, s, 40000, 443, false, true, 0, false, up, 40, 0},
		{20.2, c, s, 40000, 443, false, true, 300, false, up, 340, 300},
		{40, s, c, 443, 40000, false, true, 1448, false, down, 1488, 1448},
		{40.5, s, c, 443, 40000, false, true, 1052, false, down, 1092, 1052},
		{41, c, s, 40000, 443, false, true, 80, false, up, 120, 80},
		{60, s, c, 443, 40000, false, true, 1000, false, down, 1040, 1000},
	}
}

// ipPacket serialises the IP and transport headers and payload of f.
func ipPacket(t testing.TB, f flow) []byte {
	t.Helper()
	src, dst := net.ParseIP(f.src), net.ParseIP(f.dst)
	buf := gopacket.NewSerializeBuffer()
	opts := gopacket.SerializeOptions{FixLengths: true, ComputeChecksums: true}
	var nl gopacket.NetworkLayer
	var ls []gopacket.SerializableLayer
	if src.To4() != nil {
		ip := &layers.IPv4{Version: 4, TTL: 64, SrcIP: src.To4(), DstIP: dst.To4(), Protocol: layers.IPProtocolTCP}
		if f.udp {
			ip.Protocol = layers.IPProtocolUDP
		}
		nl, ls = ip, []gopacket.SerializableLayer{ip}
	} else {
		ip := &layers.IPv6{Version: 6, HopLimit: 64, SrcIP: src, DstIP: dst, NextHeader: layers.IPProtocolTCP}
		if f.udp {
			ip.NextHeader = layers.IPProtocolUDP
		}
		nl, ls = ip, []gopacket.SerializableLayer{ip}
	}
	if f.udp {
		u := &layers.UDP{SrcPort: layers.UDPPort(f.sport), DstPort: layers.UDPPort(f.dport)}
		u.SetNetworkLayerForChecksum(nl)
		ls = append(ls, u)
	} else {
		tc := &layers.TCP{SrcPort: layers.TCPPort(f.sport), DstPort: layers.TCPPort(f.dport), SYN: f.syn, ACK: f.ack, Window: 65535}
		tc.SetNetworkLayerForChecksum(nl)
		ls = append(ls, tc)
	}
	ls = append(ls, gopacket.Payload(bytes.Repeat([]byte{0x17}, f.payload)))
	if err := gopacket.SerializeLayers(buf, opts, ls...); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// frame puts an IP packet in a link-layer frame of type link.
func frame(t testing.TB, link layers.LinkType, ip []byte) []byte {
	t.Helper()
	v6 := ip[0]>>4 == 6
	etype := layers.EthernetTypeIPv4
	if v6 {
		etype = layers.EthernetTypeIPv6
	}
	be := binary.BigEndian
	switch link {
	case layers.LinkTypeEthernet:
		buf := gopacket.NewSerializeBuffer()
		eth := &layers.Ethernet{SrcMAC: net.HardwareAddr{2, 0, 0, 0, 0, 1}, DstMAC: net.HardwareAddr{2, 0, 0, 0, 0, 2}, EthernetType: etype}
		if err := gopacket.SerializeLayers(buf, gopacket.SerializeOptions{}, eth, gopacket.Payload(ip)); err != nil {
			t.Fatal(err)
		}
		return buf.Bytes()
	case layers.LinkTypeRaw, layers.LinkTypeIPv4, layers.LinkTypeIPv6:
		return ip
	case layers.LinkTypeLinuxSLL: // packet type, ARPHRD, address length, address (8), protocol
		h := make([]byte, 16)
		be.PutUint16(h[2:], 1)
		be.PutUint16(h[4:], 6)
		be.PutUint16(h[14:], uint16(etype))
		return append(h, ip...)
	case layers.LinkTypeLinuxSLL2: // protocol, reserved, ifindex, ARPHRD, packet type, address length, address (8)
		h := make([]byte, 20)
		be.PutUint16(h[0:], uint16(etype))
		be.PutUint32(h[4:], 1)
		be.PutUint16(h[8:], 1)
		h[11] = 6
		return append(h, ip...)
	case layers.LinkTypeNull: // address family, host byte order (little-endian here)
		fam := uint32(2)
		if v6 {
			fam = 30
		}
		h := binary.LittleEndian.AppendUint32(nil, fam)
		return append(h, ip...)
	case layers.LinkTypeLoop: // address family, network byte order
		fam := uint32(2)
		if v6 {
			fam = 30
		}
		return append(be.AppendUint32(nil, fam), ip...)
	}
	t.Fatalf("no framing for %v", link)
	return nil
}

var start = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

// writeCapture writes flows as a pcap (ng false) or pcapng file.
func writeCapture(t testing.TB, link layers.LinkType, ng bool, flows []flow) []byte {
	t.Helper()
	var out bytes.Buffer
	var write func(ci gopacket.CaptureInfo, data []byte) error
	var flush func() error
	if ng {
		w, err := pcapgo.NewNgWriter(&out, link)
		if err != nil {
			t.Fatal(err)
		}
		write, flush = w.WritePacket, w.Flush
	} else {
		w := pcapgo.NewWriterNanos(&out)
		if err := w.WriteFileHeader(65535, link); err != nil {
			t.Fatal(err)
		}
		write, flush = w.WritePacket, func() error { return nil }
	}
	for _, f := range flows {
		data := frame(t, link, ipPacket(t, f))
		ci := gopacket.CaptureInfo{Timestamp: start.Add(ms(f.ms)), CaptureLength: len(data), Length: len(data)}
		if err := write(ci, data); err != nil {
			t.Fatal(err)
		}
	}
	if err := flush(); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

func wantTrace(t *testing.T, got *result.Trace, flows []flow) {
	t.Helper()
	if len(got.Packets) != len(flows) {
		t.Fatalf("%d packets, want %d", len(got.Packets), len(flows))
	}
	for i, f := range flows {
		p := got.Packets[i]
		want := result.Packet{TimeNs: ms(f.ms).Nanoseconds() - ms(flows[0].ms).Nanoseconds(), Dir: f.wantDir, Bytes: f.wantBytes, Payload: f.wantData}
		if p != want {
			t.Errorf("packet %d = %+v, want %+v", i, p, want)
		}
	}
}

func readOne(t *testing.T, data []byte, opt ReadOptions) Input {
	t.Helper()
	in, err := Read(bytes.NewReader(data), "test", opt)
	if err != nil {
		t.Fatal(err)
	}
	if len(in) != 1 {
		t.Fatalf("%d inputs", len(in))
	}
	return in[0]
}

func TestReadCaptureLinkTypes(t *testing.T) {
	flows := tlsFlow("10.0.0.2", "93.184.216.34")
	for _, link := range []layers.LinkType{layers.LinkTypeEthernet, layers.LinkTypeRaw, layers.LinkTypeIPv4, layers.LinkTypeLinuxSLL,
		layers.LinkTypeLinuxSLL2, layers.LinkTypeNull, layers.LinkTypeLoop} {
		for _, ng := range []bool{false, true} {
			t.Run(link.String()+map[bool]string{false: "/pcap", true: "/pcapng"}[ng], func(t *testing.T) {
				in := readOne(t, writeCapture(t, link, ng, flows), ReadOptions{})
				wantTrace(t, in.Trace, flows)
				if !strings.Contains(strings.Join(in.Notes, ";"), "device 10.0.0.2 (opened the first TCP connection") {
					t.Errorf("notes %v", in.Notes)
				}
			})
		}
	}
}

func TestReadCaptureIPv6AndUDP(t *testing.T) {
	c, s := "2001:db8::2", "2001:db8::1"
	flows := []flow{
		{0, c, s, 5684, 5684, false, false, 120, true, up, 40 + 8 + 120, 120}, // a DTLS ClientHello over UDP
		{30, s, c, 5684, 5684, false, false, 900, true, down, 40 + 8 + 900, 900},
	}
	in := readOne(t, writeCapture(t, layers.LinkTypeEthernet, true, flows), ReadOptions{})
	wantTrace(t, in.Trace, flows)
	in = readOne(t, writeCapture(t, layers.LinkTypeIPv6, false, flows), ReadOptions{})
	wantTrace(t, in.Trace, flows)
}

func TestReadCaptureLoopback(t *testing.T) {
	// The TLS lab's loopback: both ends 127.0.0.1; the device is the end
	// that opened the connection, the server the port it opened it to.
	flows := tlsFlow("127.0.0.1", "127.0.0.1")
	in := readOne(t, writeCapture(t, layers.LinkTypeEthernet, true, flows), ReadOptions{})
	wantTrace(t, in.Trace, flows)
	if !strings.Contains(strings.Join(in.Notes, ";"), "packets to port 443 are up") {
		t.Errorf("notes %v", in.Notes)
	}
}

func TestReadCaptureOpenerIsTheSYNNotTheSYNACK(t *testing.T) {
	// The capture starts with the server's SYN-ACK of an earlier
	// connection: the device is still the host that sent a SYN.
	flows := append([]flow{{-5, "93.184.216.34", "10.0.0.2", 443, 39999, true, true, 0, false, down, 40, 0}}, tlsFlow("10.0.0.2", "93.184.216.34")...)
	in := readOne(t, writeCapture(t, layers.LinkTypeEthernet, false, flows), ReadOptions{})
	wantTrace(t, in.Trace, flows)
}

func TestReadCaptureDeviceAddr(t *testing.T) {
	flows := tlsFlow("10.0.0.2", "93.184.216.34")
	// The server as the device: every direction flips.
	flipped := append([]flow(nil), flows...)
	for i := range flipped {
		flipped[i].wantDir = map[result.Direction]result.Direction{up: down, down: up}[flipped[i].wantDir]
	}
	data := writeCapture(t, layers.LinkTypeEthernet, false, flows)
	wantTrace(t, readOne(t, data, ReadOptions{DeviceAddr: "93.184.216.34"}).Trace, flipped)
	// Traffic of other hosts is left out.
	other := append(flows, flow{70, "10.0.0.9", "10.0.0.10", 1, 2, false, true, 10, false, "", 0, 0})
	in := readOne(t, writeCapture(t, layers.LinkTypeEthernet, false, other), ReadOptions{DeviceAddr: "10.0.0.2"})
	wantTrace(t, in.Trace, flows)
	if !strings.Contains(strings.Join(in.Notes, ";"), "1 packets neither from nor to the device") {
		t.Errorf("notes %v", in.Notes)
	}
	for addr, msg := range map[string]string{"10.9.9.9": "no packet comes from or goes to", "phone": "is not an IP address"} {
		_, err := Read(bytes.NewReader(data), "c.pcap", ReadOptions{DeviceAddr: addr})
		if err == nil || !strings.Contains(err.Error(), msg) {
			t.Errorf("device %s: %v", addr, err)
		}
	}
}

func TestReadCaptureErrors(t *testing.T) {
	flows := tlsFlow("10.0.0.2", "93.184.216.34")
	good := writeCapture(t, layers.LinkTypeEthernet, false, flows)

	// A link type without IP: 802.11 radio frames.
	var w bytes.Buffer
	pw := pcapgo.NewWriter(&w)
	_ = pw.WriteFileHeader(65535, layers.LinkTypeIEEE802_11)
	_, err := Read(bytes.NewReader(w.Bytes()), "wifi.pcap", ReadOptions{})
	if err == nil || !strings.Contains(err.Error(), "link type 105 (802.11) is not supported: want one of Ethernet") {
		t.Errorf("802.11: %v", err)
	}

	// A file cut inside a record, pcap and pcapng.
	for _, ng := range []bool{false, true} {
		data := writeCapture(t, layers.LinkTypeEthernet, ng, flows)
		_, err = Read(bytes.NewReader(data[:len(data)-30]), "cut", ReadOptions{})
		if err == nil || !strings.Contains(err.Error(), "truncated") {
			t.Errorf("cut file (ng %v): %v", ng, err)
		}
	}

	// A snap length that cuts the IP header: an error. One that cuts the
	// payload: the sizes still come from the IP header.
	for _, tc := range []struct {
		caplen int
		err    string
	}{{14 + 10, "IP header is cut short"}, {14 + 20 + 10, "TCP/UDP header is cut short"}, {14 + 20 + 20, ""}} {
		var out bytes.Buffer
		pw := pcapgo.NewWriterNanos(&out)
		_ = pw.WriteFileHeader(uint32(tc.caplen), layers.LinkTypeEthernet)
		for _, f := range flows {
			data := frame(t, layers.LinkTypeEthernet, ipPacket(t, f))
			n := min(len(data), tc.caplen)
			_ = pw.WritePacket(gopacket.CaptureInfo{Timestamp: start.Add(ms(f.ms)), CaptureLength: n, Length: len(data)}, data[:n])
		}
		in, err := Read(bytes.NewReader(out.Bytes()), "snap.pcap", ReadOptions{})
		switch {
		case tc.err == "" && err != nil:
			t.Errorf("snap length %d: %v", tc.caplen, err)
		case tc.err == "":
			wantTrace(t, in[0].Trace, flows)
		case err == nil || !strings.Contains(err.Error(), tc.err) || !strings.Contains(err.Error(), "snap length"):
			t.Errorf("snap length %d: %v, want %q", tc.caplen, err, tc.err)
		}
	}

	// Out of order.
	swapped := append([]flow(nil), flows...)
	swapped[3].ms, swapped[4].ms = swapped[4].ms, swapped[3].ms
	_, err = Read(bytes.NewReader(writeCapture(t, layers.LinkTypeEthernet, true, swapped)), "ooo.pcapng", ReadOptions{})
	if err == nil || !strings.Contains(err.Error(), "record 5") || !strings.Contains(err.Error(), "reordercap") {
		t.Errorf("out of order: %v", err)
	}

	// Neither JSON nor a capture.
	_, err = Read(strings.NewReader("hello world"), "x.txt", ReadOptions{})
	if err == nil || !strings.Contains(err.Error(), "not a cryptocost run or trace (JSON), pcap or pcapng") {
		t.Errorf("text: %v", err)
	}

	// gzip-compressed captures read like plain ones.
	var z bytes.Buffer
	zw := gzip.NewWriter(&z)
	_, _ = zw.Write(good)
	_ = zw.Close()
	wantTrace(t, readOne(t, z.Bytes(), ReadOptions{}).Trace, flows)
}

func TestReadCaptureSkipsNonIP(t *testing.T) {
	flows := tlsFlow("10.0.0.2", "93.184.216.34")
	var out bytes.Buffer
	pw := pcapgo.NewWriterNanos(&out)
	_ = pw.WriteFileHeader(65535, layers.LinkTypeEthernet)
	arp := gopacket.NewSerializeBuffer()
	_ = gopacket.SerializeLayers(arp, gopacket.SerializeOptions{FixLengths: true},
		&layers.Ethernet{SrcMAC: net.HardwareAddr{2, 0, 0, 0, 0, 1}, DstMAC: layers.EthernetBroadcast, EthernetType: layers.EthernetTypeARP},
		&layers.ARP{AddrType: layers.LinkTypeEthernet, Protocol: layers.EthernetTypeIPv4, HwAddressSize: 6, ProtAddressSize: 4, Operation: 1,
			SourceHwAddress: []byte{2, 0, 0, 0, 0, 1}, SourceProtAddress: []byte{10, 0, 0, 2}, DstHwAddress: make([]byte, 6), DstProtAddress: []byte{10, 0, 0, 1}})
	_ = pw.WritePacket(gopacket.CaptureInfo{Timestamp: start.Add(-time.Millisecond), CaptureLength: len(arp.Bytes()), Length: len(arp.Bytes())}, arp.Bytes())
	for _, f := range flows {
		data := frame(t, layers.LinkTypeEthernet, ipPacket(t, f))
		_ = pw.WritePacket(gopacket.CaptureInfo{Timestamp: start.Add(ms(f.ms)), CaptureLength: len(data), Length: len(data)}, data)
	}
	in := readOne(t, out.Bytes(), ReadOptions{})
	wantTrace(t, in.Trace, flows)
	if !strings.Contains(strings.Join(in.Notes, ";"), "1 non-IP records") {
		t.Errorf("notes %v", in.Notes)
	}
}

func TestReadJSON(t *testing.T) {
	dir := t.TempDir()
	tr := trace(pkt(0, up, 300), pkt(20, down, 3000))
	run := &result.Run{Schema: result.Schema, ID: "x", Kind: "tls", Status: result.Complete, Results: []result.Result{
		{Subject: result.Subject{Kind: "tls", Name: "tls/full"}, Metrics: []result.Metric{result.NewScalar("bytes", "B", result.Lower, result.Measured, 1)}, Trace: tr},
		{Subject: result.Subject{Kind: "tls", Name: "tls/resumed"}, Metrics: []result.Metric{result.NewScalar("bytes", "B", result.Lower, result.Measured, 1)}, Trace: trace(pkt(0, up, 200))},
		{Subject: result.Subject{Kind: "primitive", Name: "AES"}, Metrics: []result.Metric{result.NewScalar("time", "ns/op", result.Lower, result.Measured, 1)}},
	}}
	write := func(name string, v any) string {
		p := filepath.Join(dir, name)
		data, _ := json.Marshal(v)
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	file := write("run.json", run)
	in, err := ReadFile(file, ReadOptions{})
	if err != nil || len(in) != 2 || in[0].Name != "tls/full" || in[1].Source != file+"#tls/resumed" {
		t.Fatalf("ReadFile = %+v, %v", in, err)
	}
	in, err = ReadFile(file, ReadOptions{Subject: "*resumed"})
	if err != nil || len(in) != 1 || in[0].Name != "tls/resumed" {
		t.Fatalf("subject filter: %+v, %v", in, err)
	}
	if _, err := ReadFile(file, ReadOptions{Subject: "tls/none"}); err == nil || !strings.Contains(err.Error(), "want one of tls/full, tls/resumed") {
		t.Errorf("no match: %v", err)
	}
	// A run without traces.
	run.Results = run.Results[2:]
	if _, err := ReadFile(write("bench.json", run), ReadOptions{}); err == nil || !strings.Contains(err.Error(), "no result in this run carries a packet trace") {
		t.Errorf("no traces: %v", err)
	}
	// A bare trace, good and bad.
	in, err = ReadFile(write("t.json", tr), ReadOptions{})
	if err != nil || len(in) != 1 || in[0].Name != "t" || len(in[0].Trace.Packets) != 2 {
		t.Fatalf("bare trace: %+v, %v", in, err)
	}
	for _, tc := range []struct{ json, want string }{
		{`{"packets":[{"t_ns":5,"dir":"up","bytes":10},{"t_ns":4,"dir":"down","bytes":10}]}`, "packet 1: t_ns 4 is before packet 0's 5"},
		{`{"packets":[{"t_ns":0,"dir":"up","bytes":-10}]}`, "packet 0: bytes -10"},
		{`{"packets":[{"t_ns":-1,"dir":"up","bytes":10}]}`, "packet 0: t_ns -1 is negative"},
		{`{"packets":[{"t_ns":0,"dir":"sideways","bytes":10}]}`, `dir "sideways"`},
		{`{"packets":[{"t_ns":0,"dir":"up","bytes":10,"size":3}]}`, `unknown field "size"`},
		{`{"packets":[]}`, "no packets"},
	} {
		if _, err := ReadFile(write("bad.json", json.RawMessage(tc.json)), ReadOptions{}); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v, want %q", tc.json, err, tc.want)
		}
	}
	if _, err := ReadFile(filepath.Join(dir, "missing.pcap"), ReadOptions{}); err == nil || !strings.Contains(err.Error(), "no such file") {
		t.Errorf("missing: %v", err)
	}
}

// FuzzRead: no input makes the readers panic, hang or return a trace the
// state machines would reject.
func FuzzRead(f *testing.F) {
	flows := tlsFlow("10.0.0.2", "93.184.216.34")
	f.Add(writeCapture(f, layers.LinkTypeEthernet, false, flows))
	f.Add(writeCapture(f, layers.LinkTypeLinuxSLL2, true, flows))
	f.Add(writeCapture(f, layers.LinkTypeRaw, true, flows[:2]))
	f.Add([]byte(`{"packets":[{"t_ns":0,"dir":"up","bytes":10,"payload":2}]}`))
	f.Add([]byte(`{"schema":"cryptocost/run/v1","results":[{"subject":{"name":"a"},"metrics":[{"name":"x","unit":"B","label":"measured"}],"trace":{"packets":[{"t_ns":0,"dir":"down","bytes":1}]}}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		in, err := Read(bytes.NewReader(data), "fuzz", ReadOptions{})
		if err != nil {
			return
		}
		for _, i := range in {
			if err := CheckTrace(i.Trace); err != nil {
				t.Fatalf("accepted a bad trace: %v", err)
			}
			// Every accepted trace can be priced.
			if _, err := Price(i.Trace, "ble", Options{}); err != nil {
				t.Fatalf("price: %v", err)
			}
		}
	})
}
