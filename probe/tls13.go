package probe

// Reading a TLS 1.3 server's encrypted handshake from the probe's own tap:
// crypto/tls hands the probe its traffic secrets through Config.KeyLogWriter
// (the NSS key log format), and the record protection of RFC 8446 §5.2-5.3
// with the key schedule of §7.1/§7.3 decrypts each record. This is how the
// probe knows the bytes of the encrypted Certificate message, the
// CertificateVerify algorithm and each NewSessionTicket's lifetime, which
// crypto/tls's ConnectionState does not expose.

import (
	"bufio"
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"crypto/hkdf"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"hash"
	"strings"
	"sync"

	"golang.org/x/crypto/chacha20poly1305"
	"golang.org/x/crypto/cryptobyte"
)

// keyLog collects the lines crypto/tls writes to Config.KeyLogWriter.
type keyLog struct {
	mu      sync.Mutex
	secrets map[string][]byte // label -> secret (one connection per keyLog)
}

func (k *keyLog) Write(p []byte) (int, error) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if k.secrets == nil {
		k.secrets = map[string][]byte{}
	}
	sc := bufio.NewScanner(bytes.NewReader(p))
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		if len(f) != 3 {
			continue
		}
		secret, err := hex.DecodeString(f[2])
		if err != nil {
			continue
		}
		k.secrets[f[0]] = secret
	}
	return len(p), nil
}

func (k *keyLog) secret(label string) []byte {
	k.mu.Lock()
	defer k.mu.Unlock()
	return k.secrets[label]
}

// tls13Suite is what record protection needs of a TLS 1.3 suite
// (RFC 8446 §B.4).
type tls13Suite struct {
	hash   func() hash.Hash
	keyLen int
	aead   func(key []byte) (cipher.AEAD, error)
}

func aesGCM(key []byte) (cipher.AEAD, error) {
	b, err := aes.NewCipher(key)
	if err != nil {
		return nil, err
	}
	return cipher.NewGCM(b)
}

var tls13Suites = map[uint16]tls13Suite{
	0x1301: {sha256.New, 16, aesGCM},
	0x1302: {sha512.New384, 32, aesGCM},
	0x1303: {sha256.New, 32, chacha20poly1305.New},
}

// expandLabel is HKDF-Expand-Label (RFC 8446 §7.1).
func expandLabel(h func() hash.Hash, secret []byte, label string, length int) ([]byte, error) {
	var b cryptobyte.Builder
	b.AddUint16(uint16(length))
	b.AddUint8LengthPrefixed(func(b *cryptobyte.Builder) { b.AddBytes([]byte("tls13 " + label)) })
	b.AddUint8LengthPrefixed(func(*cryptobyte.Builder) {})
	return hkdf.Expand(h, secret, string(b.BytesOrPanic()), length)
}

// recordKeys decrypts one direction's records under one traffic secret.
type recordKeys struct {
	aead cipher.AEAD
	iv   []byte
	seq  uint64
}

func newRecordKeys(s tls13Suite, secret []byte) (*recordKeys, error) {
	key, err := expandLabel(s.hash, secret, "key", s.keyLen)
	if err != nil {
		return nil, err
	}
	iv, err := expandLabel(s.hash, secret, "iv", 12)
	if err != nil {
		return nil, err
	}
	a, err := s.aead(key)
	if err != nil {
		return nil, err
	}
	return &recordKeys{aead: a, iv: iv}, nil
}

// open decrypts a TLSCiphertext record and returns the inner content type
// and content (RFC 8446 §5.2: the nonce is the IV XOR the sequence number;
// the additional data is the record header).
func (k *recordKeys) open(rec record) (uint8, []byte, error) {
	nonce := append([]byte{}, k.iv...)
	var seq [8]byte
	binary.BigEndian.PutUint64(seq[:], k.seq)
	for i := range seq {
		nonce[len(nonce)-8+i] ^= seq[i]
	}
	k.seq++
	var hdr cryptobyte.Builder
	hdr.AddUint8(rec.typ)
	hdr.AddUint16(rec.version)
	hdr.AddUint16(uint16(len(rec.payload)))
	plain, err := k.aead.Open(nil, nonce, rec.payload, hdr.BytesOrPanic())
	if err != nil {
		return 0, nil, fmt.Errorf("record %d: %w", k.seq-1, err)
	}
	// TLSInnerPlaintext: content, content type, zero padding.
	i := len(plain) - 1
	for i >= 0 && plain[i] == 0 {
		i--
	}
	if i < 0 {
		return 0, nil, errors.New("record with no content type")
	}
	return plain[i], plain[:i], nil
}

// serverMessages is what the probe learned from a TLS 1.3 server's
// decrypted records.
type serverMessages struct {
	// recordLabels names the handshake messages each down record carried,
	// in order ("ServerHello", "ChangeCipherSpec", "EncryptedExtensions,
	// Certificate").
	recordLabels []string
	certificate  *Certificate
	certMsgBytes int // the Certificate message, header included
	verifyScheme uint16
	tickets      []NewSessionTicket
}

// readServer13 decrypts the server's side of a TLS 1.3 connection from the
// tapped stream with the key log's secrets.
func readServer13(stream []byte, suiteID uint16, kl *keyLog) (*serverMessages, error) {
	suite, ok := tls13Suites[suiteID]
	if !ok {
		return nil, fmt.Errorf("cannot decrypt %s records (no AEAD here for it)", SuiteName(suiteID))
	}
	hsSecret, appSecret := kl.secret("SERVER_HANDSHAKE_TRAFFIC_SECRET"), kl.secret("SERVER_TRAFFIC_SECRET_0")
	if hsSecret == nil {
		return nil, errors.New("crypto/tls logged no server handshake secret")
	}
	keys, err := newRecordKeys(suite, hsSecret)
	if err != nil {
		return nil, err
	}
	out := &serverMessages{}
	recs, _ := splitRecords(stream)
	var hs []byte
	afterFinished := false
	for _, rec := range recs {
		switch rec.typ {
		case recordChangeCipherSpec:
			out.recordLabels = append(out.recordLabels, "ChangeCipherSpec")
			continue
		case recordHandshake: // the plaintext ServerHello (or HelloRetryRequest)
			out.recordLabels = append(out.recordLabels, strings.Join(splitHandshake(rec.payload), ", "))
			continue
		case recordAlert:
			out.recordLabels = append(out.recordLabels, "alert")
			continue
		case recordApplicationData:
		default:
			return out, fmt.Errorf("record type %d", rec.typ)
		}
		typ, content, err := keys.open(rec)
		if err != nil {
			return out, err
		}
		if typ != recordHandshake {
			out.recordLabels = append(out.recordLabels, map[uint8]string{recordAlert: "alert", recordApplicationData: "application data"}[typ])
			continue
		}
		hs = append(hs, content...)
		var names []string
		for len(hs) >= 4 {
			n := int(hs[1])<<16 | int(hs[2])<<8 | int(hs[3])
			if len(hs) < 4+n {
				break
			}
			msg := hs[:4+n]
			hs = hs[4+n:]
			names = append(names, handshakeName(msg[0]))
			switch msg[0] {
			case typeCertificate:
				c := &Certificate{TLS13: true}
				if err := c.Unmarshal(msg); err != nil {
					return out, err
				}
				out.certificate, out.certMsgBytes = c, len(msg)
			case typeCertificateVerify:
				s := cryptobyte.String(msg[4:])
				s.ReadUint16(&out.verifyScheme)
			case typeNewSessionTicket:
				t := NewSessionTicket{TLS13: true}
				if err := t.Unmarshal(msg); err != nil {
					return out, err
				}
				out.tickets = append(out.tickets, t)
			case typeFinished:
				afterFinished = true
			}
		}
		if len(names) == 0 {
			names = []string{"handshake fragment"}
		}
		out.recordLabels = append(out.recordLabels, strings.Join(names, ", "))
		if afterFinished && len(hs) == 0 && appSecret != nil {
			// RFC 8446 §7.3: after its Finished the server switches to
			// the application traffic secret; sequence numbers restart.
			if keys, err = newRecordKeys(suite, appSecret); err != nil {
				return out, err
			}
			afterFinished, appSecret = false, nil
		}
	}
	return out, nil
}

// splitHandshake names the complete handshake messages in a plaintext
// record payload.
func splitHandshake(payload []byte) []string {
	var names []string
	s := cryptobyte.String(payload)
	for !s.Empty() {
		var typ uint8
		var body []byte
		if !s.ReadUint8(&typ) || !s.ReadUint24LengthPrefixed((*cryptobyte.String)(&body)) {
			return append(names, "handshake fragment")
		}
		names = append(names, handshakeName(typ))
	}
	return names
}
