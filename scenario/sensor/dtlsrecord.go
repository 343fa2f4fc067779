package sensor

import (
	"fmt"
	"strings"

	"golang.org/x/crypto/cryptobyte"
)

// DTLS 1.2 records as they cross the link, parsed from the relay's
// datagrams for two jobs: naming what each datagram carried (the trace's
// labels) and checking the byte accounting (protected CoAP messages plus
// the cipher suite's overhead equal the application records on the wire).

// Record content types (RFC 5246 §6.2.1, RFC 9146 §4 tls12_cid).
const (
	contentChangeCipherSpec = 20
	contentAlert            = 21
	contentHandshake        = 22
	contentApplicationData  = 23
	contentTLS12CID         = 25
)

// dtlsHeaderBytes is a DTLS 1.2 record header: type 1, version 2, epoch
// 2, sequence number 6, length 2 (RFC 6347 §4.1).
const dtlsHeaderBytes = 13

// DTLSRecord is one DTLS record of a datagram.
type DTLSRecord struct {
	// Type is the outer content type (25 for a record with a CID).
	Type  uint8
	Epoch uint16
	// CID is the connection ID's length in the header (tls12_cid only).
	CID int
	// Length is the protected fragment's length; Header the header's.
	Length, Header int
	// Handshake is the handshake message type of an unprotected handshake
	// record (epoch 0), -1 otherwise.
	Handshake int
}

// Bytes is the record's size on the wire.
func (r DTLSRecord) Bytes() int { return r.Header + r.Length }

// ParseRecords splits a datagram into DTLS records (RFC 6347 §4.1.1: a
// datagram may hold several, none split across datagrams). cid is the
// length of the connection IDs records in this direction carry (0 when
// none were negotiated): RFC 9146 puts it in the header without a length
// field, so the reader must know it.
func ParseRecords(datagram []byte, cid int) ([]DTLSRecord, error) {
	s := cryptobyte.String(datagram)
	var out []DTLSRecord
	for !s.Empty() {
		var (
			r       DTLSRecord
			version uint16
			seq     []byte
			frag    cryptobyte.String
		)
		if !s.ReadUint8(&r.Type) || !s.ReadUint16(&version) || !s.ReadUint16(&r.Epoch) || !s.ReadBytes(&seq, 6) {
			return out, fmt.Errorf("record %d: truncated header", len(out))
		}
		if version != 0xfefd {
			return out, fmt.Errorf("record %d: version %#04x, want DTLS 1.2 (0xfefd)", len(out), version)
		}
		r.Header = dtlsHeaderBytes
		if r.Type == contentTLS12CID {
			var id []byte
			if cid == 0 || !s.ReadBytes(&id, cid) {
				return out, fmt.Errorf("record %d: a tls12_cid record where no %d-byte CID was negotiated", len(out), cid)
			}
			r.CID, r.Header = cid, dtlsHeaderBytes+cid
		}
		if !s.ReadUint16LengthPrefixed(&frag) {
			return out, fmt.Errorf("record %d: fragment runs past the datagram", len(out))
		}
		r.Length = len(frag)
		r.Handshake = -1
		if r.Type == contentHandshake && r.Epoch == 0 && len(frag) > 0 {
			r.Handshake = int(frag[0])
		}
		out = append(out, r)
	}
	return out, nil
}

// handshakeNames are the handshake message types (RFC 5246 §7.4, RFC 6347
// §4.2.2 HelloVerifyRequest).
var handshakeNames = map[int]string{
	1: "ClientHello", 2: "ServerHello", 3: "HelloVerifyRequest", 11: "Certificate",
	12: "ServerKeyExchange", 13: "CertificateRequest", 14: "ServerHelloDone",
	15: "CertificateVerify", 16: "ClientKeyExchange", 20: "Finished",
}

// Label names a record: the handshake message, "Finished" (an encrypted
// handshake record after ChangeCipherSpec), "ChangeCipherSpec", "Alert",
// "CoAP" for application data, or "protected" for a tls12_cid record,
// whose content type is encrypted.
func (r DTLSRecord) Label() string {
	switch {
	case r.Type == contentHandshake && r.Epoch == 0:
		if n, ok := handshakeNames[r.Handshake]; ok {
			return n
		}
		return fmt.Sprintf("handshake %d", r.Handshake)
	case r.Type == contentHandshake:
		return "Finished"
	case r.Type == contentChangeCipherSpec:
		return "ChangeCipherSpec"
	case r.Type == contentAlert:
		return "Alert"
	case r.Type == contentApplicationData:
		return "CoAP"
	case r.Type == contentTLS12CID:
		// The real content type is inside the encryption (RFC 9146 §4).
		return "protected"
	}
	return fmt.Sprintf("content type %d", r.Type)
}

// RecordsLabel joins the labels of a datagram's records ("ServerHello +
// Certificate + …"), saying when they carried a CID.
func RecordsLabel(rs []DTLSRecord) string {
	var parts []string
	for _, r := range rs {
		l := r.Label()
		if r.CID > 0 {
			l += " (CID)"
		}
		parts = append(parts, l)
	}
	return "DTLS " + strings.Join(parts, " + ")
}
