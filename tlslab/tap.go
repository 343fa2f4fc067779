package tlslab

import (
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/cryptocost/cryptocost/internal/tlswire"
	"github.com/cryptocost/cryptocost/link"
	"github.com/cryptocost/cryptocost/result"
)

// Capture is what the wire tap records of one connection: the link
// emulator's segments (times, sizes) and the two byte streams. Recording
// is an append under a lock; all parsing happens afterwards in Analyze,
// so the tap costs the connection little (docs/tls.md measures it).
type Capture struct {
	mu       sync.Mutex
	segments []link.Segment
	up, down []byte
	// notify is closed when the next segment is recorded: a broadcast,
	// since both peers of an OpenSSL–OpenSSL cell wait on the wire.
	notify chan struct{}
}

// The capacities a Capture starts with: a TLS 1.3 handshake with a
// certificate chain of 2 and its close is ~2.5 kB down, ~0.5 kB up, a
// dozen segments.
const (
	captureUpCap, captureDownCap = 1024, 4096
	captureSegmentsCap           = 16
)

// changed returns a channel that is closed once a segment is recorded
// after this call. A watcher takes it before it looks at the capture, so
// no segment can slip in between unseen.
func (c *Capture) changed() <-chan struct{} {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.notify == nil {
		c.notify = make(chan struct{})
	}
	return c.notify
}

// Observe is the link.Observer that records a segment.
func (c *Capture) Observe(s link.Segment) {
	c.mu.Lock()
	if c.notify != nil {
		close(c.notify)
		c.notify = nil
	}
	if !s.Lost {
		stream := &c.up
		if s.Dir == result.Down {
			stream = &c.down
		}
		if int64(len(*stream)) == s.Seq {
			if *stream == nil {
				// A handshake's flight fits: no regrowing it byte
				// range by byte range while the connection is timed.
				n := captureUpCap
				if s.Dir == result.Down {
					n = captureDownCap
				}
				*stream = make([]byte, 0, max(len(s.Payload), n))
			}
			*stream = append(*stream, s.Payload...)
		}
	}
	s.Payload = nil
	if c.segments == nil {
		c.segments = make([]link.Segment, 0, captureSegmentsCap)
	}
	c.segments = append(c.segments, s)
	c.mu.Unlock()
}

// Segments returns the recorded segments (payloads removed).
func (c *Capture) Segments() []link.Segment {
	c.mu.Lock()
	defer c.mu.Unlock()
	return slices.Clone(c.segments)
}

// Streams returns the bytes each way.
func (c *Capture) Streams() (up, down []byte) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.up, c.down
}

// Message is a unit of the wire accounting: a handshake message, a
// ChangeCipherSpec, an alert, or a run of application-data records; every
// byte of the TLS streams belongs to exactly one.
type Message struct {
	Dir result.Direction
	// Name: "ClientHello", ..., "ChangeCipherSpec", "Alert(close_notify)",
	// "ApplicationData"; for TLS 1.3 records the tap could not decrypt,
	// "EncryptedHandshake" or "Encrypted".
	Name string
	// Content is the record content type the bytes belong to (the inner
	// type of TLS 1.3 records the tap decrypted).
	Content uint8
	// Bytes are the TLS bytes attributed: the message itself plus the
	// header and protection overhead (explicit IV, MAC, padding, tag,
	// inner type) of every record whose first byte it holds.
	Bytes int
	// Records is the number of records this message starts in (1 for a
	// message that shares its record with others and is not first).
	Records int
	// Payload is the application data plaintext, when known (decrypted,
	// or plaintext records); -1 when not known.
	Payload int
	// At is when the client sent the message's first byte (up) or had
	// received its last byte (down), from SYN.
	At time.Duration
	// Encrypted: carried in protected records; Decrypted: the tap opened
	// them with logged keys.
	Encrypted, Decrypted bool
	// Flight numbers the maximal runs of messages in one direction, from 1.
	Flight int
	// Offset is where the message's first record starts in its stream.
	Offset int
	// endOffsetDelta is the span from Offset to the end of the message's
	// last record (its last byte, for the receiver's time).
	endOffsetDelta int
}

// Analysis is the wire accounting of one connection.
type Analysis struct {
	// From the hellos: the negotiated version, suite and key-exchange
	// group ("x25519", "ffdhe2048", "DH-1024"), and whether the handshake
	// resumed a session or included a HelloRetryRequest, a certificate
	// request.
	Version         uint16
	CipherSuite     uint16
	Group           string
	Resumed         bool
	HelloRetry      bool
	CertRequested   bool
	ClientHelloInfo *ClientHello
	ServerHelloInfo *ServerHello

	Messages []Message
	// Flights counts them; RoundTrips is the number of server flights the
	// client waited for before it could send application data.
	Flights, RoundTrips int
	// HandshakeDone is when both Finished messages had been sent/received
	// as the client sees it; 0 if the handshake did not complete.
	HandshakeDone time.Duration
	// Bytes each way (all TLS records), by content and in total.
	Up, Down Totals
	// Truncated bytes at the end of a stream (a record cut short).
	TruncatedUp, TruncatedDown int
	// Decrypted says TLS 1.3 records were opened with logged keys;
	// Notes say what could not be attributed and why.
	Decrypted bool
	Notes     []string
}

// Totals are the TLS bytes of one direction by content.
type Totals struct {
	Handshake, ChangeCipherSpec, Alert, ApplicationData, Encrypted int
	Records                                                        int
	// AppPayload is the application data plaintext, -1 if unknown.
	AppPayload int
}

// All is every TLS byte of the direction.
func (t Totals) All() int {
	return t.Handshake + t.ChangeCipherSpec + t.Alert + t.ApplicationData + t.Encrypted
}

// HandshakeBytes are the bytes of the handshake protocol and
// ChangeCipherSpec (S000's "handshake bytes"), post-handshake messages
// such as NewSessionTicket included.
func (t Totals) HandshakeBytes() int { return t.Handshake + t.ChangeCipherSpec }

// Totals returns the bytes of a direction.
func (a *Analysis) Totals(d result.Direction) Totals {
	if d == result.Up {
		return a.Up
	}
	return a.Down
}

// timeline maps stream offsets to the client's times.
type timeline struct {
	segs []link.Segment // non-lost, by Seq
}

func newTimeline(segs []link.Segment, d result.Direction) timeline {
	n := 0
	for _, s := range segs {
		if s.Dir == d && !s.Lost {
			n++
		}
	}
	tl := timeline{segs: make([]link.Segment, 0, n)}
	for _, s := range segs {
		if s.Dir == d && !s.Lost {
			tl.segs = append(tl.segs, s)
		}
	}
	slices.SortFunc(tl.segs, func(a, b link.Segment) int { return int(a.Seq - b.Seq) })
	return tl
}

// at is when the client sent (up) or received (down) the byte at off.
func (tl timeline) at(off int) time.Duration {
	i, _ := slices.BinarySearchFunc(tl.segs, int64(off), func(s link.Segment, off int64) int {
		if s.Seq <= off {
			return -1
		}
		return 1
	})
	if i == 0 {
		if len(tl.segs) == 0 {
			return 0
		}
		i = 1
	}
	return tl.segs[i-1].AtClient()
}

// Analyze attributes every byte of a connection's TLS streams. keys may
// be nil (TLS 1.3 handshakes are then attributed by flight, not message).
func Analyze(c *Capture, keys *KeyLog) (*Analysis, error) {
	return analyzeCapture(c, c.Segments(), keys)
}

// analyzeCapture is Analyze with the capture's segments already copied
// out (the lab's accounting reads them once for all its uses).
func analyzeCapture(c *Capture, segs []link.Segment, keys *KeyLog) (*Analysis, error) {
	up, down := c.Streams()
	upRecs, tailUp, err := ParseRecords(up)
	if err != nil {
		return nil, fmt.Errorf("client → server stream: %w", err)
	}
	downRecs, tailDown, err := ParseRecords(down)
	if err != nil {
		return nil, fmt.Errorf("server → client stream: %w", err)
	}
	return analyzeRecords(upRecs, downRecs, tailUp, tailDown, segs, keys), nil
}

// analyzeRecords attributes the records of both streams (tails: the bytes
// after each stream's last whole record).
func analyzeRecords(upRecs, downRecs []Record, tailUp, tailDown int, segs []link.Segment, keys *KeyLog) *Analysis {
	a := &Analysis{}
	a.TruncatedUp, a.TruncatedDown = tailUp, tailDown
	a.readHellos(upRecs, downRecs)

	var clientRandom []byte
	if a.ClientHelloInfo != nil {
		clientRandom = a.ClientHelloInfo.Random
	}
	upMsgs := a.direction(result.Up, upRecs, keys, clientRandom)
	downMsgs := a.direction(result.Down, downRecs, keys, clientRandom)
	upTL, downTL := newTimeline(segs, result.Up), newTimeline(segs, result.Down)
	for i := range upMsgs {
		upMsgs[i].At = upTL.at(upMsgs[i].Offset)
	}
	for i := range downMsgs {
		m := &downMsgs[i]
		m.At = downTL.at(m.Offset + m.endOffsetDelta - 1)
	}
	a.Messages = append(upMsgs, downMsgs...)
	slices.SortStableFunc(a.Messages, func(x, y Message) int {
		if x.At != y.At {
			return cmpDur(x.At, y.At)
		}
		if x.Dir != y.Dir { // simultaneous: the client's first
			if x.Dir == result.Up {
				return -1
			}
			return 1
		}
		return 0
	})
	a.flights()
	a.totals()
	return a
}

func cmpDur(a, b time.Duration) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// readHellos finds the first ClientHello and ServerHello (always
// plaintext) and what they negotiated.
func (a *Analysis) readHellos(upRecs, downRecs []Record) {
	// first returns the body of the stream's first message of type typ
	// among its first few handshake messages (a ServerHello may follow a
	// HelloRetryRequest; nothing else comes first).
	first := func(recs []Record, typ uint8) []byte {
		var buf []byte
		seen := 0
		var msgs []HandshakeMessage
		for _, r := range recs {
			if r.Type != ContentHandshake {
				if len(buf) > 0 || r.Type == ContentApplicationData {
					break
				}
				continue
			}
			if len(buf) == 0 {
				// Read in place: capped, so a later append copies
				// instead of writing into the stream.
				buf = r.Fragment[:len(r.Fragment):len(r.Fragment)]
			} else {
				buf = append(buf, r.Fragment...)
			}
			msgs, buf = tlswire.AppendHandshakeMessages(msgs[:0], buf)
			for _, m := range msgs {
				if seen++; seen > 4 {
					return nil
				}
				if m.Type == typ {
					if typ == TypeServerHello && tlswire.IsHelloRetryRequest(m.Body) {
						a.HelloRetry = true
						continue
					}
					return m.Body
				}
			}
		}
		return nil
	}
	if body := first(upRecs, TypeClientHello); body != nil {
		if ch, err := ParseClientHello(body); err == nil {
			a.ClientHelloInfo = ch
			a.Version = ch.Version
		} else {
			a.Notes = append(a.Notes, err.Error())
		}
	}
	if body := first(downRecs, TypeServerHello); body != nil {
		if sh, err := ParseServerHello(body); err == nil {
			a.ServerHelloInfo = sh
			a.Version = sh.SelectedVersion
			a.CipherSuite = sh.CipherSuite
			if sh.KeyShare != 0 {
				a.Group = GroupName(sh.KeyShare)
			}
			switch {
			case a.Version == VersionTLS13:
				a.Resumed = sh.PSK
			default:
				ch := a.ClientHelloInfo
				a.Resumed = ch != nil && len(sh.SessionID) > 0 && string(sh.SessionID) == string(ch.SessionID)
			}
		} else {
			a.Notes = append(a.Notes, err.Error())
		}
	}
}

// hsByte locates one byte of a direction's handshake-protocol plaintext.
type hsRecord struct {
	rec       Record
	plain     int // plaintext bytes this record contributed
	overhead  int // record bytes that are not plaintext (header, IV, MAC, padding, tag, inner type)
	start     int // offset of its first plaintext byte in the handshake buffer
	encrypted bool
	decrypted bool
}

// direction attributes one direction's records to messages.
func (a *Analysis) direction(d result.Direction, recs []Record, keys *KeyLog, clientRandom []byte) []Message {
	p := &dirParser{a: a, d: d, tls13: a.Version == VersionTLS13, keys: keys, clientRandom: clientRandom,
		hsLabel: LabelServerHandshake, appLabel: LabelServerTraffic0}
	if d == result.Up {
		p.hsLabel, p.appLabel = LabelClientHandshake, LabelClientTraffic0
	}
	if p.tls13 {
		p.nextKey()
	}
	for _, r := range recs {
		p.record(r)
	}
	p.flushHandshake()
	p.finish()
	return p.out
}

// dirParser is the state of one direction's attribution: the messages so
// far, the handshake bytes not yet a whole message with the records they
// came in, and the TLS 1.3 record protection in use. Each record is parsed
// once, into buffers the parser reuses (hsBuf, hsRecs, msgs, plain): the
// lab analyses every connection it measures (docs/tls.md § Benchmarks).
type dirParser struct {
	a            *Analysis
	d            result.Direction
	tls13        bool
	keys         *KeyLog
	clientRandom []byte

	out       []Message
	hsBuf     []byte
	hsRecs    []hsRecord
	msgs      []HandshakeMessage // the last parse of hsBuf
	plain     []byte             // the last record opened
	afterCCS  bool
	finished  bool // this direction's Finished was seen (1.2: the first encrypted handshake record)
	prot      *tlswire.RecordProtection
	epoch     int // 0: handshake secret, 1: traffic secret 0
	keyFailed bool

	hsLabel, appLabel string
}

// record attributes one record, by its content type (RFC 8446 §5.1).
func (p *dirParser) record(r Record) {
	switch {
	case p.tls13 && r.Type == ContentApplicationData:
		p.protected13(r)
	case r.Type == ContentHandshake:
		p.handshakeRecord(r)
	case r.Type == ContentChangeCipherSpec:
		p.flushHandshake()
		p.single(r, "ChangeCipherSpec", ContentChangeCipherSpec, false, false)
		if !p.tls13 {
			p.afterCCS = true
		}
	case r.Type == ContentAlert:
		p.flushHandshake()
		if p.afterCCS {
			p.single(r, "Alert(encrypted)", ContentAlert, true, false)
		} else {
			p.single(r, AlertName(r.Fragment), ContentAlert, false, false)
		}
	case r.Type == ContentApplicationData:
		p.flushHandshake()
		payload := -1
		if !p.afterCCS {
			payload = len(r.Fragment) // plaintext application data (never in TLS)
		}
		p.appendApp(r, payload, p.afterCCS, false)
	default:
		p.flushHandshake()
		p.single(r, ContentName(r.Type), r.Type, p.afterCCS, false)
	}
}

// nextKey moves to the next epoch's protection, if the key is logged.
func (p *dirParser) nextKey() {
	p.prot = nil
	if p.keys == nil || p.clientRandom == nil || p.epoch > 1 {
		return
	}
	label := p.hsLabel
	if p.epoch >= 1 {
		label = p.appLabel
	}
	secret := p.keys.Secret(label, p.clientRandom)
	if secret == nil {
		return
	}
	prot, err := tlswire.NewRecordProtection(p.a.CipherSuite, secret)
	if err != nil {
		p.a.Notes = append(p.a.Notes, err.Error())
		return
	}
	p.prot = prot
}

// open decrypts a TLS 1.3 protected record (RFC 8446 §5.2) under the
// handshake secret, or, when that fails, traffic secret 0.
func (p *dirParser) open(r Record) (content []byte, inner uint8, err error) {
	err = tlswire.ErrOpen
	for p.prot != nil {
		content, inner, err = p.prot.OpenTo(p.plain, r)
		if err == nil {
			p.plain = content[:0] // reused: content is not kept past this record
		}
		if err == nil || p.epoch >= 1 {
			break
		}
		// Not the handshake key: maybe the handshake is over.
		p.epoch++
		p.nextKey()
	}
	return content, inner, err
}

// protected13 attributes a TLS 1.3 protected record by its inner type, or
// as Encrypted when it cannot be opened.
func (p *dirParser) protected13(r Record) {
	content, inner, err := p.open(r)
	if err != nil {
		if p.prot != nil || (p.keys != nil && p.keys.Len() > 0) {
			p.keyFailed = true
		}
		p.flushHandshake()
		p.single(r, "Encrypted", ContentApplicationData, true, false)
		return
	}
	p.a.Decrypted = true
	switch inner {
	case ContentHandshake:
		p.addHandshake(r, content, true, true)
		msgs := p.flushHandshake()
		if len(msgs) > 0 && msgs[len(msgs)-1].Type == TypeFinished && p.epoch == 0 {
			p.epoch++
			p.nextKey()
		}
	case ContentAlert:
		p.flushHandshake()
		p.single(r, AlertName(content), ContentAlert, true, true)
	case ContentApplicationData:
		p.flushHandshake()
		p.appendApp(r, len(content), true, true)
	default:
		p.flushHandshake()
		p.single(r, ContentName(inner), inner, true, true)
	}
}

// handshakeRecord attributes a handshake record: plaintext messages, or
// in TLS 1.0–1.2 after ChangeCipherSpec the protected Finished (RFC 5246
// §7.4.9; later ones would be a renegotiation, which the lab never does).
func (p *dirParser) handshakeRecord(r Record) {
	if !p.afterCCS {
		p.addHandshake(r, r.Fragment, false, false)
		p.flushHandshake()
		return
	}
	p.flushHandshake()
	name := "Finished"
	if p.finished {
		name = "EncryptedHandshake"
	}
	p.finished = true
	p.single(r, name, ContentHandshake, true, false)
}

// addHandshake buffers a record's handshake plaintext (a copy: plain may
// be the stream itself, or the scratch a record was opened into).
func (p *dirParser) addHandshake(r Record, plain []byte, encrypted, decrypted bool) {
	p.hsRecs = append(p.hsRecs, hsRecord{rec: r, plain: len(plain), overhead: r.Len() - len(plain),
		start: len(p.hsBuf), encrypted: encrypted, decrypted: decrypted})
	p.hsBuf = append(p.hsBuf, plain...)
}

// flushHandshake turns the whole messages of the handshake buffer into
// Messages, each with the overhead of the records whose first plaintext
// byte it holds, and returns them (their bodies are overwritten once it
// returns: only the types are to be read).
func (p *dirParser) flushHandshake() []HandshakeMessage {
	if len(p.hsRecs) == 0 {
		return nil
	}
	msgs, rest := tlswire.AppendHandshakeMessages(p.msgs[:0], p.hsBuf)
	p.msgs = msgs
	if len(msgs) == 0 {
		// Still inside one message: keep the buffer as it is (copying it
		// per record would be quadratic in a hostile stream of tiny
		// records).
		return nil
	}
	pos, ri := 0, 0
	for _, m := range msgs {
		start, end := pos, pos+m.Len()
		pos = end
		var msg Message
		msg, ri = p.attribute(m, start, end, ri)
		p.out = append(p.out, msg)
	}
	// Keep an incomplete message for the next record, at the front of the
	// same buffers.
	p.hsBuf = p.hsBuf[:copy(p.hsBuf, rest)]
	p.hsRecs = p.hsRecs[:copy(p.hsRecs, p.hsRecs[ri:])]
	for i := range p.hsRecs {
		p.hsRecs[i].start -= pos
	}
	return msgs
}

// attribute makes the Message of handshake message m, which spans
// [start, end) of the buffer, from the records from index ri on; it
// returns the index of the first record not wholly used.
func (p *dirParser) attribute(m HandshakeMessage, start, end, ri int) (Message, int) {
	msg := Message{Dir: p.d, Name: HandshakeName(m.Type), Content: ContentHandshake, Bytes: m.Len(), Payload: -1}
	p.noteHandshake(m, &msg)
	first := true
	for ri < len(p.hsRecs) && p.hsRecs[ri].start < end {
		r := p.hsRecs[ri]
		if r.start >= start {
			// This message holds the record's first plaintext byte.
			msg.Bytes += r.overhead
			msg.Records++
			if first {
				msg.Offset = r.rec.Offset
				first = false
			}
		}
		msg.Encrypted = msg.Encrypted || r.encrypted
		msg.Decrypted = msg.Decrypted || r.decrypted
		msg.endOffsetDelta = r.rec.Offset + r.rec.Len() - msg.Offset
		if r.start+r.plain > end {
			break
		}
		ri++
	}
	if first { // the message started in an earlier record
		msg.Offset = p.hsRecs[max(ri-1, 0)].rec.Offset
	}
	return msg, ri
}

// noteHandshake records what a handshake message says about the
// connection: a HelloRetryRequest, a certificate request, the TLS ≤ 1.2
// key-exchange group.
func (p *dirParser) noteHandshake(m HandshakeMessage, msg *Message) {
	switch m.Type {
	case TypeServerHello:
		if tlswire.IsHelloRetryRequest(m.Body) {
			msg.Name = "HelloRetryRequest"
		}
	case TypeCertificateRequest:
		p.a.CertRequested = true
	case TypeServerKeyExchange:
		if p.a.Group == "" {
			p.a.Group = skeGroup(p.a.CipherSuite, m.Body)
		}
	}
}

func (p *dirParser) appendApp(r Record, payload int, encrypted, decrypted bool) {
	if n := len(p.out); n > 0 && p.out[n-1].Name == "ApplicationData" && p.out[n-1].Decrypted == decrypted {
		m := &p.out[n-1]
		m.Bytes += r.Len()
		m.Records++
		m.endOffsetDelta = r.Offset + r.Len() - m.Offset
		if m.Payload >= 0 && payload >= 0 {
			m.Payload += payload
		} else {
			m.Payload = -1
		}
		return
	}
	p.out = append(p.out, Message{Dir: p.d, Name: "ApplicationData", Content: ContentApplicationData, Bytes: r.Len(),
		Records: 1, Payload: payload, Encrypted: encrypted, Decrypted: decrypted, Offset: r.Offset, endOffsetDelta: r.Len()})
}

func (p *dirParser) single(r Record, name string, content uint8, encrypted, decrypted bool) {
	p.out = append(p.out, Message{Dir: p.d, Name: name, Content: content, Bytes: r.Len(), Records: 1, Payload: -1,
		Encrypted: encrypted, Decrypted: decrypted, Offset: r.Offset, endOffsetDelta: r.Len()})
}

// finish attributes an incomplete handshake message at the end: what is
// left of the buffer, and the overhead of the records that start inside
// it (an earlier message took the rest); and notes what did not decrypt.
func (p *dirParser) finish() {
	if len(p.hsBuf) > 0 || len(p.hsRecs) > 0 {
		m := Message{Dir: p.d, Name: "IncompleteHandshake", Content: ContentHandshake, Payload: -1, Bytes: len(p.hsBuf)}
		for i, r := range p.hsRecs {
			if r.start >= 0 {
				m.Bytes += r.overhead
				m.Records++
			}
			if i == 0 {
				m.Offset = r.rec.Offset
			}
			m.endOffsetDelta = r.rec.Offset + r.rec.Len() - m.Offset
		}
		p.out = append(p.out, m)
		p.a.Notes = append(p.a.Notes, fmt.Sprintf("%s: an incomplete handshake message at the end of the stream", p.d))
	}
	if p.keyFailed {
		p.a.Notes = append(p.a.Notes, fmt.Sprintf("%s: some TLS 1.3 records did not decrypt with the logged keys; attributed by flight", p.d))
	}
}

// flights numbers the flights, labels TLS 1.3 records that could not be
// decrypted by their position, and counts round trips and the handshake's
// end.
func (a *Analysis) flights() {
	flight := 0
	var last result.Direction
	for i := range a.Messages {
		m := &a.Messages[i]
		if i == 0 || m.Dir != last {
			flight++
			last = m.Dir
		}
		m.Flight = flight
	}
	a.Flights = flight
	// Undecrypted TLS 1.3 records: those in the server's ServerHello
	// flight and in the client's next flight are the encrypted handshake.
	shFlight := 0
	for _, m := range a.Messages {
		if m.Dir == result.Down && m.Name == "ServerHello" {
			shFlight = m.Flight
		}
	}
	for i := range a.Messages {
		m := &a.Messages[i]
		if m.Name == "Encrypted" && shFlight > 0 && (m.Flight == shFlight || m.Dir == result.Up && m.Flight == shFlight+1) {
			m.Name = "EncryptedHandshake"
			m.Content = ContentHandshake
		}
	}
	// Round trips: server flights up to the one with the server's
	// Finished (or, undecrypted, its encrypted handshake); the handshake
	// ends when the client has both received the server's Finished and
	// sent its own.
	var serverFin, clientFin time.Duration = -1, -1
	finFlight := 0
	for _, m := range a.Messages {
		isFin := m.Name == "Finished" || m.Name == "EncryptedHandshake"
		if !isFin {
			continue
		}
		if m.Dir == result.Down {
			if finFlight == 0 || m.Flight == finFlight {
				serverFin, finFlight = m.At, m.Flight
			}
		} else if clientFin < 0 || m.Flight == a.flightOf(clientFin, result.Up) {
			clientFin = m.At
		}
	}
	if finFlight > 0 {
		for f := 1; f <= finFlight; f++ {
			if a.flightDir(f) == result.Down {
				a.RoundTrips++
			}
		}
	}
	if serverFin >= 0 && clientFin >= 0 {
		a.HandshakeDone = max(serverFin, clientFin)
	}
}

func (a *Analysis) flightOf(at time.Duration, d result.Direction) int {
	for _, m := range a.Messages {
		if m.Dir == d && m.At == at {
			return m.Flight
		}
	}
	return 0
}

func (a *Analysis) flightDir(f int) result.Direction {
	for _, m := range a.Messages {
		if m.Flight == f {
			return m.Dir
		}
	}
	return ""
}

func (a *Analysis) totals() {
	a.Up.AppPayload, a.Down.AppPayload = 0, 0
	for _, m := range a.Messages {
		t := &a.Up
		if m.Dir == result.Down {
			t = &a.Down
		}
		t.Records += m.Records
		switch {
		case m.Name == "Encrypted":
			t.Encrypted += m.Bytes
		case m.Content == ContentHandshake:
			t.Handshake += m.Bytes
		case m.Content == ContentChangeCipherSpec:
			t.ChangeCipherSpec += m.Bytes
		case m.Content == ContentAlert:
			t.Alert += m.Bytes
		default:
			t.ApplicationData += m.Bytes
			if m.Payload < 0 || t.AppPayload < 0 {
				t.AppPayload = -1
			} else {
				t.AppPayload += m.Payload
			}
		}
	}
}
