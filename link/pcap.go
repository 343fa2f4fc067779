package link

import (
	"errors"
	"fmt"
	"io"
	"net/netip"
	"time"

	"github.com/cryptocost/cryptocost/result"
	"github.com/gopacket/gopacket"
	"github.com/gopacket/gopacket/layers"
	"github.com/gopacket/gopacket/pcapgo"
)

// PcapOptions describe the synthetic capture of a modelled connection.
type PcapOptions struct {
	// Client and Server are the addresses written into the IPv4 and TCP
	// headers (defaults 10.0.0.2:49152 and 10.0.0.1:443, so Wireshark
	// dissects port 443 as TLS).
	Client, Server netip.AddrPort
	// Start is the capture's wall-clock time zero.
	Start time.Time
	// KeyLog, if set, is embedded as a Decryption Secrets Block (NSS key
	// log format) so Wireshark decrypts TLS without a separate file.
	KeyLog []byte
	// Comment goes into the section header (the run, the link model).
	Comment string
	// Label, if set, names each packet (a packet comment in the file).
	Label func(Packet) string
}

var (
	defaultClient = netip.MustParseAddrPort("10.0.0.2:49152")
	defaultServer = netip.MustParseAddrPort("10.0.0.1:443")
)

// Initial sequence numbers of the synthetic capture (any value works;
// fixed ones make files reproducible). Packet.Seq/Ack are relative to them.
const clientISN, serverISN = 1000000, 2000000

// WritePcapng writes the modelled packets as a pcapng capture at the
// client's interface (raw IPv4 link type): IPv4 and TCP headers exactly as
// the header model counts them (timestamp option on every segment, the
// SYN options on SYN and SYN-ACK), with payload bytes from the two
// directions' streams. The file's per-packet lengths therefore add up to
// the trace's wire bytes.
func WritePcapng(w io.Writer, pkts []Packet, up, down []byte, opt PcapOptions) error {
	if !opt.Client.IsValid() {
		opt.Client = defaultClient
	}
	if !opt.Server.IsValid() {
		opt.Server = defaultServer
	}
	if opt.Start.IsZero() {
		opt.Start = time.Now()
	}
	ngw, err := pcapgo.NewNgWriterInterface(w, pcapgo.NgInterface{
		Name:                "cryptocost-link",
		Description:         "client side of an emulated link (synthetic TCP/IPv4 headers)",
		LinkType:            layers.LinkTypeRaw,
		SnapLength:          0,
		TimestampResolution: 9,
	}, pcapgo.NgWriterOptions{SectionInfo: pcapgo.NgSectionInfo{
		Application: "cryptocost", Comment: opt.Comment}})
	if err != nil {
		return fmt.Errorf("pcapng: %w", err)
	}
	if len(opt.KeyLog) > 0 {
		if err := ngw.WriteDecryptionSecretsBlock(pcapgo.DSB_SECRETS_TYPE_TLS, opt.KeyLog); err != nil {
			return fmt.Errorf("pcapng: key log: %w", err)
		}
	}
	buf := gopacket.NewSerializeBuffer()
	for i, p := range pkts {
		stream := up
		if p.Dir == result.Down {
			stream = down
		}
		if p.Offset < 0 || p.Offset+int64(p.Len) > int64(len(stream)) {
			return fmt.Errorf("pcapng: packet %d: payload [%d, %d) beyond the %s stream's %d bytes", i, p.Offset, p.Offset+int64(p.Len), p.Dir, len(stream))
		}
		payload := stream[p.Offset : p.Offset+int64(p.Len)]
		if err := serializePacket(buf, p, payload, opt); err != nil {
			return fmt.Errorf("pcapng: packet %d: %w", i, err)
		}
		data := buf.Bytes()
		if len(data) != p.WireBytes {
			return fmt.Errorf("pcapng: packet %d: %d bytes serialised, the model says %d", i, len(data), p.WireBytes)
		}
		ci := gopacket.CaptureInfo{Timestamp: opt.Start.Add(p.At), CaptureLength: len(data), Length: len(data)}
		var popt pcapgo.NgPacketOptions
		if opt.Label != nil {
			if l := opt.Label(p); l != "" {
				popt.Comments = []string{l}
			}
		}
		if err := ngw.WritePacketWithOptions(ci, data, popt); err != nil {
			return fmt.Errorf("pcapng: %w", err)
		}
	}
	return ngw.Flush()
}

func serializePacket(buf gopacket.SerializeBuffer, p Packet, payload []byte, opt PcapOptions) error {
	src, dst := opt.Client, opt.Server
	seq, ack := uint32(clientISN)+p.Seq, uint32(serverISN)+p.Ack
	if p.Dir == result.Down {
		src, dst = dst, src
		seq, ack = uint32(serverISN)+p.Seq, uint32(clientISN)+p.Ack
	}
	ip := &layers.IPv4{Version: 4, TTL: 64, Protocol: layers.IPProtocolTCP, Flags: layers.IPv4DontFragment,
		SrcIP: src.Addr().AsSlice(), DstIP: dst.Addr().AsSlice()}
	tcp := &layers.TCP{SrcPort: layers.TCPPort(src.Port()), DstPort: layers.TCPPort(dst.Port()),
		Seq: seq, Window: 65535,
		SYN: p.Flags&FlagSYN != 0, ACK: p.Flags&FlagACK != 0, FIN: p.Flags&FlagFIN != 0, PSH: p.Flags&FlagPSH != 0}
	if tcp.ACK {
		tcp.Ack = ack
	}
	ts := layers.TCPOption{OptionType: layers.TCPOptionKindTimestamps, OptionLength: 10,
		OptionData: make([]byte, 8)}
	putUint32(ts.OptionData, uint32(p.At/time.Millisecond)+1)
	if tcp.SYN {
		// Linux's SYN options: MSS, SACK permitted, timestamps, NOP, window scale: 20 B.
		tcp.Options = []layers.TCPOption{
			{OptionType: layers.TCPOptionKindMSS, OptionLength: 4, OptionData: []byte{0x05, 0xb4}},
			{OptionType: layers.TCPOptionKindSACKPermitted, OptionLength: 2},
			ts,
			{OptionType: layers.TCPOptionKindNop},
			{OptionType: layers.TCPOptionKindWindowScale, OptionLength: 3, OptionData: []byte{7}},
		}
	} else {
		tcp.Options = []layers.TCPOption{{OptionType: layers.TCPOptionKindNop}, {OptionType: layers.TCPOptionKindNop}, ts}
	}
	if err := tcp.SetNetworkLayerForChecksum(ip); err != nil {
		return err
	}
	return gopacket.SerializeLayers(buf, gopacket.SerializeOptions{FixLengths: true, ComputeChecksums: true},
		ip, tcp, gopacket.Payload(payload))
}

func putUint32(b []byte, v uint32) {
	b[0], b[1], b[2], b[3] = byte(v>>24), byte(v>>16), byte(v>>8), byte(v)
}

// PcapCount is what a capture holds, counted from its packets alone.
type PcapCount struct {
	// Packets and WireBytes (IP packet lengths) each way.
	UpPackets, DownPackets     int
	UpWireBytes, DownWireBytes int64
	// TCP payload bytes each way.
	UpPayload, DownPayload int64
	// Up and Down are the TCP payload streams in sequence order
	// (retransmitted bytes once).
	Up, Down []byte
}

// ReadPcapng reads a capture written by WritePcapng (or any raw-IPv4 or
// Ethernet pcapng of one TCP connection) and counts it independently of
// the model: direction from the client address (the first SYN's source),
// bytes from the IPv4 and TCP headers gopacket decodes.
func ReadPcapng(r io.Reader) (PcapCount, error) {
	var c PcapCount
	ngr, err := pcapgo.NewNgReader(r, pcapgo.DefaultNgReaderOptions)
	if err != nil {
		return c, fmt.Errorf("pcapng: %w", err)
	}
	var client netip.Addr
	var clientPort uint16
	next := map[bool]uint32{}
	started := map[bool]bool{}
	for {
		data, _, err := ngr.ReadPacketData()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return c, fmt.Errorf("pcapng: %w", err)
		}
		pkt := gopacket.NewPacket(data, ngr.LinkType(), gopacket.Default)
		ipl, _ := pkt.Layer(layers.LayerTypeIPv4).(*layers.IPv4)
		tcpl, _ := pkt.Layer(layers.LayerTypeTCP).(*layers.TCP)
		if ipl == nil || tcpl == nil {
			return c, fmt.Errorf("pcapng: a packet that is not TCP/IPv4 (%d bytes)", len(data))
		}
		src, _ := netip.AddrFromSlice(ipl.SrcIP)
		if !client.IsValid() {
			if !tcpl.SYN || tcpl.ACK {
				return c, errors.New("pcapng: the capture does not start with the client's SYN")
			}
			client, clientPort = src, uint16(tcpl.SrcPort)
		}
		isUp := src == client && uint16(tcpl.SrcPort) == clientPort
		payload := tcpl.Payload
		if isUp {
			c.UpPackets++
			c.UpWireBytes += int64(ipl.Length)
			c.UpPayload += int64(len(payload))
		} else {
			c.DownPackets++
			c.DownWireBytes += int64(ipl.Length)
			c.DownPayload += int64(len(payload))
		}
		if tcpl.SYN {
			next[isUp] = tcpl.Seq + 1
			started[isUp] = true
			continue
		}
		if len(payload) == 0 || !started[isUp] {
			continue
		}
		// Append in sequence order; a retransmission of bytes already
		// seen adds nothing.
		stream := &c.Up
		if !isUp {
			stream = &c.Down
		}
		off := int64(tcpl.Seq - next[isUp])
		if off > int64(len(*stream)) {
			return c, fmt.Errorf("pcapng: a gap in the %s stream at offset %d", map[bool]string{true: "up", false: "down"}[isUp], len(*stream))
		}
		if end := off + int64(len(payload)); end > int64(len(*stream)) {
			*stream = append(*stream, payload[int64(len(*stream))-off:]...)
		}
	}
	return c, nil
}
