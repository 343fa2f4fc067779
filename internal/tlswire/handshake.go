package tlswire

import (
	"fmt"

	"golang.org/x/crypto/cryptobyte"
)

// Handshake message types (RFC 8446 §4; RFC 5246 §7.4; RFC 6066 §8;
// RFC 8879 §4).
const (
	TypeHelloRequest        uint8 = 0
	TypeClientHello         uint8 = 1
	TypeServerHello         uint8 = 2
	TypeNewSessionTicket    uint8 = 4
	TypeEndOfEarlyData      uint8 = 5
	TypeEncryptedExtensions uint8 = 8
	TypeCertificate         uint8 = 11
	TypeServerKeyExchange   uint8 = 12
	TypeCertificateRequest  uint8 = 13
	TypeServerHelloDone     uint8 = 14
	TypeCertificateVerify   uint8 = 15
	TypeClientKeyExchange   uint8 = 16
	TypeFinished            uint8 = 20
	TypeCertificateStatus   uint8 = 22
	TypeKeyUpdate           uint8 = 24
	TypeCompressedCert      uint8 = 25
	TypeMessageHash         uint8 = 254
)

var handshakeNames = map[uint8]string{
	TypeHelloRequest:        "HelloRequest",
	TypeClientHello:         "ClientHello",
	TypeServerHello:         "ServerHello",
	TypeNewSessionTicket:    "NewSessionTicket",
	TypeEndOfEarlyData:      "EndOfEarlyData",
	TypeEncryptedExtensions: "EncryptedExtensions",
	TypeCertificate:         "Certificate",
	TypeServerKeyExchange:   "ServerKeyExchange",
	TypeCertificateRequest:  "CertificateRequest",
	TypeServerHelloDone:     "ServerHelloDone",
	TypeCertificateVerify:   "CertificateVerify",
	TypeClientKeyExchange:   "ClientKeyExchange",
	TypeFinished:            "Finished",
	TypeCertificateStatus:   "CertificateStatus",
	TypeKeyUpdate:           "KeyUpdate",
	TypeCompressedCert:      "CompressedCertificate",
	TypeMessageHash:         "message_hash",
}

// HandshakeName is the RFC name of a handshake message type.
func HandshakeName(t uint8) string {
	if n, ok := handshakeNames[t]; ok {
		return n
	}
	return fmt.Sprintf("Handshake(%d)", t)
}

// HandshakeMessage is one handshake message: its type and body (without
// the 4-byte header).
type HandshakeMessage struct {
	Type uint8
	Body []byte
}

// Len is the message's size including its 4-byte header.
func (m HandshakeMessage) Len() int { return 4 + len(m.Body) }

// ParseHandshakeMessages splits handshake-protocol bytes (the concatenated
// fragments of handshake records) into messages: type (1), uint24 length,
// body (RFC 8446 §4). rest is an incomplete last message, to be continued
// by the next record.
func ParseHandshakeMessages(buf []byte) (msgs []HandshakeMessage, rest []byte) {
	return AppendHandshakeMessages(nil, buf)
}

// AppendHandshakeMessages is ParseHandshakeMessages appending to msgs (a
// reader that parses many records reuses one slice).
func AppendHandshakeMessages(msgs []HandshakeMessage, buf []byte) ([]HandshakeMessage, []byte) {
	s := cryptobyte.String(buf)
	for len(s) > 0 {
		save := s
		var typ uint8
		var body cryptobyte.String
		if !s.ReadUint8(&typ) || !s.ReadUint24LengthPrefixed(&body) {
			return msgs, save
		}
		msgs = append(msgs, HandshakeMessage{Type: typ, Body: body})
	}
	return msgs, nil
}

// HandshakeBuffer reassembles handshake messages across records (RFC
// 8446 §5.1: a message may span records, and a record may hold several),
// refusing a message whose header announces more than Max bytes before it
// is buffered.
type HandshakeBuffer struct {
	Max int
	buf []byte
}

// MessageTooLarge is a handshake message refused from its header.
type MessageTooLarge struct {
	Type        uint8
	Size, Limit int
}

func (e *MessageTooLarge) Error() string {
	return fmt.Sprintf("%s of %d bytes exceeds the %d-byte limit", HandshakeName(e.Type), e.Size, e.Limit)
}

// Add appends a handshake record's fragment and returns the messages it
// completes.
func (h *HandshakeBuffer) Add(fragment []byte) ([]HandshakeMessage, error) {
	h.buf = append(h.buf, fragment...)
	msgs, rest := ParseHandshakeMessages(h.buf)
	h.buf = append(h.buf[:0:0], rest...)
	if err := h.check(); err != nil {
		return msgs, err
	}
	return msgs, nil
}

// Pending is the bytes of an incomplete message.
func (h *HandshakeBuffer) Pending() int { return len(h.buf) }

func (h *HandshakeBuffer) check() error {
	if h.Max <= 0 {
		return nil
	}
	return CheckMessageLength(h.buf, h.Max)
}

// IsHelloRetryRequest says whether a ServerHello body is a
// HelloRetryRequest: its random is HelloRetryRequestRandom (RFC 8446
// §4.1.3). It reads only the random.
func IsHelloRetryRequest(serverHelloBody []byte) bool {
	s := cryptobyte.String(serverHelloBody)
	var random []byte
	return s.Skip(2) && s.ReadBytes(&random, 32) && string(random) == string(HelloRetryRequestRandom[:])
}

// Unmarshal parses one whole message, header included.
func (m *HandshakeMessage) Unmarshal(data []byte) error {
	s := cryptobyte.String(data)
	var body cryptobyte.String
	if !s.ReadUint8(&m.Type) || !s.ReadUint24LengthPrefixed(&body) || !s.Empty() {
		return fmt.Errorf("handshake message: %w", errDecode)
	}
	m.Body = body
	return nil
}

// Marshal returns the message with its 4-byte header.
func (m HandshakeMessage) Marshal() []byte {
	var b cryptobyte.Builder
	b.AddUint8(m.Type)
	b.AddUint24LengthPrefixed(func(b *cryptobyte.Builder) { b.AddBytes(m.Body) })
	return b.BytesOrPanic()
}

// AlertName names an alert from its two plaintext bytes (level,
// description).
func AlertName(b []byte) string {
	if len(b) != 2 {
		return "Alert(malformed)"
	}
	if n, ok := alertNames[b[1]]; ok {
		return "Alert(" + n + ")"
	}
	return fmt.Sprintf("Alert(%d)", b[1])
}

// CutHandshakeMessage splits the first whole handshake message off buf:
// its type, the message with its header, and the rest.
func CutHandshakeMessage(buf []byte) (typ uint8, msg, rest []byte, ok bool) {
	s := cryptobyte.String(buf)
	var body cryptobyte.String
	if !s.ReadUint8(&typ) || !s.ReadUint24LengthPrefixed(&body) {
		return 0, nil, buf, false
	}
	n := len(buf) - len(s)
	return typ, buf[:n:n], buf[n:], true
}

// CheckMessageLength refuses (*MessageTooLarge) a buffered handshake
// message whose header announces more than max bytes.
func CheckMessageLength(buf []byte, max int) error {
	s := cryptobyte.String(buf)
	var typ uint8
	var n uint32
	if s.ReadUint8(&typ) && s.ReadUint24(&n) && int(n) > max {
		return &MessageTooLarge{Type: typ, Size: int(n), Limit: max}
	}
	return nil
}
