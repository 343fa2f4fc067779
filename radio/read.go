package radio

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/netip"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"time"

	"github.com/cryptocost/cryptocost/result"
	"github.com/gopacket/gopacket"
	"github.com/gopacket/gopacket/layers"
	"github.com/gopacket/gopacket/pcapgo"
)

// ReadOptions say how to turn a file into traces.
type ReadOptions struct {
	// DeviceAddr is the IP address of the device in a capture. Empty: the
	// host that opened the first TCP connection (sent the first SYN), or
	// without TCP the sender of the first IP packet.
	DeviceAddr string
	// Subject selects the results of a cryptocost run whose subject name
	// matches this pattern ("tls/*resum*": * matches any characters, ? one).
	// Empty: every result that carries a trace.
	Subject string
}

// Input is a trace read from a file, with where it came from.
type Input struct {
	// Name is the run's subject name, or the capture's file name.
	Name string
	// Source is the file, and the subject within a run.
	Source string
	Trace  *result.Trace
	// Notes say what the reader chose (the device's address, packets left
	// out).
	Notes []string
}

// maxJSON caps a run file: runs with raw samples and traces stay far below.
const maxJSON = 256 << 20

// ReadFile reads the traces of a cryptocost run (JSON), a bare trace (JSON
// with "packets"), or a pcap or pcapng capture (gzip-compressed or not).
func ReadFile(name string, opt ReadOptions) ([]Input, error) {
	f, err := os.Open(name)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%s: no such file (give a cryptocost run saved with -o run.json, a trace JSON, or a pcap/pcapng capture)", name)
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return Read(f, name, opt)
}

// Read is ReadFile on an open reader; name labels errors and sources.
func Read(r io.Reader, name string, opt ReadOptions) ([]Input, error) {
	br := bufio.NewReader(r)
	head, _ := br.Peek(4)
	var src io.Reader = br
	if len(head) >= 2 && head[0] == 0x1f && head[1] == 0x8b {
		zr, err := gzip.NewReader(br)
		if err != nil {
			return nil, fmt.Errorf("%s: gzip: %w", name, err)
		}
		br = bufio.NewReader(zr)
		src = br
		head, _ = br.Peek(4)
	}
	switch {
	case isPcap(head):
		pr, err := pcapgo.NewReader(src)
		if err != nil {
			return nil, fmt.Errorf("%s: not a readable pcap file: %w", name, err)
		}
		return readCapture(pr, pr.LinkType(), name, opt)
	case isPcapng(head):
		nr, err := pcapgo.NewNgReader(src, pcapgo.DefaultNgReaderOptions)
		if err != nil {
			return nil, fmt.Errorf("%s: not a readable pcapng file: %w", name, err)
		}
		return readCapture(nr, nr.LinkType(), name, opt)
	}
	if first := firstNonSpace(br); first == '{' || first == '[' {
		return readJSON(br, name, opt)
	}
	return nil, fmt.Errorf("%s: not a cryptocost run or trace (JSON), pcap or pcapng file (it starts with % x)", name, head)
}

func isPcap(h []byte) bool {
	if len(h) < 4 {
		return false
	}
	switch binary.LittleEndian.Uint32(h) {
	case 0xa1b2c3d4, 0xd4c3b2a1, 0xa1b23c4d, 0x4d3cb2a1: // µs and ns, both byte orders
		return true
	}
	return false
}

func isPcapng(h []byte) bool {
	return len(h) >= 4 && binary.LittleEndian.Uint32(h) == 0x0a0d0d0a // section header block
}

func firstNonSpace(br *bufio.Reader) byte {
	for n := 1; n <= 4096; n++ {
		b, err := br.Peek(n)
		if err != nil || len(b) < n {
			return 0
		}
		switch c := b[n-1]; c {
		case ' ', '\t', '\r', '\n':
		default:
			return c
		}
	}
	return 0
}

// readJSON reads a run (or runs) with traces, or a bare trace.
func readJSON(r io.Reader, name string, opt ReadOptions) ([]Input, error) {
	data, err := io.ReadAll(io.LimitReader(r, maxJSON+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if len(data) > maxJSON {
		return nil, fmt.Errorf("%s: larger than %d MiB: split the run", name, maxJSON>>20)
	}
	var probe map[string]json.RawMessage
	if json.Unmarshal(data, &probe) == nil && probe["schema"] == nil && probe["packets"] != nil {
		var t result.Trace
		dec := json.NewDecoder(bytes.NewReader(data))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&t); err != nil {
			return nil, fmt.Errorf("%s: not a trace: %w", name, err)
		}
		if err := CheckTrace(&t); err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		return []Input{{Name: strings.TrimSuffix(filepath.Base(name), filepath.Ext(name)), Source: name, Trace: &t}}, nil
	}
	runs, err := result.ReadJSON(bytes.NewReader(data))
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	var out []Input
	var all []string
	for _, run := range runs {
		for _, res := range run.Results {
			if res.Trace == nil {
				continue
			}
			all = append(all, res.Subject.Name)
			if opt.Subject != "" && !glob(opt.Subject, res.Subject.Name) {
				continue
			}
			if err := CheckTrace(res.Trace); err != nil {
				return nil, fmt.Errorf("%s: subject %s: %w", name, res.Subject.Name, err)
			}
			out = append(out, Input{Name: res.Subject.Name, Source: name + "#" + res.Subject.Name, Trace: res.Trace})
		}
	}
	switch {
	case len(all) == 0:
		return nil, fmt.Errorf("%s: no result in this run carries a packet trace (runs of the TLS lab and of scenarios do; primitive benchmarks do not)", name)
	case len(out) == 0:
		return nil, fmt.Errorf("%s: no traced subject matches %q: want one of %s", name, opt.Subject, strings.Join(all, ", "))
	}
	return out, nil
}

// glob reports whether name matches pattern, where * stands for any
// characters (slashes included: subject names have them) and ? for one.
func glob(pattern, name string) bool {
	re := "^" + strings.NewReplacer(`\*`, ".*", `\?`, ".").Replace(regexp.QuoteMeta(pattern)) + "$"
	ok, _ := regexp.MatchString(re, name)
	return ok
}

// captureReader is what pcapgo's pcap and pcapng readers share.
type captureReader interface {
	ReadPacketData() ([]byte, gopacket.CaptureInfo, error)
}

// linkDecoders are the capture link types a trace can come from: what a
// phone (Ethernet, Linux cooked), a tunnel (raw IP) or the loopback of a
// test (BSD NULL/LOOP, or Ethernet on Linux) records.
var linkDecoders = map[layers.LinkType]gopacket.Decoder{
	layers.LinkTypeEthernet:  layers.LinkTypeEthernet,
	layers.LinkTypeRaw:       layers.LinkTypeRaw,
	layers.LinkTypeLinuxSLL:  layers.LinkTypeLinuxSLL,
	layers.LinkTypeLinuxSLL2: layers.LinkTypeLinuxSLL2,
	layers.LinkTypeNull:      layers.LinkTypeNull,
	layers.LinkTypeLoop:      layers.LinkTypeLoop,
	layers.LinkTypeIPv4:      layers.LayerTypeIPv4,
	layers.LinkTypeIPv6:      layers.LayerTypeIPv6,
}

const supportedLinks = "Ethernet (1), raw IP (101), Linux SLL (113), Linux SLL2 (276), BSD loopback NULL (0) and LOOP (108), IPv4 (228), IPv6 (229)"

// record is an IP packet of a capture, before directions are known.
type record struct {
	t        time.Time
	src, dst netip.Addr
	sport    uint16
	dport    uint16
	ports    bool   // TCP or UDP
	proto    string // result.TransportTCP, result.TransportUDP or ""
	syn      bool   // a TCP SYN without ACK: a connection being opened
	bytes    int    // IP packet: headers and payload
	payload  int    // transport payload
}

func readCapture(cr captureReader, link layers.LinkType, name string, opt ReadOptions) ([]Input, error) {
	dec, ok := linkDecoders[link]
	if !ok {
		return nil, fmt.Errorf("%s: capture link type %d (%s) is not supported: want one of %s", name, int(link), link, supportedLinks)
	}
	var recs []record
	nonIP := 0
	for n := 1; ; n++ {
		data, ci, err := cr.ReadPacketData()
		if err == io.EOF {
			break
		}
		if errors.Is(err, io.ErrUnexpectedEOF) {
			return nil, fmt.Errorf("%s: record %d: the capture is truncated (the file ends inside a record): was the capture stopped before it was flushed?", name, n)
		}
		if err != nil {
			return nil, fmt.Errorf("%s: record %d: %w", name, n, err)
		}
		if len(recs) >= MaxPackets {
			return nil, fmt.Errorf("%s: more than %d IP packets: cut the capture (editcap -r) to the exchange you want priced", name, MaxPackets)
		}
		rec, ok, err := decodeRecord(data, ci, dec)
		if err != nil {
			return nil, fmt.Errorf("%s: record %d: %w", name, n, err)
		}
		if !ok {
			nonIP++
			continue
		}
		if k := len(recs); k > 0 && rec.t.Before(recs[k-1].t) {
			return nil, fmt.Errorf("%s: record %d: its time is %v before the previous record's: the capture is out of order (reorder it with `reordercap`)", name, n, recs[k-1].t.Sub(rec.t))
		}
		recs = append(recs, rec)
	}
	if len(recs) == 0 {
		return nil, fmt.Errorf("%s: the capture holds no IP packets", name)
	}
	t, notes, err := directions(recs, opt)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	if nonIP > 0 {
		notes = append(notes, fmt.Sprintf("%d non-IP records (ARP, ...) left out", nonIP))
	}
	if err := CheckTrace(t); err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return []Input{{Name: filepath.Base(name), Source: name, Trace: t, Notes: notes}}, nil
}

// decodeRecord reads the IP and transport headers of one captured frame.
// Sizes come from the IP header, so a capture cut at a snap length still
// gives the packets' true sizes; the headers themselves must be there.
func decodeRecord(data []byte, ci gopacket.CaptureInfo, dec gopacket.Decoder) (record, bool, error) {
	p := gopacket.NewPacket(data, dec, gopacket.DecodeOptions{NoCopy: true})
	rec := record{t: ci.Timestamp}
	truncated := func(what string) error {
		return fmt.Errorf("the %s header is cut short (%d of %d bytes captured): capture with a snap length of at least 128 bytes", what, ci.CaptureLength, ci.Length)
	}
	// gopacket keeps a layer that failed to decode, empty: a header cut
	// by the snap length shows as too few contents.
	nl := p.NetworkLayer()
	if nl == nil {
		return rec, false, nil // ARP, LLDP, ...: not IP
	}
	linkLen := len(data) - len(nl.LayerContents()) - len(nl.LayerPayload())
	var ipHeader int
	switch ip := nl.(type) {
	case *layers.IPv4:
		if len(ip.Contents) < 20 {
			return rec, false, truncated("IP")
		}
		rec.src, _ = netip.AddrFromSlice(ip.SrcIP.To4())
		rec.dst, _ = netip.AddrFromSlice(ip.DstIP.To4())
		rec.bytes, ipHeader = int(ip.Length), int(ip.IHL)*4
	case *layers.IPv6:
		if len(ip.Contents) < 40 {
			return rec, false, truncated("IP")
		}
		rec.src, _ = netip.AddrFromSlice(ip.SrcIP)
		rec.dst, _ = netip.AddrFromSlice(ip.DstIP)
		rec.bytes, ipHeader = 40+int(ip.Length), 40
		if ip.Length == 0 {
			rec.bytes = 0 // a jumbogram or offloaded: fall back below
		}
	default:
		return rec, false, nil
	}
	if rec.bytes == 0 {
		// Segmentation offload records 0 as the IP length: take the
		// frame's original length instead.
		rec.bytes = ci.Length - linkLen
	}
	switch tl := p.TransportLayer().(type) {
	case *layers.TCP:
		if len(tl.Contents) < 20 {
			return rec, false, truncated("TCP/UDP")
		}
		rec.sport, rec.dport, rec.ports, rec.proto = uint16(tl.SrcPort), uint16(tl.DstPort), true, result.TransportTCP
		rec.syn = tl.SYN && !tl.ACK
		rec.payload = rec.bytes - ipHeader - int(tl.DataOffset)*4
	case *layers.UDP:
		if len(tl.Contents) < 8 {
			return rec, false, truncated("TCP/UDP")
		}
		rec.sport, rec.dport, rec.ports, rec.proto = uint16(tl.SrcPort), uint16(tl.DstPort), true, result.TransportUDP
		rec.payload = int(tl.Length) - 8
	}
	if rec.payload < 0 || rec.payload > rec.bytes {
		return rec, false, fmt.Errorf("inconsistent lengths: IP packet %d bytes, transport payload %d", rec.bytes, rec.payload)
	}
	return rec, true, nil
}

// directions decides which host is the device and turns records into a
// trace: up when the device sent the packet, down when it received it.
func directions(recs []record, opt ReadOptions) (*result.Trace, []string, error) {
	var notes []string
	var device netip.Addr
	// The first TCP SYN names client and server; without TCP, the first
	// packet's sender is the client.
	opener := recs[0]
	for _, r := range recs {
		if r.syn {
			opener = r
			break
		}
	}
	if opt.DeviceAddr != "" {
		a, err := netip.ParseAddr(opt.DeviceAddr)
		if err != nil {
			return nil, nil, fmt.Errorf("device address %q is not an IP address (give the phone's or sensor's address, such as 10.0.0.2)", opt.DeviceAddr)
		}
		device = a.Unmap()
		found := false
		for _, r := range recs {
			if r.src.Unmap() == device || r.dst.Unmap() == device {
				found = true
				break
			}
		}
		if !found {
			return nil, nil, fmt.Errorf("no packet comes from or goes to the device address %s", device)
		}
		for _, r := range recs {
			if r.syn && r.src.Unmap() == device {
				opener = r
				break
			}
		}
		notes = append(notes, fmt.Sprintf("device %s (given)", device))
	} else {
		device = opener.src.Unmap()
		how := "sender of the first packet"
		if opener.syn {
			how = "opened the first TCP connection"
		}
		notes = append(notes, fmt.Sprintf("device %s (%s; --device-addr chooses another)", device, how))
	}
	// On a loopback capture both ends share the address: the server is the
	// end the opener connected to, by port.
	loopback := opener.src.Unmap() == opener.dst.Unmap()
	server := netip.AddrPortFrom(opener.dst.Unmap(), opener.dport)
	if loopback {
		notes = append(notes, fmt.Sprintf("both ends are %s: packets to port %d are up, from it down", device, opener.dport))
	}
	t := &result.Trace{HeaderModel: "IP packet length from the IP header (IP and transport headers, no link-layer framing); payload = TCP/UDP payload"}
	first := recs[0].t
	t.Transport = recs[0].proto
	for _, r := range recs {
		if r.proto != t.Transport {
			t.Transport = "" // mixed
			break
		}
	}
	other := 0
	for _, r := range recs {
		src, dst := r.src.Unmap(), r.dst.Unmap()
		var dir result.Direction
		switch {
		case loopback && src == device && dst == device:
			switch {
			case r.ports && netip.AddrPortFrom(dst, r.dport) == server:
				dir = result.Up
			case r.ports && netip.AddrPortFrom(src, r.sport) == server:
				dir = result.Down
			}
		case src == device:
			dir = result.Up
		case dst == device:
			dir = result.Down
		}
		if dir == "" {
			other++
			continue
		}
		t.Packets = append(t.Packets, result.Packet{TimeNs: r.t.Sub(first).Nanoseconds(), Dir: dir, Bytes: r.bytes, Payload: r.payload})
	}
	if other > 0 {
		notes = append(notes, fmt.Sprintf("%d packets neither from nor to the device left out", other))
	}
	if len(t.Packets) > 0 && t.Packets[0].TimeNs > 0 {
		// Times count from the device's first packet.
		t0 := t.Packets[0].TimeNs
		for i := range t.Packets {
			t.Packets[i].TimeNs -= t0
		}
	}
	return t, notes, nil
}
