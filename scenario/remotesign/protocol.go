package remotesign

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"

	"golang.org/x/crypto/cryptobyte"
)

// The wire protocol between the client (S001's PC) and the signer (S001's
// phone). Every message is one frame:
//
//	uint32 length             bytes of the body that follows (big-endian)
//	uint8  type               1 KeyRequest, 2 KeyResponse, 3 SignRequest, 4 SignResponse
//	...    fields of the type
//
//	KeyRequest    opaque scheme<1..2^8-1>
//	KeyResponse   uint8 status; opaque scheme<1..2^8-1>;
//	              status 0: opaque public_key<1..2^16-1> (DER SubjectPublicKeyInfo)
//	              else:     opaque error<0..2^16-1> (UTF-8)
//	SignRequest   uint32 id; opaque scheme<1..2^8-1>; opaque document<0..2^32-1>
//	SignResponse  uint32 id; uint8 status;
//	              status 0: uint64 hash_ns; uint64 sign_ns; uint64 cpu_ns; uint64 server_ns;
//	                        opaque signature<1..2^16-1>
//	              else:     opaque error<0..2^16-1>
//
// opaque x<a..b> is a length prefix of the smallest width that holds b,
// then the bytes (the TLS presentation language of RFC 8446 §3.4). The
// signer reports its own timings: hash_ns and sign_ns are the wall time of
// hashing the document and of the private-key operation on the digest,
// cpu_ns the signing thread's CPU time for both, server_ns the time from
// the request's last byte read to the response ready to write. A client
// thus splits its round trip into hashing, signing and transfer without
// trusting clocks across machines.
//
// Marshal and parse pairs are built on cryptobyte, as crypto/tls builds its
// handshake messages, and are checked against each other and fuzzed.

// Message types.
const (
	TypeKeyRequest   uint8 = 1
	TypeKeyResponse  uint8 = 2
	TypeSignRequest  uint8 = 3
	TypeSignResponse uint8 = 4
)

// Status of a response.
type Status uint8

const (
	StatusOK            Status = 0
	StatusUnknownScheme Status = 1 // the signer holds no key for the scheme
	StatusBadRequest    Status = 2 // the frame could not be parsed
	StatusSignFailed    Status = 3 // the private-key operation failed
	StatusTooLarge      Status = 4 // the document is larger than the signer accepts
)

func (s Status) String() string {
	switch s {
	case StatusOK:
		return "ok"
	case StatusUnknownScheme:
		return "unknown scheme"
	case StatusBadRequest:
		return "bad request"
	case StatusSignFailed:
		return "signing failed"
	case StatusTooLarge:
		return "too large"
	}
	return fmt.Sprintf("status(%d)", uint8(s))
}

// FrameHeaderBytes is the length prefix of every frame.
const FrameHeaderBytes = 4

// Fixed sizes of the frames besides their variable fields: the
// accounting (RequestBytes, ResponseBytes) and the analytic model
// (model/models/remote-sign.yaml) use them.
const (
	// 4 length + 1 type + 4 id + 1 scheme length + 4 document length.
	SignRequestFixedBytes = FrameHeaderBytes + 1 + 4 + 1 + 4
	// 4 length + 1 type + 4 id + 1 status + 4 × 8 timings + 2 signature length.
	SignResponseFixedBytes = FrameHeaderBytes + 1 + 4 + 1 + 4*8 + 2
)

// RequestBytes is the size of a SignRequest frame.
func RequestBytes(scheme string, doc int) int { return SignRequestFixedBytes + len(scheme) + doc }

// ResponseBytes is the size of a successful SignResponse frame.
func ResponseBytes(sig int) int { return SignResponseFixedBytes + sig }

// Message is one of the four messages.
type Message interface {
	// Marshal returns the whole frame, length prefix included.
	Marshal() ([]byte, error)
	Type() uint8
}

// KeyRequest asks for the public key of a scheme's key.
type KeyRequest struct{ Scheme string }

// KeyResponse carries it.
type KeyResponse struct {
	Status    Status
	Scheme    string
	PublicKey []byte // DER SubjectPublicKeyInfo (RFC 5280 §4.1.2.7)
	Error     string
}

// SignRequest asks for a signature of Document with the scheme's key.
type SignRequest struct {
	ID       uint32
	Scheme   string
	Document []byte
}

// SignResponse carries the signature and the signer's timings.
type SignResponse struct {
	ID     uint32
	Status Status
	// HashNs, SignNs: wall time of hashing and of the private-key
	// operation; CPUNs: the signing thread's CPU time for both; ServerNs:
	// request read → response ready.
	HashNs, SignNs, CPUNs, ServerNs uint64
	Signature                       []byte
	Error                           string
}

func (KeyRequest) Type() uint8   { return TypeKeyRequest }
func (KeyResponse) Type() uint8  { return TypeKeyResponse }
func (SignRequest) Type() uint8  { return TypeSignRequest }
func (SignResponse) Type() uint8 { return TypeSignResponse }

// frame builds a frame around the body that add writes.
func frame(typ uint8, add func(b *cryptobyte.Builder)) ([]byte, error) {
	var b cryptobyte.Builder
	b.AddUint32LengthPrefixed(func(b *cryptobyte.Builder) {
		b.AddUint8(typ)
		add(b)
	})
	return b.Bytes()
}

// checkScheme checks the limit cryptobyte would otherwise report as a
// generic "length overflow".
func checkScheme(s string) error {
	if len(s) == 0 || len(s) > 255 {
		return fmt.Errorf("scheme name of %d bytes: want 1 to 255", len(s))
	}
	return nil
}

func (m KeyRequest) Marshal() ([]byte, error) {
	if err := checkScheme(m.Scheme); err != nil {
		return nil, err
	}
	return frame(TypeKeyRequest, func(b *cryptobyte.Builder) {
		b.AddUint8LengthPrefixed(func(b *cryptobyte.Builder) { b.AddBytes([]byte(m.Scheme)) })
	})
}

func (m KeyResponse) Marshal() ([]byte, error) {
	if err := checkScheme(m.Scheme); err != nil {
		return nil, err
	}
	if m.Status == StatusOK && (len(m.PublicKey) == 0 || len(m.PublicKey) > 0xffff) {
		return nil, fmt.Errorf("public key of %d bytes: want 1 to 65535", len(m.PublicKey))
	}
	if len(m.Error) > 0xffff {
		return nil, fmt.Errorf("error text of %d bytes: want at most 65535", len(m.Error))
	}
	return frame(TypeKeyResponse, func(b *cryptobyte.Builder) {
		b.AddUint8(uint8(m.Status))
		b.AddUint8LengthPrefixed(func(b *cryptobyte.Builder) { b.AddBytes([]byte(m.Scheme)) })
		b.AddUint16LengthPrefixed(func(b *cryptobyte.Builder) {
			if m.Status == StatusOK {
				b.AddBytes(m.PublicKey)
			} else {
				b.AddBytes([]byte(m.Error))
			}
		})
	})
}

func (m SignRequest) Marshal() ([]byte, error) {
	if err := checkScheme(m.Scheme); err != nil {
		return nil, err
	}
	if uint64(len(m.Document)) > MaxDocumentBytes {
		return nil, fmt.Errorf("document of %d bytes: the protocol carries at most %d", len(m.Document), MaxDocumentBytes)
	}
	return frame(TypeSignRequest, func(b *cryptobyte.Builder) {
		b.AddUint32(m.ID)
		b.AddUint8LengthPrefixed(func(b *cryptobyte.Builder) { b.AddBytes([]byte(m.Scheme)) })
		b.AddUint32LengthPrefixed(func(b *cryptobyte.Builder) { b.AddBytes(m.Document) })
	})
}

func (m SignResponse) Marshal() ([]byte, error) {
	if m.Status == StatusOK && (len(m.Signature) == 0 || len(m.Signature) > 0xffff) {
		return nil, fmt.Errorf("signature of %d bytes: want 1 to 65535", len(m.Signature))
	}
	if len(m.Error) > 0xffff {
		return nil, fmt.Errorf("error text of %d bytes: want at most 65535", len(m.Error))
	}
	return frame(TypeSignResponse, func(b *cryptobyte.Builder) {
		b.AddUint32(m.ID)
		b.AddUint8(uint8(m.Status))
		if m.Status == StatusOK {
			b.AddUint64(m.HashNs)
			b.AddUint64(m.SignNs)
			b.AddUint64(m.CPUNs)
			b.AddUint64(m.ServerNs)
			b.AddUint16LengthPrefixed(func(b *cryptobyte.Builder) { b.AddBytes(m.Signature) })
		} else {
			b.AddUint16LengthPrefixed(func(b *cryptobyte.Builder) { b.AddBytes([]byte(m.Error)) })
		}
	})
}

// MaxDocumentBytes is the largest document the protocol carries (its
// frame must fit MaxFrameBytes).
const MaxDocumentBytes = MaxFrameBytes - SignRequestFixedBytes - 255

// MaxFrameBytes bounds a frame's body: a peer announcing more is refused
// before anything is allocated (a hostile length cannot exhaust memory).
const MaxFrameBytes = 64 << 20

// ErrFrameTooLarge is returned for a frame longer than the reader's cap.
var ErrFrameTooLarge = errors.New("frame too large")

// ReadFrame reads one frame and returns its body (type and fields). A
// length above limit is ErrFrameTooLarge, before the body is read.
func ReadFrame(r io.Reader, limit int) ([]byte, error) {
	var hdr [FrameHeaderBytes]byte
	if _, err := io.ReadFull(r, hdr[:]); err != nil {
		return nil, err
	}
	n := binary.BigEndian.Uint32(hdr[:])
	if n == 0 {
		return nil, fmt.Errorf("empty frame: a frame holds at least its type byte")
	}
	if uint64(n) > uint64(limit) {
		return nil, fmt.Errorf("%w: %d bytes announced, at most %d accepted", ErrFrameTooLarge, n, limit)
	}
	body := make([]byte, n)
	if _, err := io.ReadFull(r, body); err != nil {
		if errors.Is(err, io.EOF) {
			err = io.ErrUnexpectedEOF
		}
		return nil, fmt.Errorf("frame of %d bytes cut short: %w", n, err)
	}
	return body, nil
}

// ParseBody parses a frame body into its message.
func ParseBody(body []byte) (Message, error) {
	s := cryptobyte.String(body)
	var typ uint8
	if !s.ReadUint8(&typ) {
		return nil, errors.New("empty frame")
	}
	var (
		m  Message
		ok bool
	)
	switch typ {
	case TypeKeyRequest:
		var k KeyRequest
		ok = readString8(&s, &k.Scheme)
		m = k
	case TypeKeyResponse:
		var k KeyResponse
		var st uint8
		var v cryptobyte.String
		ok = s.ReadUint8(&st) && readString8(&s, &k.Scheme) && s.ReadUint16LengthPrefixed(&v)
		k.Status = Status(st)
		if ok && k.Status == StatusOK {
			k.PublicKey = append([]byte(nil), v...)
			ok = len(v) > 0
		} else {
			k.Error = string(v)
		}
		m = k
	case TypeSignRequest:
		var q SignRequest
		var n uint32
		ok = s.ReadUint32(&q.ID) && readString8(&s, &q.Scheme) && s.ReadUint32(&n) &&
			uint64(n) <= uint64(len(s)) && s.ReadBytes(&q.Document, int(n))
		m = q
	case TypeSignResponse:
		var p SignResponse
		var st uint8
		var v cryptobyte.String
		ok = s.ReadUint32(&p.ID) && s.ReadUint8(&st)
		p.Status = Status(st)
		if ok && p.Status == StatusOK {
			ok = s.ReadUint64(&p.HashNs) && s.ReadUint64(&p.SignNs) && s.ReadUint64(&p.CPUNs) &&
				s.ReadUint64(&p.ServerNs) && s.ReadUint16LengthPrefixed(&v) && len(v) > 0
			p.Signature = append([]byte(nil), v...)
		} else if ok {
			ok = s.ReadUint16LengthPrefixed(&v)
			p.Error = string(v)
		}
		m = p
	default:
		return nil, fmt.Errorf("unknown message type %d (want 1 to 4)", typ)
	}
	if !ok {
		return nil, fmt.Errorf("malformed %s", typeName(typ))
	}
	if !s.Empty() {
		return nil, fmt.Errorf("%s: %d trailing bytes", typeName(typ), len(s))
	}
	return m, nil
}

func readString8(s *cryptobyte.String, out *string) bool {
	var v cryptobyte.String
	if !s.ReadUint8LengthPrefixed(&v) || len(v) == 0 {
		return false
	}
	*out = string(v)
	return true
}

func typeName(t uint8) string {
	switch t {
	case TypeKeyRequest:
		return "KeyRequest"
	case TypeKeyResponse:
		return "KeyResponse"
	case TypeSignRequest:
		return "SignRequest"
	case TypeSignResponse:
		return "SignResponse"
	}
	return fmt.Sprintf("type %d", t)
}

// ReadMessage reads and parses one frame.
func ReadMessage(r io.Reader, limit int) (Message, error) {
	body, err := ReadFrame(r, limit)
	if err != nil {
		return nil, err
	}
	return ParseBody(body)
}

// WriteMessage marshals m and writes its frame in one Write, so a TLS
// connection puts it into as few records as its size allows.
func WriteMessage(w io.Writer, m Message) (int, error) {
	b, err := m.Marshal()
	if err != nil {
		return 0, err
	}
	return w.Write(b)
}
