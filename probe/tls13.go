package probe

// Reading a TLS 1.3 server's encrypted handshake from the probe's own tap:
// crypto/tls hands the probe its traffic secrets through Config.KeyLogWriter
// (the NSS key log format), and the record protection of RFC 8446 §5.2-5.3
// with the key schedule of §7.1/§7.3 decrypts each record. This is how the
// probe knows the bytes of the encrypted Certificate message, the
// CertificateVerify algorithm and each NewSessionTicket's lifetime, which
// crypto/tls's ConnectionState does not expose.

import (
	"errors"
	"fmt"
	"strings"

	"github.com/cryptocost/cryptocost/internal/tlswire"
	"golang.org/x/crypto/cryptobyte"
)

// keyLog collects the lines crypto/tls writes to Config.KeyLogWriter
// (one connection per keyLog).
type keyLog = tlswire.KeyLogBuffer

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
	if _, ok := tlswire.Suite13ByID(suiteID); !ok {
		return nil, fmt.Errorf("cannot decrypt %s records (no AEAD here for it)", SuiteName(suiteID))
	}
	log, err := kl.KeyLog()
	if err != nil {
		return nil, err
	}
	hsSecret, appSecret := log.Last(tlswire.LabelServerHandshake), log.Last(tlswire.LabelServerTraffic0)
	if hsSecret == nil {
		return nil, errors.New("crypto/tls logged no server handshake secret")
	}
	keys, err := tlswire.NewRecordProtection(suiteID, hsSecret)
	if err != nil {
		return nil, err
	}
	out := &serverMessages{}
	recs, _ := splitRecords(stream)
	var hs tlswire.HandshakeBuffer
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
		content, typ, err := keys.Open(tlswire.Record{Type: rec.typ, Version: rec.version, Fragment: rec.payload})
		if err != nil {
			return out, fmt.Errorf("record %d: %w", keys.Seq(), err)
		}
		if typ != recordHandshake {
			out.recordLabels = append(out.recordLabels, map[uint8]string{recordAlert: "alert", recordApplicationData: "application data"}[typ])
			continue
		}
		msgs, _ := hs.Add(content)
		var names []string
		for _, m := range msgs {
			msg := m.Marshal()
			names = append(names, handshakeName(m.Type))
			switch m.Type {
			case typeCertificate:
				c := &Certificate{TLS13: true}
				if err := c.Unmarshal(msg); err != nil {
					return out, err
				}
				out.certificate, out.certMsgBytes = c, len(msg)
			case typeCertificateVerify:
				s := cryptobyte.String(m.Body)
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
		if afterFinished && hs.Pending() == 0 && appSecret != nil {
			// RFC 8446 §7.3: after its Finished the server switches to
			// the application traffic secret; sequence numbers restart.
			if keys, err = tlswire.NewRecordProtection(suiteID, appSecret); err != nil {
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
